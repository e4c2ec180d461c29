/**
 * The tax year per payment rail (docs/product.md, Reports: Tax year): what an organization took in
 * on each rail in a calendar year, the fees and tips the imported files gave, the refunds it sent
 * back, its expenses per category, its profit, and whether each payment app's year passes the
 * Form 1099-K thresholds of public.form_1099k_thresholds (federal, and the organization's state).
 *
 * Every figure comes from a short read: received, fees and tips from transaction_monthly_rollups
 * (at most 12 rows per category and rail, kept by the transactions triggers), expenses and refunds
 * from expense_monthly_rollups (both in supabase/migrations/20261208100000_tax_year.sql).
 * Amounts are added in cents (BigInt), so totals equal the sums of what was typed exactly.
 */
import { MODULES } from '#app/lib/modules.ts'
import type { Threshold } from '#app/lib/tax-year.ts'
import { PAYMENT_METHODS, type PaymentMethod } from '#app/lib/schemas/transactions.ts'
import { asUser, sql } from '../db/index.ts'
import { organizationClock } from '../query.ts'

export type { Threshold }

/** The rails whose payments an app reports on a Form 1099-K (goods and services only). */
export const PAYMENT_APP_RAILS = ['Venmo', 'CashApp', 'PayPal'] as const satisfies readonly PaymentMethod[]

/** The first year the view answers; an older one is a 400, as is any year after the current one. */
export const FIRST_TAX_YEAR = 2000

export type RailFigures = {
	method: PaymentMethod
	count: number
	received: string
	fees: string
	tips: string
	refundCount: number
	refunds: string
}

/** How one app rail's year stands against one threshold. */
export type ThresholdCheck = { threshold: Threshold; passes: boolean }

export type AppRailCheck = { method: (typeof PAYMENT_APP_RAILS)[number]; received: string; count: number; checks: ThresholdCheck[] }

export type TaxYear = {
	year: number
	/** The years the select offers: every year from the first with data to the current one, newest first. */
	years: number[]
	state: string | null
	rails: RailFigures[]
	totals: { count: number; received: string; fees: string; tips: string; refundCount: number; refunds: string }
	expenses: Array<{ category: string; count: number; amount: string }>
	expenseTotal: string
	/** Received minus expenses. */
	profit: string
	appChecks: AppRailCheck[]
	/** The thresholds of the year (federal first, then the state's). */
	thresholds: Threshold[]
	expensesActive: boolean
}

export type TaxYearResult = { ok: true; report: TaxYear } | { ok: false; error: 'invalidYear'; currentYear: number }

/**
 * Reads the year `yearParam` asks for ('' or null: the current year in the organization's zone).
 * A year that is not four digits, or outside FIRST_TAX_YEAR..current year, is refused with
 * 'invalidYear' before any figure is read.
 */
