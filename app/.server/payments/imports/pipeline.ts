import { sql } from 'kysely'
import { parseIsoDate } from '#app/lib/dates.ts'
import { MAX_IMPORT_ROWS } from '#app/lib/imports.ts'
import { PAYMENT_METHODS } from '#app/lib/schemas/transactions.ts'
import { asUser, dbErrorCode } from '../../db/index.ts'
import { commitImportExpenses, undoImportExpenses } from '../../expenses/imports.ts'
import { logError } from '../../log.ts'
import {
	checkCsvBounds,
	parseImportFileAsync,
	type FileError,
	type GenericMapping,
	type ImportSource,
	type NormalizedPayment,
	type ParsedRow,
} from './parsers/index.ts'
import { SERVER_BUSY, withImportSlot } from './slots.ts'
import { ChunkSizer, Stager, type RowFailure, type StagedBatch } from './staging.ts'

export { MAX_KEPT_FAILURES, type RowFailure, type StagedBatch } from './staging.ts'

/**
 * The one import pipeline: parse (files) → normalise → dedupe → match → commit → digest hook.
 * A CSV upload and a mail sync both come through `importPayments`, so both get the same
 * dedupe keys, client matching, review queue, history and undo (docs/product.md, Imports;
 * docs/decisions/016-imports.md). Rows are staged in chunks as they are read (`Stager`);
 * dedupe and matching run in SQL as each chunk is staged (the preview's counts are kept), and
 * the commit runs in SQL chunk by chunk (`commit_import_chunk`), set-based, each chunk a short
 * transaction. Every bound of a file is checked before it costs work, and a file import takes
 * its organization's claim: one at a time (docs/decisions/016-imports.md, "Limits").
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
} & ({ source: ImportSource; payments: NormalizedPayment[] } | { file: string; mapping?: GenericMapping | null })

/** The import that stops another of the same organization (the upload screen says so and links to it). */
export type BlockingImport = { id: string; fileName: string | null; status: 'staged' | 'committing'; reading: boolean; who: string | null }

export type ImportError = FileError | 'importInProgress' | 'serverBusy'

export type ImportResult =
	| { ok: true; status: 'staged'; batch: StagedBatch }
	| { ok: true; status: 'committed'; batch: CommittedBatch }
	| { ok: false; error: ImportError; headers?: string[]; blocking?: BlockingImport | null }

/**
 * Imports a file (parsed here) or payments a caller normalised (mail sync): staged as a preview,
 * or committed at once. A file is refused before any work past its bounds (app/lib/imports.ts),
 * when the process reads too many already, or while its organization has another import.
 */
export async function importPayments(input: ImportInput): Promise<ImportResult> {
	if ('file' in input) {
		// Bounded before it costs work: rows, fields and line length on the text alone.
		const bounds = await checkCsvBounds(input.file)
		if (bounds) return { ok: false, error: bounds }
		const result = await withImportSlot(() => claimedImport(input))
		return result === SERVER_BUSY ? { ok: false, error: 'serverBusy' } : result
	}
	if (input.payments.length > MAX_IMPORT_ROWS) return { ok: false, error: 'tooManyRows' }
	return claimedImport(input)
}

/** The import, once its bounds are known to hold: refused at once while the organization has another. */
async function claimedImport(input: ImportInput): Promise<ImportResult> {
	const claimed = !('source' in input) || input.source !== 'email'
	if (claimed) {
		const blocking = await blockingImport(input.userId, input.organizationId)
		if (blocking) return { ok: false, error: 'importInProgress', blocking }
	}
	try {
		return await stagedImport(input)
	} catch (error) {
		// Another import took the claim in the meantime (another request, or another server).
		if (claimed && dbErrorCode(error) === 'import_in_progress') {
			return { ok: false, error: 'importInProgress', blocking: await blockingImport(input.userId, input.organizationId) }
		}
		throw error
	}
}

async function stagedImport(input: ImportInput): Promise<ImportResult> {
	const progress = input.onProgress ?? (() => undefined)
	progress('reading', 0)
	const stager = new Stager(input.organizationId, input.userId, input.label?.slice(0, 255) ?? null)
	if ('file' in input) {
		const parsed = await parseImportFileAsync(input.file, input.mapping, stager, (share) => progress('reading', share)).catch(
			async (error: unknown) => {
				await stager.abandon()
				throw error
			},
		)
		if (!parsed.ok) {
			await stager.abandon()
			return { ok: false, error: parsed.error, headers: parsed.headers }
		}
	} else {
		stager.layout(input.source)
		for (const [i, payment] of input.payments.entries()) {
			stager.row(checkPayment(payment, i + 1))
			if (i % 100 === 99) await stager.drain()
		}
	}
	progress('checking', 1)
	const batch = await stager.finish()
	if (input.mode === 'preview') return { ok: true, status: 'staged', batch }
	const committed = await commitImport(input.userId, batch.batchId, (share) => progress('committing', share))
	if (!committed.ok) throw new Error(`import batch ${batch.batchId} could not be committed: ${committed.code}`)
	return { ok: true, status: 'committed', batch: committed.batch }
}

/**
 * The import of the organization that the user's next file import would wait for, if any: one
 * being read, a preview someone else left waiting, or one being committed (a day-old preview
 * and a reading whose process is gone are removed on the way; the user's own waiting preview
 * gives way to their next file).
 */
export async function blockingImport(userId: string, organizationId: string): Promise<BlockingImport | null> {
	return asUser(userId, async (trx) => {
		const { rows } = await sql<BlockingImport>`
			select b.id, b.file_name as "fileName", b.status, b.reading, b.who from public.blocking_import(${organizationId}) b`.execute(trx)
		return rows[0] ?? null
	})
}

