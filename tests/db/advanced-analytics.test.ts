/**
 * Advanced Analytics (docs/product.md, Reports: Advanced Analytics): cohorts and retention, rail
 * trends, year over year and top clients equal figures worked out by hand from typed payments;
 * the kept per-client rows (migration 20261208400000_advanced_analytics.sql) equal the same
 * figures computed from the transactions after edits, moves, deletes, a client's deletion, a
 * merge, an import and its undo; another organization's payments never count; a bad range is a
 * 400 with the reason, and the screen without the upgrade reads nothing.
 */
import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { memberContext } from '#app/.server/context.ts'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import type { PaymentMethod } from '#app/.server/db/types.ts'
import { importPayments, undoImport } from '#app/.server/payments/imports/pipeline.ts'
import { ADVANCED_ANALYTICS_UPGRADE_ID, getAnalytics, type Analytics } from '#app/.server/reports/analytics.ts'
import { loader } from '#app/routes/app/reports/analytics.tsx'
import { loader as pdfLoader } from '#app/routes/app/reports/analytics-pdf.ts'
import { readPdf } from '../support/pdf-text.ts'
import { CATALOGUE, createUser, type TestUser } from './fixtures.ts'

const NOW = new Date('2026-06-15T12:00:00Z')

type Payment = { client: string | null; date: string; amount: string; method: PaymentMethod }

/** The payments typed for the figures below (amounts in dollars). */
const PAYMENTS: Payment[] = [
	{ client: 'Ana', date: '2025-01-10', amount: '100.00', method: 'Zelle' },
	{ client: 'Ana', date: '2025-02-05', amount: '50.00', method: 'Venmo' },
	{ client: 'Ana', date: '2025-04-20', amount: '30.00', method: 'Zelle' },
	{ client: 'Ana', date: '2026-01-15', amount: '200.00', method: 'Zelle' },
	{ client: 'Ana', date: '2026-02-03', amount: '40.00', method: 'PayPal' },
	{ client: 'Bruno', date: '2025-01-25', amount: '80.00', method: 'Venmo' },
	{ client: 'Bruno', date: '2025-03-01', amount: '20.00', method: 'Venmo' },
	{ client: 'Bruno', date: '2026-02-10', amount: '60.00', method: 'CashApp' },
	{ client: 'Carla', date: '2025-02-14', amount: '500.00', method: 'Wire Transfer' },
	{ client: 'Carla', date: '2025-02-20', amount: '10.00', method: 'Zelle' },
	{ client: 'Carla', date: '2025-03-10', amount: '25.00', method: 'Zelle' },
	{ client: null, date: '2025-02-01', amount: '15.00', method: 'Other' },
	{ client: null, date: '2026-02-28', amount: '35.00', method: 'Zelle' },
	{ client: 'Dario', date: '2026-05-03', amount: '70.00', method: 'Venmo' },
]

type World = { owner: TestUser; clients: Record<string, string> }

/** An organization with the upgrade (unless told otherwise), its clients and the payments above. */
async function world({ upgrade = true, payments = PAYMENTS } = {}): Promise<World> {
	const owner = await createUser('Analytics Studio')
	if (upgrade) await giveUpgrade(owner.orgId)
	const clients = await asUser(owner.userId, async (trx) => {
		const rows = await trx
			.insertInto('clients')
			.values(['Ana', 'Bruno', 'Carla', 'Dario'].map((name) => ({ organization_id: owner.orgId, name })))
			.returning(['id', 'name'])
			.execute()
		const ids = Object.fromEntries(rows.map((r) => [r.name, r.id]))
		if (payments.length === 0) return ids
		await trx
			.insertInto('transactions')
			.values(
				payments.map((p) => ({
					organization_id: owner.orgId,
					client_id: p.client ? ids[p.client]! : null,
					date_received: p.date,
					amount: p.amount,
					payment_method: p.method,
					category: p.client ? ('matched' as const) : ('unmatched' as const),
				})),
			)
			.execute()
		return ids
	})
	return { owner, clients }
}

