import { sql, type RawBuilder } from 'kysely'
import { P2P_MODULE_ID } from '#app/lib/modules.ts'
import {
	TRANSACTION_CATEGORIES,
	TRANSACTION_DEFAULT_SORT,
	TRANSACTION_SORTS,
	parseAmount,
	type EditableTransactionRow,
	type PaymentMethod,
	type TransactionCategory,
	type TransactionRow,
	type TransactionRowInput,
	type TransactionSort,
} from '#app/lib/schemas/transactions.ts'
import { type BatchResult } from '#app/lib/editable-rows.ts'
import { groupsThousandsWithDots } from '#app/lib/schemas/fields.ts'
import { batchSaver, fingerprint, versionOf, type Fail } from '../data-table.ts'
import { asUser, type Tx } from '../db/index.ts'
import { COUNT_CAP, likePattern, normalizeSearch, readPaging, type PageOptions, type SortDirection } from '../query.ts'

/**
 * The transactions of one organization: the paged, sorted, searched list (fast at 1,000,000
 * rows: every sort walks an index, pages are fetched by id after the offset, totals come from
 * the rollup tables or a capped count), the all-or-nothing batch save with optimistic
 * concurrency, and the sync status of the P2P transaction-tracking module.
 * Every query names the organization explicitly: RLS lets a user see all of theirs.
 */

/** Matches per kind (text, client name, amount) a search gathers, the most recent first. */
export const SEARCH_CAP = 5_000
export type ListTransactionsOptions = PageOptions<TransactionSort> & {
	q?: string | null
	/** The reader's language: a search reads an amount as it writes one ("1.500" is 1500 in es). */
	language?: string
	category?: TransactionCategory | null
	clientId?: string | null
}

export type { EditableTransactionRow, TransactionRow }

/**
 * A row as the queries select it (columns named as the row's fields): the values and the
 * version. The read mode shows it (shownTransaction); the edit mode adds the fingerprint
 * (editableTransaction).
 */
export type LoadedTransaction = TransactionRow & { version: string }

export type TransactionPage = { rows: LoadedTransaction[]; total: number; totalCapped: boolean }

/** The values a user edits, as text, in the order the fingerprint hashes them. */
function editableValues(row: {
	clientName: string | null
	externalId: string | null
	amount: string
	tip: string | null
	dateReceived: string
	category: string
	paymentMethod: string
	description: string | null
}) {
	return [row.clientName, row.externalId, row.amount, row.tip, row.dateReceived, row.category, row.paymentMethod, row.description]
}

/** A loaded row as the edit form needs it: with the fingerprint of its values. */
export function editableTransaction(row: LoadedTransaction): EditableTransactionRow {
	return { ...row, fingerprint: fingerprint(editableValues(row)) }
}

/** A loaded row as a read-only table needs it: its values only. */
export function shownTransaction({ version: _version, ...row }: LoadedTransaction): TransactionRow {
	return row
}

const columns = sql`t.id, t.date_received as "dateReceived", t.client_id as "clientId", c.name as "clientName",
	t.tags, t.held_for_review as "heldForReview",
	t.external_id as "externalId", t.amount, t.tip, t.category, t.payment_method as "paymentMethod", t.description,
	${versionOf('t.updated_at')} as version`

const clientJoin = sql`left join public.clients c on c.organization_id = t.organization_id and c.id = t.client_id`

/** The ORDER BY of a sort: each one an index of the data model walks, with a unique tie-break. */
function orderBy(sort: TransactionSort, dir: SortDirection): RawBuilder<unknown> {
	const d = sql.raw(dir)
	const opposite = sql.raw(dir === 'asc' ? 'desc' : 'asc')
	switch (sort) {
		case 'date_received':
			return sql`t.date_received ${d}, t.id ${d}`
		case 'amount':
			return sql`t.amount ${d}, t.id ${d}`
		case 'external_id':
			return sql`t.external_id ${d}, t.id ${d}`
		case 'description':
			return sql`t.description ${d}, t.id ${d}`
		// (organization_id, category, date_received desc): forwards for asc, backwards for desc.
		case 'category':
			return sql`t.category ${d}, t.date_received ${opposite}, t.id ${opposite}`
		case 'payment_method':
			return sql`t.payment_method ${d}, t.date_received ${opposite}, t.id ${opposite}`
		case 'client':
			// Blind to case and accents, as the clients' own table sorts them ("Ángela" with the
			// A's, "émile" with the E's). Rows without a client come last in both directions.
			return sql`public.name_sort_key(c.name) ${d} nulls last, t.client_id ${d}, t.date_received desc, t.id desc`
	}
}

