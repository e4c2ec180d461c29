/**
 * Advanced Analytics (docs/product.md, Reports: Advanced Analytics), the upgrade of Reports: client
 * cohorts and their retention, what each payment rail received per month, each month against the
 * same month a year earlier, and the top clients of a range.
 *
 * Every figure is an aggregate of kept rows, so a page reads a few thousand rows whatever the
 * number of transactions: whole months come from transaction_monthly_rollups (per rail) and
 * client_payment_months (per client), the cohorts from client_cohort_rollups and the all-time
 * top clients from client_payment_totals (migration 20261208400000_advanced_analytics.sql, kept
 * by statement triggers on transactions). Only the partial months at the edges of a day-precise
 * range are aggregated from transactions, through its (organization_id, date_received) index,
 * as the Reports overview does (app/.server/payments/analytics.ts). The four parts are read in
 * one statement; every part names the current organization: RLS lets a user read all of theirs.
 */
import type { RawBuilder } from 'kysely'
import type { RouterContextProvider } from 'react-router'
import { addDays, addMonths, monthEnd, monthsBetween, monthsFrom, monthStart, MONTHS_IN_DATE_RANGE, previousDay } from '#app/lib/dates.ts'
import { MODULES } from '#app/lib/modules.ts'
import { requireMember } from '../auth/session.ts'
import { asUser, sql } from '../db/index.ts'
import type { PaymentMethod } from '../db/types.ts'
import { resolveRange, splitRange, type DateRange, type RangeError } from '../payments/analytics.ts'
import { organizationClock } from '../query.ts'

/** The upgrade that opens the analytics screen (app/lib/modules.ts). */
export const ADVANCED_ANALYTICS_UPGRADE_ID = MODULES.reports.upgrades.advancedAnalytics.id

/** The rails in the order the screen lists them (enum public.payment_method). */
export const PAYMENT_METHODS: readonly PaymentMethod[] = ['Zelle', 'Venmo', 'CashApp', 'PayPal', 'Wire Transfer', 'Other']

/** How many months after its first a cohort is followed (month 0 is the first). */
export const RETENTION_MONTHS = 12

/** How many clients the top list shows. */
export const TOP_CLIENTS = 10

/** Longer spans of months are narrowed to the months that have payments (as the Reports overview does). */
const MAX_FILLED_MONTHS = 36

/** Whether the organization owns the Advanced Analytics upgrade. */
export async function ownsAdvancedAnalytics(userId: string, organizationId: string): Promise<boolean> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_module_upgrades')
			.select('id')
			.where('organization_id', '=', organizationId)
			.where('upgrade_id', '=', ADVANCED_ANALYTICS_UPGRADE_ID)
			.executeTakeFirst(),
	)
	return row !== undefined
}

/**
 * The member of the analytics screen and whether the upgrade is active for their organization.
 * Without it the screen says what the upgrade gives and links to the marketplace; whatever reads
 * the figures another way (the PDF) answers 403 (requireAdvancedAnalytics).
 */
export async function analyticsMember(context: Readonly<RouterContextProvider>) {
	const member = requireMember(context)
	return { ...member, active: await ownsAdvancedAnalytics(member.user.userId, member.organization.id) }
}

// ---------------------------------------------------------------------------------------------
// The figures
// ---------------------------------------------------------------------------------------------

/** One cohort: the clients whose first payment fell in `month`, and how many of them paid in each following month. */
export type Cohort = {
	month: string
	clients: number
	/** Index k: clients of the cohort who paid in the k-th month after the first (0 = the first); null for a month still to come. */
	retained: Array<number | null>
}

/** What one rail received in one month. */
export type MethodMonth = { month: string; method: PaymentMethod; count: number; amount: string }

/** A month of the range against the same month a year earlier; change null when there is nothing to compare with. */
export type YearOverYear = {
	month: string
	amount: string
	count: number
	previousAmount: string
	previousCount: number
	amountChange: number | null
	countChange: number | null
}

export type TopClient = { clientId: string; name: string; count: number; amount: string; share: number; lastPayment: string | null }