async function giveUpgrade(orgId: string) {
	await asSystem(async (trx) => {
		await trx
			.insertInto('organization_modules')
			.values({ organization_id: orgId, module_id: CATALOGUE.modules.reports })
			.onConflict((oc) => oc.columns(['organization_id', 'module_id']).doNothing())
			.execute()
		const module = await trx
			.selectFrom('organization_modules')
			.select('id')
			.where('organization_id', '=', orgId)
			.where('module_id', '=', CATALOGUE.modules.reports)
			.executeTakeFirstOrThrow()
		await trx
			.insertInto('organization_module_upgrades')
			.values({ organization_id: orgId, organization_module_id: module.id, upgrade_id: ADVANCED_ANALYTICS_UPGRADE_ID })
			.execute()
	})
}

async function analytics(user: TestUser, query: string, orgId = user.orgId): Promise<Analytics> {
	const result = await getAnalytics(user.userId, orgId, new URLSearchParams(query), { now: NOW, timezone: 'UTC' })
	if (!result.ok) throw new Error(`range refused: ${result.error}`)
	return result
}

const filled = (n: number) => Array.from({ length: n }, () => 0)

describe('the figures of a range, against the typed payments', () => {
	test('a range of whole months: rails per month, year over year, top clients and the cohorts that started in it', async () => {
		const w = await world()
		const a = await analytics(w.owner, 'range=custom&from=2026-01-01&to=2026-06-30')
		expect(a.totals).toEqual({ count: 5, amount: '405.00' })
		expect(a.months).toEqual(['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01', '2026-05-01', '2026-06-01'])
		expect(a.methods).toEqual(['Zelle', 'Venmo', 'CashApp', 'PayPal'])
		expect(a.methodMonths).toEqual([
			{ month: '2026-01-01', method: 'Zelle', count: 1, amount: '200.00' },
			{ month: '2026-02-01', method: 'Zelle', count: 1, amount: '35.00' },
			{ month: '2026-02-01', method: 'CashApp', count: 1, amount: '60.00' },
			{ month: '2026-02-01', method: 'PayPal', count: 1, amount: '40.00' },
			{ month: '2026-05-01', method: 'Venmo', count: 1, amount: '70.00' },
		])
		expect(a.yearOverYear).toEqual([
			{
				month: '2026-01-01',
				amount: '200.00',
				count: 1,
				previousAmount: '180.00',
				previousCount: 2,
				amountChange: 0.111111,
				countChange: -0.5,
			},
			{
				month: '2026-02-01',
				amount: '135.00',
				count: 3,
				previousAmount: '575.00',
				previousCount: 4,
				amountChange: -0.765217,
				countChange: -0.25,
			},
			{ month: '2026-03-01', amount: '0.00', count: 0, previousAmount: '45.00', previousCount: 2, amountChange: -1, countChange: -1 },
			{ month: '2026-04-01', amount: '0.00', count: 0, previousAmount: '30.00', previousCount: 1, amountChange: -1, countChange: -1 },
			{ month: '2026-05-01', amount: '70.00', count: 1, previousAmount: '0.00', previousCount: 0, amountChange: null, countChange: null },
			{ month: '2026-06-01', amount: '0.00', count: 0, previousAmount: '0.00', previousCount: 0, amountChange: null, countChange: null },
		])
		expect(a.topClients).toEqual([
			{ clientId: w.clients.Ana, name: 'Ana', count: 2, amount: '240.00', share: 0.592592, lastPayment: '2026-02-03' },
			{ clientId: w.clients.Dario, name: 'Dario', count: 1, amount: '70.00', share: 0.172839, lastPayment: '2026-05-03' },
			{ clientId: w.clients.Bruno, name: 'Bruno', count: 1, amount: '60.00', share: 0.148148, lastPayment: '2026-02-10' },
		])
		// Dario's first payment (May 2026): month 0 and 1 have passed on 15 June, the rest is to come.
		expect(a.cohorts).toEqual([{ month: '2026-05-01', clients: 1, retained: [1, 0, ...Array(11).fill(null)] }])
	})

	test('cohorts follow each client from its first payment ever, through month 12 and not past it', async () => {
		const w = await world()
		const a = await analytics(w.owner, 'range=custom&from=2025-01-01&to=2025-12-31')
		const january = filled(13)
		Object.assign(january, { 0: 2, 1: 1, 2: 1, 3: 1, 12: 1 }) // Ana in Feb, Apr and Jan 2026; Bruno in Mar; Ana's Feb 2026 is month 13
		const february = filled(13)
		Object.assign(february, { 0: 1, 1: 1 }) // Carla, again in March
		expect(a.cohorts).toEqual([
			{ month: '2025-01-01', clients: 2, retained: january },
			{ month: '2025-02-01', clients: 1, retained: february },
		])
	})

	test('a day-precise range counts the days at its edges from the payments themselves', async () => {
		const w = await world()
		const a = await analytics(w.owner, 'range=custom&from=2025-01-20&to=2025-02-14')
		expect(a.totals).toEqual({ count: 4, amount: '645.00' })
		expect(a.methodMonths).toEqual([
			{ month: '2025-01-01', method: 'Venmo', count: 1, amount: '80.00' },
			{ month: '2025-02-01', method: 'Venmo', count: 1, amount: '50.00' },
			{ month: '2025-02-01', method: 'Wire Transfer', count: 1, amount: '500.00' },
			{ month: '2025-02-01', method: 'Other', count: 1, amount: '15.00' },
		])
		expect(a.topClients.map((c) => [c.name, c.count, c.amount, c.lastPayment])).toEqual([
			['Carla', 1, '500.00', '2025-02-14'],
			['Bruno', 1, '80.00', '2025-01-25'],
			['Ana', 1, '50.00', '2025-02-05'],
		])
		expect(a.yearOverYear.map((y) => [y.month, y.previousAmount, y.amountChange])).toEqual([
			['2025-01-01', '0.00', null],
			['2025-02-01', '0.00', null],
		])
		expect(a.cohorts.map((c) => c.month)).toEqual(['2025-01-01', '2025-02-01'])
	})

	test('all time: the top clients of all time, every month with payments, and each against the year before', async () => {
		const w = await world()
		const a = await analytics(w.owner, 'range=all')
		expect(a.totals).toEqual({ count: 14, amount: '1235.00' })
		expect(a.topClients.map((c) => [c.name, c.count, c.amount, c.lastPayment])).toEqual([
			['Carla', 3, '535.00', '2025-03-10'],
			['Ana', 5, '420.00', '2026-02-03'],
			['Bruno', 3, '160.00', '2026-02-10'],
			['Dario', 1, '70.00', '2026-05-03'],
		])
		expect(a.months[0]).toBe('2025-01-01')
		expect(a.months.at(-1)).toBe('2026-05-01')
		expect(a.yearOverYear.find((y) => y.month === '2026-01-01')).toMatchObject({ amount: '200.00', previousAmount: '180.00' })
		expect(a.cohorts.map((c) => [c.month, c.clients])).toEqual([
			['2025-01-01', 2],
			['2025-02-01', 1],
			['2026-05-01', 1],
		])
	})

	test('a range that ends after this month leaves out a payment dated after the range, read from the year so far', async () => {
		const w = await world({
			payments: [
				{ client: 'Ana', date: '2025-12-20', amount: '7.00', method: 'Zelle' },
				{ client: 'Ana', date: '2026-02-10', amount: '100.00', method: 'Zelle' },
				{ client: 'Ana', date: '2026-09-01', amount: '50.00', method: 'Zelle' },
				{ client: 'Bruno', date: '2026-03-10', amount: '30.00', method: 'Venmo' },
			],
		})
		const a = await analytics(w.owner, 'range=custom&from=2026-01-01&to=2026-06-30')
		expect(a.topClients.map((c) => [c.name, c.count, c.amount])).toEqual([
			['Ana', 1, '100.00'],
			['Bruno', 1, '30.00'],
		])
		const twelve = await analytics(w.owner, 'range=custom&from=2025-12-01&to=2026-08-31')
		expect(twelve.topClients.map((c) => [c.name, c.count, c.amount])).toEqual([
			['Ana', 2, '107.00'],
			['Bruno', 1, '30.00'],
		])
	})

	test('an edge read as its whole month minus the other days counts exactly the days of the range', async () => {
		const w = await world({
			payments: [
				{ client: 'Ana', date: '2025-01-03', amount: '1.00', method: 'Zelle' },
				{ client: 'Ana', date: '2025-01-10', amount: '100.00', method: 'Zelle' },
				{ client: 'Bruno', date: '2026-06-10', amount: '30.00', method: 'Venmo' },
				{ client: 'Bruno', date: '2026-06-20', amount: '500.00', method: 'Venmo' },
			],
		})
		// 5 January to today (15 June 2026): January minus its first four days, June minus the days after today.
		const a = await analytics(w.owner, 'range=custom&from=2025-01-05&to=2026-06-15')
		expect(a.totals).toEqual({ count: 2, amount: '130.00' })
		expect(a.topClients.map((c) => [c.name, c.count, c.amount])).toEqual([
			['Ana', 1, '100.00'],
			['Bruno', 1, '30.00'],
		])
		expect(a.methodMonths).toEqual([
			{ month: '2025-01-01', method: 'Zelle', count: 1, amount: '100.00' },
			{ month: '2026-06-01', method: 'Venmo', count: 1, amount: '30.00' },
		])
		const june = await analytics(w.owner, 'range=custom&from=2026-06-01&to=2026-06-15')
		expect(june.topClients.map((c) => [c.name, c.amount, c.lastPayment])).toEqual([['Bruno', '30.00', '2026-06-10']])
	})

	test('only ten clients are listed, the largest first', async () => {
		const payments: Payment[] = Array.from({ length: 12 }, (_, i) => ({
			client: null,
			date: '2026-03-10',
			amount: `${(i + 1) * 10}.00`,
			method: 'Zelle' as const,
		}))
		const w = await world({ payments })
		const ids = await asUser(w.owner.userId, async (trx) => {
			const rows = await trx
				.insertInto('clients')
				.values(payments.map((_, i) => ({ organization_id: w.owner.orgId, name: `Client ${i + 1}` })))
				.returning('id')
				.execute()
			const txs = await trx.selectFrom('transactions').select(['id', 'amount']).where('organization_id', '=', w.owner.orgId).execute()
			for (const tx of txs) {
				await trx
					.updateTable('transactions')
					.set({ client_id: rows[Number(tx.amount) / 10 - 1]!.id })
					.where('id', '=', tx.id)
					.execute()
			}
			return rows.map((r) => r.id)
		})
		const a = await analytics(w.owner, 'range=custom&from=2026-03-01&to=2026-03-31')
		expect(a.topClients.map((c) => c.amount)).toEqual([
			'120.00',
			'110.00',
			'100.00',
			'90.00',
			'80.00',
			'70.00',
			'60.00',
			'50.00',
			'40.00',
			'30.00',
		])
		expect(a.topClients[0]!.clientId).toBe(ids[11])
	})
})

