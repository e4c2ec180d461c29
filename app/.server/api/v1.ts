/**
 * The read-only JSON API (docs/api.md): payments and clients of a token's organization, newest
 * first, in pages walked by an opaque cursor. Read as the token's member, under RLS.
 */
import { isValidDate } from '#app/lib/dates.ts'
import { asUser, sql } from '../db/index.ts'
import type { TokenHolder } from './tokens.ts'

export const DEFAULT_LIMIT = 50
export const MAX_LIMIT = 100

export type ApiError = { error: 'invalid_request'; message: string }

export type Page<T> = { data: T[]; next_cursor: string | null }

export type ApiPayment = {
	id: string
	date_received: string
	amount: string
	tip: string | null
	fee: string | null
	payment_method: string
	category: string
	client: { id: string; name: string } | null
	external_id: string | null
	description: string | null
	created_at: string
}

export type ApiClient = {
	id: string
	name: string
	email: string | null
	phone: string | null
	company: string | null
	status: string
	created_at: string
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A cursor: the last row's sort key and id, base64url of "key|id". */
function encodeCursor(key: string, id: string) {
	return Buffer.from(`${key}|${id}`).toString('base64url')
}

function decodeCursor(cursor: string, keyShape: (key: string) => boolean): { key: string; id: string } | null {
	if (cursor.length > 200) return null
	const [key = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|')
	return rest.length === 0 && keyShape(key) && UUID.test(id) ? { key, id } : null
}

const invalid = (message: string): ApiError => ({ error: 'invalid_request', message })

/** `limit` and `cursor`, the parameters every list takes. */
function pageParams(params: URLSearchParams): { limit: number; cursor: string | null } | ApiError {
	const raw = params.get('limit')
	const limit = raw === null ? DEFAULT_LIMIT : /^\d{1,3}$/.test(raw) ? Number(raw) : NaN
	if (!(limit >= 1 && limit <= MAX_LIMIT)) return invalid(`limit must be a whole number from 1 to ${MAX_LIMIT}`)
	return { limit, cursor: params.get('cursor') }
}

const KNOWN_PAYMENT_PARAMS = new Set(['limit', 'cursor', 'from', 'to'])
const KNOWN_CLIENT_PARAMS = new Set(['limit', 'cursor'])

function unknownParam(params: URLSearchParams, known: Set<string>) {
	const unknown = [...params.keys()].find((k) => !known.has(k))
	return unknown === undefined ? null : invalid(`unknown parameter: ${unknown.slice(0, 40)}`)
}

/** Payments received, newest first (date received, then id); `from` and `to` bound the date, inclusive. */
export async function listPayments(holder: TokenHolder, params: URLSearchParams): Promise<Page<ApiPayment> | ApiError> {
	const unknown = unknownParam(params, KNOWN_PAYMENT_PARAMS)
	if (unknown) return unknown
	const page = pageParams(params)
	if ('error' in page) return page
	const from = params.get('from')
	const to = params.get('to')
	if (from !== null && !isValidDate(from)) return invalid('from must be a date, YYYY-MM-DD')
	if (to !== null && !isValidDate(to)) return invalid('to must be a date, YYYY-MM-DD')
	const after = page.cursor === null ? null : decodeCursor(page.cursor, isValidDate)
	if (page.cursor !== null && !after) return invalid('cursor is not one this API gave')
	const where = [sql`t.organization_id = ${holder.organizationId}`]
	if (from) where.push(sql`t.date_received >= ${from}::date`)
	if (to) where.push(sql`t.date_received <= ${to}::date`)
	if (after) where.push(sql`(t.date_received, t.id) < (${after.key}::date, ${after.id}::uuid)`)
	const { rows } = await asUser(holder.userId, (trx) =>
		sql<ApiPayment>`
			select t.id, t.date_received::text as date_received, t.amount::text as amount, t.tip::text as tip, t.fee::text as fee,
				t.payment_method::text as payment_method, t.category::text as category,
				case when c.id is null then null else json_build_object('id', c.id, 'name', c.name) end as client,
				t.external_id, t.description, to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at
			from public.transactions t
			left join public.clients c on c.organization_id = t.organization_id and c.id = t.client_id
			where ${sql.join(where, sql` and `)}
			order by t.date_received desc, t.id desc
			limit ${page.limit + 1}`.execute(trx),
	)
	const data = rows.slice(0, page.limit)
	const last = data.at(-1)
	return { data, next_cursor: rows.length > page.limit && last ? encodeCursor(last.date_received, last.id) : null }
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

/** Clients, newest first (created, then id). */
export async function listClients(holder: TokenHolder, params: URLSearchParams): Promise<Page<ApiClient> | ApiError> {
	const unknown = unknownParam(params, KNOWN_CLIENT_PARAMS)
	if (unknown) return unknown
	const page = pageParams(params)
	if ('error' in page) return page
	const after = page.cursor === null ? null : decodeCursor(page.cursor, (key) => TIMESTAMP.test(key))
	if (page.cursor !== null && !after) return invalid('cursor is not one this API gave')
	const where = [sql`c.organization_id = ${holder.organizationId}`]
	if (after) where.push(sql`(c.created_at, c.id) < (${after.key}::timestamptz, ${after.id}::uuid)`)
	const { rows } = await asUser(holder.userId, (trx) =>
		sql<ApiClient & { sort_key: string }>`
			select c.id, c.name, c.email, c.phone, c.company, c.status::text as status,
				to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at,
				to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as sort_key
			from public.clients c
			where ${sql.join(where, sql` and `)}
			order by c.created_at desc, c.id desc
			limit ${page.limit + 1}`.execute(trx),
	)
	const data = rows.slice(0, page.limit).map(({ sort_key: _key, ...client }) => client)
	const last = rows.slice(0, page.limit).at(-1)
	return { data, next_cursor: rows.length > page.limit && last ? encodeCursor(last.sort_key, last.id) : null }
}
