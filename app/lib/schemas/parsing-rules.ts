import { SINGLE_LINE } from '#app/lib/schemas/fields.ts'
import { PAYMENT_METHODS, TRANSACTION_CATEGORIES, type PaymentMethod, type TransactionCategory } from '#app/lib/schemas/transactions.ts'

/**
 * The custom parsing rule form (docs/product.md, Email sync › Custom parsing rules), read by the
 * action for "Test on a sample" and for "Save". Messages are keys under parsingRules:errors. The
 * limits are the table's (supabase/migrations/20261210100000_email_parsing_rules.sql), so what
 * passes here saves.
 */

/** Rules per organization at most (the database's `parsing_rule_limit`). */
export const MAX_PARSING_RULES = 20

/** A pasted sample at most, in characters: a payment notice is a few kilobytes. */
export const MAX_SAMPLE_CHARS = 100_000

export const PARSING_RULE_FIELDS = [
	'name',
	'sender',
	'subjectContains',
	'amountLabel',
	'payerLabel',
	'idLabel',
	'paymentMethod',
	'defaultCategory',
] as const
export const SAMPLE_FIELDS = ['sampleFrom', 'sampleSubject', 'sample'] as const

export type ParsingRuleField = (typeof PARSING_RULE_FIELDS)[number]
export type SampleField = (typeof SAMPLE_FIELDS)[number]
export type ParsingRuleFormText = Record<ParsingRuleField | SampleField, string>

export type ParsingRuleValues = {
	name: string
	sender: string
	subjectContains: string | null
	amountLabel: string
	payerLabel: string
	idLabel: string | null
	paymentMethod: PaymentMethod
	defaultCategory: TransactionCategory | null
}

export type ParsingRuleSample = { from: string; subject: string; body: string }

export const BLANK_PARSING_RULE: ParsingRuleFormText = {
	name: '',
	sender: '',
	subjectContains: '',
	amountLabel: '',
	payerLabel: '',
	idLabel: '',
	paymentMethod: 'Other',
	defaultCategory: '',
	sampleFrom: '',
	sampleSubject: '',
	sample: '',
}

/**
 * The posted form as text (a missing or non-text field reads as empty). A sample over the cap is
 * kept one character over it, so the check below names it without holding the whole post.
 */
export function parsingRuleFormText(formData: FormData): ParsingRuleFormText {
	const text = { ...BLANK_PARSING_RULE }
	for (const field of [...PARSING_RULE_FIELDS, ...SAMPLE_FIELDS]) {
		const value = formData.get(field)
		const cap = field === 'sample' ? MAX_SAMPLE_CHARS + 1 : 1000
		text[field] = typeof value === 'string' ? value.slice(0, cap) : ''
	}
	return text
}

/** An exact address ('payments@bank.example') or a domain ('@bank.example'), as the table's check has it. */
const SENDER = /^([^@\s]+)?@[^@\s.]+(\.[^@\s.]+)+$/

export type ParsingRuleErrors = Partial<Record<ParsingRuleField | SampleField | 'form', string>>

function line(value: string, max: number, errors: ParsingRuleErrors, field: ParsingRuleField, required: boolean) {
	const text = value.trim()
	if (!text) {
		if (required) errors[field] = `${field}Required`
		return null
	}
	if (!SINGLE_LINE.test(text)) errors[field] = 'controlCharacters'
	else if (text.length > max) errors[field] = `${field}TooLong`
	return text
}

/** The rule's values, or the errors of its fields. */
export function parseParsingRule(
	text: ParsingRuleFormText,
): { ok: true; values: ParsingRuleValues } | { ok: false; errors: ParsingRuleErrors } {
	const errors: ParsingRuleErrors = {}
	const name = line(text.name, 100, errors, 'name', true)
	const senderText = text.sender.trim().toLowerCase()
	if (!senderText) errors.sender = 'senderRequired'
	else if (senderText.length > 254 || !SENDER.test(senderText)) errors.sender = 'senderInvalid'
	const subjectContains = line(text.subjectContains, 200, errors, 'subjectContains', false)
	const amountLabel = line(text.amountLabel, 100, errors, 'amountLabel', true)
	const payerLabel = line(text.payerLabel, 100, errors, 'payerLabel', true)
	const idLabel = line(text.idLabel, 100, errors, 'idLabel', false)
	const paymentMethod = (PAYMENT_METHODS as readonly string[]).includes(text.paymentMethod) ? (text.paymentMethod as PaymentMethod) : null
	if (!paymentMethod) errors.paymentMethod = 'paymentMethodInvalid'
	const category = text.defaultCategory.trim()
	const defaultCategory = category === '' ? null : (TRANSACTION_CATEGORIES as readonly string[]).includes(category) ? category : undefined
	if (defaultCategory === undefined) errors.defaultCategory = 'defaultCategoryInvalid'
	if (Object.keys(errors).length > 0 || !name || !amountLabel || !payerLabel || !paymentMethod || defaultCategory === undefined) {
		return { ok: false, errors }
	}
	return {
		ok: true,
		values: {
			name,
			sender: senderText,
			subjectContains,
			amountLabel,
			payerLabel,
			idLabel,
			paymentMethod,
			defaultCategory: defaultCategory as TransactionCategory | null,
		},
	}
}

/** The pasted sample, null when none was given, or the error of a field over its cap. */
export function parseSample(
	text: ParsingRuleFormText,
): { ok: true; sample: ParsingRuleSample | null } | { ok: false; errors: ParsingRuleErrors } {
	if (text.sample.length > MAX_SAMPLE_CHARS) return { ok: false, errors: { sample: 'sampleTooLarge' } }
	const from = text.sampleFrom.trim().toLowerCase()
	if (from.length > 254 || (from && !/^[^@\s]+@[^@\s]+$/.test(from))) return { ok: false, errors: { sampleFrom: 'sampleFromInvalid' } }
	const subject = text.sampleSubject.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim()
	if (!text.sample.trim()) return { ok: true, sample: null }
	return { ok: true, sample: { from, subject, body: text.sample } }
}