export type Analytics = {
	range: DateRange
	today: string
	totals: { count: number; amount: string }
	/** The months of the range (first days), with the rails that received something in any of them. */
	months: string[]
	methods: PaymentMethod[]
	methodMonths: MethodMonth[]
	yearOverYear: YearOverYear[]
	cohorts: Cohort[]
	topClients: TopClient[]
}

export type AnalyticsResult = ({ ok: true } & Analytics) | { ok: false; error: RangeError; from: string; to: string; today: string }

type Row = {
	methods: Array<{ month: string; method: PaymentMethod; count: number; amount: string }>
	previous: Array<{ month: string; count: number; amount: string }>
	cohorts: Array<{ cohort_month: string; month_offset: number; client_count: number }>
	top: Array<{ client_id: string; name: string | null; count: number; amount: string; last_payment: string | null }>
}

/** The same day a year earlier (29 February becomes 28 February). */
export function yearEarlier(iso: string) {
	const year = Number(iso.slice(0, 4)) - 1
	const monthDay = iso.slice(5) === '02-29' ? '02-28' : iso.slice(5)
	return `${String(year).padStart(4, '0')}-${monthDay}`
}

/** An edge of a range: its days, added (1) or taken away (-1). */
type DayPiece = { first: string; last: string; sign: 1 | -1 }

/**
 * How a day range is read: whole months (first days, [start, end), null unbounded) from kept rows,
 * and stretches of days from transactions. As splitRange, except that an edge of days within one
 * month is read as its whole month minus the month's other days when those are fewer days that
 * can hold payments: "1 to 29 November" with today the 29th is November minus the 30th (a day
 * still to come, which holds no payment but the odd future-dated one), "5 January onward" is
 * January minus its first four days.
 */
export function readingPlan(from: string | null, to: string | null, today: string) {
	const split = splitRange(from, to)
	let months = split.months
	const days: DayPiece[] = []
	const past = (first: string, last: string) => {
		const end = last < today ? last : today
		return end < first ? 0 : Math.round((Date.parse(end) - Date.parse(first)) / 86_400_000) + 1
	}
	for (const [first, last] of split.days) {
		const month = monthStart(first)
		const sameMonth = month === monthStart(last)
		const before = first > month ? { first: month, last: previousDay(first) } : null
		const after = last < monthEnd(last) ? { first: addDays(last, 1), last: monthEnd(last) } : null
		const complement = (before ? past(before.first, before.last) : 0) + (after ? past(after.first, after.last) : 0)
		const next = addMonths(month, 1)
		// The whole month must touch the months already read (or be the only one), so that they stay one stretch.
		const joins = !months || months.end === month || months.start === next
		if (!sameMonth || !joins || complement >= past(first, last)) {
			days.push({ first, last, sign: 1 })
			continue
		}
		months = !months ? { start: month, end: next } : months.end === month ? { ...months, end: next } : { ...months, start: month }
		if (before) days.push({ ...before, sign: -1 })
		if (after) days.push({ ...after, sign: -1 })
	}
	return { months, days }
}

/**
 * Count and amount per month and rail of an inclusive day range (null: unbounded): whole months
 * from the rollups, edge days from the transactions (readingPlan).
 */
function methodMonthsQuery(organizationId: string, from: string | null, to: string | null, today: string) {
	const split = readingPlan(from, to, today)
	const branches = []
	if (split.months) {
		const bounds = [sql`r.organization_id = ${organizationId}`]
		if (split.months.start) bounds.push(sql`r.month >= ${split.months.start}::date`)
		if (split.months.end) bounds.push(sql`r.month < ${split.months.end}::date`)
		branches.push(sql`
			select r.month, r.payment_method, r.transaction_count as n, r.amount_sum as s
			from public.transaction_monthly_rollups r
			where ${sql.join(bounds, sql` and `)}`)
	}
	for (const { first, last, sign } of split.days) {
		branches.push(sql`
			select date_trunc('month', t.date_received::timestamp)::date as month, t.payment_method, ${sign} * count(*) as n,
				${sign} * sum(t.amount) as s
			from public.transactions t
			where t.organization_id = ${organizationId} and t.date_received between ${first}::date and ${last}::date
			group by 1, 2`)
	}
	if (branches.length === 0) return null
	return sql`
		select x.month::text as month, x.payment_method::text as method, sum(x.n)::int8 as count,
			sum(x.s)::numeric(18, 2)::text as amount
		from (${sql.join(branches, sql` union all `)}) x
		group by 1, 2
		having sum(x.n) > 0`
}

