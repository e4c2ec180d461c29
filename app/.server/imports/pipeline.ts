import { sql } from 'kysely'
import { parseIsoDate } from '#app/lib/dates.ts'
import { PAYMENT_METHODS } from '#app/lib/schemas/transactions.ts'
import { asUser, dbErrorCode } from '../db/index.ts'
import { logError } from '../log.ts'
import { parseImportFileAsync, type FileError, type GenericMapping, type ImportSource, type NormalizedPayment, type ParsedRow } from './parsers/index.ts'
import { Stager, type RowFailure, type StagedBatch } from './staging.ts'

export { MAX_KEPT_FAILURES, type RowFailure, type StagedBatch } from './staging.ts'

/**
 * The one import pipeline: parse (files) → normalise → dedupe → match → commit → digest hook.
 * A CSV upload and a mail sync both come through `importPayments`, so both get the same
 * dedupe keys, client matching, review queue, history and undo (docs/product.md, Imports;
 * docs/decisions/016-imports.md). Rows are staged in chunks as they are read (`Stager`);
 * dedupe, matching and the commit itself run in SQL (`import_plan`, `commit_import`),
 * set-based, the commit in one transaction.
 */

export type ImportCounts = {
	created: number
	duplicates: number
	deleted: number
	matched: number
	review: number
	unmatched: number
}

export type CommittedBatch = StagedBatch & { organizationId: string; userId: string; counts: ImportCounts }

export type ImportInput = {
	organizationId: string
	userId: string
	/** The file name shown in the history (files), or a label of the run (mail). */
	label?: string | null
	/** 'preview' stages the batch for the import screen's preview; 'commit' (default) commits it at once. */
	mode?: 'preview' | 'commit'
	/** Called as a large file is read (with the share read), checked and committed. */
	onProgress?: (phase: 'reading' | 'checking' | 'committing', share: number) => void
} & (
	| { source: ImportSource; payments: NormalizedPayment[] }
	| { file: string; mapping?: GenericMapping | null }
)

export type ImportResult =
	| { ok: true; status: 'staged'; batch: StagedBatch }
	| { ok: true; status: 'committed'; batch: CommittedBatch }
	| { ok: false; error: FileError; headers?: string[] }

export async function importPayments(input: ImportInput): Promise<ImportResult> {
	const progress = input.onProgress ?? (() => undefined)
	progress('reading', 0)
	const stager = new Stager(input.organizationId, input.userId, input.label?.slice(0, 255) ?? null)
	if ('file' in input) {
		const parsed = await parseImportFileAsync(input.file, input.mapping, stager, (share) => progress('reading', share)).catch(async (error: unknown) => {
			await stager.abandon()
			throw error
		})
		if (!parsed.ok) {
			await stager.abandon()
			return { ok: false, error: parsed.error, headers: parsed.headers }
		}
	} else {
		stager.layout(input.source)
		input.payments.forEach((payment, i) => stager.row(checkPayment(payment, i + 1)))
	}
	progress('checking', 1)
	const batch = await stager.finish()
	if (input.mode === 'preview') return { ok: true, status: 'staged', batch }
	progress('committing', 1)
	const committed = await commitImport(input.userId, batch.batchId)
	if (!committed.ok) throw new Error(`import batch ${batch.batchId} could not be committed: ${committed.code}`)
	return { ok: true, status: 'committed', batch: committed.batch }
}

/**
 * A payment normalised by a caller (mail sync) is checked as a file's rows are: a bad one is a
 * failed row with its reason, never a database error.
 */
