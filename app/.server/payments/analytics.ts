/**
 * The figures of the dashboard, categories and reports (docs/product.md: Dashboard, Categories, Reports), computed in SQL.
 *
 * Whole months come from the rollup tables the transactions triggers keep
 * (transaction_monthly_rollups, organization_transaction_totals), so a year of figures reads a
 * few hundred rows whatever the number of transactions. Only the partial months at the edges of
 * a day-precise range are aggregated from transactions, through the (organization_id,
 * date_received) index. Every query names the current organization explicitly: RLS lets a user
 * read all of their organizations.
 *
 * "Today" is the organization's, from booking_settings.timezone.
 */
import type { RawBuilder } from 'kysely'
import { asUser, sql, type Tx } from '../db/index.ts'
import type { PaymentMethod } from '../db/types.ts'
import { memberClock, organizationClock } from '../query.ts'
import type { Membership } from '../organizations/current.ts'
import {
	addMonths,
	monthEnd,
	monthsBetween,
	monthsFrom,
	monthStart,
	MONTHS_IN_DATE_RANGE,
	parseIsoDate,
	previousDay,
} from '#app/lib/dates.ts'
import { TRANSACTION_CATEGORIES, type TransactionCategory } from '#app/lib/schemas/transactions.ts'

// ---------------------------------------------------------------------------------------------
// Date ranges of the reports screen
// ---------------------------------------------------------------------------------------------

export const RANGE_PRESETS = ['this-month', 'last-3-months', 'year-to-date', 'last-12-months', 'all'] as const
export type RangePreset = (typeof RANGE_PRESETS)[number]
export const DEFAULT_PRESET: RangePreset = 'last-12-months'

/** An inclusive range of days; null is unbounded. */
export type DateRange = { preset: RangePreset | 'custom'; from: string | null; to: string | null }
export type RangeError = 'missingDates' | 'invalidFrom' | 'invalidTo' | 'fromAfterTo'
export type RangeResult = { ok: true; range: DateRange } | { ok: false; error: RangeError; from: string; to: string }

/** The days a preset covers, seen from `today`. Calendar months end on their last day. */
export function presetRange(preset: RangePreset, today: string): DateRange {
	switch (preset) {
		case 'this-month':
			return { preset, from: monthStart(today), to: monthEnd(today) }
		case 'last-3-months':
			return { preset, from: addMonths(today, -2), to: monthEnd(today) }
		case 'year-to-date':
			return { preset, from: `${today.slice(0, 4)}-01-01`, to: today }
		case 'last-12-months':
			return { preset, from: addMonths(today, -11), to: monthEnd(today) }
		case 'all':
			return { preset, from: null, to: null }
	}
}

/**
 * The range a URL asks for: `range` one of the presets, or `custom` (also implied by `from`
 * or `to` alone) with `from` and `to` as YYYY-MM-DD. An unknown preset falls back to the
 * default; a malformed custom range is an error to show, never an exception.
 */
export function resolveRange(params: URLSearchParams, today: string): RangeResult {
	const preset = params.get('range')
	const rawFrom = (params.get('from') ?? '').trim().slice(0, 40)
	const rawTo = (params.get('to') ?? '').trim().slice(0, 40)
	const custom = preset === 'custom' || (!preset && (rawFrom !== '' || rawTo !== ''))
	if (!custom) {
		const known = RANGE_PRESETS.find((p) => p === preset)
		return { ok: true, range: presetRange(known ?? DEFAULT_PRESET, today) }
	}
	const fail = (error: RangeError): RangeResult => ({ ok: false, error, from: rawFrom, to: rawTo })
	if (rawFrom === '' || rawTo === '') return fail('missingDates')
	const from = parseIsoDate(rawFrom)
	if (!from) return fail('invalidFrom')
	const to = parseIsoDate(rawTo)
	if (!to) return fail('invalidTo')
	if (from > to) return fail('fromAfterTo')
	return { ok: true, range: { preset: 'custom', from, to } }
}

