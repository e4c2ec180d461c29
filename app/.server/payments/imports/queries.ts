import { sql, type Selectable } from 'kysely'
import { type PaymentMethod } from '#app/lib/schemas/transactions.ts'
import { asUser, type Tx } from '../../db/index.ts'
import type { ImportMappings } from '../../db/types.ts'
import { type GenericMapping } from './parsers/index.ts'
import { type RowFailure } from './pipeline.ts'

/**
 * What the import screens read and the review queue writes: a staged batch and its preview,
 * the import history, saved generic mappings, and the review queue with its alias saving.
 * Every query runs as the user (RLS) and names the organization.
 */

export const PREVIEW_ROWS = 50
export const HISTORY_PAGE = 50
export const REVIEW_PAGE = 100

export type PreviewRow = {
	ord: number
	date: string
	amount: string
	payer: string
	externalId: string | null
	state: 'new' | 'duplicate' | 'deleted'
	candidates: number
}

export type PreviewCounts = {
	new_count: number
	duplicate_count: number
	deleted_count: number
	matched_count: number
	review_count: number
	unmatched_count: number
}

/**
 * A batch for its preview page: the file's counts and what committing it would do, as planned
 * once while its rows were staged (never recomputed here: a page view costs the same for a file
 * of ten rows or of 100,000), and one page of its rows. `reading` while the file is still being
 * read (no counts yet); `committing` with the rows committed so far while a commit runs or
 * stopped half-way.
 */
export async function getStagedPreview(userId: string, organizationId: string, batchId: string, page = 1) {
	return asUser(userId, async (trx) => {
		const batch = await trx
			.selectFrom('import_batches')
			.select([
				'id',
				'source',
				'file_name',
				'status',
				'rows_read',
				'payment_count',
				'ignored_count',
				'failed_count',
				'failures',
				'staged_at',
				'commit_ord',
				'preview_new_count',
				'preview_duplicate_count',
				'preview_deleted_count',
				'preview_matched_count',
				'preview_review_count',
				'preview_unmatched_count',
			])
			.where('organization_id', '=', organizationId)
			.where('id', '=', batchId)
			.executeTakeFirst()
		if (!batch) return null
		const pages = Math.max(1, Math.ceil(batch.payment_count / PREVIEW_ROWS))
		const view = {
			id: batch.id,
			source: batch.source,
			fileName: batch.file_name,
			status: batch.status as 'staged' | 'committing' | 'committed' | 'undoing' | 'undone',
			reading: batch.status === 'staged' && batch.staged_at === null,
			rowsRead: batch.rows_read,
			payments: batch.payment_count,
			committed: Math.min(batch.commit_ord, batch.payment_count),
			ignored: batch.ignored_count,
			failed: batch.failed_count,
			failures: batch.failures as RowFailure[],
			page: Math.min(Math.max(1, page), pages),
			pages,
		}
		if ((batch.status !== 'staged' && batch.status !== 'committing') || view.reading)
			return { batch: view, counts: null, rows: [] as PreviewRow[] }
		const counts: PreviewCounts = {
			new_count: batch.preview_new_count,
			duplicate_count: batch.preview_duplicate_count,
			deleted_count: batch.preview_deleted_count,
			matched_count: batch.preview_matched_count,
			review_count: batch.preview_review_count,
			unmatched_count: batch.preview_unmatched_count,
		}
		// Ords run 1, 2, 3… in file order (Stager): a page is a range of them, read by the primary key.
		const { rows } = await sql<PreviewRow>`
			select p.ord, p.date_received::text as date, p.amount::text as amount, p.raw_payer as payer,
				p.external_id as "externalId", p.state, p.candidates
			from public.staged_import_rows(${batchId}, ${(view.page - 1) * PREVIEW_ROWS + 1}::int, ${PREVIEW_ROWS}::int) p`.execute(trx)
		return { batch: view, counts, rows }
	})
}

export type HistoryRow = {
	id: string
	source: string
	fileName: string | null
	status: 'committing' | 'committed' | 'undoing' | 'undone'
	createdAt: string
	who: string | null
	rowsRead: number
	created: number
	duplicates: number
	ignored: number
	failed: number
	matched: number
	review: number
	unmatched: number
	undone: number
}

export async function listImportHistory(userId: string, organizationId: string): Promise<HistoryRow[]> {
	return asUser(userId, async (trx) => {
		const { rows } = await sql<HistoryRow>`
			select b.id, b.source, b.file_name as "fileName", b.status, to_char(coalesce(b.committed_at, b.created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "createdAt",
				coalesce(nullif(p.full_name, ''), p.email) as who, b.rows_read as "rowsRead", b.created_count as created,
				b.duplicate_count + b.deleted_count as duplicates, b.ignored_count as ignored, b.failed_count as failed,
				b.matched_count as matched, b.review_count as review, b.unmatched_count as unmatched, b.undone_count as undone
			from public.import_batches b
			left join public.profiles p on p.user_id = b.user_id
			where b.organization_id = ${organizationId} and b.status <> 'staged'
			order by b.created_at desc, b.id desc
			limit ${HISTORY_PAGE}`.execute(trx)
		return rows
	})
}