/**
 * The range's top clients by amount received, with their count and their last payment in the
 * range. All time reads client_payment_totals' index; a range, its whole months from
 * client_payment_years and client_payment_months (wholeMonthsOfClients) and its edge days from
 * the transactions.
 */
function topClientsQuery(organizationId: string, from: string | null, to: string | null, today: string): RawBuilder<unknown> | null {
	let sums: RawBuilder<unknown>
	if (from === null && to === null) {
		sums = sql`
			select f.client_id, f.transaction_count as n, f.amount_sum as s
			from public.client_payment_totals f
			where f.organization_id = ${organizationId}
			order by f.amount_sum desc, f.client_id
			limit ${TOP_CLIENTS}`
	} else {
		const split = readingPlan(from, to, today)
		const branches = []
		if (split.months) branches.push(...wholeMonthsOfClients(organizationId, split.months.start, split.months.end, monthStart(today)))
		for (const { first, last, sign } of split.days) {
			branches.push(sql`
				select t.client_id, ${sign} * count(*) as n, ${sign} * sum(t.amount) as s
				from public.transactions t
				where t.organization_id = ${organizationId} and t.date_received between ${first}::date and ${last}::date
					and t.client_id is not null
				group by 1`)
		}
		if (branches.length === 0) return null
		sums = sql`
			select x.client_id, sum(x.n) as n, sum(x.s) as s
			from (${sql.join(branches, sql` union all `)}) x
			group by 1
			having sum(x.n) > 0
			order by sum(x.s) desc, x.client_id
			limit ${TOP_CLIENTS}`
	}
	const within = [sql`t.organization_id = ${organizationId}`, sql`t.client_id = top.client_id`]
	if (from !== null) within.push(sql`t.date_received >= ${from}::date`)
	if (to !== null) within.push(sql`t.date_received <= ${to}::date`)
	return sql`
		select top.client_id, c.name, top.n::int8 as count, top.s::numeric(18, 2)::text as amount,
			(select max(t.date_received) from public.transactions t where ${sql.join(within, sql` and `)})::text as last_payment
		from (${sums}) top
		left join public.clients c on c.organization_id = ${organizationId} and c.id = top.client_id
		order by top.s desc, top.client_id`
}

/**
 * What each client paid in the whole months [start, end) (first days; null: unbounded), as
 * signed rows to add up: the whole calendar years inside from client_payment_years (one row per
 * client and year, not twelve), and each partly covered year either as its months inside the
 * range or as its year row minus its months outside, whichever reads fewer months that can hold
 * payments (months after the current one hold none but the odd future-dated payment, so "the
 * year so far" is one row a client).
 */
