import { sql, type RawBuilder } from 'kysely'
import {
	CLIENT_DEFAULT_SORT,
	CLIENT_SORTS,
	type ClientChoice,
	type ClientRowInput,
	type ClientSort,
	type ClientStatus,
} from '#app/lib/schemas/clients.ts'
import { type BatchResult, type SaveWarning } from '#app/lib/editable-rows.ts'
import { PHONE } from '#app/lib/schemas/fields.ts'
import { batchSaver, fingerprint, versionOf, type BatchPlan } from '../data-table.ts'
import { asUser, dbErrorCode, type Tx } from '../db/index.ts'
import { COUNT_CAP, likePattern, normalizeSearch, payerKey, readPaging, type PageOptions, type SortDirection } from '../query.ts'

/**
 * The clients of one organization: the paged, sorted, searched list, the all-or-nothing batch
 * save with optimistic concurrency (as for transactions), one client with their totals, and
 * the choices of the transactions' client cell.
 * Every query names the organization explicitly: RLS lets a user see all of theirs.
 */

export type ListClientsOptions = PageOptions<ClientSort> & { q?: string | null; tag?: string | null }

/** A client as the tables show it. */
export type ClientRow = {
	id: string
	name: string
	email: string | null
	phone: string | null
	company: string | null
	status: ClientStatus
	/** CRM Basic Fields' tags (docs/product.md, Clients › Tags and notes); shown only with the upgrade. */
	tags: string[]
	createdAt: string
}

/**
 * A client as loaded: the values and the version. The read mode shows it (shownClient); the edit
 * mode adds the fingerprint (editableClient), which only the edit form needs.
 */
export type LoadedClient = ClientRow & { version: string }

/** A client as the edit mode loads it: with the version and fingerprint the save checks. */
export type EditableClientRow = LoadedClient & { fingerprint: string }

/** A row as the queries select it (columns named as the row's fields). */
type DbRow = Omit<LoadedClient, 'createdAt'> & { createdAt: Date }

function editableValues(row: { name: string; email: string | null; phone: string | null; company: string | null; status: string }) {
	return [row.name, row.email, row.phone, row.company, row.status]
}

function toRow(row: DbRow): LoadedClient {
	return { ...row, createdAt: new Date(row.createdAt).toISOString() }
}

/** A loaded client as the edit form needs it: with the fingerprint of its values. */
export function editableClient(row: LoadedClient): EditableClientRow {
	return { ...row, fingerprint: fingerprint(editableValues(row)) }
}

/** A loaded client as a read-only screen needs it: its values only. */
export function shownClient({ version: _version, ...row }: LoadedClient): ClientRow {
	return row
}

const columns = sql`c.id, c.name, c.email, c.phone, c.company, c.status, c.tags, c.created_at as "createdAt", ${versionOf('c.updated_at')} as version`

/** Each sort's ORDER BY, with a unique tie-break (clients without an email, phone or company last). */
function orderBy(sort: ClientSort, dir: SortDirection): RawBuilder<unknown> {
	const d = sql.raw(dir)
	const orders: Record<ClientSort, RawBuilder<unknown>> = {
		// Case- and accent-blind (supabase/migrations/20261123005000_name_sort_key.sql).
		name: sql`public.name_sort_key(c.name) ${d}, c.name ${d}, c.id ${d}`,
		created_at: sql`c.created_at ${d}, c.id ${d}`,
		status: sql`c.status ${d}, public.name_sort_key(c.name) asc, c.id asc`,
		email: sql`c.email ${d} nulls last, c.id ${d}`,
		phone: sql`c.phone ${d} nulls last, c.id ${d}`,
		company: sql`c.company ${d} nulls last, c.id ${d}`,
	}
	return orders[sort]
}

/**
 * The clients list's filter: the organization's clients found by `q` (name, email, phone or
 * company) and, with CRM Basic Fields, holding `tag` (the GIN index on tags: 20261209100000_crm.sql).
 */
