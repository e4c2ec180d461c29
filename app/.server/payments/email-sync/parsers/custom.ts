/**
 * Custom parsing rules (docs/product.md, Email sync › Custom parsing rules;
 * docs/decisions/052-custom-parsing-rules.md): how the notices of a sender the app does not know
 * are read. Pure: no database, no network. A rule never carries a pattern the server would run:
 * it names the sender (an exact address or '@domain'), a text the subject contains, and the
 * labels ("Amount:", "You received", "From") the amount, the payer and the reference id follow in
 * the notice's plain text. A value is read from just after its label to the end of its line or the
 * next field separator (a tab, '|', or another of the rule's labels), or, when nothing follows the
 * label on its line, from the next line with text (an HTML notice's table read as text). Amounts
 * are read by the CSV importer's money reader (`parseSignedAmount`: "$1,234.56", "1.234,56",
 * "USD 20"). Every search is of a literal text, and reads a bounded window after it.
 */
import { createHash } from 'node:crypto'
import { parseSignedAmount } from '../../imports/parsers/common.ts'
import type { PaymentMethod, TransactionCategory } from '#app/lib/schemas/transactions.ts'
import type { Notice } from '../notice.ts'
import { name } from './common.ts'

/** A rule as the sync and the sample test read it. */
export type ParsingRule = {
	id: string
	name: string
	/** 'payments@bank.example' or '@bank.example', lower-case. */
	sender: string
	subjectContains: string | null
	amountLabel: string
	payerLabel: string
	idLabel: string | null
	paymentMethod: PaymentMethod
	defaultCategory: TransactionCategory | null
}

/** The fields a rule reads; 'id' only when the rule has an id label. */
export type RuleField = 'amount' | 'payer' | 'id'

export type RuleReading =
	| { ok: true; amount: string; payer: string; externalId: string | null }
	| { ok: false; missing: RuleField[]; amount: string | null; payer: string | null; externalId: string | null }

/** How far after a label a value is looked for: a value is one short line, never a page. */
const WINDOW = 1_000
/** Lines looked at under a label with nothing after it on its own line. */
const NEXT_LINES = 3

/** Control, zero-width and direction characters: never part of a value. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g

function escapeLiteral(text: string) {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The position of a literal text, blind to case; -1 when absent. */
function find(text: string, literal: string, from = 0): number {
	if (!literal) return -1
	const re = new RegExp(escapeLiteral(literal), 'gi')
	re.lastIndex = from
	const match = re.exec(text)
	return match ? match.index : -1
}

/** A value cut at the first field separator: a tab, '|', or another of the rule's labels. */
function cutAtSeparator(value: string, others: string[]): string {
	let end = value.length
	for (const sep of ['\t', '|']) {
		const at = value.indexOf(sep)
		if (at >= 0 && at < end) end = at
	}
	for (const other of others) {
		const at = find(value, other)
		if (at > 0 && at < end) end = at
	}
	return value.slice(0, end)
}

