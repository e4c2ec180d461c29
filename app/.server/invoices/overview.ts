/**
 * Invoices seen from elsewhere (docs/product.md, Invoicing): a client's invoices on the client's
 * page (read from public.invoice_overview: its states and balances, docs/decisions/
 * 042-invoices-on-the-engine.md), and the open and overdue totals on the dashboard (the view's rule
 * said on the invoices' stored amount received). Both as the member (RLS), and only when the member
 * may use the Invoicing module: otherwise nothing is read and nothing is shown.
 */
import { MODULES } from '#app/lib/modules.ts'
import type { InvoiceState } from '#app/lib/invoices.ts'
import type { Role } from '#app/lib/roles.ts'
import { asUser, sql } from '../db/index.ts'
import { mayUseModule } from '../marketplace/modules.ts'

/** How many of a client's invoices their page lists, latest first (the invoice list has the rest). */
export const CLIENT_INVOICES = 10

export type ClientInvoice = {
	id: string
	/** Null for a draft. */
	number: number | null
	state: InvoiceState
	issueDate: string
	dueDate: string
	total: string
	balance: string
}

/**
 * The client's latest CLIENT_INVOICES invoices (any state) and how many they have, or null when
 * the member may not use Invoicing (not activated, or configured for a higher role).
 */
export async function listClientInvoices(
	userId: string,
	organizationId: string,
	role: Role,
	clientId: string,
): Promise<{ rows: ClientInvoice[]; total: number } | null> {
	return asUser(userId, async (trx) => {
		const module = await trx
			.selectFrom('organization_modules')
			.select('default_visibility')
			.where('organization_id', '=', organizationId)
			.where('module_id', '=', MODULES.invoicing.id)
			.executeTakeFirst()
		if (!module || !mayUseModule(module.default_visibility, role)) return null
		// The page's rows through invoices_client_idx, then their states and balances from the view.
		const { rows } = await sql<ClientInvoice & { total_count: number }>`
			with mine as (
				select i.id, i.created_at from public.invoices i
				where i.organization_id = ${organizationId} and i.client_id = ${clientId}
				order by i.created_at desc, i.id desc limit ${CLIENT_INVOICES}
			)
			select o.id, o.number, o.state, to_char(o.issue_date, 'YYYY-MM-DD') as "issueDate",
				to_char(o.due_date, 'YYYY-MM-DD') as "dueDate", o.total::text as total, o.balance::text as balance,
				(select count(*)::int from public.invoices c where c.organization_id = ${organizationId} and c.client_id = ${clientId}) as total_count
			from mine join public.invoice_overview o on o.id = mine.id
			order by mine.created_at desc, mine.id desc`.execute(trx)
		return { rows: rows.map(({ total_count: _count, ...row }) => row), total: rows[0]?.total_count ?? 0 }
	})
}

/** What the organization is owed by its invoices: all open ones (sent, partly paid or overdue), and the overdue among them. */
export type InvoiceTotals = { open: { amount: string; count: number }; overdue: { amount: string; count: number } }

/**
 * The dashboard's invoice figures: whether the member may use Invoicing and, when they may, the
 * balance and number of the open invoices and of the overdue ones; null when they may not. Open is
 * public.invoice_overview's rule said on the invoice (sent, and what it received, stored on it, short
 * of its total); overdue, past its due date in the organization's zone. Both are read from the
 * partial index of the invoices still owed (invoices_open_due_idx, which holds the due date, the
 * amount received and the total: index only), not from every invoice (bench/invoices-list.ts).
 */
export async function dashboardInvoiceTotals(userId: string, organizationId: string, role: Role): Promise<InvoiceTotals | null> {
	const { rows } = await asUser(userId, (trx) =>
		sql<{ visibility: string | null; open_amount: string; open_count: number; overdue_amount: string; overdue_count: number }>`
			with clock as (
				select (now() at time zone coalesce((select s.timezone from public.booking_settings s
					where s.organization_id = ${organizationId}), 'UTC'))::date as today
			),
			owed as (
				select i.total - i.amount_paid as balance, i.due_date < (select today from clock) as overdue
				from public.invoices i
				where i.organization_id = ${organizationId} and i.status = 'sent' and i.amount_paid < i.total
			)
			select (select m.default_visibility from public.organization_modules m
					where m.organization_id = ${organizationId} and m.module_id = ${MODULES.invoicing.id}) as visibility,
				coalesce(sum(w.balance), 0)::text as open_amount,
				count(*)::int as open_count,
				coalesce(sum(w.balance) filter (where w.overdue), 0)::text as overdue_amount,
				(count(*) filter (where w.overdue))::int as overdue_count
			from owed w`.execute(trx),
	)
	const row = rows[0]
	if (!row?.visibility || !mayUseModule(row.visibility, role)) return null
	return {
		open: { amount: row.open_amount, count: row.open_count },
		overdue: { amount: row.overdue_amount, count: row.overdue_count },
	}
}
