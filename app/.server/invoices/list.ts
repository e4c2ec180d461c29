/**
 * The invoice list (docs/product.md, Invoicing): whether the member may use the Invoicing module,
 * and a page of the organization's invoices, newest first, filtered by state and searched by
 * client or number. States follow from what each invoice received, stored on it (public.invoice_overview,
 * docs/decisions/042-invoices-on-the-engine.md): the filter says each state in terms of the columns
 * the partial indexes of supabase/migrations/20261207500000_invoice_amount_received.sql hold, and
 * the page's rows are read from the view itself, so what a row shows is the view's answer.
 */
import type { RouterContextProvider } from 'react-router'
import { errorResponse } from '#app/lib/errors.ts'
import { isInvoiceFilter, type InvoiceFilter, type InvoiceState } from '#app/lib/invoices.ts'
import { MODULES } from '#app/lib/modules.ts'
import type { Role } from '#app/lib/roles.ts'
import { requireMember } from '../auth/session.ts'
import { asUser, sql, type Tx } from '../db/index.ts'
import { mayUseModule } from '../marketplace/modules.ts'
import { clamp, COUNT_CAP, DEFAULT_PAGE_SIZE, likePattern, MAX_PAGE, normalizeSearch } from '../query.ts'

/** Whether the member may use Invoicing: not activated, configured for a higher role, or usable. */
export type InvoicingAccess = 'inactive' | 'hidden' | 'usable'

/** How the organization's Invoicing module stands for a member of `role` (as bookingAccess for Booking). */
export async function invoicingAccess(userId: string, organizationId: string, role: Role): Promise<InvoicingAccess> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_modules')
			.select('default_visibility')
			.where('organization_id', '=', organizationId)
			.where('module_id', '=', MODULES.invoicing.id)
			.executeTakeFirst(),
	)
	if (!row) return 'inactive'
	return mayUseModule(row.default_visibility, role) ? 'usable' : 'hidden'
}

/**
 * The member of an invoice screen and whether Invoicing is active for them. A module configured
 * for a higher role is not there for this member: a 403, as the booking screens answer. Inactive,
 * the screens say so and link to the module (`active: false`); actions refuse (requireInvoicing).
 */
export async function invoicingMember(context: Readonly<RouterContextProvider>) {
	const member = requireMember(context)
	const access = await invoicingAccess(member.user.userId, member.organization.id, member.organization.role)
	if (access === 'hidden') errorResponse(403, 'forbidden')
	return { ...member, active: access === 'usable' }
}

/** For an action: the member, when Invoicing is usable; else a 403 (nothing is done). */
export async function requireInvoicing(context: Readonly<RouterContextProvider>) {
	const member = await invoicingMember(context)
	if (!member.active) errorResponse(403, 'forbidden')
	return member
}

/** One row of the list. Amounts are numeric strings ('1234.50'). */
export type InvoiceListRow = {
	id: string
	/** Null for a draft. */
	number: number | null
	state: InvoiceState
	/** Who it is billed to: as sent, else the draft's client. */
	clientName: string | null
	clientId: string | null
	issueDate: string
	dueDate: string
	total: string
	balance: string
	overpaid: string
}

export type InvoiceListOptions = { state?: string | null; q?: string | null; page?: number | null; pageSize?: number }

export type InvoiceListPage = {
	rows: InvoiceListRow[]
	state: InvoiceFilter | null
	q: string | null
	page: number
	pageSize: number
	total: number
	totalCapped: boolean
}