// ---------------------------------------------------------------------------------------------

type Kept = {
	months: Array<{ client_id: string; month: string; n: number; s: string }>
	years: Array<{ client_id: string; year: string; n: number; s: string }>
	totals: Array<{ client_id: string; first_month: string; n: number; s: string }>
	cohorts: Array<{ cohort_month: string; month_offset: number; n: number }>
}

/** The kept rows of an organization, next to the same figures computed from its transactions. */
async function keptAndTruth(orgId: string): Promise<{ kept: Kept; truth: Kept }> {
	return asSystem(async (trx) => {
		const kept: Kept = {
			months: (
				await sql<Kept['months'][number]>`
				select client_id, month::text, transaction_count::int as n, amount_sum::text as s
				from public.client_payment_months where organization_id = ${orgId} order by 1, 2`.execute(trx)
			).rows,
			years: (
				await sql<Kept['years'][number]>`
				select client_id, year::text, transaction_count::int as n, amount_sum::text as s
				from public.client_payment_years where organization_id = ${orgId} order by 1, 2`.execute(trx)
			).rows,
			totals: (
				await sql<Kept['totals'][number]>`
				select client_id, first_month::text, transaction_count::int as n, amount_sum::text as s
				from public.client_payment_totals where organization_id = ${orgId} order by 1`.execute(trx)
			).rows,
			cohorts: (
				await sql<Kept['cohorts'][number]>`
				select cohort_month::text, month_offset::int, client_count::int as n
				from public.client_cohort_rollups where organization_id = ${orgId} order by 1, 2`.execute(trx)
			).rows,
		}
		const months = sql`
			select client_id, date_trunc('month', date_received::timestamp)::date as month, count(*)::int as n,
				sum(amount)::numeric(18, 2) as s
			from public.transactions where organization_id = ${orgId} and client_id is not null group by 1, 2`
		const truth: Kept = {
			months: (await sql<Kept['months'][number]>`select client_id, month::text, n, s::text from (${months}) m order by 1, 2`.execute(trx))
				.rows,
			years: (
				await sql<Kept['years'][number]>`
				select client_id, date_trunc('year', month)::date::text as year, sum(n)::int as n, sum(s)::numeric(18, 2)::text as s
				from (${months}) m group by 1, 2 order by 1, 2`.execute(trx)
			).rows,
			totals: (
				await sql<Kept['totals'][number]>`
				select client_id, min(month)::text as first_month, sum(n)::int as n, sum(s)::numeric(18, 2)::text as s
				from (${months}) m group by 1 order by 1`.execute(trx)
			).rows,
			cohorts: (
				await sql<Kept['cohorts'][number]>`
				with m as (${months}), f as (select client_id, min(month) as first from m group by 1)
				select f.first::text as cohort_month,
					((extract(year from m.month) - extract(year from f.first)) * 12 + extract(month from m.month) - extract(month from f.first))::int as month_offset,
					count(*)::int as n
				from m join f using (client_id)
				where m.month < (f.first + interval '13 months')::date
				group by 1, 2 order by 1, 2`.execute(trx)
			).rows,
		}
		return { kept, truth }
	})
}