/**
 * A payment normalised by a caller (mail sync) is checked as a file's rows are: a bad one is a
 * failed row with its reason, never a database error.
 */
function checkPayment(p: NormalizedPayment, line: number): ParsedRow {
	if (!parseIsoDate(p.date)) return { line, kind: 'failed', reason: 'dateInvalid', value: String(p.date).slice(0, 40) }
	if (!/^\d{1,10}\.\d{2}$/.test(p.amount) || Number(p.amount) <= 0)
		return { line, kind: 'failed', reason: 'amountInvalid', value: String(p.amount).slice(0, 40) }
	if (p.fee !== null && !/^\d{1,10}\.\d{2}$/.test(p.fee))
		return { line, kind: 'failed', reason: 'amountInvalid', value: String(p.fee).slice(0, 40) }
	if (p.tip != null && !/^\d{1,10}\.\d{2}$/.test(p.tip))
		return { line, kind: 'failed', reason: 'amountInvalid', value: String(p.tip).slice(0, 40) }
	if (!p.payer?.trim()) return { line, kind: 'failed', reason: 'payerMissing', value: '' }
	if (p.payer.length > 200 || (p.externalId?.length ?? 0) > 200 || p.provider.length > 40)
		return { line, kind: 'failed', reason: 'tooLong', value: p.payer.slice(0, 40) }
	if (!(PAYMENT_METHODS as readonly string[]).includes(p.method))
		return { line, kind: 'failed', reason: 'methodInvalid', value: String(p.method).slice(0, 40) }
	return { line, kind: 'payment', payment: p }
}

export type CommitResult =
	{ ok: true; batch: CommittedBatch } | { ok: false; code: 'batch_not_found' | 'already_committed' | 'not_member' | 'still_reading' }

type CommitChunk = {
	done: boolean
	committed: number
	total: number
	created_count: number
	duplicate_count: number
	deleted_count: number
	matched_count: number
	review_count: number
	unmatched_count: number
}

/**
 * Commits a staged batch chunk by chunk (`commit_import_chunk`, each chunk a short transaction
 * sized by time), reporting the share committed, then runs the digest hook. A commit that
 * stopped half-way (the batch is 'committing') goes on from where it was.
 */
export async function commitImport(userId: string, batchId: string, onProgress?: (share: number) => void): Promise<CommitResult> {
	const sizer = await ChunkSizer.forDatabase()
	try {
		let chunk: CommitChunk
		do {
			chunk = await sizer.run((size) =>
				asUser(
					userId,
					async (trx) => (await sql<CommitChunk>`select * from public.commit_import_chunk(${batchId}, ${size}::int)`.execute(trx)).rows[0]!,
				),
			)
			onProgress?.(chunk.total > 0 ? chunk.committed / chunk.total : 1)
		} while (!chunk.done)
		// Its outgoing rows, as expenses, while the organization has Expense Tracking (once: deduped by key).
		await commitImportExpenses(userId, batchId)
		const row = await asUser(userId, (trx) =>
			trx.selectFrom('import_batches').selectAll().where('id', '=', batchId).executeTakeFirstOrThrow(),
		)
		const batch: CommittedBatch = {
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
				created: chunk.created_count,
				duplicates: chunk.duplicate_count,
				deleted: chunk.deleted_count,
				matched: chunk.matched_count,
				review: chunk.review_count,
				unmatched: chunk.unmatched_count,
			},
		}
		await afterImportCommitted(batch)
		return { ok: true, batch }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'batch_not_found' || code === 'already_committed' || code === 'not_member' || code === 'still_reading')
			return { ok: false, code }
		throw error
	}
}

export type DiscardResult = { ok: true } | { ok: false; code: 'batch_not_found' | 'already_committed' | 'not_member' | 'still_reading' }

/** Discards a waiting preview (any member may, as any member may commit it): its claim goes with it. */
export async function discardImport(userId: string, batchId: string): Promise<DiscardResult> {
	try {
		await asUser(userId, (trx) => sql`select public.discard_import(${batchId})`.execute(trx))
		return { ok: true }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'batch_not_found' || code === 'already_committed' || code === 'not_member' || code === 'still_reading')
			return { ok: false, code }
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

export type UndoResult =
	{ ok: true; removed: number } | { ok: false; code: 'batch_not_found' | 'already_undone' | 'not_committed' | 'not_member' }

/**
 * Removes the transactions a batch created that nobody has edited since, chunk by chunk
 * (`undo_import_chunk`, each chunk a short transaction sized by time). An undo that stopped
 * half-way (the batch is 'undoing') goes on from where it was.
 */
export async function undoImport(userId: string, batchId: string): Promise<UndoResult> {
	const sizer = await ChunkSizer.forDatabase()
	try {
		let chunk: { done: boolean; removed: number }
		do {
			chunk = await sizer.run((size) =>
				asUser(
					userId,
					async (trx) =>
						(await sql<{ done: boolean; removed: number }>`select * from public.undo_import_chunk(${batchId}, ${size}::int)`.execute(trx))
							.rows[0]!,
				),
			)
		} while (!chunk.done)
		// The expenses it added go too (those nobody edited since).
		await undoImportExpenses(userId, batchId)
		return { ok: true, removed: chunk.removed }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'batch_not_found' || code === 'already_undone' || code === 'not_committed' || code === 'not_member')
			return { ok: false, code }
		throw error
	}
}