/** A search that names an invoice by its number: "12", "#12", "No. 12". */
const NUMBER_SEARCH = /^(?:#|no\.?|n\.?º|nº)?\s*(\d{1,9})$/i

/**
 * The condition on `i` (public.invoices) of a filter, with `today` the organization's date (a value,
 * not a subquery, so the planner sees how few invoices it leaves and takes the partial index). Each
 * state matches the view's exactly (tests/db/invoice-screens.test.ts compares them), said on the
 * invoice's own columns (its amount received is stored, supabase/migrations/
 * 20261207500000_invoice_amount_received.sql) in the terms of the partial indexes there: still owed
 * (`open`: sent, partly paid or overdue) is `status = 'sent' and amount_paid < total`; paid is
 * `status = 'sent' and amount_paid >= total`.
 */
function stateSql(filter: InvoiceFilter, today: string) {
	const open = sql`i.status = 'sent' and i.amount_paid < i.total`
	switch (filter) {
		case 'draft':
		case 'void':
			return sql`i.status = ${filter}`
		case 'paid':
			return sql`i.status = 'sent' and i.amount_paid >= i.total`
		case 'open':
			return open
		case 'overdue':
			return sql`${open} and i.due_date < ${today}::date`
		case 'partly_paid':
			return sql`${open} and i.amount_paid > 0 and i.due_date >= ${today}::date`
		case 'sent':
			return sql`${open} and i.amount_paid = 0 and i.due_date >= ${today}::date`
	}
}

/**
 * The search's condition on `i`: its number, or its client by name (blind to case and accents, as
 * the clients' search), or, for an invoice whose client was deleted since, the name it was billed to.
 */
async function searchSql(trx: Tx, organizationId: string, q: string) {
	const numbered = NUMBER_SEARCH.exec(q)
	if (numbered) return sql`i.number = ${Number(numbered[1])}`
	const pattern = likePattern(q)
	const { rows } = await sql<{ id: string }>`select c.id from public.clients c
		where c.organization_id = ${organizationId} and c.name_key like public.name_sort_key(${pattern}) limit 1000`.execute(trx)
	const ids = rows.map((r) => r.id)
	return sql`i.id in (
		select x.id from public.invoices x where x.organization_id = ${organizationId} and x.client_id = any(${ids}::uuid[])
		union all
		select x.id from public.invoices x where x.organization_id = ${organizationId} and x.client_id is null
			and public.name_sort_key(x.bill_to_name) like public.name_sort_key(${pattern}))`
}

type Row = Omit<InvoiceListRow, 'number'> & { number: number | null; total_count: string | null }

/**
 * A page of the organization's invoices, newest first, as the member (RLS): `state` one of
 * INVOICE_FILTERS (a state, or 'open': sent, partly paid or overdue; anything else: every state), `q` a number or a client's name. The total stops
 * counting past COUNT_CAP (shown as "10,000+"). A page past the last comes back empty, with the total.
 */
export async function listInvoices(userId: string, organizationId: string, options: InvoiceListOptions = {}): Promise<InvoiceListPage> {
	const state = isInvoiceFilter(options.state) ? options.state : null
	const q = normalizeSearch(options.q)
	const page = clamp(options.page, 1, MAX_PAGE, 1)
	const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE
	return asUser(userId, async (trx) => {
		// The organization's date, as the view reads it (its booking timezone, else UTC).
		const { rows: clock } = await sql<{ today: string }>`select to_char((now() at time zone coalesce((select s.timezone
			from public.booking_settings s where s.organization_id = ${organizationId}), 'UTC'))::date, 'YYYY-MM-DD') as today`.execute(trx)
		const conditions = [sql`i.organization_id = ${organizationId}`]
		if (state) conditions.push(stateSql(state, clock[0]!.today))
		if (q) conditions.push(await searchSql(trx, organizationId, q))
		const where = sql.join(conditions, sql` and `)
		const counted = sql`select 1 from public.invoices i where ${where}`
		const { rows } = await sql<Row>`
			with counted as (select count(*) as n from (${counted} limit ${COUNT_CAP + 1}) x),
			ids as (
				select i.id, i.created_at from public.invoices i where ${where}
				order by i.created_at desc, i.id desc offset ${(page - 1) * pageSize} limit ${pageSize}
			)
			select (select n from counted)::text as total_count, o.id, o.number, o.state,
				coalesce(o.bill_to_name, c.name) as "clientName", o.client_id as "clientId",
				to_char(o.issue_date, 'YYYY-MM-DD') as "issueDate", to_char(o.due_date, 'YYYY-MM-DD') as "dueDate",
				o.total::text as total, o.balance::text as balance, o.overpaid::text as overpaid
			from (select 1) one
			left join ids on true
			left join public.invoice_overview o on o.id = ids.id
			left join public.clients c on c.id = o.client_id
			order by ids.created_at desc, ids.id desc`.execute(trx)
		const total = Number(rows[0]?.total_count ?? 0)
		return {
			rows: rows.filter((r) => r.id !== null).map(({ total_count: _count, ...row }) => row),
			state,
			q,
			page,
			pageSize,
			total: Math.min(total, COUNT_CAP),
			totalCapped: total > COUNT_CAP,
		}
	})
}