function checkPayment(p: NormalizedPayment, line: number): ParsedRow {
	if (!parseIsoDate(p.date)) return { line, kind: 'failed', reason: 'dateInvalid', value: String(p.date).slice(0, 40) }
	if (!/^\d{1,10}\.\d{2}$/.test(p.amount) || Number(p.amount) <= 0) return { line, kind: 'failed', reason: 'amountInvalid', value: String(p.amount).slice(0, 40) }
	if (p.fee !== null && !/^\d{1,10}\.\d{2}$/.test(p.fee)) return { line, kind: 'failed', reason: 'amountInvalid', value: String(p.fee).slice(0, 40) }
	if (!p.payer?.trim()) return { line, kind: 'failed', reason: 'payerMissing', value: '' }
	if (p.payer.length > 200 || (p.externalId?.length ?? 0) > 200 || p.provider.length > 40) return { line, kind: 'failed', reason: 'tooLong', value: p.payer.slice(0, 40) }
	if (!(PAYMENT_METHODS as readonly string[]).includes(p.method)) return { line, kind: 'failed', reason: 'methodInvalid', value: String(p.method).slice(0, 40) }
	return { line, kind: 'payment', payment: p }
}

export type CommitResult = { ok: true; batch: CommittedBatch } | { ok: false; code: 'batch_not_found' | 'already_committed' | 'not_member' }

/** Commits a staged batch (one SQL function, one transaction), then runs the digest hook. */
export async function commitImport(userId: string, batchId: string): Promise<CommitResult> {
	try {
		const batch = await asUser(userId, async (trx) => {
			const { rows } = await sql<{
				created_count: number
				duplicate_count: number
				deleted_count: number
				matched_count: number
				review_count: number
				unmatched_count: number
			}>`select * from public.commit_import(${batchId})`.execute(trx)
			const row = await trx.selectFrom('import_batches').selectAll().where('id', '=', batchId).executeTakeFirstOrThrow()
			const c = rows[0]!
			return {
				batchId,
				organizationId: row.organization_id,
				userId,
				source: row.source as ImportSource,
				rowsRead: row.rows_read,
				payments: row.payment_count,
				ignored: row.ignored_count,
				failed: row.failed_count,
				failures: row.failures as RowFailure[],
				counts: {
					created: c.created_count,
					duplicates: c.duplicate_count,
					deleted: c.deleted_count,
					matched: c.matched_count,
					review: c.review_count,
					unmatched: c.unmatched_count,
				},
			} satisfies CommittedBatch
		})
		await afterImportCommitted(batch)
		return { ok: true, batch }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'batch_not_found' || code === 'already_committed' || code === 'not_member') return { ok: false, code }
		throw error
	}
}

/**
 * Runs after every committed batch, outside its transaction: the place for the
 * "transaction alerts" digest mail (app/.server/notifications.ts, to be wired by the lead: a
 * batch with `counts.created > 0` is what the digest reports). It must not throw: the import
 * is committed already.
 */
export async function afterImportCommitted(batch: CommittedBatch): Promise<void> {
	for (const listener of committedListeners) {
		try {
			await listener(batch)
		} catch (error) {
			logError(error, { where: 'after import committed', batchId: batch.batchId })
		}
	}
}

type CommittedListener = (batch: CommittedBatch) => Promise<unknown>
const committedListeners = new Set<CommittedListener>()

/**
 * What the server does after every committed batch (the transactions digest), registered at
 * start-up (app/.server/startup.ts), so the pipeline itself knows nothing of mail.
 */
export function onImportCommitted(listener: CommittedListener) {
	committedListeners.add(listener)
	return () => committedListeners.delete(listener)
}

export type UndoResult = { ok: true; removed: number } | { ok: false; code: 'batch_not_found' | 'already_undone' | 'not_committed' | 'not_member' }

/** Removes the transactions a batch created that nobody has edited since. */
export async function undoImport(userId: string, batchId: string): Promise<UndoResult> {
	try {
		const removed = await asUser(userId, async (trx) => {
			const { rows } = await sql<{ n: number }>`select public.undo_import(${batchId}) as n`.execute(trx)
			return rows[0]!.n
		})
		return { ok: true, removed }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'batch_not_found' || code === 'already_undone' || code === 'not_committed' || code === 'not_member') return { ok: false, code }
		throw error
	}
}
