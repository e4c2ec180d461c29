import type { NoticeParser } from './types.ts'
import { labelled, memo, money, name } from './common.ts'

/**
 * PayPal (service@paypal.com): "You've got money" with "NAME sent you $20.00 USD" in the body,
 * or that sentence as the subject; the transaction id (the same one PayPal's CSV carries),
 * also as Gmail's text rendering writes it ("*Transaction ID*" and the id under it); the note
 * after "Note from NAME". Only US dollars are read; other currencies are not.
 */
export const paypal: NoticeParser = {
	issuer: 'paypal',
	method: 'PayPal',
	domains: ['paypal.com'],
	parse(notice) {
		const subject = notice.subject
		if (/^(You sent|Receipt for your payment|You paid|Your payment to)/i.test(subject)) return 'outgoing'
		if (/request(ed)? (for )?(a )?(payment|money)|sent you a (money |payment )?request/i.test(subject)) return 'request'
		const sentence = /^(.+?) sent you \$([\d,]+(?:\.\d{2})?)\s*([A-Z]{3})?/im
		const match = sentence.exec(subject) ?? (/you'?ve got money|money received/i.test(subject) ? sentence.exec(notice.text) : null)
		if (!match) return /got money|sent you|received/i.test(subject) ? 'unreadable' : 'other'
		if (match[3] && match[3] !== 'USD') return 'unreadable'
		const amount = money(match[2])
		const payer = name(match[1])
		if (!amount || !payer) return 'unreadable'
		// Gmail's text rendering writes the labels in bold: "*Transaction ID*", "*Note from NAME*".
		const id = /Transaction ID\**\s*[:#]?\s*\**([A-Z0-9]{17})\b/i.exec(notice.text)?.[1] ?? null
		const note = /Note from [^:\n*]+\**:?\s*\n?\s*(.+)/i.exec(notice.text)?.[1] ?? labelled(notice.text, ['Note', 'Message'])
		const quoted = note
			?.replace(/^\*+|\*+$/g, '')
			.trim()
			.replace(/^["“]|["”]$/g, '')
		return { amount, payer, memo: memo(quoted), externalId: id ? id.toUpperCase() : null }
	},
}
