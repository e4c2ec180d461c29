import { z } from 'zod'
import { isValidDate } from '#app/lib/dates.ts'
import { bothAmountWritings, CONTROL_CHARACTERS, CONTROL_CHARACTERS_IN_TEXT, MULTI_LINE, SINGLE_LINE } from '#app/lib/schemas/fields.ts'
import { parseAmount, PAYMENT_METHODS } from '#app/lib/schemas/transactions.ts'

/**
 * The expense forms (docs/product.md, Expense Tracking), shared by the browser (conform) and the
 * actions: several typed rows at once, and one expense's edit. Messages are keys under
 * expenses:errors. The limits are the database's (supabase/migrations/20261208000000_expenses.sql),
 * so what passes here saves.
 */

/** The fixed categories of an expense (the table's check), translated under expenses:categories. */
export const EXPENSE_CATEGORIES = [
	'advertising',
	'supplies',
	'rent',
	'utilities',
	'software',
	'travel',
	'meals',
	'fees',
	'contractors',
	'equipment',
	'insurance',
	'taxes',
	'other',
] as const
export type ExpenseCategory = (typeof EXPENSE_CATEGORIES)[number]

/** An expense or a refund (money sent back to a payer: shown apart, never counted as an expense). */
export const EXPENSE_KINDS = ['expense', 'refund'] as const
export type ExpenseKind = (typeof EXPENSE_KINDS)[number]

/** The most rows one post of the "add expenses" form may carry. */
export const MAX_EXPENSE_ROWS = 50
/** The largest amount of an expense (the table's check). */
export const MAX_EXPENSE_AMOUNT = 99_999_999.99

/** A row of the add form as typed (text). */
export type ExpenseRowText = { spentOn: string; vendor: string; amount: string; category: string; paymentMethod: string; note: string }

/** A new row: today's date, category "other", no rail. */
export function blankExpenseRow(today: string): ExpenseRowText {
	return { spentOn: today, vendor: '', amount: '', category: 'other', paymentMethod: '', note: '' }
}

/** Whether a posted row holds anything a user typed: a row without a vendor and an amount is left out. */
export const filledRow = (row: { vendor?: string; amount?: string; note?: string }) => Boolean(row.vendor || row.amount || row.note)

const text = (max: number, tooLong: string, { multiLine = false } = {}) =>
	z
		.string()
		.trim()
		.max(max, tooLong)
		.regex(multiLine ? MULTI_LINE : SINGLE_LINE, multiLine ? CONTROL_CHARACTERS_IN_TEXT : CONTROL_CHARACTERS)
		.optional()

const rowSchema = z.object({
	spentOn: z.string().max(20, 'dateInvalid').optional(),
	vendor: text(200, 'vendorTooLong'),
	amount: z.string().max(40, 'amountInvalid').optional(),
	category: z.string().max(40, 'categoryInvalid').optional(),
	paymentMethod: z.string().max(40, 'methodInvalid').optional(),
	note: text(2000, 'noteTooLong', { multiLine: true }),
})

type RowInput = z.infer<typeof rowSchema>

/** The values of a checked row, as the database stores them. */
export type ExpenseValues = {
	spentOn: string
	vendor: string
	amount: string
	category: ExpenseCategory
	paymentMethod: (typeof PAYMENT_METHODS)[number] | null
	note: string | null
}

/** An amount of an expense: parseAmount's rules, more than 0, at most MAX_EXPENSE_AMOUNT. */
function readAmount(input: string, dotGroups: boolean): { ok: true; value: string } | { ok: false; error: string } {
	const amount = parseAmount(input, { dotGroups })
	if (!amount.ok) return amount
	if (Number(amount.value) <= 0) return { ok: false, error: 'amountPositive' }
	if (Number(amount.value) > MAX_EXPENSE_AMOUNT) return { ok: false, error: 'amountTooLarge' }
	return amount
}

/** Adds the issues of one row under `prefix` (its path in the form). */
function checkRow(row: RowInput, dotGroups: boolean, ctx: z.RefinementCtx, prefix: Array<string | number>) {
	const path = (field: string) => [...prefix, field]
	if (!row.spentOn) ctx.addIssue({ code: 'custom', message: 'dateRequired', path: path('spentOn') })
	else if (!isValidDate(row.spentOn)) ctx.addIssue({ code: 'custom', message: 'dateInvalid', path: path('spentOn') })
	if (!row.vendor) ctx.addIssue({ code: 'custom', message: 'vendorRequired', path: path('vendor') })
	if (!row.amount) ctx.addIssue({ code: 'custom', message: 'amountRequired', path: path('amount') })
	else {
		const amount = readAmount(row.amount, dotGroups)
		if (!amount.ok) ctx.addIssue({ code: 'custom', message: amount.error, path: path('amount') })
	}
	if (row.category && !(EXPENSE_CATEGORIES as readonly string[]).includes(row.category))
		ctx.addIssue({ code: 'custom', message: 'categoryInvalid', path: path('category') })
	if (row.paymentMethod && !(PAYMENT_METHODS as readonly string[]).includes(row.paymentMethod))
		ctx.addIssue({ code: 'custom', message: 'methodInvalid', path: path('paymentMethod') })
}

/** A checked row as stored. */
function valuesOf(row: RowInput, dotGroups: boolean): ExpenseValues {
	return {
		spentOn: row.spentOn!,
		vendor: row.vendor!,
		amount: (readAmount(row.amount!, dotGroups) as { ok: true; value: string }).value,
		category: (row.category || 'other') as ExpenseCategory,
		paymentMethod: (row.paymentMethod || null) as ExpenseValues['paymentMethod'],
		note: row.note || null,
	}
}

function addSchemaFor(dotGroups: boolean) {
	return z
		.object({ rows: z.array(rowSchema).max(MAX_EXPENSE_ROWS, 'tooManyRows').optional() })
		.superRefine((form, ctx) => {
			for (const [index, row] of (form.rows ?? []).entries()) if (filledRow(row)) checkRow(row, dotGroups, ctx, ['rows', index])
			if (!(form.rows ?? []).some(filledRow)) ctx.addIssue({ code: 'custom', message: 'rowsRequired', path: ['rows'] })
		})
		.transform((form) => ({ rows: (form.rows ?? []).filter(filledRow).map((row) => valuesOf(row, dotGroups)) }))
}

function editSchemaFor(dotGroups: boolean) {
	return rowSchema
		.extend({
			/** updated_at (microseconds) when the form was loaded: a save refuses to overwrite a newer edit. */
			version: z
				.string()
				.regex(/^\d{1,20}$/, 'stale')
				.optional(),
			removeReceipt: z.boolean().optional(),
		})
		.superRefine((row, ctx) => checkRow(row, dotGroups, ctx, []))
		.transform((row) => ({ ...valuesOf(row, dotGroups), version: row.version ?? null, removeReceipt: row.removeReceipt ?? false }))
}

const addSchemas = bothAmountWritings(addSchemaFor)
const editSchemas = bothAmountWritings(editSchemaFor)

/** The "add expenses" form's schema in a language (the page's): amounts read as it writes them. */
export const expenseAddSchemaIn = addSchemas.in
/** One expense's edit form's schema in a language. */
export const expenseEditSchemaIn = editSchemas.in

export type ExpenseAddValues = z.output<ReturnType<typeof addSchemaFor>>
export type ExpenseEditValues = z.output<ReturnType<typeof editSchemaFor>>