async function expectKeptRight(orgId: string) {
	const { kept, truth } = await keptAndTruth(orgId)
	expect(kept).toEqual(truth)
}

describe('the kept per-client rows', () => {
	test('stay equal to the transactions through edits, moves, deletes, a client deleted and two clients merged', async () => {
		const w = await world()
		await expectKeptRight(w.owner.orgId)
		const tx = (client: string, date: string) =>
			asUser(w.owner.userId, (trx) =>
				trx
					.selectFrom('transactions')
					.select('id')
					.where('organization_id', '=', w.owner.orgId)
					.where('client_id', '=', w.clients[client]!)
					.where('date_received', '=', date)
					.executeTakeFirstOrThrow()
					.then((r) => r.id),
			)
		const update = async (id: string, values: Record<string, unknown>) =>
			asUser(w.owner.userId, (trx) => trx.updateTable('transactions').set(values).where('id', '=', id).execute())

		// An amount; a payment moved to an earlier month (Ana's cohort becomes December 2024).
		await update(await tx('Ana', '2025-04-20'), { amount: '31.50' })
		await expectKeptRight(w.owner.orgId)
		await update(await tx('Ana', '2025-01-10'), { date_received: '2024-12-01' })
		await expectKeptRight(w.owner.orgId)
		const moved = await analytics(w.owner, 'range=custom&from=2024-12-01&to=2025-01-31')
		expect(moved.cohorts.map((c) => [c.month, c.clients])).toEqual([
			['2024-12-01', 1],
			['2025-01-01', 1],
		])

		// A payment given to another client, one taken from its client, one deleted.
		await update(await tx('Bruno', '2025-03-01'), { client_id: w.clients.Carla })
		await expectKeptRight(w.owner.orgId)
		await update(await tx('Carla', '2025-02-20'), { client_id: null })
		await expectKeptRight(w.owner.orgId)
		const first = await tx('Carla', '2025-02-14')
		await asUser(w.owner.userId, (trx) => trx.deleteFrom('transactions').where('id', '=', first).execute())
		await expectKeptRight(w.owner.orgId)

		// A client deleted keeps its payments without a client; two clients merged into one.
		await asUser(w.owner.userId, (trx) => trx.deleteFrom('clients').where('id', '=', w.clients.Dario!).execute())
		await expectKeptRight(w.owner.orgId)
		await asUser(w.owner.userId, (trx) => sql`select public.merge_clients(${w.clients.Ana}, ${w.clients.Bruno})`.execute(trx))
		await expectKeptRight(w.owner.orgId)
		const all = await analytics(w.owner, 'range=all')
		expect(all.topClients.map((c) => c.name)).toEqual(['Ana', 'Carla'])

		// Every payment at once.
		await asUser(w.owner.userId, (trx) => trx.deleteFrom('transactions').where('organization_id', '=', w.owner.orgId).execute())
		expect(await keptAndTruth(w.owner.orgId)).toEqual({
			kept: { months: [], years: [], totals: [], cohorts: [] },
			truth: { months: [], years: [], totals: [], cohorts: [] },
		})
	})

	test('an import adds its matched payments to the clients and its undo takes them away', async () => {
		const w = await world({ payments: [] })
		await asUser(w.owner.userId, (trx) =>
			trx.insertInto('clients').values({ organization_id: w.owner.orgId, name: 'Ana Silva' }).returning('id').execute(),
		)
		const file = [
			'Account Statement - (@owner) ,,,,,,,,,,,',
			'Account Activity,,,,,,,,,,,',
			',ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (fee),Beginning Balance,Disclaimer',
			',3921234567890123456,2026-03-01T14:22:05,Payment,Complete,Yoga,Ana Silva,Owner,"+ $1,250.00",,,',
			',3921234567890123457,2026-04-02T09:00:00,Payment,Complete,Yoga,Ana Silva,Owner,+ $80.00,,,',
			',3921234567890123458,2026-04-03T09:00:00,Payment,Complete,Class,Mystery Payer,Owner,+ $15.00,,,',
		].join('\n')
		const result = await importPayments({ organizationId: w.owner.orgId, userId: w.owner.userId, file, label: 'venmo.csv' })
		if (!result.ok || result.status !== 'committed') throw new Error('not committed')
		await expectKeptRight(w.owner.orgId)
		const after = await analytics(w.owner, 'range=custom&from=2026-03-01&to=2026-04-30')
		expect(after.topClients.map((c) => [c.name, c.count, c.amount])).toEqual([['Ana Silva', 2, '1330.00']])
		expect(after.cohorts).toEqual([{ month: '2026-03-01', clients: 1, retained: [1, 1, 0, 0, ...Array(9).fill(null)] }])
		expect(await undoImport(w.owner.userId, result.batch.batchId)).toMatchObject({ ok: true, removed: 3 })
		await expectKeptRight(w.owner.orgId)
		const undone = await analytics(w.owner, 'range=custom&from=2026-03-01&to=2026-04-30')
		expect(undone).toMatchObject({ totals: { count: 0, amount: '0.00' }, topClients: [], cohorts: [] })
	})
})