/**
 * A search that reads as an amount also matches that amount: as the reader's language writes
 * one ("1.500" and "1.500,00 US$" in es, "$1,250.00" in en), else as English writes it.
 */
function searchedAmount(q: string, language: string | undefined) {
	if (!/\d/.test(q)) return null
	for (const dotGroups of language && groupsThousandsWithDots(language) ? [true, false] : [false]) {
		const parsed = parseAmount(q, { dotGroups })
		if (parsed.ok) return parsed.value
	}
	return null
}

export async function listTransactions(
	userId: string,
	organizationId: string,
	options: ListTransactionsOptions = {},
): Promise<TransactionPage> {
	const query = pageQuery(organizationId, options)
	return asUser(userId, (trx) => transactionPageIn(trx, query))
}

/**
 * The transactions screen's reads in one transaction: a page of transactions and the sync
 * status of the P2P module (docs/decisions/023-fewer-round-trips.md), sent together (the
 * connection runs them one after the other without waiting for us in between: decision 026).
 * Without a search, the page's total comes with the sync status, and unless the page walks the
 * clients' names, the page's rows too: one statement for the whole screen (pageRowsCountAndSync).
 * Each statement fewer is a round trip on the server and about 0.3 ms of its own on the embedded
 * database (bench/README.md, "Plain links" and "One statement for the transactions screen").
 */
export async function getTransactionsScreen(userId: string, organizationId: string, options: ListTransactionsOptions = {}) {
	const query = pageQuery(organizationId, options)
	return asUser(userId, async (trx) => {
		if (query.q) {
			const [page, sync] = await Promise.all([transactionPageIn(trx, query), syncStatusIn(trx, organizationId)])
			return { page, sync }
		}
		const { filter, sort, dir, pageSize, offset } = query
		if (walksClientNames(filter, sort)) {
			const [rows, { count, sync }] = await Promise.all([sortedPage(trx, filter, sort, dir, pageSize, offset), countAndSyncIn(trx, filter)])
			return { page: { rows, total: count.total, totalCapped: count.capped }, sync }
		}
		const { rows, count, sync } = await pageRowsCountAndSync(trx, filter, sort, dir, pageSize, offset)
		return { page: { rows, total: count.total, totalCapped: count.capped }, sync }
	})
}

type PageQuery = ReturnType<typeof pageQuery>

/** What a page of transactions asks for, checked: the paging, the filter and the search, if any. */
function pageQuery(organizationId: string, options: ListTransactionsOptions) {
	const { sort, dir, pageSize, offset } = readPaging(options, TRANSACTION_SORTS, TRANSACTION_DEFAULT_SORT)
	const category = options.category && TRANSACTION_CATEGORIES.includes(options.category) ? options.category : null
	const filter: Filter = { organizationId, category, clientId: options.clientId ?? null }
	return { filter, sort, dir, pageSize, offset, q: normalizeSearch(options.q), language: options.language }
}

function transactionPageIn(trx: Tx, { filter, sort, dir, pageSize, offset, q, language }: PageQuery): Promise<TransactionPage> {
	if (q) return searchPage(trx, filter, q, searchedAmount(q, language), sort, dir, pageSize, offset)
	return listPage(trx, filter, sort, dir, pageSize, offset)
}

type Filter = {
	organizationId: string
	category: TransactionCategory | null
	clientId: string | null
	/** A search's condition on `t`, when the search walks the sort order (see searchPage). */
	match?: RawBuilder<unknown>
}

