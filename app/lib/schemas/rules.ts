import { SINGLE_LINE } from '#app/lib/schemas/fields.ts'
import {
	parseAmount,
	PAYMENT_METHODS,
	TRANSACTION_CATEGORIES,
	type PaymentMethod,
	type TransactionCategory,
} from '#app/lib/schemas/transactions.ts'
import { isUuid } from '#app/lib/uuid.ts'

/**
 * The rule form (docs/product.md, Rules), read by the action and by the "would match" preview.
 * Messages are keys under rules:errors. The limits are the table's
 * (supabase/migrations/20261209000000_rules.sql), so what passes here saves.
 */

/** Where a payment came from: typed in the table, a CSV file, the email sync. */
export const RULE_SOURCES = ['typed', 'csv', 'email'] as const
export type RuleSource = (typeof RULE_SOURCES)[number]

/** The form's fields, as text. */
export const RULE_FIELDS = [
	'name',
	'payer',
	'amountMin',
	'amountMax',
	'paymentMethod',
	'memoContains',
	'source',
	'setCategory',
	'setClientId',
	'addTag',
	'notifyUserId',
	'hold',
] as const
export type RuleField = (typeof RULE_FIELDS)[number]
export type RuleFormText = Record<RuleField, string>

export type RuleConditions = {
	payer: string | null
	amountMin: string | null
	amountMax: string | null
	paymentMethod: PaymentMethod | null
	memoContains: string | null
	source: RuleSource | null
}

export type RuleValues = RuleConditions & {
	name: string
	setCategory: TransactionCategory | null
	setClientId: string | null
	addTag: string | null
	notifyUserId: string | null
	hold: boolean
}

export const BLANK_RULE: RuleFormText = {
	name: '',
	payer: '',
	amountMin: '',
	amountMax: '',
	paymentMethod: '',
	memoContains: '',
	source: '',
	setCategory: '',
	setClientId: '',
	addTag: '',
	notifyUserId: '',
	hold: '',
}

/** The posted form as text (a missing or non-text field reads as empty). */
export function ruleFormText(formData: FormData): RuleFormText {
	const text = { ...BLANK_RULE }
	for (const field of RULE_FIELDS) {
		const value = formData.get(field)
		text[field] = typeof value === 'string' ? value.slice(0, 1000) : ''
	}
	return text
}

type Errors = Partial<Record<RuleField | 'form', string>>

function oneLine(value: string, max: number, field: RuleField, errors: Errors): string | null {
	const v = value.trim()
	if (!v) return null
	if (v.length > max) errors[field] = 'tooLong'
	else if (!SINGLE_LINE.test(v)) errors[field] = 'controlCharacters'
	return v
}

function amount(value: string, field: RuleField, errors: Errors): string | null {
	if (!value.trim()) return null
	const parsed = parseAmount(value)
	if (!parsed.ok) {
		errors[field] = 'amountInvalid'
		return null
	}
	return parsed.value
}

function oneOf<T extends string>(value: string, allowed: readonly T[], field: RuleField, errors: Errors): T | null {
	if (!value) return null
	if (!(allowed as readonly string[]).includes(value)) {
		errors[field] = 'invalid'
		return null
	}
	return value as T
}

/** The conditions of a posted form, or the keys of what is wrong. */
export function parseRuleConditions(text: RuleFormText): { ok: true; value: RuleConditions } | { ok: false; errors: Errors } {
	const errors: Errors = {}
	const value: RuleConditions = {
		payer: oneLine(text.payer, 200, 'payer', errors),
		amountMin: amount(text.amountMin, 'amountMin', errors),
		amountMax: amount(text.amountMax, 'amountMax', errors),
		paymentMethod: oneOf(text.paymentMethod, PAYMENT_METHODS, 'paymentMethod', errors),
		memoContains: oneLine(text.memoContains, 200, 'memoContains', errors),
		source: oneOf(text.source, RULE_SOURCES, 'source', errors),
	}
	if (value.amountMin !== null && value.amountMax !== null && Number(value.amountMin) > Number(value.amountMax))
		errors.amountMax = 'amountRange'
	if (Object.keys(errors).length === 0 && Object.values(value).every((v) => v === null)) errors.form = 'noCondition'
	return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value }
}

/** The whole rule of a posted form, or the keys of what is wrong. */
export function parseRule(text: RuleFormText): { ok: true; value: RuleValues } | { ok: false; errors: Errors } {
	const conditions = parseRuleConditions(text)
	const errors: Errors = conditions.ok ? {} : { ...conditions.errors }
	const name = text.name.trim()
	if (!name) errors.name = 'required'
	else oneLine(name, 100, 'name', errors)
	const setCategory = oneOf(text.setCategory, TRANSACTION_CATEGORIES, 'setCategory', errors)
	const setClientId = text.setClientId ? (isUuid(text.setClientId) ? text.setClientId : ((errors.setClientId = 'invalid'), null)) : null
	const notifyUserId = text.notifyUserId
		? isUuid(text.notifyUserId)
			? text.notifyUserId
			: ((errors.notifyUserId = 'invalid'), null)
		: null
	const addTag = oneLine(text.addTag, 40, 'addTag', errors)
	if (addTag !== null && addTag.includes(',')) errors.addTag = 'tagComma'
	const hold = text.hold === 'on' || text.hold === 'true'
	if (!errors.setCategory && !errors.setClientId && !errors.notifyUserId && !errors.addTag)
		if (!setCategory && !setClientId && !notifyUserId && !addTag && !hold) errors.form ??= 'noAction'
	if (Object.keys(errors).length || !conditions.ok) return { ok: false, errors }
	return { ok: true, value: { ...conditions.value, name, setCategory, setClientId, addTag, notifyUserId, hold } }
}