/** The search parameters that name a range (for links such as the CSV export). */
export function rangeSearchParams(range: DateRange) {
	const params = new URLSearchParams({ range: range.preset })
	if (range.preset === 'custom') {
		if (range.from) params.set('from', range.from)
		if (range.to) params.set('to', range.to)
	}
	return params
}

/**
 * Splits an inclusive day range into the whole months the rollups answer ([start, end) as
 * first days of months, null for unbounded) and the partial stretches of days at its edges.
 */
export function splitRange(from: string | null, to: string | null) {
	const fullStart = from === null ? null : from === monthStart(from) ? from : addMonths(from, 1)
	const fullEnd = to === null ? null : to === monthEnd(to) ? addMonths(to, 1) : monthStart(to)
	if (fullStart !== null && fullEnd !== null && fullStart >= fullEnd) {
		// No whole month inside: the days themselves.
		return { months: null, days: from! <= to! ? [[from!, to!] as [string, string]] : [] }
	}
	const days: Array<[string, string]> = []
	if (from !== null && fullStart !== null && from < fullStart) days.push([from, previousDay(fullStart)])
	if (to !== null && fullEnd !== null && fullEnd <= to) days.push([fullEnd, to])
	return { months: { start: fullStart, end: fullEnd }, days }
}

// ---------------------------------------------------------------------------------------------
// Aggregates
// ---------------------------------------------------------------------------------------------

export type CategoryFigure = { category: TransactionCategory; count: number; amount: string; share: number }
export type MonthFigure = { month: string; count: number; amount: string }
export type RangeFigures = {
	totals: { count: number; amount: string; average: string }
	categories: CategoryFigure[]
	months: MonthFigure[]
}

type AggregateRow = {
	g: number
	month: string | null
	category: TransactionCategory | null
	count: number
	amount: string
	average: string
}

/**
 * Count and amount of a range per month, per category and in total, in one statement: whole
 * months from the rollups, edge days from the transactions, then grouping sets. Null when the
 * range holds no day.
 */
function aggregateRangeQuery(organizationId: string, from: string | null, to: string | null): RawBuilder<AggregateRow> | null {
	const split = splitRange(from, to)
	const branches = []
	if (split.months) {
		const bounds = [sql`r.organization_id = ${organizationId}`]
		if (split.months.start) bounds.push(sql`r.month >= ${split.months.start}::date`)
		if (split.months.end) bounds.push(sql`r.month < ${split.months.end}::date`)
		branches.push(sql`
			select r.month, r.category, r.transaction_count as n, r.amount_sum as s
			from public.transaction_monthly_rollups r
			where ${sql.join(bounds, sql` and `)}`)
	}
	for (const [first, last] of split.days) {
		branches.push(sql`
			select date_trunc('month', t.date_received::timestamp)::date as month, t.category, count(*) as n, sum(t.amount) as s
			from public.transactions t
			where t.organization_id = ${organizationId} and t.date_received between ${first}::date and ${last}::date
			group by 1, 2`)
	}
	if (branches.length === 0) return null
	return sql<AggregateRow>`
		select grouping(x.month, x.category)::int as g, x.month::text as month, x.category::text as category,
			coalesce(sum(x.n), 0)::int8 as count, coalesce(sum(x.s), 0)::numeric(18, 2)::text as amount,
			coalesce(round(sum(x.s) / nullif(sum(x.n), 0), 2), 0)::numeric(18, 2)::text as average
		from (${sql.join(branches, sql` union all `)}) x
		group by grouping sets ((x.month), (x.category), ())`
}

async function aggregateRange(trx: Tx, organizationId: string, from: string | null, to: string | null) {
	const query = aggregateRangeQuery(organizationId, from, to)
	return query ? figuresOf((await query.execute(trx)).rows) : emptyFigures()
}

