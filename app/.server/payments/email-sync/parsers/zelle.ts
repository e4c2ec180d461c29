import type { NoticeParser, ParserResult } from './types.ts'
import type { Notice } from '../notice.ts'
import { labelled, memo, money, name, ZELLE } from './common.ts'

/**
 * Zelle® payments as the banks announce them. Each bank words it its own way; what they share
 * is read by one function: the payer, the amount, a memo and, where the bank gives one, a
 * transaction or confirmation number.
 *   Chase: "You received money with Zelle®"; "Sent by", "Amount", "Memo", "Transaction number".
 *   Bank of America: "NAME sent you $60.00"; no id.
 *   Capital One: "NAME sent you money with Zelle®"; the amount in the body; no id.
 *   TD Bank: "NAME sent you money with Zelle®"; "Confirmation number".
 *   Wells Fargo: "You received money with Zelle®" or "NAME sent you $X with Zelle®";
 *   "Confirmation number" or "Confirmation #".
 */
function readZelle(notice: Notice): ParserResult {
	const subject = notice.subject
	const text = notice.text
	if (/^You (sent|paid)\b|payment (was )?sent|you scheduled/i.test(subject)) return 'outgoing'
	if (/request(ed)?\b/i.test(subject)) return 'request'
	const received =
		new RegExp(`received (money|\\$[\\d,.]+) (with|via|through) ${ZELLE}`, 'i').test(subject) ||
		new RegExp(`sent you (money|\\$[\\d,.]+)( with ${ZELLE})?`, 'i').test(subject)
	if (!received) return /zelle/i.test(subject) ? 'unreadable' : 'other'
	const bySubject = /^(.+?) sent you (?:money|\$([\d,]+(?:\.\d{2})?))/i.exec(subject)
	const byBody = /^\s*(.+?) sent you (?:money|\$([\d,]+(?:\.\d{2})?))/im.exec(text)
	const payer = name(labelled(text, ['Sent by', 'From', 'Sender']) ?? bySubject?.[1] ?? byBody?.[1])
	const amount =
		money(labelled(text, ['Amount', 'Amount received'])) ??
		money(bySubject?.[2]) ??
		money(byBody?.[2]) ??
		money(/sent you \$([\d,]+\.\d{2})/i.exec(text)?.[1])
	if (!payer || !amount || /^you$/i.test(payer)) return 'unreadable'
	const id = labelled(text, ['Transaction number', 'Confirmation number', 'Confirmation #', 'Confirmation', 'Reference number'])
	const externalId = id && /^[A-Z0-9-]{5,40}$/i.test(id) ? id.toUpperCase() : null
	return { amount, payer, memo: memo(labelled(text, ['Memo', 'Message', 'Note'])), externalId }
}

const bank = (issuer: string, domains: string[]): NoticeParser => ({ issuer, method: 'Zelle', domains, parse: readZelle })

export const zelleBanks: NoticeParser[] = [
	bank('chase', ['chase.com']),
	bank('bofa', ['bankofamerica.com']),
	bank('capitalone', ['capitalone.com']),
	bank('td', ['td.com', 'tdbank.com']),
	bank('wellsfargo', ['wellsfargo.com']),
]