/** The organization, category and client conditions on `t`. */
function baseSql({ organizationId, category, clientId }: Filter) {
	const parts = [sql`t.organization_id = ${organizationId}`]
	if (category) parts.push(sql`t.category = ${category}`)
	if (clientId) parts.push(sql`t.client_id = ${clientId}`)
	return sql.join(parts, sql` and `)
}

/** The base conditions and the search's, if any. */
function filterSql(filter: Filter) {
	return filter.match ? sql`${baseSql(filter)} and ${filter.match}` : baseSql(filter)
}

async function listPage(trx: Tx, filter: Filter, sort: TransactionSort, dir: SortDirection, limit: number, offset: number) {
	const [rows, { total, capped }] = await Promise.all([sortedPage(trx, filter, sort, dir, limit, offset), countRows(trx, filter)])
	return { rows, total, totalCapped: capped }
}

/**
 * One page of rows in sort order: by the clients' names blind to case and accents, walking
 * clients_org_name_sort_idx (clientOrderIds), or by an index walk.
 */
function sortedPage(trx: Tx, filter: Filter, sort: TransactionSort, dir: SortDirection, limit: number, offset: number) {
	return walksClientNames(filter, sort)
		? clientOrderIds(trx, filter, dir, limit, offset).then((ids) => rowsByIds(trx, filter.organizationId, ids))
		: pageRows(trx, filter, sort, dir, limit, offset)
}

/** Whether a page in this order is found by walking the clients' names first (clientOrderIds). */
function walksClientNames(filter: Filter, sort: TransactionSort) {
	return sort === 'client' && !filter.clientId
}

/**
 * One page's full rows in sort order, as one query: the page's ids by an index walk (often
 * index-only) that skips the offset without reading rows, then those rows, with `position`
 * their place in the walk.
 */
function pageRowsSql(filter: Filter, sort: TransactionSort, dir: SortDirection, limit: number, offset: number) {
	const join = sort === 'client' ? clientJoin : sql``
	const walk = sql`select ${walkColumns} from public.transactions t ${join} where ${baseSql(filter)} order by ${orderBy(sort, dir)}`
	return sql`select ${columns}, p.n as position
		from unnest(array(${page(walk, filter.match, offset, limit)})) with ordinality as p(id, n)
		join public.transactions t on t.organization_id = ${filter.organizationId} and t.id = p.id
		${clientJoin}`
}

async function pageRows(trx: Tx, filter: Filter, sort: TransactionSort, dir: SortDirection, limit: number, offset: number) {
	const { rows } = await sql<
		LoadedTransaction & { position: unknown }
	>`${pageRowsSql(filter, sort, dir, limit, offset)} order by p.n`.execute(trx)
	return rows.map(({ position: _position, ...row }) => row)
}

/**
 * The transactions screen without a search, in one statement and so one round trip: a page's
 * rows (pageRowsSql), and the filter's total with the sync status as `summary`. The summary is a
 * row of its own that the page's rows join, so it comes back on an empty page too (as one row
 * whose `id` is null).
 */
async function pageRowsCountAndSync(trx: Tx, filter: Filter, sort: TransactionSort, dir: SortDirection, limit: number, offset: number) {
	const { total, capped } = totalSql(filter)
	const { rows } = await sql<LoadedTransaction & { position: unknown; summary: SyncRow & { total: number | null } }>`
		select x.summary, r.*
		from (select json_build_object('total', ${total}::int8, 'sync_status', s.sync_status, 'error_message', s.error_message,
				'last_synced_at', s.last_synced_at) as summary
			from (select 1) as one
			left join public.module_sync_status s on s.organization_id = ${filter.organizationId} and s.module_id = ${P2P_MODULE_ID}) x
		left join lateral (${pageRowsSql(filter, sort, dir, limit, offset)}) r on true
		order by r.position`.execute(trx)
	const summary = rows[0]?.summary
	return {
		rows: rows[0]?.id == null ? [] : rows.map(({ summary: _summary, position: _position, ...row }) => row),
		count: countOf(summary?.total, capped),
		sync: syncStateOf(summary),
	}
}

/** What a walk reads: the id, and the columns a search's condition looks at. */
const walkColumns = sql`t.id, t.description_key, t.external_id, t.client_id, t.amount`