function emptyFigures(): RangeFigures {
	return { totals: { count: 0, amount: '0.00', average: '0.00' }, categories: [], months: [] }
}

function figuresOf(rows: AggregateRow[]): RangeFigures {
	const total = rows.find((r) => r.g === 3)
	if (!total || total.count === 0) return emptyFigures()
	const totalAmount = Number(total.amount)
	const categories = rows
		.filter((r) => r.g === 2 && r.count > 0)
		.map((r) => ({
			category: r.category!,
			count: r.count,
			amount: r.amount,
			share: totalAmount > 0 ? Number(r.amount) / totalAmount : 0,
		}))
		.sort(byCountThenAmount)
	const months = rows
		.filter((r) => r.g === 1 && r.count > 0)
		.map((r) => ({ month: r.month!, count: r.count, amount: r.amount }))
		.sort((a, b) => a.month.localeCompare(b.month))
	return { totals: { count: total.count, amount: total.amount, average: total.average }, categories, months }
}

function byCountThenAmount(a: { count: number; amount: string; category: TransactionCategory }, b: typeof a) {
	return (
		b.count - a.count ||
		Number(b.amount) - Number(a.amount) ||
		TRANSACTION_CATEGORIES.indexOf(a.category) - TRANSACTION_CATEGORIES.indexOf(b.category)
	)
}

/**
 * Every month from `first` to `last` (first days), with zeros where nothing was received. A
 * span of more than `maxMonths` is narrowed to the months that have data.
 */
export function fillMonths(months: MonthFigure[], first: string | null, last: string | null, maxMonths = 36): MonthFigure[] {
	let start = first && monthStart(first)
	let end = last && monthStart(last)
	if (!start || !end || monthsBetween(start, end) >= maxMonths) {
		if (months.length === 0) return []
		start = start && start > months[0]!.month ? start : months[0]!.month
		end = end && end < months.at(-1)!.month ? end : months.at(-1)!.month
	}
	const byMonth = new Map(months.map((m) => [m.month, m]))
	return monthsFrom(start, end, MONTHS_IN_DATE_RANGE).map((month) => byMonth.get(month) ?? { month, count: 0, amount: '0.00' })
}

// ---------------------------------------------------------------------------------------------
// Screens
// ---------------------------------------------------------------------------------------------

export type LatestTransaction = {
	id: string
	dateReceived: string
	clientName: string | null
	externalId: string | null
	amount: string
	category: TransactionCategory
	paymentMethod: PaymentMethod
}

type DashboardRow = {
	totals: { transaction_count: number; amount_sum: string; matched_count: number; unique_client_count: number } | null
	latest: Array<{
		id: string
		date_received: string
		client_name: string | null
		external_id: string | null
		amount: string
		category: TransactionCategory
		payment_method: PaymentMethod
	}>
	months: AggregateRow[]
}

/**
 * The dashboard: the four figures, the latest transactions, and the last 12 months' amounts, in
 * one statement (each part as JSON, amounts as text so that none goes through a float).
 */
