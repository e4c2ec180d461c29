import { z } from 'zod'
import { isValidDate } from '#app/lib/dates.ts'
import {
	bothAmountWritings,
	CONTROL_CHARACTERS,
	CONTROL_CHARACTERS_IN_TEXT,
	MULTI_LINE,
	SINGLE_LINE,
	toDotDecimal,
} from '#app/lib/schemas/fields.ts'
import { EVERY_ROW_ERROR, metaOf, rowList, rowMeta } from '../editable-rows.ts'

/**
 * The transactions table: its URL parameters and the edit-mode form, shared by the browser
 * (conform) and the action. Messages are translation keys under transactions:errors, except
 * the table-wide ones under table:errors.
 */
export const TRANSACTION_CATEGORIES = ['matched', 'pending', 'unmatched', 'review'] as const
export const PAYMENT_METHODS = ['Zelle', 'Venmo', 'CashApp', 'PayPal', 'Wire Transfer', 'Other'] as const
export type TransactionCategory = (typeof TRANSACTION_CATEGORIES)[number]
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

export const TRANSACTION_SORTS = ['date_received', 'client', 'external_id', 'amount', 'category', 'payment_method', 'description'] as const
export type TransactionSort = (typeof TRANSACTION_SORTS)[number]
export const TRANSACTION_DEFAULT_SORT = { sort: 'date_received', dir: 'desc' } as const

/** A transaction as the list service returns it and the tables show it. */
export type TransactionRow = {
	id: string
	dateReceived: string
	clientId: string | null
	clientName: string | null
	externalId: string | null
	amount: string
	/** The tip the payer added, part of `amount` (typed, or Venmo's "Amount (tip)"); null: none. */
	tip: string | null
	category: TransactionCategory
	paymentMethod: PaymentMethod
	description: string | null
	/** Tags the organization's rules added (docs/product.md, Rules (Workflow Automation)). */
	tags?: string[]
	/** Held for review by a rule, until a member clears it. */
	heldForReview?: boolean
}

/**
 * A transaction as the edit mode loads it: with what the save checks. The read mode's rows go
 * without them (they are only worth their bytes and their hashing in the edit form).
 */
export type EditableTransactionRow = TransactionRow & {
	/** updated_at in microseconds, as loaded: a save refuses to overwrite a newer row. */
	version: string
	/** A hash of the values as shown: a save skips a row the user left alone. */
	fingerprint: string
}

/** The largest amount numeric(12, 2) holds. */
export const MAX_AMOUNT = 9_999_999_999.99

export function isCategory(value: unknown): value is TransactionCategory {
	return typeof value === 'string' && (TRANSACTION_CATEGORIES as readonly string[]).includes(value)
}

/** The dollar sign as the screens write it next to an amount, before or after it ("US$ 1.500,00", "1.500,00 US$"). */
const CURRENCY = /^\s*(?:US)?\$\s*|\s*(?:US)?\$\s*$/g

/**
 * An amount as typed, with an optional '$' or 'US$' and at most 2 decimals: in en with thousands commas
 * ("1,500.25") or a decimal comma ("10,50"); with `dotGroups` (es, pt-BR) as they write it, the
 * comma the decimal mark and dots grouping thousands ("1.500,75"; "1.500" is 1500): see
 * toDotDecimal. Returns the canonical 'digits.dd' string, or an error key.
 */
export function parseAmount(input: string, { dotGroups = false } = {}): { ok: true; value: string } | { ok: false; error: string } {
	const text = toDotDecimal(input.replace(CURRENCY, '').trim(), { dotGroups })
	if (text.startsWith('-')) return { ok: false, error: 'amountNegative' }
	if (!/^\d+(\.\d*)?$|^\.\d+$/.test(text)) return { ok: false, error: 'amountInvalid' }
	const [whole = '', fraction = ''] = text.split('.')
	if (fraction.length > 2) return { ok: false, error: 'amountDecimals' }
	const value = `${BigInt(whole || '0')}.${fraction.padEnd(2, '0')}`
	if (Number(value) > MAX_AMOUNT) return { ok: false, error: 'amountTooLarge' }
	return { ok: true, value }
}

/** Tip errors in the tip's own words; a tip too large for the column is more than any amount. */
const TIP_ERRORS: Record<string, string> = { amountInvalid: 'tipInvalid', amountNegative: 'tipNegative', amountTooLarge: 'tipOverAmount' }