/**
 * One page of a walk in sort order. With a search's condition, the walk is fenced (offset 0)
 * so that the planner keeps walking the sort's index and filters as it goes: it cannot push
 * the condition into the walk (where, misjudging how common the matches are, it would rather
 * read every row and sort them). PostgreSQL keeps a fenced subquery's order through the
 * filter, and the outer query adds no ordering of its own that could change the plan.
 */
function page(walk: RawBuilder<unknown>, match: RawBuilder<unknown> | undefined, offset: number, limit: number) {
	return match
		? sql`select t.id from (${walk} offset 0) t where ${match} offset ${offset} limit ${limit}`
		: sql`select t.id from (${walk} offset ${offset} limit ${limit}) t`
}

/**
 * Client order without a full sort: the clients' name index walked into each client's
 * transactions, then (past those) the transactions without a client, newest first.
 */
async function clientOrderIds(trx: Tx, filter: Filter, dir: SortDirection, limit: number, offset: number) {
	const d = sql.raw(dir)
	const base = baseSql(filter)
	const { rows: withClient } = await sql<{ id: string }>`${page(
		sql`select ${walkColumns}
			from public.clients c join public.transactions t on t.organization_id = c.organization_id and t.client_id = c.id
			where c.organization_id = ${filter.organizationId} and ${base}
			order by public.name_sort_key(c.name) ${d}, c.id ${d}, t.date_received desc, t.id desc`,
		filter.match,
		offset,
		limit,
	)}`.execute(trx)
	const ids = withClient.map((r) => r.id)
	if (ids.length === limit) return ids
	const before = ids.length > 0 ? offset + ids.length : await countWithClient(trx, filter)
	const { rows: without } = await sql<{ id: string }>`${page(
		sql`select ${walkColumns} from public.transactions t where ${base} and t.client_id is null
			order by t.date_received desc, t.id desc`,
		filter.match,
		Math.max(0, offset - before),
		limit - ids.length,
	)}`.execute(trx)
	return [...ids, ...without.map((r) => r.id)]
}

async function countWithClient(trx: Tx, filter: Filter) {
	if (!filter.category && !filter.match) {
		const { rows } = await sql<{ n: number }>`select coalesce(sum(transaction_count), 0)::int8 as n
			from public.organization_client_transaction_counts where organization_id = ${filter.organizationId}`.execute(trx)
		return Number(rows[0]?.n ?? 0)
	}
	const { rows } = await sql<{ n: number }>`select count(*)::int8 as n from public.transactions t
		where ${filterSql(filter)} and t.client_id is not null`.execute(trx)
	return Number(rows[0]?.n ?? 0)
}

/** Full rows for the given ids, in the order given. */
async function rowsByIds(trx: Tx, organizationId: string, ids: string[]) {
	if (ids.length === 0) return []
	const { rows } = await sql<LoadedTransaction>`select ${columns} from public.transactions t ${clientJoin}
		where t.organization_id = ${organizationId} and t.id = any(${ids}::uuid[])`.execute(trx)
	const byId = new Map(rows.map((r) => [r.id, r]))
	return ids.flatMap((id) => byId.get(id) ?? [])
}

/**
 * A filter's total as one SQL expression: exact from the rollup tables the triggers keep, or
 * (for a category and a client together) a count that stops past COUNT_CAP, which `capped` says.
 */
function totalSql(filter: Filter): { total: RawBuilder<unknown>; capped: boolean } {
	const { organizationId, category, clientId } = filter
	if (!category && !clientId) {
		return {
			total: sql`(select transaction_count from public.organization_transaction_totals where organization_id = ${organizationId})`,
			capped: false,
		}
	}
	if (category && !clientId) {
		return {
			total: sql`(select sum(transaction_count) from public.transaction_monthly_rollups where organization_id = ${organizationId} and category = ${category})`,
			capped: false,
		}
	}
	if (clientId && !category) {
		return {
			total: sql`(select transaction_count from public.organization_client_transaction_counts where organization_id = ${organizationId} and client_id = ${clientId})`,
			capped: false,
		}
	}
	return {
		total: sql`(select count(*) from (select 1 from public.transactions t where ${filterSql(filter)} limit ${COUNT_CAP + 1}) s)`,
		capped: true,
	}
}

