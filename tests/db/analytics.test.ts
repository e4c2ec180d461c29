import { describe, expect, test } from 'vitest'
import { exportTransactions, getCategorySummaries, getDashboard, getReport, ExportTally } from '#app/.server/payments/analytics.ts'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import type { PaymentMethod } from '#app/.server/db/types.ts'
import type { TransactionCategory as Category } from '#app/lib/schemas/transactions.ts'
import { createUser, type TestUser } from './fixtures.ts'

type Row = {
	client: number | null
	amount: string
	date: string
	category: Category
	method?: PaymentMethod
	externalId?: string
	description?: string
}

async function seed(user: TestUser, clientNames: string[], rows: Row[]) {
	return asUser(user.userId, async (trx) => {
		const clients = clientNames.length
			? await trx
					.insertInto('clients')
					.values(clientNames.map((name) => ({ organization_id: user.orgId, name })))
					.returning('id')
					.execute()
			: []
		if (rows.length) {
			await trx
				.insertInto('transactions')
				.values(
					rows.map((r) => ({
						organization_id: user.orgId,
						client_id: r.client === null ? null : clients[r.client]!.id,
						amount: r.amount,
						date_received: r.date,
						category: r.category,
						payment_method: r.method ?? 'Zelle',
						external_id: r.externalId ?? null,
						description: r.description ?? null,
					})),
				)
				.execute()
		}
		return clients.map((c) => c.id)
	})
}

/** The same figures straight from the transactions, for comparison. */
async function truth(orgId: string, from: string | null, to: string | null) {
	return asSystem(async (trx) => {
		const where = sql`organization_id = ${orgId} and (${from}::date is null or date_received >= ${from}::date) and (${to}::date is null or date_received <= ${to}::date)`
		const total = await sql<{ count: number; amount: string }>`
			select count(*)::int8 as count, coalesce(sum(amount), 0)::numeric(18, 2)::text as amount from public.transactions where ${where}`.execute(
			trx,
		)
		const categories = await sql<{ category: Category; count: number; amount: string }>`
			select category::text as category, count(*)::int8 as count, sum(amount)::numeric(18, 2)::text as amount
			from public.transactions where ${where} group by 1 order by 1`.execute(trx)
		const months = await sql<{ month: string; count: number; amount: string }>`
			select date_trunc('month', date_received::timestamp)::date::text as month, count(*)::int8 as count, sum(amount)::numeric(18, 2)::text as amount
			from public.transactions where ${where} group by 1 order by 1`.execute(trx)
		return { total: total.rows[0]!, categories: categories.rows, months: months.rows }
	})
}

const NOW = new Date('2026-06-15T12:00:00Z')

