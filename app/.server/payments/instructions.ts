/**
 * How a client pays what they owe, as the mails write it (docs/product.md, Who still owes me and
 * Booking reminders): the amount, the memo code to write in the payment's note (the matching
 * engine finds the payment by it, docs/decisions/040-one-matching-engine.md), and the
 * organization's handles with their links (`payLinks`, ./handles.ts). One text for the payment
 * request and for the reminder of a booking that waits for its deposit.
 */
import { formatMoney } from '#app/lib/format.ts'
import type { PaymentHandles } from '#app/lib/schemas/payment-handles.ts'
import type { Translate } from '../i18n.ts'
import { payLinks } from './handles.ts'

/**
 * The lines that tell the client how to pay `amount` with `code`, in the language of `t` (the
 * `book` namespace): one line per handle the organization has, or a line that asks them to ask
 * the organization when it has none.
 */
export function paymentInstructionLines(
	t: Translate,
	language: string,
	input: { handles: PaymentHandles | null; amount: string; code: string; organization: string },
): string[] {
	const amount = formatMoney(input.amount, language)
	const links = input.handles ? payLinks(input.handles, input.amount) : []
	if (links.length === 0) return [t('pay.none', { amount, code: input.code, organization: input.organization })]
	return [
		t('pay.intro', { amount, code: input.code }),
		...links.map((l) => `- ${t(`pay.${l.kind}`, { handle: l.handle })}${l.href ? `: ${l.href}` : ''}`),
	]
}