/** The saved mapping for a header, when one was saved. */
export async function getSavedMapping(userId: string, organizationId: string, signature: string): Promise<GenericMapping | null> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('import_mappings')
			.selectAll()
			.where('organization_id', '=', organizationId)
			.where('header_signature', '=', signature)
			.executeTakeFirst(),
	)
	return row ? mappingOf(row) : null
}

function mappingOf(row: Selectable<ImportMappings>): GenericMapping {
	return {
		date: row.date_column,
		amount: row.amount_column,
		payer: row.payer_column,
		externalId: row.external_id_column ?? '',
		description: row.description_column ?? '',
		method: row.payment_method as PaymentMethod,
		dateOrder: row.date_order === 'dmy' ? 'dmy' : 'mdy',
	}
}

export type SavedMapping = GenericMapping & { signature: string; columns: string[] }

/** The organization's saved column mappings, the latest first (the upload screen lists them, each with Forget). */
export async function listSavedMappings(userId: string, organizationId: string): Promise<SavedMapping[]> {
	const rows = await asUser(userId, (trx) =>
		trx
			.selectFrom('import_mappings')
			.selectAll()
			.where('organization_id', '=', organizationId)
			.orderBy('updated_at', 'desc')
			.limit(50)
			.execute(),
	)
	return rows.map((row) => ({ signature: row.header_signature, columns: row.header_signature.split('|'), ...mappingOf(row) }))
}

/** Forgets a saved mapping: the next file with those columns asks for its mapping again. */
export async function forgetMapping(userId: string, organizationId: string, signature: string) {
	const result = await asUser(userId, (trx) =>
		trx
			.deleteFrom('import_mappings')
			.where('organization_id', '=', organizationId)
			.where('header_signature', '=', signature)
			.executeTakeFirst(),
	)
	return result.numDeletedRows > 0n
}

export async function saveMapping(userId: string, organizationId: string, signature: string, mapping: GenericMapping) {
	const values = {
		date_column: mapping.date,
		amount_column: mapping.amount,
		payer_column: mapping.payer,
		external_id_column: mapping.externalId || null,
		description_column: mapping.description || null,
		payment_method: mapping.method,
		date_order: mapping.dateOrder,
	}
	await asUser(userId, (trx) =>
		trx
			.insertInto('import_mappings')
			.values({ organization_id: organizationId, header_signature: signature, ...values })
			.onConflict((oc) => oc.columns(['organization_id', 'header_signature']).doUpdateSet({ ...values, updated_at: sql`now()` }))
			.execute(),
	)
}

export type ReviewRow = {
	id: string
	date: string
	amount: string
	payer: string
	method: string
	category: 'review' | 'unmatched'
	/**
	 * The clients the payer matches, first in the choice: as import matching has it, those of
	 * its saved aliases if it has any (several when the accent-blind key made two aliases one,
	 * migration 20261201002000), else those it is the name of (case, spaces and accents aside).
	 */
	candidates: string[]
}

/** Imported payments still without a client (review first), and the clients to choose from. */
export async function listReviewQueue(userId: string, organizationId: string) {
	return asUser(userId, async (trx) => {
		const { rows } = await sql<Omit<ReviewRow, 'candidates'> & { key: string }>`
			select t.id, t.date_received::text as date, t.amount::text as amount, t.raw_payer as payer, t.payment_method as method,
				t.category, public.payer_key(t.raw_payer) as key
			from public.transactions t
			where t.organization_id = ${organizationId} and t.category in ('review', 'unmatched')
				and t.client_id is null and t.raw_payer is not null
			order by t.category = 'review' desc, t.date_received desc, t.id desc
			limit ${REVIEW_PAGE}`.execute(trx)
		// In the clients list's order: blind to case and accents ("Ángela" among the A's).
		const clients = await trx
			.selectFrom('clients')
			.select(['id', 'name', 'email', sql<string>`public.payer_key(name)`.as('key')])
			.where('organization_id', '=', organizationId)
			.orderBy(sql`public.name_sort_key(name)`)
			.orderBy('name')
			.orderBy('id')
			.limit(1000)
			.execute()
		const keys = [...new Set(rows.map((r) => r.key))]
		const aliases =
			keys.length === 0
				? []
				: await trx
						.selectFrom('payer_aliases')
						.select(['alias_key', 'client_id'])
						.where('organization_id', '=', organizationId)
						.where('alias_key', 'in', keys)
						.execute()
		const aliased = new Map<string, Set<string>>()
		for (const a of aliases) if (a.alias_key) aliased.set(a.alias_key, (aliased.get(a.alias_key) ?? new Set()).add(a.client_id))
		// Keys from SQL on both sides: the same function, whatever a name holds.
		const byKey = new Map<string, string[]>()
		for (const c of clients) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c.id])
		const candidates = (key: string) => {
			const ids = aliased.get(key)
			return ids ? clients.filter((c) => ids.has(c.id)).map((c) => c.id) : (byKey.get(key) ?? [])
		}
		return {
			rows: rows.map(({ key, ...r }) => ({ ...r, candidates: candidates(key) })) satisfies ReviewRow[],
			clients: clients.map((c) => ({ id: c.id, name: c.name, email: c.email })),
		}
	})
}

