/**
 * The expenses of an organization (docs/product.md, Expense Tracking): a page of them, filtered by
 * month, kind (expenses, or refunds apart) and a search of vendor and note; several typed at once;
 * one edited (with its receipt) or deleted (with its receipt). Every read and write runs as the
 * member, under the table's row-level security (supabase/migrations/20261208000000_expenses.sql);
 * the routes call these only once requireExpenses said the module is usable.
 */
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import {
	expenseAddSchemaIn,
	expenseEditSchemaIn,
	type ExpenseCategory,
	type ExpenseKind,
	type ExpenseValues,
} from '#app/lib/schemas/expenses.ts'
import type { PaymentMethod } from '#app/lib/schemas/transactions.ts'
import { isUuid } from '#app/lib/uuid.ts'
import { asUser, sql } from '../db/index.ts'
import { clamp, COUNT_CAP, likePattern, MAX_PAGE, normalizeSearch } from '../query.ts'
import { cleanReceipt, deleteReceipt, putReceipt, receiptKey, type ReceiptRefusal } from './receipts.ts'

export const EXPENSE_PAGE_SIZE = 25
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/

/** One row of the list. Amounts are numeric strings ('12.50'). */
export type ExpenseRow = {
	id: string
	kind: ExpenseKind
	spentOn: string
	vendor: string
	category: ExpenseCategory
	amount: string
	fee: string | null
	paymentMethod: PaymentMethod | null
	note: string | null
	hasReceipt: boolean
	imported: boolean
}

export type ExpenseListOptions = { month?: string | null; q?: string | null; kind?: string | null; page?: number | null }

export type ExpenseListPage = {
	rows: ExpenseRow[]
	month: string | null
	q: string | null
	kind: ExpenseKind
	page: number
	pageSize: number
	/** How many rows match, at most COUNT_CAP (`totalCapped`: more). */
	total: number
	totalCapped: boolean
	/** With a month filter: the sum of the matching rows' amounts and fees (all pages); else null. */
	sum: string | null
}

/** A month filter as the URL gives it: 'YYYY-MM', or null for every month. */
export function readMonth(value: string | null | undefined) {
	return value && MONTH.test(value) ? value : null
}

/** A page of the organization's expenses (or refunds), newest first. Any URL value is read safely. */
export async function listExpenses(userId: string, organizationId: string, options: ExpenseListOptions = {}): Promise<ExpenseListPage> {
	const month = readMonth(options.month)
	const q = normalizeSearch(options.q)
	const kind: ExpenseKind = options.kind === 'refund' ? 'refund' : 'expense'
	const page = clamp(options.page, 1, MAX_PAGE, 1)
	return asUser(userId, async (trx) => {
		let query = trx.selectFrom('expenses').where('organization_id', '=', organizationId).where('kind', '=', kind)
		if (month) {
			const from = `${month}-01`
			query = query.where('spent_on', '>=', from).where('spent_on', '<', sql<string>`(${from}::date + interval '1 month')::date`)
		}
		if (q) {
			const pattern = likePattern(q)
			query = query.where((eb) => eb.or([eb('vendor', 'ilike', pattern), eb('note', 'ilike', pattern)]))
		}
		// The count stops at COUNT_CAP ("10,000+"); the sum is only worth its scan for one month.
		const counted = await trx
			.selectFrom(
				query
					.select(sql`1`.as('one'))
					.limit(COUNT_CAP + 1)
					.as('matching'),
			)
			.select(sql<number>`count(*)::int`.as('n'))
			.executeTakeFirstOrThrow()
		const summed = month
			? await query
					.select(sql<string>`coalesce(sum(amount + coalesce(fee, 0)), 0)::numeric(18, 2)::text`.as('sum'))
					.executeTakeFirstOrThrow()
			: null
		const rows = await query
			.select([
				'id',
				'kind',
				sql<string>`spent_on::text`.as('spent_on'),
				'vendor',
				'category',
				sql<string>`amount::text`.as('amount'),
				sql<string | null>`fee::text`.as('fee'),
				'payment_method',
				'note',
				'receipt_key',
				'import_batch_id',
				'import_key',
			])
			.orderBy('spent_on', 'desc')
			.orderBy('id', 'desc')
			.limit(EXPENSE_PAGE_SIZE)
			.offset((page - 1) * EXPENSE_PAGE_SIZE)
			.execute()
		return {
			rows: rows.map((r) => ({
				id: r.id,
				kind: r.kind as ExpenseKind,
				spentOn: r.spent_on,
				vendor: r.vendor,
				category: r.category as ExpenseCategory,
				amount: r.amount,
				fee: r.fee,
				paymentMethod: r.payment_method as PaymentMethod | null,
				note: r.note,
				hasReceipt: r.receipt_key !== null,
				imported: r.import_key !== null,
			})),
			month,
			q,
			kind,
			page,
			pageSize: EXPENSE_PAGE_SIZE,
			total: Math.min(counted.n, COUNT_CAP),
			totalCapped: counted.n > COUNT_CAP,
			sum: summed?.sum ?? null,
		}
	})
}