export async function getDashboard(
	userId: string,
	organizationId: string,
	options: { latest?: number; now?: Date; timezone?: string } = {},
) {
	return asUser(userId, async (trx) => {
		const today = (await organizationClock(trx, organizationId, options.now, options.timezone)).today
		const first = addMonths(today, -11)
		const totals = trx
			.selectFrom('organization_transaction_totals')
			.select(['transaction_count', sql<string>`amount_sum::text`.as('amount_sum'), 'matched_count', 'unique_client_count'])
			.where('organization_id', '=', organizationId)
		const latest = trx
			.selectFrom('transactions as t')
			.leftJoin('clients as c', (join) => join.onRef('c.organization_id', '=', 't.organization_id').onRef('c.id', '=', 't.client_id'))
			.select([
				't.id',
				't.date_received',
				'c.name as client_name',
				't.external_id',
				sql<string>`t.amount::text`.as('amount'),
				't.category',
				't.payment_method',
			])
			.where('t.organization_id', '=', organizationId)
			.orderBy('t.date_received', 'desc')
			.orderBy('t.id', 'desc')
			.limit(options.latest ?? 5)
		const months = aggregateRangeQuery(organizationId, first, monthEnd(today))!
		const { rows } = await sql<DashboardRow>`
			select (select to_json(x) from (${totals}) x) as totals,
				(select coalesce(json_agg(x), '[]') from (${latest}) x) as latest,
				(select coalesce(json_agg(x), '[]') from (${months}) x) as months`.execute(trx)
		const { totals: sums, latest: recent, months: monthRows } = rows[0]!
		const count = sums?.transaction_count ?? 0
		const matched = sums?.matched_count ?? 0
		return {
			today,
			totals: {
				totalReceived: sums?.amount_sum ?? '0.00',
				transactionCount: count,
				uniqueClients: sums?.unique_client_count ?? 0,
				matchedCount: matched,
				matchedShare: count > 0 ? matched / count : 0,
			},
			latest: recent.map((t): LatestTransaction => ({
				id: t.id,
				dateReceived: t.date_received,
				clientName: t.client_name,
				externalId: t.external_id,
				amount: t.amount,
				category: t.category,
				paymentMethod: t.payment_method,
			})),
			months: fillMonths(figuresOf(monthRows).months, first, today),
		}
	})
}

export type CategorySummary = { category: TransactionCategory; count: number; amount: string }

/** The categories screen: each category present, with its count and summed amount, most used first. */
export async function getCategorySummaries(userId: string, organizationId: string): Promise<CategorySummary[]> {
	return asUser(userId, async (trx) => {
		const rows = await trx
			.selectFrom('transaction_monthly_rollups')
			.select((eb) => [
				'category',
				sql<number>`sum(${eb.ref('transaction_count')})::int8`.as('count'),
				sql<string>`sum(${eb.ref('amount_sum')})::numeric(18, 2)::text`.as('amount'),
			])
			.where('organization_id', '=', organizationId)
			.groupBy('category')
			.execute()
		return rows.filter((r) => r.count > 0).sort(byCountThenAmount)
	})
}

/** The range the URL asks for, seen from the organization's today (for the CSV export). */
export function resolveReportRange(organization: Pick<Membership, 'timezone'>, params: URLSearchParams, options: { now?: Date } = {}) {
	return resolveRange(params, memberClock(organization, options.now).today)
}

export type Report = RangeFigures & { range: DateRange; today: string }
export type ReportResult = ({ ok: true } & Report) | { ok: false; error: RangeError; from: string; to: string; today: string }

/** The reports screen: the figures of the range the URL asks for (see resolveRange). */
export async function getReport(
	userId: string,
	organizationId: string,
	params: URLSearchParams,
	options: { now?: Date; timezone?: string } = {},
): Promise<ReportResult> {
	return asUser(userId, async (trx) => {
		const today = (await organizationClock(trx, organizationId, options.now, options.timezone)).today
		const resolved = resolveRange(params, today)
		if (!resolved.ok) return { ...resolved, today }
		const { range } = resolved
		const figures = await aggregateRange(trx, organizationId, range.from, range.to)
		return { ok: true, range, today, ...figures, months: fillMonths(figures.months, range.from, range.to) }
	})
}

// ---------------------------------------------------------------------------------------------
// CSV export
// ---------------------------------------------------------------------------------------------

export type ExportRow = {
	id: string
	dateReceived: string
	clientName: string | null
	externalId: string | null
	amount: string
	category: TransactionCategory
	paymentMethod: PaymentMethod
	description: string | null
}