async function clientOf(trx: Tx, organizationId: string, clientId: string) {
	const client = await trx
		.selectFrom('clients')
		.select('id')
		.where('organization_id', '=', organizationId)
		.where('id', '=', clientId)
		.executeTakeFirst()
	return client ?? { error: 'clientNotFound' as const }
}

async function newClientFor(trx: Tx, userId: string, organizationId: string, payer: string | null) {
	const name = payer?.trim()
	if (!name) return { error: 'clientNotFound' as const }
	const { rows: taken } = await sql<{ id: string }>`select c.id from public.clients c
		where c.organization_id = ${organizationId} and public.payer_key(c.name) = public.payer_key(${name}) limit 1`.execute(trx)
	if (taken.length > 0) return { error: 'clientExists' as const }
	return trx
		.insertInto('clients')
		.values({ organization_id: organizationId, user_id: userId, name })
		.returning('id')
		.executeTakeFirstOrThrow()
}

export type ResolveResult = { ok: true; updated: number } | { ok: false; error: 'notFound' | 'clientNotFound' | 'clientExists' }

/**
 * A user picks the client of a payment in the queue; with `saveAlias` the payer name is saved
 * as that client's alias (replacing any alias of that name, accents aside, for other clients) and the queue's other payments from
 * the same payer get the client too. Future imports match it. `clientId` null creates a client
 * named as the payer, refused ('clientExists') when a client already has that name.
 */
export async function resolveReview(
	userId: string,
	organizationId: string,
	input: { transactionId: string; clientId: string | null; saveAlias: boolean },
): Promise<ResolveResult> {
	return asUser(userId, async (trx) => {
		const row = await trx
			.selectFrom('transactions')
			.select(['id', 'raw_payer'])
			.where('organization_id', '=', organizationId)
			.where('id', '=', input.transactionId)
			.executeTakeFirst()
		if (!row) return { ok: false, error: 'notFound' }
		const client =
			input.clientId === null
				? await newClientFor(trx, userId, organizationId, row.raw_payer)
				: await clientOf(trx, organizationId, input.clientId)
		if ('error' in client) return { ok: false, error: client.error }
		let q = trx.updateTable('transactions').set({ client_id: client.id, category: 'matched' }).where('organization_id', '=', organizationId)
		if (input.saveAlias && row.raw_payer) {
			const key = sql<string>`public.payer_key(${row.raw_payer})`
			await trx
				.deleteFrom('payer_aliases')
				.where('organization_id', '=', organizationId)
				.where('alias_key', '=', key)
				.where('client_id', '<>', client.id)
				.execute()
			await trx
				.insertInto('payer_aliases')
				.values({ organization_id: organizationId, alias: row.raw_payer, client_id: client.id })
				.onConflict((oc) => oc.columns(['organization_id', 'alias_key', 'client_id']).doNothing())
				.execute()
			q = q.where((eb) =>
				eb.or([
					eb('id', '=', row.id),
					eb.and([
						eb('client_id', 'is', null),
						eb('category', 'in', ['review', 'unmatched']),
						eb(sql`public.payer_key(raw_payer)`, '=', key),
					]),
				]),
			)
		} else {
			q = q.where('id', '=', row.id)
		}
		const result = await q.executeTakeFirst()
		return { ok: true, updated: Number(result.numUpdatedRows) }
	})
}

/**
 * The transactions of a batch that an undo keeps: those edited since the import (a client chosen
 * in the review queue, a cell changed), as `undo_import_chunk` decides (updated_at past created_at).
 * Said before the undo (how many will stay) and after it (how many stayed); RLS: the member's own
 * organization only.
 */
export async function editedSinceImport(userId: string, batchId: string) {
	return asUser(userId, async (trx) => {
		const { rows } = await sql<{ n: number }>`
			select count(*)::integer as n from public.transactions t
			where t.import_batch_id = ${batchId} and t.updated_at <> t.created_at`.execute(trx)
		return rows[0]?.n ?? 0
	})
}