export async function getTaxYear(
	userId: string,
	organizationId: string,
	yearParam: string | null,
	options: { now?: Date; timezone?: string } = {},
): Promise<TaxYearResult> {
	return asUser(userId, async (trx) => {
		const currentYear = Number((await organizationClock(trx, organizationId, options.now, options.timezone)).today.slice(0, 4))
		const year = parseTaxYear(yearParam, currentYear)
		if (year === null) return { ok: false, error: 'invalidYear', currentYear }
		const from = `${year}-01-01`
		const to = `${year + 1}-01-01`

		// One statement, each part as JSON (amounts as text, so none goes through a float): the rails'
		// rollups, the year's expenses and refunds, the state, its thresholds, the first year with data
		// (each an index's first entry) and whether Expense Tracking is active.
		const { rows } = await sql<YearRow>`
			select
				(select coalesce(json_agg(x), '[]') from (
					select r.payment_method, sum(r.transaction_count)::text as count, sum(r.amount_sum)::numeric(18, 2)::text as received,
						sum(r.fee_sum)::numeric(18, 2)::text as fees, sum(r.tip_sum)::numeric(18, 2)::text as tips
					from public.transaction_monthly_rollups r
					where r.organization_id = ${organizationId} and r.month >= ${from}::date and r.month < ${to}::date
					group by r.payment_method) x) as rails,
				(select coalesce(json_agg(x), '[]') from (
					select e.kind, e.category, nullif(e.payment_method, '') as payment_method, sum(e.expense_count)::text as count,
						sum(e.amount_sum)::numeric(18, 2)::text as amount
					from public.expense_monthly_rollups e
					where e.organization_id = ${organizationId} and e.month >= ${from}::date and e.month < ${to}::date
					group by e.kind, e.category, e.payment_method) x) as spent,
				(select o.state from public.organizations o where o.id = ${organizationId}) as state,
				(select coalesce(json_agg(x), '[]') from (
					select t.jurisdiction, t.min_amount::text as min_amount, t.amount_inclusive, t.min_count, t.count_inclusive,
						t.source_name, t.source_url, t.verified_on::text as verified_on
					from public.form_1099k_thresholds t
					where (t.jurisdiction = 'US' or t.jurisdiction = (select o.state from public.organizations o where o.id = ${organizationId}))
						and t.first_year <= ${year}::int and (t.last_year is null or t.last_year >= ${year}::int)) x) as thresholds,
				(select min(r.month)::text from public.transaction_monthly_rollups r where r.organization_id = ${organizationId}) as first_payment,
				(select min(e.month)::text from public.expense_monthly_rollups e where e.organization_id = ${organizationId}) as first_expense,
				exists (select 1 from public.organization_modules m
					where m.organization_id = ${organizationId} and m.module_id = ${MODULES.expenses.id}) as expenses_active`.execute(trx)
		const row = rows[0]!
		const state = row.state

		const firstYears = [row.first_payment, row.first_expense].filter((d): d is string => !!d).map((d) => Number(d.slice(0, 4)))
		const firstYear = Math.max(FIRST_TAX_YEAR, Math.min(currentYear, year, ...firstYears))
		const years: number[] = []
		for (let y = currentYear; y >= firstYear; y--) years.push(y)

		const thresholds = row.thresholds
			.map((r): Threshold => ({
				jurisdiction: r.jurisdiction,
				minAmount: r.min_amount,
				amountInclusive: r.amount_inclusive,
				minCount: r.min_count,
				countInclusive: r.count_inclusive,
				sourceName: r.source_name,
				sourceUrl: r.source_url,
				verifiedOn: r.verified_on,
			}))
			.sort((a, b) => (a.jurisdiction === 'US' ? -1 : b.jurisdiction === 'US' ? 1 : a.jurisdiction.localeCompare(b.jurisdiction)))

		return {
			ok: true,
			report: buildTaxYear({ year, years, state, rails: row.rails, spent: row.spent, thresholds, expensesActive: row.expenses_active }),
		}
	})
}

/** The year of the URL: four digits within FIRST_TAX_YEAR..currentYear; empty means the current year. */
export function parseTaxYear(value: string | null, currentYear: number): number | null {
	if (value === null || value === '') return currentYear
	if (!/^\d{4}$/.test(value)) return null
	const year = Number(value)
	return year >= FIRST_TAX_YEAR && year <= currentYear ? year : null
}

type ThresholdRow = {
	jurisdiction: string
	min_amount: string
	amount_inclusive: boolean
	min_count: number | null
	count_inclusive: boolean
	source_name: string
	source_url: string
	verified_on: string
}
type YearRow = {
	rails: RailRow[]
	spent: SpentRow[]
	state: string | null
	thresholds: ThresholdRow[]
	first_payment: string | null
	first_expense: string | null
	expenses_active: boolean
}
type RailRow = { payment_method: PaymentMethod; count: string; received: string; fees: string; tips: string }
type SpentRow = { kind: string; category: string; payment_method: PaymentMethod | null; count: string; amount: string }