/** One expense as its edit page shows it, with the version a save checks; null when it is not the organization's. */
export async function getExpense(userId: string, organizationId: string, expenseId: string) {
	if (!isUuid(expenseId)) return null
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('expenses')
			.select([
				'id',
				'kind',
				sql<string>`spent_on::text`.as('spent_on'),
				'vendor',
				'category',
				sql<string>`amount::text`.as('amount'),
				sql<string | null>`fee::text`.as('fee'),
				'payment_method',
				'note',
				'receipt_key',
				'receipt_type',
				'import_source',
				sql<string>`(extract(epoch from updated_at) * 1000000)::int8::text`.as('version'),
			])
			.where('id', '=', expenseId)
			.where('organization_id', '=', organizationId)
			.executeTakeFirst(),
	)
	if (!row) return null
	return {
		id: row.id,
		kind: row.kind as ExpenseKind,
		spentOn: row.spent_on,
		vendor: row.vendor,
		category: row.category as ExpenseCategory,
		amount: row.amount,
		fee: row.fee,
		paymentMethod: row.payment_method as PaymentMethod | null,
		note: row.note,
		receiptKey: row.receipt_key,
		receiptType: row.receipt_type,
		importSource: row.import_source,
		version: row.version,
	}
}
export type LoadedExpense = NonNullable<Awaited<ReturnType<typeof getExpense>>>

/** Adds typed rows in one transaction: all of them or none. Returns how many were added. */
export async function addExpenses(userId: string, organizationId: string, rows: ExpenseValues[]) {
	if (rows.length === 0) return 0
	await asUser(userId, (trx) =>
		trx
			.insertInto('expenses')
			.values(
				rows.map((r) => ({
					organization_id: organizationId,
					kind: 'expense',
					spent_on: r.spentOn,
					vendor: r.vendor,
					amount: r.amount,
					category: r.category,
					payment_method: r.paymentMethod,
					note: r.note,
					created_by: userId,
				})),
			)
			.execute(),
	)
	return rows.length
}

export type FormOutcome =
	| { kind: 'reply'; result: SubmissionResult<string[]>; status: number }
	| { kind: 'added'; count: number }
	| { kind: 'saved'; id: string }
	| { kind: 'refused'; code: 'not_found' | 'stale' }

/** The "add expenses" form as posted: its errors (the typed values kept), or the rows added. */
export async function submitAddForm(userId: string, organizationId: string, formData: FormData, language: string): Promise<FormOutcome> {
	const submission = parseWithZod(formData, { schema: expenseAddSchemaIn(language) })
	if (submission.status !== 'success')
		return { kind: 'reply', result: submission.reply(), status: submission.status === 'error' ? 400 : 200 }
	return { kind: 'added', count: await addExpenses(userId, organizationId, submission.value.rows) }
}

/**
 * One expense's edit form as posted (multipart: its receipt may come with it): a field error or
 * a refused receipt answers the form again and changes nothing; else the row is updated (unless
 * someone saved it since it was loaded: `stale`), its new receipt stored and the old one removed.
 */
export async function submitEditForm(
	userId: string,
	organizationId: string,
	expenseId: string,
	formData: FormData,
	language: string,
): Promise<FormOutcome> {
	const submission = parseWithZod(formData, { schema: expenseEditSchemaIn(language) })
	if (submission.status !== 'success')
		return { kind: 'reply', result: submission.reply(), status: submission.status === 'error' ? 400 : 200 }
	const current = await getExpense(userId, organizationId, expenseId)
	if (!current) return { kind: 'refused', code: 'not_found' }
	const upload = formData.get('receipt')
	let receipt: Awaited<ReturnType<typeof cleanReceipt>> | null = null
	if (upload instanceof Blob && upload.size > 0) {
		receipt = await cleanReceipt(upload)
		if (!receipt.ok) return { kind: 'reply', result: submission.reply({ fieldErrors: { receipt: [receipt.code] } }), status: 400 }
	}
	const values = submission.value
	const newKey = receipt?.ok ? receiptKey(organizationId, expenseId, receipt.receipt.ext) : null
	if (receipt?.ok && newKey) await putReceipt(newKey, receipt.receipt)
	const receiptColumns = newKey
		? { receipt_key: newKey, receipt_type: receipt!.ok ? receipt!.receipt.type : null }
		: values.removeReceipt
			? { receipt_key: null, receipt_type: null }
			: {}
	const updated = await asUser(userId, (trx) => {
		let query = trx
			.updateTable('expenses')
			.set({
				spent_on: values.spentOn,
				vendor: values.vendor,
				amount: values.amount,
				category: values.category,
				payment_method: values.paymentMethod,
				note: values.note,
				...receiptColumns,
			})
			.where('id', '=', expenseId)
			.where('organization_id', '=', organizationId)
		if (values.version) query = query.where(sql<boolean>`(extract(epoch from updated_at) * 1000000)::int8::text = ${values.version}`)
		return query.executeTakeFirst()
	})
	if (Number(updated.numUpdatedRows) === 0) {
		// Nothing saved: the receipt just stored belongs to no row.
		await deleteReceipt(newKey)
		return { kind: 'refused', code: 'stale' }
	}
	if (newKey || values.removeReceipt) await deleteReceipt(current.receiptKey)
	return { kind: 'saved', id: expenseId }
}

/** Deletes one expense and its receipt. False when it is not the organization's (nothing done). */
export async function deleteExpense(userId: string, organizationId: string, expenseId: string) {
	if (!isUuid(expenseId)) return false
	const deleted = await asUser(userId, (trx) =>
		trx
			.deleteFrom('expenses')
			.where('id', '=', expenseId)
			.where('organization_id', '=', organizationId)
			.returning('receipt_key')
			.executeTakeFirst(),
	)
	if (!deleted) return false
	await deleteReceipt(deleted.receipt_key)
	return true
}

/** Refusals of a receipt, as field error keys (expenses:errors.*). */
export type { ReceiptRefusal }
