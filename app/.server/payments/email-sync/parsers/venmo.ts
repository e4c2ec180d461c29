import type { NoticeParser } from './types.ts'
import { labelled, memo, money, name } from './common.ts'

/**
 * Venmo (venmo@venmo.com): "NAME paid you $X.XX" and "NAME paid your $X.XX request"; the
 * payment id ("Payment ID" or, in older mail, "Transaction ID") in the body; the note is the
 * line after the amount.
 */
export const venmo: NoticeParser = {
	issuer: 'venmo',
	method: 'Venmo',
	domains: ['venmo.com'],
	parse(notice) {
		const subject = notice.subject
		if (/^You (paid|completed|sent)\b/i.test(subject)) return 'outgoing'
		if (/\brequests?\b.*\$|\brequested\b/i.test(subject) && !/paid your/i.test(subject)) return 'request'
		const match = /^(.+?) paid (?:you|your) \$([\d,]+(?:\.\d{2})?)(?: request)?\b/i.exec(subject)
		if (!match) return /paid you|sent you|payment/i.test(`${subject}\n${notice.text}`) ? 'unreadable' : 'other'
		const amount = money(match[2])
		const payer = name(match[1])
		if (!amount || !payer) return 'unreadable'
		const id = /(?:Payment|Transaction) ID\s*[:#]?\s*(\d{6,25})/i.exec(notice.text)?.[1] ?? null
		// The note: the first line after the amount line that is not one of Venmo's own labels.
		const lines = notice.text.split('\n').map((l) => l.trim())
		const at = lines.findIndex((l) => /^\$[\d,]+\.\d{2}$/.test(l))
		const note = at >= 0 ? lines.slice(at + 1).find((l) => l !== '') : undefined
		const isLabel = !note || /^(Transfer Date|Payment ID|Transaction ID|See transaction|Like|Comment|Money credited|Completed)/i.test(note)
		return { amount, payer, memo: isLabel ? memo(labelled(notice.text, ['Note'])) : memo(note), externalId: id }
	},
}