function wholeMonthsOfClients(organizationId: string, start: string | null, end: string | null, currentMonth: string) {
	const months = (first: string | null, last: string | null, sign: 1 | -1) => {
		const bounds = [sql`m.organization_id = ${organizationId}`]
		if (first) bounds.push(sql`m.month >= ${first}::date`)
		if (last) bounds.push(sql`m.month < ${last}::date`)
		return sign === 1
			? sql`select m.client_id, m.transaction_count as n, m.amount_sum as s from public.client_payment_months m where ${sql.join(bounds, sql` and `)}`
			: sql`select m.client_id, -m.transaction_count as n, -m.amount_sum as s from public.client_payment_months m where ${sql.join(bounds, sql` and `)}`
	}
	const years = (first: string, last: string) =>
		sql`select y.client_id, y.transaction_count as n, y.amount_sum as s from public.client_payment_years y
			where y.organization_id = ${organizationId} and y.year >= ${first}::date and y.year < ${last}::date`
	if (start === null || end === null) return [months(start, end, 1)]
	const yearOf = (month: string) => `${month.slice(0, 4)}-01-01`
	const nextYear = (month: string) => addMonths(yearOf(month), 12)
	/** Months of [first, last) that can hold payments: those up to the current month. */
	const pastMonths = (first: string, last: string) =>
		Math.max(0, Math.min(monthsBetween(first, last), monthsBetween(first, addMonths(currentMonth, 1))))
	const partYear = (first: string, last: string) => {
		const y0 = yearOf(first)
		const y1 = nextYear(first)
		const inside = pastMonths(first, last)
		const outside = pastMonths(y0, first) + pastMonths(last, y1) + 1
		if (inside <= outside) return [months(first, last, 1)]
		const parts = [years(y0, y1)]
		if (first > y0) parts.push(months(y0, first, -1))
		if (last < y1) parts.push(months(last, y1, -1))
		return parts
	}
	if (yearOf(start) === yearOf(addMonths(end, -1))) {
		return start === yearOf(start) && end === nextYear(start) ? [years(start, end)] : partYear(start, end)
	}
	const branches = []
	const fullFrom = start === yearOf(start) ? start : nextYear(start)
	const fullTo = yearOf(end)
	if (start < fullFrom) branches.push(...partYear(start, fullFrom))
	if (fullFrom < fullTo) branches.push(years(fullFrom, fullTo))
	if (fullTo < end) branches.push(...partYear(fullTo, end))
	return branches
}

/** The cohorts whose first month lies in the range's months. */
function cohortsQuery(organizationId: string, from: string | null, to: string | null) {
	const bounds = [sql`r.organization_id = ${organizationId}`]
	if (from !== null) bounds.push(sql`r.cohort_month >= ${monthStart(from)}::date`)
	if (to !== null) bounds.push(sql`r.cohort_month <= ${monthStart(to)}::date`)
	return sql`
		select r.cohort_month::text as cohort_month, r.month_offset, r.client_count
		from public.client_cohort_rollups r
		where ${sql.join(bounds, sql` and `)}`
}

const jsonList = (query: RawBuilder<unknown> | null) =>
	query ? sql`(select coalesce(json_agg(x), '[]') from (${query}) x)` : sql`'[]'::json`

/**
 * The analytics of the range the URL asks for (the presets and custom range of the Reports
 * overview, resolveRange). A malformed custom range is an error to show, never an exception.
 */
export async function getAnalytics(
	userId: string,
	organizationId: string,
	params: URLSearchParams,
	options: { now?: Date; timezone?: string } = {},
): Promise<AnalyticsResult> {
	return asUser(userId, async (trx) => {
		const today = (await organizationClock(trx, organizationId, options.now, options.timezone)).today
		const resolved = resolveRange(params, today)
		if (!resolved.ok) return { ...resolved, today }
		const { range } = resolved
		const all = range.from === null && range.to === null
		// The year before, per month; all time compares the months it holds with each other.
		const previous = all
			? null
			: sql`select p.month, sum(p.count)::int8 as count, sum(p.amount::numeric)::numeric(18, 2)::text as amount
				from (${methodMonthsQuery(organizationId, yearEarlier(range.from!), yearEarlier(range.to!), today)}) p group by 1`
		const { rows } = await sql<Row>`
			select ${jsonList(methodMonthsQuery(organizationId, range.from, range.to, today))} as methods,
				${previous ? sql`(select coalesce(json_agg(x), '[]') from (${previous}) x)` : sql`'[]'::json`} as previous,
				${jsonList(cohortsQuery(organizationId, range.from, range.to))} as cohorts,
				${jsonList(topClientsQuery(organizationId, range.from, range.to, today))} as top`.execute(trx)
		return { ok: true, ...analyticsOf(rows[0]!, range, today) }
	})
}