// ---------------------------------------------------------------------------------------------

describe('who sees what', () => {
	test("another organization's payments never count, and its member reads nothing of this one", async () => {
		const w = await world()
		const other = await world()
		const mine = await analytics(w.owner, 'range=all')
		expect(mine.totals).toEqual({ count: 14, amount: '1235.00' })
		expect(mine.topClients.every((c) => Object.values(w.clients).includes(c.clientId))).toBe(true)
		const snooped = await analytics(other.owner, 'range=all', w.owner.orgId)
		expect(snooped).toMatchObject({ totals: { count: 0, amount: '0.00' }, topClients: [], cohorts: [], methodMonths: [] })
	})

	test('without the upgrade the screen reads no figure; with it a bad range is a 400 that says why', async () => {
		const without = await createUser('No Upgrade')
		const call = async (user: TestUser, query: string) => {
			const context = new RouterContextProvider()
			context.set(memberContext, {
				user: { userId: user.userId, email: user.email, fullName: null, avatarUrl: null, preferredLanguage: null },
				organization: { id: user.orgId, timezone: 'UTC', role: 'owner' },
			} as never)
			const request = new Request(`http://localhost/app/reports/analytics?${query}`)
			return (await loader({ request, context, params: {} } as never)) as unknown
		}
		expect(await call(without, 'range=all')).toEqual({ active: false })
		const w = await world()
		for (const [query, error] of [
			['range=custom&from=2026-05-01', 'missingDates'],
			['range=custom&from=2026-13-01&to=2026-12-31', 'invalidFrom'],
			['from=2026-01-01&to=not-a-date', 'invalidTo'],
			['range=custom&from=2026-06-01&to=2026-01-01', 'fromAfterTo'],
		] as const) {
			const answer = (await call(w.owner, query)) as { init: { status: number }; data: { ok: boolean; error: string } }
			expect(answer.init.status, query).toBe(400)
			expect(answer.data, query).toMatchObject({ ok: false, error })
		}
		// An unknown preset and hostile text fall back to the default range, never an error page.
		const odd = (await call(w.owner, `range=${encodeURIComponent("'; drop table x;--")}`)) as { ok: boolean; range: { preset: string } }
		expect(odd).toMatchObject({ ok: true, range: { preset: 'last-12-months' } })
		const far = (await call(w.owner, 'range=custom&from=1900-01-01&to=2100-12-31')) as { ok: boolean; months: string[] }
		expect(far.ok).toBe(true)
		expect(far.months.length).toBeLessThanOrEqual(36)
	})
})