export function clientFilter(organizationId: string, options: { q?: string | null; tag?: string | null }): RawBuilder<unknown> {
	const q = normalizeSearch(options.q)
	const pattern = q ? likePattern(q) : null
	const tag = options.tag?.trim().toLowerCase()
	return sql`c.organization_id = ${organizationId}
		${pattern ? sql`and (c.name_key like public.name_sort_key(${pattern}) or c.email ilike ${pattern} or c.phone ilike ${pattern} or c.company_key like public.name_sort_key(${pattern}))` : sql``}
		${tag ? sql`and c.tags @> array[${tag}]::text[]` : sql``}`
}

/** The clients' order for a sort and direction (the list's, and its CSV export's). */
export function clientOrder(options: Pick<ListClientsOptions, 'sort' | 'dir'>): RawBuilder<unknown> {
	const { sort, dir } = readPaging(options, CLIENT_SORTS, CLIENT_DEFAULT_SORT)
	return orderBy(sort, dir)
}

export async function listClients(userId: string, organizationId: string, options: ListClientsOptions = {}) {
	const { sort, dir, pageSize, offset } = readPaging(options, CLIENT_SORTS, CLIENT_DEFAULT_SORT)
	const where = clientFilter(organizationId, options)
	return asUser(userId, async (trx) => {
		const { rows } = await sql<DbRow>`select ${columns} from public.clients c where ${where}
			order by ${orderBy(sort, dir)} offset ${offset} limit ${pageSize}`.execute(trx)
		const count = await sql<{ n: number }>`select count(*)::int8 as n from
			(select 1 from public.clients c where ${where} limit ${COUNT_CAP + 1}) s`.execute(trx)
		const n = Number(count.rows[0]?.n ?? 0)
		return { rows: rows.map(toRow), total: Math.min(n, COUNT_CAP), totalCapped: n > COUNT_CAP }
	})
}

export type ClientValues = Omit<ClientRow, 'id' | 'createdAt'>

export type SaveClientsResult = BatchResult<ClientValues>

/**
 * Saves a batch of clients all or nothing (see saveBatch). A deleted client's payments stay,
 * without a client. A new name or email (or a changed one) that another client already has is
 * allowed, after a question.
 */
export const saveClients = batchSaver<ClientRowInput, LoadedClient, ClientValues, undefined>((userId, organizationId, input) => ({
	table: 'clients',
	lock: async (trx, ids) =>
		(
			await sql<DbRow>`select ${columns} from public.clients c
				where c.organization_id = ${organizationId} and c.id = any(${ids}::uuid[]) for update`.execute(trx)
		).rows.map(toRow),
	fingerprint: (row) => fingerprint(editableValues(row)),
	conflictValues: ({ id: _id, version: _v, createdAt: _c, ...values }) => values,
	// A phone written or changed here is a phone number (PHONE, as on the profile and the public
	// booking page); one saved before the rule stays until someone changes it.
	prepare: async (_trx, plan, current, fail) => {
		for (const { index, row } of [...plan.inserts, ...plan.updates]) {
			if (row.phone && row.phone !== (row.id ? current.get(row.id)?.phone : null) && !PHONE.test(row.phone))
				fail(index, 'phone', 'phoneInvalid')
		}
		return undefined
	},
	warn: async (trx, plan, current) => [
		...(await duplicates(trx, organizationId, plan, current)),
		...(await deletedWithPayments(trx, organizationId, input, current)),
	],
	write: async (trx, plan) => {
		if (plan.updates.length > 0) {
			const values = sql.join(
				plan.updates.map(
					({ row }) => sql`(${row.id}::uuid, ${row.name}, ${row.email}, ${row.phone}, ${row.company}, ${row.status}::public.client_status)`,
				),
			)
			await sql`update public.clients c set name = v.name, email = v.email, phone = v.phone, company = v.company, status = v.status
				from (values ${values}) as v(id, name, email, phone, company, status)
				where c.organization_id = ${organizationId} and c.id = v.id`.execute(trx)
		}
		if (plan.inserts.length > 0) {
			await trx
				.insertInto('clients')
				.values(
					plan.inserts.map(({ row }) => ({
						organization_id: organizationId,
						user_id: userId,
						name: row.name,
						email: row.email,
						phone: row.phone,
						company: row.company,
						status: row.status,
					})),
				)
				.execute()
		}
	},
}))