/** The total a row of `totalSql` gives: none is 0; past COUNT_CAP it shows as capped. */
function countOf(n: string | number | null | undefined, capped: boolean): { total: number; capped: boolean } {
	const total = Number(n ?? 0)
	return capped && total > COUNT_CAP ? { total: COUNT_CAP, capped: true } : { total, capped: false }
}

async function countRows(trx: Tx, filter: Filter): Promise<{ total: number; capped: boolean }> {
	const { total, capped } = totalSql(filter)
	const { rows } = await sql<{ n: string | null }>`select ${total}::int8 as n`.execute(trx)
	return countOf(rows[0]?.n, capped)
}

/** A filter's total and the sync status (see getTransactionsScreen), in one statement. */
async function countAndSyncIn(trx: Tx, filter: Filter) {
	const { total, capped } = totalSql(filter)
	const { rows } = await sql<SyncRow & { n: string | null }>`
		select ${total}::int8 as n, s.sync_status, s.error_message, s.last_synced_at
		from (select 1) as one
		left join public.module_sync_status s on s.organization_id = ${filter.organizationId} and s.module_id = ${P2P_MODULE_ID}`.execute(trx)
	return { count: countOf(rows[0]?.n, capped), sync: syncStateOf(rows[0]) }
}

/** Rows of the newest ones a search looks at to judge how common its matches are. */
const SEARCH_PROBE = 2_000
/** From this many matches in the probe (1%), a search walks the sort order instead. */
const DENSE_MATCHES = 20
/** A common search's count stops here ("500+"): counting further would read too many rows. */
export const DENSE_COUNT_CAP = 500

/** From this many matches in the probe (5 %), a dense count walks the date index first (countDense). */
const WALKED_COUNT_MATCHES = 100
/** How far that walk goes: twice the rows that 5 % needs for DENSE_COUNT_CAP matches. */
const WALKED_COUNT_ROWS = 20_000

/**
 * A common search's count, up to DENSE_COUNT_CAP + 1. When the probe says that many matches come
 * within about 10,000 rows, walking the newest rows first finds them soonest: 7 ms against 15–18
 * ms for "catering" at a million rows, on the server. Otherwise (a sparser search, or a walk that
 * ends short of the cap because the matches are all recent), the count reads the organization's
 * rows in the table's order (a bitmap of all of them), which costs about the same at any density.
 */
async function countDense(trx: Tx, filter: Filter & { match: RawBuilder<unknown> }, probed: number) {
	const cap = DENSE_COUNT_CAP + 1
	const count = async (matching: RawBuilder<unknown>) => {
		const { rows } = await sql<{ n: number }>`select count(*)::int8 as n from (${matching} limit ${cap}) s`.execute(trx)
		return Number(rows[0]?.n ?? 0)
	}
	if (probed >= WALKED_COUNT_MATCHES) {
		const walked = await count(sql`select 1 from (select ${walkColumns} from public.transactions t where ${baseSql(filter)}
			order by t.date_received desc, t.id desc limit ${WALKED_COUNT_ROWS}) t where ${filter.match}`)
		if (walked === cap) return walked
	}
	return count(sql`select 1 from public.transactions t where ${filterSql(filter)}`)
}

/**
 * A search matches the description and the client's name (blind to case and accents), the
 * external id, and the amount when the text reads as one. Under RLS, ilike cannot use the trigram indexes, so:
 * - a common search (found in 1% or more of the newest rows) walks the sort's index and keeps
 *   the rows that match, which finds a page after a few hundred rows; its count stops at 500;
 * - a rare search gathers the matching ids first (search_transaction_ids, which checks the
 *   membership and can use the trigram indexes; the client names; transaction_ids_by_amount,
 *   which can use the amount index), each way capped
 *   at SEARCH_CAP, most recent first, and sorts the page among them.
 */