describe('the PDF', () => {
	const pdf = async (user: TestUser, query: string) => {
		const context = new RouterContextProvider()
		context.set(memberContext, {
			user: { userId: user.userId, email: user.email, fullName: null, avatarUrl: null, preferredLanguage: null },
			organization: { id: user.orgId, name: 'Analytics Studio', timezone: 'UTC', role: 'owner' },
		} as never)
		const request = new Request(`http://localhost/app/reports/analytics.pdf?${query}`)
		return (await pdfLoader({ request, context, params: {} } as never)) as Response
	}

	test('needs both Advanced Analytics and Report Export; with both it holds the figures; a bad range is a 400', async () => {
		const w = await world()
		const withoutExport = await pdf(w.owner, 'range=custom&from=2026-01-01&to=2026-06-30')
		expect(withoutExport.status).toBe(403)
		expect(await withoutExport.text()).toContain('Report Export')
		const noUpgrade = await world({ upgrade: false })
		expect((await pdf(noUpgrade.owner, 'range=all')).status).toBe(403)

		await asSystem((trx) =>
			trx
				.insertInto('organization_module_upgrades')
				.values((eb) => ({
					organization_id: w.owner.orgId,
					organization_module_id: eb
						.selectFrom('organization_modules')
						.select('id')
						.where('organization_id', '=', w.owner.orgId)
						.where('module_id', '=', CATALOGUE.modules.reports),
					upgrade_id: 'c0000000-0000-4000-8000-000000000012', // Report Export
				}))
				.execute(),
		)
		const ok = await pdf(w.owner, 'range=custom&from=2026-01-01&to=2026-06-30')
		expect(ok.status).toBe(200)
		expect(ok.headers.get('content-type')).toBe('application/pdf')
		const { text } = await readPdf(new Uint8Array(await ok.arrayBuffer()))
		for (const expected of ['Top clients', 'Client cohorts', 'Payment method trends', 'Year over year', 'Ana', '$240.00', '$405.00']) {
			expect(text).toContain(expected)
		}
		expect(text).not.toContain('Carla')
		const bad = await pdf(w.owner, 'range=custom&from=2026-06-01&to=2026-01-01')
		expect(bad.status).toBe(400)
		expect(await bad.text()).toContain('Dates out of order')
	})
})