/** Clients to be deleted that have payments: the payments stay, with no client. */
async function deletedWithPayments(trx: Tx, organizationId: string, input: ClientRowInput[], current: Map<string, LoadedClient>) {
	const deleted = input.flatMap((row, index) => (row.id && row.deleted && current.has(row.id) ? [{ index, id: row.id }] : []))
	if (deleted.length === 0) return []
	const { rows } = await sql<{ id: string }>`select distinct t.client_id as id from public.transactions t
		where t.organization_id = ${organizationId} and t.client_id = any(${deleted.map((d) => d.id)}::uuid[])`.execute(trx)
	const paid = new Set(rows.map((r) => r.id))
	return deleted.flatMap(({ index, id }): SaveWarning[] =>
		paid.has(id) ? [{ index, code: 'clientHasPayments', value: current.get(id)!.name }] : [],
	)
}

/**
 * New or changed names and emails that another client (saved, or earlier in the batch) already
 * has. Names compare as import matching compares payers (case, spaces and accents ignored:
 * "grace nguyen" is Grace Nguyen, "angela ruiz" is Ángela Ruiz), emails in any case.
 */
async function duplicates(trx: Tx, organizationId: string, plan: BatchPlan<ClientRowInput>, current: Map<string, LoadedClient>) {
	const written = [...plan.inserts, ...plan.updates].sort((a, b) => a.index - b.index)
	const emailOf = (email: string | null) => email?.trim().toLowerCase() || null
	// The rows whose name, or email, is new or changed: only those are asked about.
	const named = written.filter(({ row }) => !row.id || payerKey(current.get(row.id)?.name ?? '') !== payerKey(row.name))
	const mailed = written.filter(
		({ row }) => emailOf(row.email) && (!row.id || emailOf(current.get(row.id)?.email ?? null) !== emailOf(row.email)),
	)
	const namedIndexes = new Set(named.map((n) => n.index))
	const mailedIndexes = new Set(mailed.map((m) => m.index))
	if (named.length === 0 && mailed.length === 0) return []
	const names = [...new Set(named.map(({ row }) => payerKey(row.name)))]
	const emails = [...new Set(mailed.map(({ row }) => emailOf(row.email)!))]
	const { rows: taken } = await sql<{
		id: string
		name: string
		email: string | null
	}>`select c.id, public.payer_key(c.name) as name, lower(c.email) as email
		from public.clients c
		where c.organization_id = ${organizationId} and (public.payer_key(c.name) = any(${names}::text[]) or lower(c.email) = any(${emails}::text[]))`.execute(
		trx,
	)
	const warnings: SaveWarning[] = []
	const seenNames = new Set<string>()
	const seenEmails = new Set<string>()
	for (const { index, row } of written) {
		const name = payerKey(row.name)
		if (namedIndexes.has(index)) {
			if (seenNames.has(name) || taken.some((c) => c.name === name && c.id !== row.id))
				warnings.push({ index, code: 'duplicateName', value: row.name })
		}
		seenNames.add(name)
		const email = emailOf(row.email)
		if (email && mailedIndexes.has(index)) {
			if (seenEmails.has(email) || taken.some((c) => c.email === email && c.id !== row.id))
				warnings.push({ index, code: 'duplicateEmail', value: row.email! })
		}
		if (email) seenEmails.add(email)
	}
	return warnings
}

export type ClientTotals = { count: number; amount: string; first: string | null; last: string | null }

