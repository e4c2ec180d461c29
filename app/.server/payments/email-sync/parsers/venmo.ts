import type { NoticeParser } from './types.ts'
import { labelled, memo, money, name } from './common.ts'

/**
 * Venmo (venmo@venmo.com): "NAME paid you $X.XX" and "NAME paid your $X.XX request"; the
 * payment id ("Payment ID" or, in older mail, "Transaction ID") in the body; the note is the
 * text after the amount, whole even when it is wrapped over several lines.
 */
const VENMO_LABEL = /^(Transfer Date|Payment ID|Transaction ID|See transaction|Like|Comment|Money credited|Completed)/i

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
		// The note: the lines after the amount line, up to a blank line or one of Venmo's own
		// labels (a long note is wrapped over several lines: it is kept whole).
		const lines = notice.text.split('\n').map((l) => l.trim())
		const at = lines.findIndex((l) => /^\$[\d,]+\.\d{2}$/.test(l))
		const after = at >= 0 ? lines.slice(at + 1) : []
		const start = after.findIndex((l) => l !== '')
		const noteLines: string[] = []
		for (const line of start >= 0 ? after.slice(start) : []) {
			if (line === '' || VENMO_LABEL.test(line)) break
			noteLines.push(line)
		}
		const note = noteLines.join(' ')
		return { amount, payer, memo: note ? memo(note) : memo(labelled(notice.text, ['Note'])), externalId: id }
	},
}