async function searchPage(
	trx: Tx,
	filter: Filter,
	q: string,
	amount: string | null,
	sort: TransactionSort,
	dir: SortDirection,
	limit: number,
	offset: number,
) {
	const { organizationId } = filter
	const pattern = likePattern(q)
	// Custom plans, always: a plan kept for the statement (a named statement on the server,
	// docs/decisions/034; search_transaction_ids' query inside PL/pgSQL) cannot see the pattern,
	// and guesses how many rows it keeps: 15 ms against 8 for "catering" at 200,000 rows.
	await sql`select set_config('plan_cache_mode', 'force_custom_plan', true)`.execute(trx)
	// Client names blind to case and accents, as the clients' own search finds them.
	const { rows: named } = await sql<{ id: string }>`select c.id from public.clients c
		where c.organization_id = ${organizationId} and c.name_key like public.name_sort_key(${pattern}) limit 1000`.execute(trx)
	const clientIds = named.map((c) => c.id)
	const match = sql`(t.description_key like public.name_sort_key(${pattern}) or t.external_id ilike ${pattern}
		or t.client_id = any(${clientIds}::uuid[])${amount !== null ? sql` or t.amount = ${amount}::numeric` : sql``})`

	const probe = await sql<{ n: number }>`select count(*)::int8 as n from (
		select ${walkColumns} from public.transactions t where ${filterSql(filter)}
		order by t.date_received desc, t.id desc limit ${SEARCH_PROBE}) t where ${match}`.execute(trx)
	const probed = Number(probe.rows[0]?.n ?? 0)
	if (probed >= DENSE_MATCHES) {
		const dense = { ...filter, match }
		// Unsure how many rows the pattern keeps, the planner would sort every row of an
		// organization of 20,000 to 200,000 rows rather than walk the sort's index and stop at a
		// page: 26 ms against 1 ms for the page, 27 against 3 for the count, at 50,000 rows
		// (bench/payments.ts, 'search text'). A million rows got the walk anyway. So no sorting
		// while the two run.
		await sql`select set_config('enable_sort', 'off', true)`.execute(trx)
		const [rows, n] = await Promise.all([sortedPage(trx, dense, sort, dir, limit, offset), countDense(trx, dense, probed)])
		await sql`select set_config('enable_sort', 'on', true)`.execute(trx)
		return { rows, total: Math.min(n, DENSE_COUNT_CAP), totalCapped: n > DENSE_COUNT_CAP }
	}

	const ctes = sql`
		with s as materialized (
			select id from public.search_transaction_ids(${organizationId}, ${q}, ${SEARCH_CAP}) as id
		), cl as materialized (
			select t.id from public.transactions t
			where t.organization_id = ${organizationId} and t.client_id = any(${clientIds}::uuid[])
			order by t.date_received desc, t.id desc limit ${SEARCH_CAP}
		), am as materialized (${
			amount === null
				? sql`select null::uuid as id where false`
				: sql`select id from public.transaction_ids_by_amount(${organizationId}, ${amount}::numeric, ${SEARCH_CAP}) as id`
		}), m as (select id from s union select id from cl union select id from am),
		capped as (select (select count(*) from s) >= ${SEARCH_CAP} or (select count(*) from cl) >= ${SEARCH_CAP}
			or (select count(*) from am) >= ${SEARCH_CAP} as capped)`
	const where = sql`${filterSql(filter)} and t.id in (select id from m)`
	const { rows } = await sql<LoadedTransaction & { total: number; capped: boolean }>`${ctes}
		select ${columns}, count(*) over () as total, (select capped from capped) as capped
		from public.transactions t ${clientJoin} where ${where}
		order by ${orderBy(sort, dir)} offset ${offset} limit ${limit}`.execute(trx)
	if (rows[0])
		return {
			rows: rows.map(({ total: _total, capped: _capped, ...row }) => row),
			total: Number(rows[0].total),
			totalCapped: rows[0].capped,
		}
	if (offset === 0) return { rows: [], total: 0, totalCapped: false }
	const count = await sql<{ total: number; capped: boolean }>`${ctes}
		select count(*)::int8 as total, (select capped from capped) as capped
		from public.transactions t where ${where}`.execute(trx)
	return { rows: [], total: Number(count.rows[0]?.total ?? 0), totalCapped: count.rows[0]?.capped ?? false }
}

