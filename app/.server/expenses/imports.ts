/**
 * The importer's outgoing rows as expenses (docs/product.md, Expense Tracking; the SQL in
 * supabase/migrations/20261208200000_expense_imports.sql). The import pipeline calls these: the
 * rows are staged with their batch (only while the module is active), become expenses when the
 * batch is committed (deduped by the transactions' key format, so a file read twice adds nothing),
 * and go when it is undone. Each call runs as the member who imports.
 */
import type { OutgoingPayment } from '../payments/imports/parsers/common.ts'
import { asUser, sql } from '../db/index.ts'

/** Rows written per call while staging. */
const STAGE_CHUNK = 1000

/** An outgoing row as staged: its order in the file and its dedupe key (ImportKeys, the transactions' format). */
export type StagedOutgoing = OutgoingPayment & { ord: number; importKey: string }

/** Stages a batch's outgoing rows; nothing while the organization does not have the module. Returns how many were staged. */
export async function stageImportExpenses(userId: string, batchId: string, rows: StagedOutgoing[]) {
	let staged = 0
	for (let i = 0; i < rows.length; i += STAGE_CHUNK) {
		const chunk = rows.slice(i, i + STAGE_CHUNK).map((r) => ({
			ord: r.ord,
			kind: r.kind,
			spent_on: r.payment.date,
			amount: r.payment.amount,
			fee: r.payment.fee,
			vendor: r.payment.payer,
			payment_method: r.payment.method,
			note: r.payment.description?.slice(0, 2000) ?? null,
			import_key: r.importKey,
			external_id: r.payment.externalId,
		}))
		const { rows: answer } = await asUser(userId, (trx) =>
			sql<{ n: number }>`select public.stage_import_expenses(${batchId}, ${JSON.stringify(chunk)}::jsonb) as n`.execute(trx),
		)
		staged += answer[0]!.n
		if (answer[0]!.n === 0) break
	}
	return staged
}

/** Makes a committed batch's staged rows expenses (those whose key the organization has not yet). Returns how many were added. */
export async function commitImportExpenses(userId: string, batchId: string) {
	const { rows } = await asUser(userId, (trx) => sql<{ n: number }>`select public.commit_import_expenses(${batchId}) as n`.execute(trx))
	return rows[0]!.n
}

/** Removes the expenses an undone batch added that nobody has edited since. Returns how many were removed. */
export async function undoImportExpenses(userId: string, batchId: string) {
	const { rows } = await asUser(userId, (trx) => sql<{ n: number }>`select public.undo_import_expenses(${batchId}) as n`.execute(trx))
	return rows[0]!.n
}

/** Per batch of the member's organizations: outgoing rows found (staged) and expenses added (still there). */
export async function importExpenseCounts(userId: string, batchIds: string[]): Promise<Map<string, { found: number; added: number }>> {
	if (batchIds.length === 0) return new Map()
	const { rows } = await asUser(userId, (trx) =>
		sql<{ batch_id: string; found: number; added: number }>`select * from public.import_expense_counts(${batchIds}::uuid[])`.execute(trx),
	)
	return new Map(rows.map((r) => [r.batch_id, { found: r.found, added: r.added }]))
}