/** The label's leftovers in front of a value: a colon, a hash, bold marks, spaces. */
const LEADING = /^[\s:#*=>–—]+/
const TRAILING = /[\s*]+$/

/**
 * The value after a label in a notice's text (see the file's comment), or null. `others`: the
 * rule's other labels, which end a value that runs into them on the same line.
 */
export function readAfterLabel(text: string, label: string, others: string[] = []): string | null {
	const wanted = label.trim()
	if (!wanted) return null
	const at = find(text, wanted)
	if (at < 0) return null
	const windowText = text.slice(at + wanted.length, at + wanted.length + WINDOW).replace(CONTROL, ' ')
	const lines = windowText.split(/\r?\n|\r/)
	const clean = (line: string) => cutAtSeparator(line.replace(LEADING, ''), others).replace(TRAILING, '').trim()
	const same = clean(lines[0] ?? '')
	if (same) return same
	for (const line of lines.slice(1, 1 + NEXT_LINES)) {
		const value = clean(line)
		if (value) return value
	}
	return null
}

/** A money text inside a value ("$20.00 from Jane", "USD 20", "1.234,56 USD"): the first one. */
const MONEY = /\(?[+-]?(?:US\$|USD|\$)?\s?[+-]?\d[\d.,]*(?:\s?USD)?\)?/i

/** Dollars with 2 decimals from a value, positive, or null. */
export function readAmount(value: string | null): string | null {
	if (!value) return null
	const match = MONEY.exec(value.slice(0, 200))
	if (!match) return null
	const amount = parseSignedAmount(match[0].replace(/US\$/i, '$').replace(/[.,]$/, ''))
	if (!amount || amount.sign < 0 || Number(amount.value) <= 0) return null
	return amount.value
}

/** An id: the value's first word, without a leading '#', of letters, digits and . _ / -. */
export function readId(value: string | null): string | null {
	if (!value) return null
	const match = /^#?\s*([A-Za-z0-9][A-Za-z0-9._/-]{0,99})/.exec(value)
	return match ? match[1]!.replace(/[.]+$/, '') : null
}

/** A payer's name from a value: tidied, at most 200 characters. */
export function readPayer(value: string | null): string | null {
	if (!value) return null
	return name(value.slice(0, 200))
}

/** What a rule reads in a text: each field, and the ones it could not find. */
export function readWithRule(rule: Pick<ParsingRule, 'amountLabel' | 'payerLabel' | 'idLabel'>, text: string): RuleReading {
	const labels = [rule.amountLabel, rule.payerLabel, rule.idLabel].filter((l): l is string => !!l?.trim()).map((l) => l.trim())
	const others = (label: string) => labels.filter((l) => l.toLowerCase() !== label.trim().toLowerCase())
	const amount = readAmount(readAfterLabel(text, rule.amountLabel, others(rule.amountLabel)))
	const payer = readPayer(readAfterLabel(text, rule.payerLabel, others(rule.payerLabel)))
	const externalId = rule.idLabel?.trim() ? readId(readAfterLabel(text, rule.idLabel, others(rule.idLabel))) : null
	const missing: RuleField[] = []
	if (!amount) missing.push('amount')
	if (!payer) missing.push('payer')
	if (rule.idLabel?.trim() && !externalId) missing.push('id')
	if (missing.length > 0 || !amount || !payer) return { ok: false, missing, amount, payer, externalId }
	return { ok: true, amount, payer, externalId }
}

/** Whether an address is the rule's sender: the exact address, or one of its domain (or a subdomain). */
export function senderMatches(rule: Pick<ParsingRule, 'sender'>, address: string): boolean {
	const from = address.trim().toLowerCase()
	const sender = rule.sender.toLowerCase()
	if (!sender.startsWith('@')) return from === sender
	const domain = from.slice(from.lastIndexOf('@') + 1)
	const wanted = sender.slice(1)
	return from.includes('@') && (domain === wanted || domain.endsWith(`.${wanted}`))
}

/** Whether a subject has the rule's text (blind to case); any subject when the rule has none. */
export function subjectMatches(rule: Pick<ParsingRule, 'subjectContains'>, subject: string): boolean {
	return !rule.subjectContains || find(subject, rule.subjectContains) >= 0
}

/**
 * The rule that reads a notice: of the rules whose sender and subject match, the ones naming the
 * exact address before the ones naming its domain, then in the order given (oldest first).
 */
export function ruleFor<R extends Pick<ParsingRule, 'sender' | 'subjectContains'>>(
	rules: readonly R[],
	notice: Pick<Notice, 'from' | 'subject'>,
): R | null {
	const matching = rules.filter((r) => senderMatches(r, notice.from) && subjectMatches(r, notice.subject))
	return matching.find((r) => !r.sender.startsWith('@')) ?? matching[0] ?? null
}

/**
 * Whose ids a rule's payments carry (the import's provider): the same for every rule of one
 * sender, so a notice read again after its rule was edited or recreated is the same payment.
 */
export function ruleProvider(rule: Pick<ParsingRule, 'sender'>): string {
	return `custom-${createHash('sha256').update(rule.sender.toLowerCase()).digest('hex').slice(0, 16)}`
}

/** A notice read by a rule: what parseNotice needs to make it a payment. */
export type CustomReading =
	| { ok: true; amount: string; payer: string; memo: string | null; externalId: string | null; method: PaymentMethod; issuer: string }
	| { ok: false }

/**
 * A reader over an organization's rules for the sync: null when no rule takes the notice (it
 * stays a notice of an unknown sender); counts the notices its rules read.
 */
export function customReader(rules: readonly ParsingRule[]) {
	const reader = {
		/** Notices the rules read, this run. */
		read: 0,
		matches: (notice: Notice) => ruleFor(rules, notice) !== null,
		take(notice: Notice): CustomReading | null {
			const rule = ruleFor(rules, notice)
			if (!rule) return null
			const reading = readWithRule(rule, notice.text)
			if (!reading.ok) return { ok: false }
			reader.read++
			return {
				ok: true,
				amount: reading.amount,
				payer: reading.payer,
				memo: null,
				externalId: reading.externalId,
				method: rule.paymentMethod,
				issuer: ruleProvider(rule),
			}
		},
	}
	return reader
}