// ---------------------------------------------------------------------------------------------
// Saving a batch of rows
// ---------------------------------------------------------------------------------------------

export type TransactionValues = {
	clientName: string | null
	externalId: string | null
	amount: string
	tip: string | null
	dateReceived: string
	category: TransactionCategory
	paymentMethod: PaymentMethod
	description: string | null
}

export type SaveResult = BatchResult<TransactionValues>

/**
 * Saves a batch of rows all or nothing (see saveBatch). Clients are named: a name matches the
 * row's own client, else exactly one client of this organization; "Name <email>" (what the
 * client cell offers for namesakes) matches by email too; a name no client has is refused,
 * unless the row asks for a new client, created with the batch.
 */
export const saveTransactions = batchSaver<TransactionRowInput, LoadedTransaction, TransactionValues, ResolvedClients>(
	(userId, organizationId) => ({
		table: 'transactions',
		// Locks the transactions only (not their clients).
		lock: async (trx, ids) =>
			(
				await sql<LoadedTransaction>`select ${columns} from public.transactions t ${clientJoin}
				where t.organization_id = ${organizationId} and t.id = any(${ids}::uuid[]) for update of t`.execute(trx)
			).rows,
		fingerprint: (row) => fingerprint(editableValues({ ...row, clientName: row.client })),
		conflictValues: valuesOf,
		prepare: (trx, plan, current, fail) => resolveClients(trx, organizationId, [...plan.updates, ...plan.inserts], current, fail),
		write: async (trx, plan, clients) => {
			const clientIds = await createClients(trx, userId, organizationId, clients)
			if (plan.updates.length > 0) {
				const values = sql.join(
					plan.updates.map(
						({ index, row }) => sql`(${row.id}::uuid, ${clientIds.get(index) ?? null}::uuid, ${row.externalId || null},
					${row.amount}::numeric, ${row.tip}::numeric, ${row.dateReceived}::date, ${row.category}::public.transaction_category,
					${row.paymentMethod}::public.payment_method, ${row.description || null})`,
					),
				)
				await sql`update public.transactions t set client_id = v.client_id, external_id = v.external_id,
				amount = v.amount, tip = v.tip, date_received = v.date_received, category = v.category,
				payment_method = v.payment_method, description = v.description
				from (values ${values}) as v(id, client_id, external_id, amount, tip, date_received, category, payment_method, description)
				where t.organization_id = ${organizationId} and t.id = v.id`.execute(trx)
			}
			if (plan.inserts.length > 0) {
				await trx
					.insertInto('transactions')
					.values(
						plan.inserts.map(({ index, row }) => ({
							organization_id: organizationId,
							user_id: userId,
							client_id: clientIds.get(index) ?? null,
							external_id: row.externalId || null,
							amount: row.amount,
							tip: row.tip,
							date_received: row.dateReceived,
							category: row.category,
							payment_method: row.paymentMethod,
							description: row.description || null,
						})),
					)
					.execute()
			}
		},
	}),
)

function valuesOf(row: TransactionRow): TransactionValues {
	return {
		clientName: row.clientName,
		externalId: row.externalId,
		amount: row.amount,
		tip: row.tip,
		dateReceived: row.dateReceived,
		category: row.category,
		paymentMethod: row.paymentMethod,
		description: row.description,
	}
}

/** "Ana Silva <ana@example.com>": a name with the email that tells namesakes apart. */
const NAME_WITH_EMAIL = /^(.+?)\s*<([^<>\s]+@[^<>\s]+)>$/

type ResolvedClients = { ids: Map<number, string>; toCreate: Map<number, string> }

