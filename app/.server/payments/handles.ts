/**
 * Where the organization gets paid (docs/product.md, Deposits and prepayment; Settings ›
 * Organization › Getting paid): its Zelle, Venmo, Cash App and PayPal.me handles, one row per
 * organization in payment_handles. Every member reads them; owners change them, as the rest of
 * the organization's settings (the table's policies check it again). The public pages read them through
 * get_public_booking_deposit, never here; `payLinks` turns them into what a visitor taps.
 */
import { isOwner, type Role } from '#app/lib/roles.ts'
import { HANDLE_KINDS, zelleShown, type HandleKind, type PaymentHandles } from '#app/lib/schemas/payment-handles.ts'
import { asUser, dbErrorCode } from '../db/index.ts'

export type { PaymentHandles } from '#app/lib/schemas/payment-handles.ts'

/** Whether a member of `role` may change the handles: owners (the table's insert and update policies). */
export function mayEditHandles(role: Role) {
	return isOwner(role)
}

const NONE: PaymentHandles = { zelle: null, venmo: null, cashapp: null, paypal: null }

/** The organization's handles, as a member sees them (none set: every one null). */
export async function getPaymentHandles(userId: string, organizationId: string): Promise<PaymentHandles> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('payment_handles')
			.select(['zelle', 'venmo', 'cashapp', 'paypal'])
			.where('organization_id', '=', organizationId)
			.executeTakeFirst(),
	)
	return row ? { zelle: row.zelle, venmo: row.venmo, cashapp: row.cashapp, paypal: row.paypal } : { ...NONE }
}

/**
 * Saves the handles (values already normalised by paymentHandlesSchema): one upsert, as the
 * member, so anyone but an owner changes nothing (RLS). False when refused.
 */
export async function savePaymentHandles(userId: string, organizationId: string, values: PaymentHandles): Promise<boolean> {
	const saved = await asUser(userId, (trx) =>
		trx
			.insertInto('payment_handles')
			.values({ organization_id: organizationId, ...values })
			.onConflict((oc) => oc.column('organization_id').doUpdateSet(values))
			.returning('organization_id')
			.executeTakeFirst(),
	).catch((error: unknown) => {
		// Row-level security refuses a member who may not write them (42501): nothing was saved.
		if (dbErrorCode(error) === '42501') return undefined
		throw error
	})
	return Boolean(saved)
}

/** One way to pay: the app, what to send to (as people read it), and a link that opens it, when the app has one. */
export type PayLink = { kind: HandleKind; handle: string; href: string | null }

/** An amount as the apps' links take it: "30", "30.5" → "30.50". */
function linkAmount(amount: string) {
	const n = Number(amount)
	return Number.isInteger(n) ? String(n) : n.toFixed(2)
}

/**
 * The ways to pay `amount` with the organization's handles, in a fixed order (Zelle, Venmo,
 * Cash App, PayPal): Zelle has no link (the payer's bank app sends it); Venmo opens the profile;
 * Cash App and PayPal.me open with the amount filled in.
 */
export function payLinks(handles: PaymentHandles, amount: string): PayLink[] {
	const links: PayLink[] = []
	for (const kind of HANDLE_KINDS) {
		const value = handles[kind]
		if (!value) continue
		const path = encodeURIComponent(value)
		if (kind === 'zelle') links.push({ kind, handle: zelleShown(value), href: null })
		if (kind === 'venmo') links.push({ kind, handle: `@${value}`, href: `https://venmo.com/${path}` })
		if (kind === 'cashapp') links.push({ kind, handle: `$${value}`, href: `https://cash.app/$${path}/${linkAmount(amount)}` })
		if (kind === 'paypal') links.push({ kind, handle: `paypal.me/${value}`, href: `https://paypal.me/${path}/${linkAmount(amount)}` })
	}
	return links
}
