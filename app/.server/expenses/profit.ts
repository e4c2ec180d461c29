/**
 * Monthly profit (docs/product.md, Expense Tracking): per month, what the organization received
 * (its transactions, read from transaction_monthly_rollups as the reports read them) minus its
 * expenses (amount plus the fee the source charged). Refunds (money sent back to payers) are
 * shown apart and counted in neither. Shown on the dashboard and the Reports overview while the
 * module is active.
 */
import { addMonths, monthStart, monthsFrom } from '#app/lib/dates.ts'
import { asUser, sql } from '../db/index.ts'
import type { Membership } from '../organizations/current.ts'
import { memberClock } from '../query.ts'
import { expensesAccess } from './access.ts'

/** How many months the profit table shows, this one included. */
export const PROFIT_MONTHS = 12

export type ProfitMonth = { month: string; received: string; expenses: string; refunds: string; profit: string }
export type ProfitFigures = { months: ProfitMonth[]; totals: Omit<ProfitMonth, 'month'> }

const cents = (value: string | number) => Math.round(Number(value) * 100)
const money = (c: number) => (c / 100).toFixed(2)

/**
 * The last PROFIT_MONTHS months up to `today`'s (the organization's today), oldest first, each
 * with its received, expenses, refunds and profit (received − expenses), and their totals.
 */
export async function monthlyProfit(userId: string, organizationId: string, today: string, months = PROFIT_MONTHS): Promise<ProfitFigures> {
	const last = monthStart(today)
	const first = addMonths(last, -(months - 1))
	const end = addMonths(last, 1)
	const { received, spent } = await asUser(userId, async (trx) => {
		const received = await sql<{ month: string; amount: string }>`
			select r.month::text as month, sum(r.amount_sum)::numeric(18, 2)::text as amount
			from public.transaction_monthly_rollups r
			where r.organization_id = ${organizationId} and r.month >= ${first}::date and r.month < ${end}::date
			group by r.month`.execute(trx)
		const spent = await sql<{ month: string; expenses: string; refunds: string }>`
			select date_trunc('month', e.spent_on::timestamp)::date::text as month,
				coalesce(sum(e.amount + coalesce(e.fee, 0)) filter (where e.kind = 'expense'), 0)::numeric(18, 2)::text as expenses,
				coalesce(sum(e.amount) filter (where e.kind = 'refund'), 0)::numeric(18, 2)::text as refunds
			from public.expenses e
			where e.organization_id = ${organizationId} and e.kind in ('expense', 'refund')
				and e.spent_on >= ${first}::date and e.spent_on < ${end}::date
			group by 1`.execute(trx)
		return { received: received.rows, spent: spent.rows }
	})
	const total = { received: 0, expenses: 0, refunds: 0 }
	const rows = monthsFrom(first, last, months).map((month) => {
		const r = cents(received.find((x) => x.month === month)?.amount ?? 0)
		const s = spent.find((x) => x.month === month)
		const e = cents(s?.expenses ?? 0)
		const f = cents(s?.refunds ?? 0)
		total.received += r
		total.expenses += e
		total.refunds += f
		return { month, received: money(r), expenses: money(e), refunds: money(f), profit: money(r - e) }
	})
	return {
		months: rows,
		totals: {
			received: money(total.received),
			expenses: money(total.expenses),
			refunds: money(total.refunds),
			profit: money(total.received - total.expenses),
		},
	}
}

/**
 * The profit figures for the dashboard or the Reports overview, or null while Expense Tracking is
 * not usable by the member (the screen then shows nothing of it). One call, so a route adds one line.
 */
export async function profitForScreen(userId: string, organization: Pick<Membership, 'id' | 'role' | 'timezone'>) {
	if ((await expensesAccess(userId, organization.id, organization.role)) !== 'usable') return null
	return monthlyProfit(userId, organization.id, memberClock(organization).today)
}
