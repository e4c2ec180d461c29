import { sql, type RawBuilder } from 'kysely'
import { CLIENT_DEFAULT_SORT, CLIENT_SORTS, type ClientRowInput, type ClientSort, type ClientStatus } from '#app/lib/schemas/clients.ts'
import { fingerprint, versionOf } from './data-table.ts'
import { asUser, type Tx } from './db/index.ts'
import { COUNT_CAP, likePattern, normalizeSearch, readPaging, type PageOptions, type SortDirection } from './query.ts'

/**
 * The clients of one organization: the paged, sorted, searched list, the all-or-nothing batch
 * save with optimistic concurrency (as for transactions), and one client with their totals.
 * Every query names the organization explicitly: RLS lets a user see all of theirs.
 */

export type ListClientsOptions = PageOptions<ClientSort> & { q?: string | null }

export type ClientRow = {
	id: string
	name: string
	email: string | null
	phone: string | null
	company: string | null
	status: ClientStatus
	createdAt: string
	version: string
	fingerprint: string
}

type DbRow = {
	id: string
	name: string
	email: string | null
	phone: string | null
	company: string | null
	status: ClientStatus
	created_at: Date
	version: string
}

function editableValues(row: { name: string; email: string | null; phone: string | null; company: string | null; status: string }) {
	return [row.name, row.email, row.phone, row.company, row.status]
}

function toRow(r: DbRow): ClientRow {
	const row = {
		id: r.id,
		name: r.name,
		email: r.email,
		phone: r.phone,
		company: r.company,
		status: r.status,
		createdAt: new Date(r.created_at).toISOString(),
		version: r.version,
	}
	return { ...row, fingerprint: fingerprint(editableValues(row)) }
}

const columns = sql`c.id, c.name, c.email, c.phone, c.company, c.status, c.created_at, ${versionOf('c.updated_at')} as version`

function orderBy(sort: ClientSort, dir: SortDirection): RawBuilder<unknown> {
	const d = sql.raw(dir)
	switch (sort) {
		case 'name':
			return sql`c.name ${d}, c.id ${d}`
		case 'created_at':
			return sql`c.created_at ${d}, c.id ${d}`
		case 'status':
			return sql`c.status ${d}, c.name asc, c.id asc`
		case 'email':
			return sql`c.email ${d} nulls last, c.id ${d}`
		case 'phone':
			return sql`c.phone ${d} nulls last, c.id ${d}`
		case 'company':
			return sql`c.company ${d} nulls last, c.id ${d}`
	}
}

export async function listClients(userId: string, organizationId: string, options: ListClientsOptions = {}) {
	const { sort, dir, pageSize, offset } = readPaging(options, CLIENT_SORTS, CLIENT_DEFAULT_SORT)
	const q = normalizeSearch(options.q)
	const where = q
		? sql`c.organization_id = ${organizationId} and (c.name ilike ${likePattern(q)} or c.email ilike ${likePattern(q)}
			or c.phone ilike ${likePattern(q)} or c.company ilike ${likePattern(q)})`
		: sql`c.organization_id = ${organizationId}`
	return asUser(userId, async (trx) => {
		const { rows } = await sql<DbRow>`select ${columns} from public.clients c where ${where}
			order by ${orderBy(sort, dir)} offset ${offset} limit ${pageSize}`.execute(trx)
		const count = await sql<{ n: number }>`select count(*)::int8 as n from
			(select 1 from public.clients c where ${where} limit ${COUNT_CAP + 1}) s`.execute(trx)
		const n = Number(count.rows[0]?.n ?? 0)
		return { rows: rows.map(toRow), total: Math.min(n, COUNT_CAP), totalCapped: n > COUNT_CAP }
	})
}

export type ClientValues = Omit<ClientRow, 'id' | 'version' | 'fingerprint' | 'createdAt'>

export type SaveClientsResult =
	| { ok: true; inserted: number; updated: number; deleted: number }
	| { ok: false; rowErrors: Record<number, Record<string, string>>; conflicts: Record<number, ClientValues> }

class Refused extends Error {
	constructor(readonly result: Extract<SaveClientsResult, { ok: false }>) {
		super('refused')
	}
}

/**
 * Saves every row or none, in one transaction (see saveTransactions): inserts new clients,
 * updates edited ones and deletes those marked, refusing rows of another organization and rows
 * changed by someone else since they were loaded. A deleted client's payments stay, without
 * a client.
 */
export async function saveClients(userId: string, organizationId: string, input: ClientRowInput[]): Promise<SaveClientsResult> {
	try {
		return await asUser(userId, async (trx) => {
			const rowErrors: Record<number, Record<string, string>> = {}
			const conflicts: Record<number, ClientValues> = {}
			const fail = (index: number, field: string, code: string) => {
				rowErrors[index] ??= {}
				rowErrors[index][field] ??= code
			}
			const ids = input.flatMap((r) => (r.id ? [r.id] : []))
			const current = new Map<string, ClientRow>()
			if (ids.length > 0) {
				const { rows } = await sql<DbRow>`select ${columns} from public.clients c
					where c.organization_id = ${organizationId} and c.id = any(${ids}::uuid[]) for update`.execute(trx)
				for (const r of rows) current.set(r.id, toRow(r))
			}
			const seen = new Set<string>()
			const toDelete: string[] = []
			const toUpdate: ClientRowInput[] = []
			const toInsert: ClientRowInput[] = []
			input.forEach((row, index) => {
				if (!row.id) {
					if (!row.deleted) toInsert.push(row)
					return
				}
				const existing = current.get(row.id)
				if (!existing || seen.has(row.id)) return fail(index, 'row', 'rowNotFound')
				seen.add(row.id)
				const edited = row.deleted || row.fingerprint !== fingerprint(editableValues(row))
				if (!edited) return
				if (existing.version !== row.version) {
					const { id: _id, version: _v, fingerprint: _f, createdAt: _c, ...values } = existing
					conflicts[index] = values
					return fail(index, 'row', 'conflict')
				}
				if (row.deleted) toDelete.push(row.id)
				else toUpdate.push(row)
			})
			if (Object.keys(rowErrors).length > 0) throw new Refused({ ok: false, rowErrors, conflicts })

			if (toDelete.length > 0) {
				await sql`delete from public.clients c
					where c.organization_id = ${organizationId} and c.id = any(${toDelete}::uuid[])`.execute(trx)
			}
			if (toUpdate.length > 0) {
				const values = sql.join(
					toUpdate.map((row) => sql`(${row.id}::uuid, ${row.name}, ${row.email}, ${row.phone}, ${row.company}, ${row.status}::public.client_status)`),
				)
				await sql`update public.clients c set name = v.name, email = v.email, phone = v.phone, company = v.company, status = v.status
					from (values ${values}) as v(id, name, email, phone, company, status)
					where c.organization_id = ${organizationId} and c.id = v.id`.execute(trx)
			}
			if (toInsert.length > 0) {
				await trx
					.insertInto('clients')
					.values(
						toInsert.map((row) => ({
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
			return { ok: true as const, inserted: toInsert.length, updated: toUpdate.length, deleted: toDelete.length }
		})
	} catch (error) {
		if (error instanceof Refused) return error.result
		throw error
	}
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
			totals: { count: Number(t?.count ?? 0), amount: t?.amount ?? '0.00', first: t?.first ?? null, last: t?.last ?? null } satisfies ClientTotals,
		}
	})
}