/** Each written row's client: an id, or a name to create (rows that asked for a new client). */
async function resolveClients(
	trx: Tx,
	organizationId: string,
	rows: { index: number; row: TransactionRowInput }[],
	current: Map<string, LoadedTransaction>,
	fail: Fail,
): Promise<ResolvedClients> {
	const resolved: ResolvedClients = { ids: new Map(), toCreate: new Map() }
	const named = rows.filter((r) => r.row.client)
	const hints = [...new Set(rows.flatMap((r) => (r.row.clientId ? [r.row.clientId] : [])))]
	const names = [
		...new Set(
			named.flatMap((r) => [r.row.client, NAME_WITH_EMAIL.exec(r.row.client)?.[1] ?? ''].filter(Boolean).map((n) => n.toLowerCase())),
		),
	]
	const clients: { id: string; name: string; email: string | null }[] = []
	if (names.length > 0 || hints.length > 0) {
		const { rows: found } = await sql<{ id: string; name: string; email: string | null }>`
			select c.id, c.name, c.email from public.clients c
			where c.organization_id = ${organizationId}
			  and (lower(c.name) = any(${names}::text[]) or c.id = any(${hints}::uuid[]))`.execute(trx)
		clients.push(...found)
	}
	const known = new Set(clients.map((c) => c.id))
	for (const { index, row } of rows) {
		if (row.clientId && !known.has(row.clientId)) {
			fail(index, 'client', 'clientInvalid')
			continue
		}
		if (!row.client) continue
		if (row.newClient) {
			resolved.toCreate.set(index, row.client)
			continue
		}
		let candidates = clients.filter((c) => c.name.toLowerCase() === row.client.toLowerCase()).map((c) => c.id)
		const withEmail = candidates.length === 0 ? NAME_WITH_EMAIL.exec(row.client) : null
		if (withEmail) {
			const [, name = '', email = ''] = withEmail
			candidates = clients
				.filter((c) => c.name.toLowerCase() === name.toLowerCase() && c.email?.toLowerCase() === email.toLowerCase())
				.map((c) => c.id)
		}
		const own = row.clientId ?? (row.id ? current.get(row.id)?.clientId : null)
		if (own && candidates.includes(own)) resolved.ids.set(index, own)
		else if (candidates.length === 1) resolved.ids.set(index, candidates[0]!)
		else fail(index, 'client', candidates.length === 0 ? 'clientNotFound' : 'clientAmbiguous')
	}
	return resolved
}

/** The clients rows asked for, one per name (in any case) however many rows name it. */
async function createClients(trx: Tx, userId: string, organizationId: string, { ids, toCreate }: ResolvedClients) {
	const byName = new Map<string, string>()
	for (const name of toCreate.values()) if (!byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), name)
	if (byName.size === 0) return ids
	const created = await trx
		.insertInto('clients')
		.values([...byName.values()].map((name) => ({ organization_id: organizationId, user_id: userId, name })))
		.returning(['id', 'name'])
		.execute()
	const idOf = new Map(created.map((c) => [c.name.toLowerCase(), c.id]))
	const all = new Map(ids)
	for (const [index, name] of toCreate) all.set(index, idOf.get(name.toLowerCase())!)
	return all
}

// ---------------------------------------------------------------------------------------------
// The sync status of the P2P transaction-tracking module
// ---------------------------------------------------------------------------------------------

export type SyncState = { status: 'idle' | 'pending' | 'error'; errorMessage: string | null; lastSyncedAt: string | null }

export async function getSyncStatus(userId: string, organizationId: string): Promise<SyncState> {
	return asUser(userId, (trx) => syncStatusIn(trx, organizationId))
}

async function syncStatusIn(trx: Tx, organizationId: string): Promise<SyncState> {
	const row = await trx
		.selectFrom('module_sync_status')
		.select(['sync_status', 'error_message', 'last_synced_at'])
		.where('organization_id', '=', organizationId)
		.where('module_id', '=', P2P_MODULE_ID)
		.executeTakeFirst()
	return syncStateOf(row)
}

type SyncRow = { sync_status: SyncState['status'] | null; error_message: string | null; last_synced_at: string | Date | null }

/** No row yet is idle, never synced. */
function syncStateOf(row: SyncRow | undefined): SyncState {
	return {
		status: row?.sync_status ?? 'idle',
		errorMessage: row?.error_message ?? null,
		lastSyncedAt: row?.last_synced_at ? new Date(row.last_synced_at).toISOString() : null,
	}
}