function buildTaxYear(input: {
	year: number
	years: number[]
	state: string | null
	rails: RailRow[]
	spent: SpentRow[]
	thresholds: Threshold[]
	expensesActive: boolean
}): TaxYear {
	const byRail = new Map(input.rails.map((r) => [r.payment_method, r]))
	const refunds = new Map<PaymentMethod | null, { count: number; cents: bigint }>()
	const categories = new Map<string, { count: number; cents: bigint }>()
	for (const row of input.spent) {
		const target = row.kind === 'refund' ? refunds : categories
		const key = row.kind === 'refund' ? row.payment_method : row.category
		const sum = (target as Map<typeof key, { count: number; cents: bigint }>).get(key) ?? { count: 0, cents: 0n }
		sum.count += Number(row.count)
		sum.cents += toCents(row.amount)
		;(target as Map<typeof key, { count: number; cents: bigint }>).set(key, sum)
	}
	const rails: RailFigures[] = PAYMENT_METHODS.map((method) => {
		const r = byRail.get(method)
		const refund = refunds.get(method)
		return {
			method,
			count: Number(r?.count ?? 0),
			received: fromCents(toCents(r?.received)),
			fees: fromCents(toCents(r?.fees)),
			tips: fromCents(toCents(r?.tips)),
			refundCount: refund?.count ?? 0,
			refunds: fromCents(refund?.cents ?? 0n),
		}
	})
	// A refund whose rail is unknown still counts in the totals.
	const unrailed = refunds.get(null)
	const sumOf = (pick: (r: RailFigures) => string) => rails.reduce((s, r) => s + toCents(pick(r)), 0n)
	const received = sumOf((r) => r.received)
	const expenses = [...categories.entries()]
		.map(([category, s]) => ({ category, count: s.count, amount: fromCents(s.cents) }))
		.sort((a, b) => Number(toCents(b.amount) - toCents(a.amount)) || a.category.localeCompare(b.category))
	const expenseCents = [...categories.values()].reduce((s, c) => s + c.cents, 0n)
	const appChecks: AppRailCheck[] = PAYMENT_APP_RAILS.map((method) => {
		const rail = rails.find((r) => r.method === method)!
		return {
			method,
			received: rail.received,
			count: rail.count,
			checks: input.thresholds.map((threshold) => ({ threshold, passes: passesThreshold(threshold, rail.received, rail.count) })),
		}
	})
	return {
		year: input.year,
		years: input.years,
		state: input.state,
		rails,
		totals: {
			count: rails.reduce((s, r) => s + r.count, 0),
			received: fromCents(received),
			fees: fromCents(sumOf((r) => r.fees)),
			tips: fromCents(sumOf((r) => r.tips)),
			refundCount: rails.reduce((s, r) => s + r.refundCount, 0) + (unrailed?.count ?? 0),
			refunds: fromCents(sumOf((r) => r.refunds) + (unrailed?.cents ?? 0n)),
		},
		expenses,
		expenseTotal: fromCents(expenseCents),
		profit: fromCents(received - expenseCents),
		appChecks,
		thresholds: input.thresholds,
		expensesActive: input.expensesActive,
	}
}

/**
 * Whether a rail's year passes a threshold: its amount over (or, inclusive, at least) the minimum,
 * and, when the row has one, its count over (or at least) the minimum count. Compared in cents.
 */
export function passesThreshold(threshold: Threshold, received: string, count: number) {
	const amount = toCents(received)
	const min = toCents(threshold.minAmount)
	const amountOk = threshold.amountInclusive ? amount >= min : amount > min
	if (threshold.minCount === null) return amountOk
	const countOk = threshold.countInclusive ? count >= threshold.minCount : count > threshold.minCount
	return amountOk && countOk
}

/** '1234.5' / '-3.25' / null → cents. */
export function toCents(value: string | null | undefined): bigint {
	if (!value) return 0n
	const negative = value.startsWith('-')
	const [whole = '0', fraction = ''] = value.replace('-', '').split('.')
	const cents = BigInt(whole || '0') * 100n + BigInt((fraction + '00').slice(0, 2))
	return negative ? -cents : cents
}

/** Cents → '1234.50' (with '-' when negative). */
export function fromCents(cents: bigint): string {
	const negative = cents < 0n
	const abs = negative ? -cents : cents
	return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`
}