/** One client of the organization with the totals of their payments, or null. */
export async function getClient(userId: string, organizationId: string, clientId: string) {
	return asUser(userId, async (trx: Tx) => {
		const { rows } = await sql<DbRow>`select ${columns} from public.clients c
			where c.organization_id = ${organizationId} and c.id = ${clientId}`.execute(trx)
		const row = rows[0]
		if (!row) return null
		const totals = await sql<{ count: number; amount: string; first: string | null; last: string | null }>`
			select count(*)::int8 as count, coalesce(sum(t.amount), 0)::numeric(18, 2)::text as amount,
				min(t.date_received)::text as first, max(t.date_received)::text as last
			from public.transactions t where t.organization_id = ${organizationId} and t.client_id = ${clientId}`.execute(trx)
		const t = totals.rows[0]
		return {
			client: toRow(row),
			totals: {
				count: Number(t?.count ?? 0),
				amount: t?.amount ?? '0.00',
				first: t?.first ?? null,
				last: t?.last ?? null,
			} satisfies ClientTotals,
		}
	})
}

/** How many clients the transactions' client cell offers (any name can still be typed). */
export const CLIENT_CHOICES = 1_000

/**
 * The clients a transaction's client cell offers: `value` is what picking one types in the
 * cell, the name, or "Name <email>" for a name several clients share (the save resolves both).
 */
export async function listClientChoices(userId: string, organizationId: string): Promise<ClientChoice[]> {
	const rows = await asUser(userId, (trx) =>
		trx
			.selectFrom('clients')
			.select(['id', 'name', 'email'])
			.where('organization_id', '=', organizationId)
			.where('name', '<>', '')
			.orderBy(sql`public.name_sort_key(name)`)
			.orderBy('name')
			.orderBy('email')
			.limit(CLIENT_CHOICES)
			.execute(),
	)
	const count = new Map<string, number>()
	for (const r of rows) count.set(r.name.toLowerCase(), (count.get(r.name.toLowerCase()) ?? 0) + 1)
	return rows.map((r) => ({
		...r,
		value: (count.get(r.name.toLowerCase()) ?? 0) > 1 && r.email ? `${r.name} <${r.email}>` : r.name,
	}))
}

/** How many clients the "Merge into…" search lists at once. */
export const MERGE_CHOICES = 20

/**
 * The clients of the organization a client may be merged into (docs/product.md, Clients from
 * bookings): every one but that client, found by name (blind to case and accents, as the clients
 * table searches), e-mail or phone, in name order, at most MERGE_CHOICES.
 */
export async function listMergeCandidates(userId: string, organizationId: string, clientId: string, query: string | null) {
	const q = normalizeSearch(query)
	const pattern = q ? likePattern(q) : null
	return asUser(userId, async (trx) => {
		const { rows } = await sql<{ id: string; name: string; email: string | null; phone: string | null }>`
			select c.id, c.name, c.email, c.phone from public.clients c
			where c.organization_id = ${organizationId} and c.id <> ${clientId}
				${pattern ? sql`and (c.name_key like public.name_sort_key(${pattern}) or c.email ilike ${pattern} or c.phone ilike ${pattern})` : sql``}
			order by public.name_sort_key(c.name), c.name, c.id
			limit ${MERGE_CHOICES}`.execute(trx)
		return rows
	})
}

/** Why two clients were not merged: one is not of the organization (any more), or both are one. */
export type MergeRefusal = 'not_found' | 'same_client'

/**
 * Merges client `mergeId` into client `keepId`, both of the organization (public.merge_clients):
 * the first one's payments, appointments, expectations and payer names go to the second, whose
 * empty e-mail, phone and company take the first one's; the first is deleted.
 */
export async function mergeClients(
	userId: string,
	organizationId: string,
	keepId: string,
	mergeId: string,
): Promise<{ ok: true } | { ok: false; code: MergeRefusal }> {
	try {
		return await asUser(userId, async (trx) => {
			// The function checks that both share an organization of the member's: here, this one.
			const own = await trx
				.selectFrom('clients')
				.select('id')
				.where('organization_id', '=', organizationId)
				.where('id', 'in', [keepId, mergeId])
				.execute()
			if (own.length !== new Set([keepId, mergeId]).size) return { ok: false, code: 'not_found' } as const
			await sql`select public.merge_clients(${keepId}, ${mergeId})`.execute(trx)
			return { ok: true } as const
		})
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'not_found' || code === 'same_client') return { ok: false, code }
		throw error
	}
}