describe('analytics of an organization', () => {
	test('a new organization has zeros, no categories, and empty months', async () => {
		const user = await createUser('Empty Owner')
		const dashboard = await getDashboard(user.userId, user.orgId, { now: NOW })
		expect(dashboard.totals).toEqual({ totalReceived: '0.00', transactionCount: 0, uniqueClients: 0, matchedCount: 0, matchedShare: 0 })
		expect(dashboard.latest).toEqual([])
		expect(dashboard.months).toHaveLength(12)
		expect(dashboard.months.every((m) => m.count === 0)).toBe(true)
		expect(await getCategorySummaries(user.userId, user.orgId)).toEqual([])
		const report = await getReport(user.userId, user.orgId, new URLSearchParams('range=all'), { now: NOW })
		expect(report).toMatchObject({ ok: true, totals: { count: 0, amount: '0.00', average: '0.00' }, categories: [], months: [] })
	})

	test('the dashboard counts what was inserted, and only this organization', async () => {
		const user = await createUser('Dashboard Owner')
		const other = await createUser('Other Owner')
		await seed(
			user,
			['Ana', 'Bruno', 'Carla'],
			[
				{ client: 0, amount: '100.00', date: '2026-06-10', category: 'matched' },
				{ client: 0, amount: '50.25', date: '2026-06-12', category: 'matched' },
				{ client: 1, amount: '75.00', date: '2026-05-01', category: 'pending' },
				{ client: 2, amount: '20.00', date: '2025-07-31', category: 'review' },
				{ client: null, amount: '10.00', date: '2025-06-30', category: 'unmatched' },
				{ client: 1, amount: '5.00', date: '2026-06-12', category: 'unmatched', externalId: 'EXT-9' },
			],
		)
		await seed(other, ['Zed'], [{ client: 0, amount: '9999.00', date: '2026-06-14', category: 'matched' }])

		const dashboard = await getDashboard(user.userId, user.orgId, { now: NOW, latest: 5 })
		expect(dashboard.today).toBe('2026-06-15')
		expect(dashboard.totals).toEqual({
			totalReceived: '260.25',
			transactionCount: 6,
			uniqueClients: 3,
			matchedCount: 2,
			matchedShare: 2 / 6,
		})
		// Newest first, ties by id descending; the client's name comes along.
		expect(dashboard.latest.map((t) => t.dateReceived)).toEqual(['2026-06-12', '2026-06-12', '2026-06-10', '2026-05-01', '2025-07-31'])
		expect(dashboard.latest[0]!.id > dashboard.latest[1]!.id).toBe(true)
		expect(dashboard.latest.find((t) => t.externalId === 'EXT-9')?.clientName).toBe('Bruno')
		// The last 12 months, July 2025 to June 2026: June 2025 is outside.
		expect(dashboard.months.map((m) => m.month)).toEqual(
			Array.from({ length: 12 }, (_, i) => `${i < 6 ? 2025 : 2026}-${String(((i + 6) % 12) + 1).padStart(2, '0')}-01`),
		)
		expect(dashboard.months.find((m) => m.month === '2026-06-01')).toEqual({ month: '2026-06-01', count: 3, amount: '155.25' })
		expect(dashboard.months.find((m) => m.month === '2025-07-01')).toEqual({ month: '2025-07-01', count: 1, amount: '20.00' })

		expect(await getCategorySummaries(user.userId, user.orgId)).toEqual([
			{ category: 'matched', count: 2, amount: '150.25' },
			{ category: 'unmatched', count: 2, amount: '15.00' },
			{ category: 'pending', count: 1, amount: '75.00' },
			{ category: 'review', count: 1, amount: '20.00' },
		])
		// A member of the other organization sees none of it through this one's id.
		expect(await getCategorySummaries(other.userId, user.orgId)).toEqual([])
		expect((await getDashboard(other.userId, user.orgId, { now: NOW })).totals.transactionCount).toBe(0)
	})

	test('reports over day-precise ranges equal the transactions themselves', async () => {
		const user = await createUser('Report Owner')
		// 400 transactions over two years, deterministic.
		let state = 42
		const next = () => (state = (state * 1103515245 + 12345) % 2147483648)
		const rows: Row[] = Array.from({ length: 400 }, () => {
			const day = new Date(Date.UTC(2024, 11, 1) + (next() % 760) * 86_400_000).toISOString().slice(0, 10)
			return {
				client: null,
				amount: `${next() % 5000}.${String(next() % 100).padStart(2, '0')}`,
				date: day,
				category: (['matched', 'pending', 'unmatched', 'review'] as const)[next() % 4]!,
				method: (['Zelle', 'Venmo', 'CashApp', 'PayPal', 'Wire Transfer', 'Other'] as const)[next() % 6],
			}
		})
		await seed(user, [], rows)
		const ranges: Array<[string | null, string | null]> = [
			[null, null],
			['2025-01-01', '2025-12-31'],
			['2025-01-15', '2025-03-10'],
			['2025-02-03', '2025-02-20'],
			['2024-12-31', '2026-12-31'],
			['2025-06-30', '2025-07-01'],
			['2025-03-01', '2025-03-31'],
		]
		for (let i = 0; i < 15; i++) {
			const a = new Date(Date.UTC(2024, 10, 1) + (next() % 800) * 86_400_000).toISOString().slice(0, 10)
			const b = new Date(Date.UTC(2024, 10, 1) + (next() % 800) * 86_400_000).toISOString().slice(0, 10)
			ranges.push(a <= b ? [a, b] : [b, a])
		}
		for (const [from, to] of ranges) {
			const query = from ? `range=custom&from=${from}&to=${to}` : 'range=all'
			const report = await getReport(user.userId, user.orgId, new URLSearchParams(query), { now: NOW })
			if (!report.ok) throw new Error(`range ${query} refused: ${report.error}`)
			const expected = await truth(user.orgId, from, to)
			expect(report.totals.count, query).toBe(expected.total.count)
			expect(report.totals.amount, query).toBe(expected.total.amount)
			expect(
				[...report.categories]
					.sort((a, b) => a.category.localeCompare(b.category))
					.map(({ category, count, amount }) => ({ category, count, amount })),
				query,
			).toEqual([...expected.categories].sort((a, b) => a.category.localeCompare(b.category)))
			expect(
				report.months.filter((m) => m.count > 0),
				query,
			).toEqual(expected.months)
			const shares = report.categories.reduce((sum, c) => sum + c.share, 0)
			if (report.categories.length) expect(shares, query).toBeCloseTo(1, 9)
			if (expected.total.count > 0) {
				expect(Number(report.totals.average), query).toBeCloseTo(Number(expected.total.amount) / expected.total.count, 2)
			}
		}
	})

	test('report categories are sorted by count, months by date, and presets use the organization timezone', async () => {
		const user = await createUser('Tokyo Owner')
		await asSystem((trx) =>
			trx.updateTable('booking_settings').set({ timezone: 'Asia/Tokyo' }).where('organization_id', '=', user.orgId).execute(),
		)
		await seed(
			user,
			[],
			[
				{ client: null, amount: '10.00', date: '2026-03-31', category: 'review' },
				{ client: null, amount: '1.00', date: '2026-04-01', category: 'pending' },
				{ client: null, amount: '2.00', date: '2026-04-01', category: 'pending' },
				{ client: null, amount: '500.00', date: '2026-04-01', category: 'matched' },
			],
		)
		// 20:00 UTC on March 31 is already April 1 in Tokyo.
		const report = await getReport(user.userId, user.orgId, new URLSearchParams('range=this-month'), {
			now: new Date('2026-03-31T20:00:00Z'),
		})
		if (!report.ok) throw new Error('refused')
		expect(report.range).toEqual({ preset: 'this-month', from: '2026-04-01', to: '2026-04-30' })
		expect(report.totals).toEqual({ count: 3, amount: '503.00', average: '167.67' })
		expect(report.categories.map((c) => [c.category, c.count])).toEqual([
			['pending', 2],
			['matched', 1],
		])
		expect(report.months).toEqual([{ month: '2026-04-01', count: 3, amount: '503.00' }])

		const all = await getReport(user.userId, user.orgId, new URLSearchParams('range=custom&from=2026-02-01&to=2026-04-30'), { now: NOW })
		if (!all.ok) throw new Error('refused')
		expect(all.months.map((m) => [m.month, m.count])).toEqual([
			['2026-02-01', 0],
			['2026-03-01', 1],
			['2026-04-01', 3],
		])

		const bad = await getReport(user.userId, user.orgId, new URLSearchParams('range=custom&from=2026-05-01&to=2026-04-01'), { now: NOW })
		expect(bad).toMatchObject({ ok: false, error: 'fromAfterTo' })
	})

	test('the export yields the range’s rows oldest first across batches, with client names', async () => {
		const user = await createUser('Export Owner')
		const other = await createUser('Export Other')
		await seed(
			user,
			['Ana, "the first"'],
			[
				{ client: 0, amount: '1.00', date: '2026-01-03', category: 'matched', description: '=cmd()' },
				{ client: null, amount: '2.00', date: '2026-01-01', category: 'pending' },
				{ client: 0, amount: '3.00', date: '2026-01-02', category: 'matched' },
				{ client: null, amount: '4.00', date: '2026-01-02', category: 'review' },
				{ client: null, amount: '5.00', date: '2026-01-02', category: 'review' },
				{ client: null, amount: '6.00', date: '2026-02-01', category: 'review' },
				{ client: null, amount: '7.00', date: '2025-12-31', category: 'review' },
			],
		)
		await seed(other, [], [{ client: null, amount: '100.00', date: '2026-01-02', category: 'matched' }])
		const batches = []
		for await (const batch of exportTransactions(user.userId, user.orgId, { preset: 'custom', from: '2026-01-01', to: '2026-01-31' }, 2)) {
			batches.push(batch)
		}
		expect(batches.map((b) => b.length)).toEqual([2, 2, 1])
		const rows = batches.flat()
		expect(rows.map((r) => r.dateReceived)).toEqual(['2026-01-01', '2026-01-02', '2026-01-02', '2026-01-02', '2026-01-03'])
		expect(new Set(rows.map((r) => r.id)).size).toBe(5)
		expect(rows.at(-1)).toMatchObject({ clientName: 'Ana, "the first"', description: '=cmd()', amount: '1.00' })
		const tally = new ExportTally()
		for (const row of rows) tally.add(row)
		expect(tally.total()).toBe('15.00')
		expect(tally.categories().map((c) => [c.category, c.count, c.amount])).toEqual([
			['review', 2, '9.00'],
			['matched', 2, '4.00'],
			['pending', 1, '2.00'],
		])
	})
})