/** A tip as typed (see parseAmount): empty, or 0, is no tip (null). */
export function parseTip(
	input: string | undefined,
	options: { dotGroups?: boolean } = {},
): { ok: true; value: string | null } | { ok: false; error: string } {
	if (!input?.trim()) return { ok: true, value: null }
	const tip = parseAmount(input, options)
	if (!tip.ok) return { ok: false, error: TIP_ERRORS[tip.error] ?? tip.error }
	return { ok: true, value: tip.value === '0.00' ? null : tip.value }
}

/** A text of one line, or of several (`multiLine`: the description), without control characters (fields.ts). */
const optionalText = (max: number, tooLong: string, { multiLine = false } = {}) =>
	z
		.string()
		.trim()
		.max(max, tooLong)
		.regex(multiLine ? MULTI_LINE : SINGLE_LINE, multiLine ? CONTROL_CHARACTERS_IN_TEXT : CONTROL_CHARACTERS)
		.optional()

/** A row of the edit form, its amounts read as `language` writes them (see parseAmount). */
function transactionRowSchemaFor(dotGroups: boolean) {
	return z
		.object({
			...rowMeta,
			clientId: z.uuid({ error: 'clientInvalid' }).optional(),
			client: optionalText(200, 'clientTooLong'),
			/** Create the typed client when no client has that name (the "new client" box). */
			newClient: z.boolean().optional(),
			externalId: optionalText(200, 'externalIdTooLong'),
			amount: z.string({ error: 'amountRequired' }).max(40, 'amountInvalid'),
			/** Part of the amount; empty or 0: no tip. */
			tip: z.string().max(40, 'tipInvalid').optional(),
			dateReceived: z.string({ error: 'dateRequired' }).trim().refine(isValidDate, 'dateInvalid'),
			category: z.enum(TRANSACTION_CATEGORIES, { error: 'categoryInvalid' }),
			paymentMethod: z.enum(PAYMENT_METHODS, { error: 'methodInvalid' }),
			description: optionalText(2000, 'descriptionTooLong', { multiLine: true }),
		})
		.superRefine((row, ctx) => {
			if (row.id && !row.version) ctx.addIssue({ code: 'custom', message: 'rowInvalid', path: ['id'] })
			if (row.deleted || typeof row.amount !== 'string') return
			const amount = parseAmount(row.amount, { dotGroups })
			if (!amount.ok) ctx.addIssue({ code: 'custom', message: amount.error, path: ['amount'] })
			const tip = parseTip(row.tip, { dotGroups })
			if (!tip.ok) ctx.addIssue({ code: 'custom', message: tip.error, path: ['tip'] })
			else if (amount.ok && tip.value !== null && Number(tip.value) > Number(amount.value)) {
				ctx.addIssue({ code: 'custom', message: 'tipOverAmount', path: ['tip'] })
			}
		}, EVERY_ROW_ERROR)
		.transform((row) => ({
			...metaOf(row),
			clientId: row.clientId ?? null,
			client: row.client ?? '',
			externalId: row.externalId ?? '',
			amount: row.deleted ? '0.00' : (parseAmount(row.amount, { dotGroups }) as { ok: true; value: string }).value,
			tip: row.deleted ? null : (parseTip(row.tip, { dotGroups }) as { ok: true; value: string | null }).value,
			dateReceived: row.dateReceived,
			category: row.category,
			paymentMethod: row.paymentMethod,
			description: row.description ?? '',
			newClient: row.newClient ?? false,
		}))
}

const saveSchemas = bothAmountWritings((dotGroups) => z.object({ rows: rowList(transactionRowSchemaFor(dotGroups)) }))

/** The edit form's schema, amounts read as en writes them. */
export const transactionsSaveSchema = saveSchemas.plain

/** The edit form's schema in a language (the page's). */
export const transactionsSaveSchemaIn = saveSchemas.in

export type TransactionRowInput = Omit<z.output<typeof transactionsSaveSchema>['rows'][number], 'newClient'> & { newClient?: boolean }

/** A new row's values: no client, external id, tip or description, 0, today, unmatched, Zelle. */
export function newTransactionRow(today: string) {
	return {
		client: '',
		externalId: '',
		amount: '0',
		tip: '',
		dateReceived: today,
		category: 'unmatched',
		paymentMethod: 'Zelle',
		description: '',
	}
}

/** Codes a sync ends with, kept as the status row's error message and translated on display. */
export const SYNC_NO_SOURCE = 'no_source_connected'
export const SYNC_UNAVAILABLE = 'source_sync_unavailable'