/** The range's transactions, oldest first, in batches each read in its own short transaction. */
export async function* exportTransactions(
	userId: string,
	organizationId: string,
	range: DateRange,
	batchSize = 1000,
): AsyncGenerator<ExportRow[]> {
	let after: { date: string; id: string } | null = null
	for (;;) {
		const cursor: { date: string; id: string } | null = after
		const rows = await asUser(userId, (trx) => {
			let query = trx
				.selectFrom('transactions as t')
				.leftJoin('clients as c', (join) => join.onRef('c.organization_id', '=', 't.organization_id').onRef('c.id', '=', 't.client_id'))
				.select([
					't.id',
					't.date_received',
					'c.name as client_name',
					't.external_id',
					't.amount',
					't.category',
					't.payment_method',
					't.description',
				])
				.where('t.organization_id', '=', organizationId)
			if (range.from) query = query.where('t.date_received', '>=', range.from)
			if (range.to) query = query.where('t.date_received', '<=', range.to)
			if (cursor) query = query.where(sql<boolean>`(t.date_received, t.id) > (${cursor.date}::date, ${cursor.id}::uuid)`)
			return query.orderBy('t.date_received', 'asc').orderBy('t.id', 'asc').limit(batchSize).execute()
		})
		if (rows.length > 0) {
			yield rows.map((t) => ({
				id: t.id,
				dateReceived: t.date_received,
				clientName: t.client_name,
				externalId: t.external_id,
				amount: t.amount,
				category: t.category,
				paymentMethod: t.payment_method,
				description: t.description,
			}))
		}
		if (rows.length < batchSize) return
		const last = rows.at(-1)!
		after = { date: last.date_received, id: last.id }
	}
}

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma, or line break. A spreadsheet
 * runs a cell that starts with =, +, -, @, a tab or a carriage return as a formula, and a
 * spreadsheet set to another list separator (es and pt-BR use ';') may split a field into
 * cells, so a formula start at the beginning or after any separator gets an apostrophe.
 */
export function csvField(value: string | number | bigint | null | undefined) {
	let text = value === null || value === undefined ? '' : String(value)
	if (typeof value === 'string') text = text.replace(FORMULA_START, (_, before: string, start: string) => `${before}'${start}`)
	return /[",;\t\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A formula start at the beginning of the text or after a separator (spaces between allowed). */
const FORMULA_START = /((?:^|[,;\t|\r\n])[ ]*)([=+\-@\t\r])/g

export function csvLine(fields: Array<string | number | null | undefined>) {
	return `${fields.map(csvField).join(',')}\r\n`
}

/**
 * Sums of exported rows, in cents, so the summary equals the rows above it exactly. BigInt:
 * a sum past 2^53 cents (about 90 trillion dollars) is still exact.
 */
export class ExportTally {
	count = 0
	cents = 0n
	byCategory = new Map<TransactionCategory, { count: number; cents: bigint }>()

	add(row: Pick<ExportRow, 'amount' | 'category'>) {
		const cents = toCents(row.amount)
		this.count += 1
		this.cents += cents
		const entry = this.byCategory.get(row.category) ?? { count: 0, cents: 0n }
		entry.count += 1
		entry.cents += cents
		this.byCategory.set(row.category, entry)
	}

	categories() {
		return [...this.byCategory.entries()]
			.map(([category, e]) => ({
				category,
				count: e.count,
				amount: fromCents(e.cents),
				share: this.cents > 0n ? Number((e.cents * 1_000_000n) / this.cents) / 1_000_000 : 0,
			}))
			.sort(byCountThenAmount)
	}

	/** The mean, rounded half up to the cent. */
	average() {
		if (this.count === 0) return '0.00'
		const n = BigInt(this.count)
		const sign = this.cents < 0n ? -1n : 1n
		return fromCents(sign * ((sign * this.cents * 2n + n) / (2n * n)))
	}

	total() {
		return fromCents(this.cents)
	}
}

/** '1250.5' → 125050n; '-2.90' → -290n (amounts from numeric(12,2), never more than 2 decimals). */
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
