import type { NoticeParser, ParserResult } from './types.ts'
import type { Notice } from '../notice.ts'
import { labelled, labelledMemo, memo, money, name, ZELLE } from './common.ts'

/**
 * Zelle® payments as the banks announce them. Since Zelle's own app stopped moving money (2025)
 * a received Zelle payment is announced only by the receiver's bank, each in its own template;
 * what they share is read by one function: the payer, the amount, a memo and, where the bank
 * gives one, a transaction or confirmation number. The templates, and where their wording comes
 * from, are listed in docs/product.md (Integrations, the senders' table):
 *   Chase: "You received money with Zelle®"; "NAME sent you money"; Amount, Sent on,
 *   Transaction number, Memo (labels with or without a colon, the value beside or under them).
 *   Bank of America: "NAME sent you $60.00"; no id.
 *   Capital One: "Someone sent you money with Zelle®"; "NAME has just sent you money with
 *   Zelle® in the amount of $5.00"; "Here's the message from NAME: MEMO"; no id.
 *   TD Bank: "NAME sent you money with Zelle®"; "Confirmation number".
 *   Wells Fargo: "You received money with Zelle®" or "NAME sent you $X with Zelle®";
 *   "Confirmation number" or "Confirmation #".
 * Banks whose wording is not known (Navy Federal, U.S. Bank, PNC, Citi, Truist) are known
 * senders whose Zelle notices are listed as not understood, never guessed at.
 */

const AMOUNT = '\\$([\\d,]+(?:\\.\\d{1,2})?)'

/** The sentences that name the payer, most specific first; "Someone" and "You" are no payer. */
const PAYER_SENTENCES = [
	new RegExp(`^[ \\t*]*(.+?) has (?:just )?sent you money with ${ZELLE}\\s+in the amount of ${AMOUNT}`, 'gim'),
	new RegExp(`^[ \\t*]*(.+?) sent you (?:money|${AMOUNT})`, 'gim'),
]
const NOT_A_PAYER = /^(?:.*:\s*)?(?:someone|you)$/i

function payerSentence(text: string): { payer: string; amount: string | null } | null {
	for (const sentence of PAYER_SENTENCES) {
		for (const match of text.matchAll(sentence)) {
			const payer = name(match[1])
			if (payer && !NOT_A_PAYER.test(payer)) return { payer, amount: money(match[2]) }
		}
	}
	return null
}

function readZelle(notice: Notice): ParserResult {
	const subject = notice.subject
	const text = notice.text
	if (/^You (sent|paid)\b|payment (was )?sent|you scheduled/i.test(subject)) return 'outgoing'
	if (/request(ed)?\b/i.test(subject)) return 'request'
	const received =
		new RegExp(`received (money|\\$[\\d,.]+) (with|via|through) ${ZELLE}`, 'i').test(subject) ||
		new RegExp(`sent you (money|\\$[\\d,.]+)( with ${ZELLE})?`, 'i').test(subject)
	if (!received) return /zelle/i.test(subject) ? 'unreadable' : 'other'
	const bySubject = payerSentence(subject)
	const byBody = payerSentence(text)
	const payer = name(labelled(text, ['Sent by', 'From', 'Sender']) ?? bySubject?.payer ?? byBody?.payer)
	const amount =
		money(labelled(text, ['Amount', 'Amount received'])) ??
		bySubject?.amount ??
		byBody?.amount ??
		money(new RegExp(`(?:sent you|in the amount of) ${AMOUNT}`, 'i').exec(text)?.[1])
	if (!payer || !amount || NOT_A_PAYER.test(payer)) return 'unreadable'
	const id = labelled(text, ['Transaction number', 'Confirmation number', 'Confirmation #', 'Confirmation', 'Reference number'])
	const externalId = id && /^[A-Z0-9-]{5,40}$/i.test(id) ? id.toUpperCase() : null
	const note =
		labelledMemo(text, ['Memo', 'Message', 'Note']) ??
		/^[ \t*]*Here(?:'|’)?s the message from [^:\n]+:[ \t]*(.*)$/im.exec(text)?.[1]?.trim()
	return { amount, payer, memo: memo(note), externalId }
}

/**
 * A bank whose received-Zelle template is not known: its Zelle notices (other than the outgoing
 * ones and requests) go to the "could not read" list with their subject; its other mail is not
 * a payment.
 */
function readUnknownTemplate(notice: Notice): ParserResult {
	const subject = notice.subject
	if (!/zelle/i.test(`${subject}\n${notice.text}`)) return 'other'
	if (/^You (sent|paid)\b|payment (was )?sent|you scheduled/i.test(subject)) return 'outgoing'
	if (/request(ed)?\b/i.test(subject)) return 'request'
	return /received|sent you|deposited/i.test(`${subject}\n${notice.text}`) ? 'unreadable' : 'other'
}

const bank = (issuer: string, domains: string[]): NoticeParser => ({ issuer, method: 'Zelle', domains, parse: readZelle })
const unknownTemplate = (issuer: string, domains: string[]): NoticeParser => ({
	issuer,
	method: 'Zelle',
	domains,
	parse: readUnknownTemplate,
})

export const zelleBanks: NoticeParser[] = [
	bank('chase', ['chase.com']),
	bank('bofa', ['bankofamerica.com']),
	bank('capitalone', ['capitalone.com']),
	bank('td', ['td.com', 'tdbank.com']),
	bank('wellsfargo', ['wellsfargo.com']),
	unknownTemplate('navyfederal', ['navyfederal.org']),
	unknownTemplate('usbank', ['usbank.com']),
	unknownTemplate('pnc', ['pnc.com']),
	unknownTemplate('citi', ['citi.com', 'citibank.com']),
	unknownTemplate('truist', ['truist.com']),
]