/** The screen's figures from the statement's rows: months filled, changes and shares computed. */
function analyticsOf(row: Row, range: DateRange, today: string): Analytics {
	const methodMonths = row.methods
		.map((m) => ({ month: m.month, method: m.method, count: Number(m.count), amount: m.amount }))
		.sort((a, b) => a.month.localeCompare(b.month) || PAYMENT_METHODS.indexOf(a.method) - PAYMENT_METHODS.indexOf(b.method))
	const byMonth = new Map<string, { count: number; cents: bigint }>()
	let totalCount = 0
	let totalCents = 0n
	for (const m of methodMonths) {
		const entry = byMonth.get(m.month) ?? { count: 0, cents: 0n }
		entry.count += m.count
		entry.cents += toCents(m.amount)
		byMonth.set(m.month, entry)
		totalCount += m.count
		totalCents += toCents(m.amount)
	}
	const months = monthsOf(range, [...byMonth.keys()].sort())
	const methods = PAYMENT_METHODS.filter((method) => methodMonths.some((m) => m.method === method))

	// A year earlier: the previous period's months, or, for all time, the same figures a year back.
	const previous = new Map<string, { count: number; cents: bigint }>()
	if (range.from === null && range.to === null) for (const [month, v] of byMonth) previous.set(month, v)
	else for (const p of row.previous) previous.set(p.month, { count: Number(p.count), cents: toCents(p.amount) })
	const yearOverYear = months.map((month): YearOverYear => {
		const now = byMonth.get(month) ?? { count: 0, cents: 0n }
		const before = previous.get(addMonths(month, -12)) ?? { count: 0, cents: 0n }
		return {
			month,
			amount: fromCents(now.cents),
			count: now.count,
			previousAmount: fromCents(before.cents),
			previousCount: before.count,
			amountChange: before.cents > 0n ? Number(((now.cents - before.cents) * 1_000_000n) / before.cents) / 1_000_000 : null,
			countChange: before.count > 0 ? (now.count - before.count) / before.count : null,
		}
	})

	const currentMonth = monthStart(today)
	const cohortCells = new Map<string, Map<number, number>>()
	for (const c of row.cohorts) {
		const cells = cohortCells.get(c.cohort_month) ?? new Map<number, number>()
		cells.set(c.month_offset, Number(c.client_count))
		cohortCells.set(c.cohort_month, cells)
	}
	const cohorts = [...cohortCells.keys()].sort().map((month): Cohort => {
		const cells = cohortCells.get(month)!
		return {
			month,
			clients: cells.get(0) ?? 0,
			retained: Array.from({ length: RETENTION_MONTHS + 1 }, (_, k) =>
				monthsBetween(month, currentMonth) >= k ? (cells.get(k) ?? 0) : null,
			),
		}
	})

	const topClients = row.top.map((c): TopClient => ({
		clientId: c.client_id,
		name: c.name ?? '',
		count: Number(c.count),
		amount: c.amount,
		share: totalCents > 0n ? Number((toCents(c.amount) * 1_000_000n) / totalCents) / 1_000_000 : 0,
		lastPayment: c.last_payment,
	}))

	return {
		range,
		today,
		totals: { count: totalCount, amount: fromCents(totalCents) },
		months,
		methods,
		methodMonths,
		yearOverYear,
		cohorts,
		topClients,
	}
}

/** The months of the range, first to last; an unbounded or very long range keeps the stretch that has payments. */
function monthsOf(range: DateRange, withData: string[]) {
	let first = range.from && monthStart(range.from)
	let last = range.to && monthStart(range.to)
	if (!first || !last || monthsBetween(first, last) >= MAX_FILLED_MONTHS) {
		if (withData.length === 0) return []
		first = first && first > withData[0]! ? first : withData[0]!
		last = last && last < withData.at(-1)! ? last : withData.at(-1)!
	}
	return monthsFrom(first, last, MONTHS_IN_DATE_RANGE)
}

/** '1250.5' → 125050n (amounts of numeric(18,2), never more than 2 decimals). */
function toCents(amount: string) {
	const negative = amount.trim().startsWith('-')
	const [whole = '0', fraction = ''] = amount.trim().replace(/^[-+]/, '').split('.')
	const cents = BigInt(whole || '0') * 100n + BigInt((fraction + '00').slice(0, 2))
	return negative ? -cents : cents
}

function fromCents(cents: bigint) {
	const sign = cents < 0n ? '-' : ''
	const abs = cents < 0n ? -cents : cents
	return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`
}
