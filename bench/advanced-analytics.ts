/**
 * Advanced Analytics at a million payments (docs/product.md, Reports: Advanced Analytics; budget
 * 50 ms p95 on the PostgreSQL server). A fresh database of the PostgreSQL test server
 * (scripts/pg-test-server.sh) gets one organization with BENCH_ROWS payments (default 1,000,000)
 * over the last three years from BENCH_CLIENTS clients (default 10,000; one payment in ten without
 * a client), loaded as bench/payments.ts loads them (generate_series in chunks of 250,000, the
 * secondary indexes of transactions dropped and rebuilt, every trigger on: the rollups and the
 * per-client rows of migration 20261208400000 are kept by the triggers as in production), plus a
 * second organization with a tenth as many, whose rows must never count. Then vacuum and analyze.
 *
 * It calls getAnalytics (app/.server/reports/analytics.ts), the one statement the screen's loader
 * runs, as the owner (RLS on), BENCH_RUNS times (default 30) after 3 warm-up calls, for each
 * preset and a day-precise range, and prints p50/p95 in ms; then what the triggers cost a write:
 * one payment's edit that moves it to another client and month, and an insert of 1,000 payments.
 * The Reports overview's day-precise range is timed in the same run, as a yardstick of the
 * machine's speed at the time.
 *
 *   node_modules/.bin/tsx bench/advanced-analytics.ts
 *   BENCH_ROWS=200000 node_modules/.bin/tsx bench/advanced-analytics.ts
 */
import { loadavg } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { runnerImport } from 'vite'
import { freshPgDatabase } from './pg-database.ts'

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 30)
const WARMUP = 3
const CHUNK = 250_000
const BUDGET_MS = 50
const REPORTS = 'b0000000-0000-4000-8000-000000000004'
const ADVANCED_ANALYTICS = 'c0000000-0000-4000-8000-000000000010'
const root = path.resolve(import.meta.dirname, '..')

process.env.SESSION_SECRET ??= 'bench-session-secret-of-at-least-32-characters'
process.env.LOG_LEVEL ??= 'silent'

const db = await freshPgDatabase('analytics_bench')
process.env.DATABASE_URL = db.url
const { module: app } = await runnerImport<typeof import('./advanced-analytics-app.ts')>(
	path.join(root, 'bench/advanced-analytics-app.ts'),
	{
		configFile: false,
		root,
		logLevel: 'warn',
		ssr: { external: ['@electric-sql/pglite', 'pg', 'nodemailer'] },
	},
)
const { asSystem, closeDatabase, dateIn, getAnalytics, getReport, migrate, openDatabase, sql } = app

function log(message: string) {
	process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`)
}

async function time<T>(label: string, fn: () => Promise<T>): Promise<T> {
	const start = performance.now()
	const value = await fn()
	log(`${label}: ${((performance.now() - start) / 1000).toFixed(1)} s`)
	return value
}

function percentile(sorted: number[], p: number) {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

type Result = { name: string; p50: number; p95: number; budget: number | null }

async function measure(name: string, budget: number | null, fn: () => Promise<unknown>, runs = RUNS): Promise<Result> {
	for (let i = 0; i < WARMUP; i++) await fn()
	const samples: number[] = []
	for (let i = 0; i < runs; i++) {
		const start = performance.now()
		await fn()
		samples.push(performance.now() - start)
	}
	samples.sort((a, b) => a - b)
	const result = { name, p50: percentile(samples, 50), p95: percentile(samples, 95), budget }
	log(`${name}: p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms`)
	return result
}

/** An organization (through the sign-up trigger) with the Advanced Analytics upgrade. */
async function organization(name: string) {
	return asSystem(async (trx) => {
		const user = await sql<{ id: string }>`
			insert into auth.users (email, raw_user_meta_data) values (${`${name}-${Date.now()}@bench.example`}, ${JSON.stringify({ full_name: name })}::jsonb)
			returning id`.execute(trx)
		const userId = user.rows[0]!.id
		const { rows } = await sql<{ organization_id: string }>`
			select organization_id from public.organization_members where user_id = ${userId}`.execute(trx)
		const orgId = rows[0]!.organization_id
		await sql`with m as (
				insert into public.organization_modules (organization_id, module_id) values (${orgId}, ${REPORTS})
				on conflict (organization_id, module_id) do update set status = excluded.status returning id)
			insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select ${orgId}, id, ${ADVANCED_ANALYTICS} from m`.execute(trx)
		return { userId, orgId }
	})
}

/** `rows` payments of the organization over the last 1,095 days, as bench/payments.ts seeds them. */
async function seed(orgId: string, rows: number, clients: number, tag: string) {
	await asSystem((trx) =>
		sql`insert into public.clients (organization_id, name, email)
			select ${orgId}, ${tag} || ' Client ' || lpad(g::text, 5, '0'), 'client' || g || '@' || lower(${tag}) || '.example'
			from generate_series(1, ${clients}::int) g`.execute(trx),
	)
	for (let start = 1; start <= rows; start += CHUNK) {
		const end = Math.min(rows, start + CHUNK - 1)
		await time(`${tag}: payments ${start.toLocaleString('en-US')}–${end.toLocaleString('en-US')}`, () =>
			asSystem((trx) =>
				sql`
				with c as (select array_agg(id order by name) as ids from public.clients where organization_id = ${orgId})
				insert into public.transactions (organization_id, client_id, external_id, amount, date_received, category, payment_method, description)
				select ${orgId},
					case when g % 10 = 0 then null else c.ids[1 + (g * 7919) % array_length(c.ids, 1)] end,
					'EXT-' || lpad(g::text, 7, '0'),
					((g * 48271) % 250000) / 100.0,
					current_date - ((g * 104729) % 1095)::int,
					(array['matched', 'pending', 'unmatched', 'review'])[1 + (g * 31) % 4]::public.transaction_category,
					(array['Zelle', 'Venmo', 'CashApp', 'PayPal', 'Wire Transfer', 'Other'])[1 + (g * 17) % 6]::public.payment_method,
					'Payment ' || g
				from generate_series(${start}::bigint, ${end}::bigint) g, c`.execute(trx),
			),
		)
	}
}

const notes: string[] = []
const results: Result[] = []
try {
	await openDatabase({ kind: 'pg', url: db.url, max: 4 })
	await time('migrate', () => migrate(root))
	const a = await organization('Analytics A')
	const b = await organization('Analytics B')
	const indexes = await asSystem(async (trx) => {
		const { rows: list } = await sql<{ indexname: string; indexdef: string }>`
			select i.indexname, i.indexdef from pg_indexes i
			where i.schemaname = 'public' and i.tablename = 'transactions'
				and i.indexname not in (select conname from pg_constraint where conrelid = 'public.transactions'::regclass)`.execute(trx)
		for (const index of list) await sql`drop index public.${sql.id(index.indexname)}`.execute(trx)
		return list
	})
	const loadStart = performance.now()
	await seed(a.orgId, ROWS, CLIENTS, 'A')
	await seed(b.orgId, Math.round(ROWS / 10), Math.round(CLIENTS / 10), 'B')
	notes.push(
		`load with every trigger on: ${((performance.now() - loadStart) / 1000).toFixed(0)} s for ${(ROWS * 1.1).toLocaleString('en-US')} payments`,
	)
	await time(`rebuild ${indexes.length} indexes`, async () => {
		for (const index of indexes) await asSystem((trx) => sql.raw(index.indexdef).execute(trx))
	})
	// As autovacuum leaves tables at rest: statistics, and the visibility map the index-only scans read.
	await time('vacuum analyze', async () => {
		const client = new pg.Client({ connectionString: db.url })
		await client.connect()
		await client.query('vacuum analyze')
		await client.end()
	})
	const sizes = await asSystem(
		async (trx) =>
			(
				await sql<{ months: number; totals: number; cohorts: number }>`
				select (select count(*)::int from public.client_payment_months where organization_id = ${a.orgId}) as months,
					(select count(*)::int from public.client_payment_totals where organization_id = ${a.orgId}) as totals,
					(select count(*)::int from public.client_cohort_rollups where organization_id = ${a.orgId}) as cohorts`.execute(trx)
			).rows[0]!,
	)
	notes.push(
		`kept rows of A: ${sizes.months.toLocaleString('en-US')} client-months, ${sizes.totals.toLocaleString('en-US')} clients, ${sizes.cohorts} cohort cells`,
	)

	const today = dateIn('UTC')
	const call = (query: string) => getAnalytics(a.userId, a.orgId, new URLSearchParams(query), { timezone: 'UTC' })
	const all = await call('range=all')
	if (!all.ok) throw new Error('range refused')
	notes.push(
		`scoping: A's all-time count is ${all.totals.count.toLocaleString('en-US')} (${all.totals.count === ROWS ? 'its own rows only' : 'WRONG'})`,
	)
	const preciseFrom = `${String(Number(today.slice(0, 4)) - 1)}${today.slice(4, 8)}15`
	results.push(await measure('analytics: last 12 months', BUDGET_MS, () => call('range=last-12-months')))
	results.push(await measure('analytics: year to date', BUDGET_MS, () => call('range=year-to-date')))
	results.push(await measure('analytics: 12 months, day-precise', BUDGET_MS, () => call(`range=custom&from=${preciseFrom}&to=${today}`)))
	results.push(await measure('analytics: this month', BUDGET_MS, () => call('range=this-month')))
	results.push(await measure('analytics: all time', BUDGET_MS, () => call('range=all')))
	// The Reports overview's day-precise range in the same run: the machine's speed at the time, for comparison.
	results.push(
		await measure('overview (getReport): 12 months, day-precise', null, () =>
			getReport(a.userId, a.orgId, new URLSearchParams(`range=custom&from=${preciseFrom}&to=${today}`), { timezone: 'UTC' }),
		),
	)

	// What the triggers cost a write: one payment moved to another client and month, then back.
	const one = await asSystem(
		async (trx) =>
			(
				await sql<{ id: string; client_id: string; other: string; date_received: string }>`
				select t.id, t.client_id, (select id from public.clients where organization_id = ${a.orgId} and id <> t.client_id limit 1) as other,
					t.date_received::text
				from public.transactions t where t.organization_id = ${a.orgId} and t.client_id is not null limit 1`.execute(trx)
			).rows[0]!,
	)
	let flip = false
	results.push(
		await measure('write: one payment to another client and month', null, () => {
			flip = !flip
			return asSystem((trx) =>
				sql`update public.transactions set client_id = ${flip ? one.other : one.client_id},
					date_received = ${one.date_received}::date - ${flip ? 40 : 0}::int where id = ${one.id}`.execute(trx),
			)
		}),
	)
	results.push(
		await measure(
			'write: 1,000 payments inserted',
			null,
			() =>
				asSystem((trx) =>
					sql`with c as (select array_agg(id) as ids from public.clients where organization_id = ${a.orgId})
					insert into public.transactions (organization_id, client_id, amount, date_received, payment_method)
					select ${a.orgId}, c.ids[1 + (g * 7919) % array_length(c.ids, 1)], 10, current_date - (g % 365), 'Zelle'
					from generate_series(1, 1000) g, c`.execute(trx),
				),
			10,
		),
	)
} finally {
	await closeDatabase()
	await db.drop()
}

console.log(
	`\nAdvanced Analytics, ${ROWS.toLocaleString('en-US')} payments, ${CLIENTS.toLocaleString('en-US')} clients; ${RUNS} runs after ${WARMUP} warm-up (writes: 10); load average ${loadavg()
		.map((l) => l.toFixed(1))
		.join(' ')}\n`,
)
console.log('| measure | p50 ms | p95 ms | budget p95 |')
console.log('| --- | --- | --- | --- |')
for (const r of results)
	console.log(
		`| ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.budget === null ? '—' : `${r.budget} ms ${r.p95 <= r.budget ? 'ok' : 'MISSED'}`} |`,
	)
console.log()
for (const note of notes) console.log(`- ${note}`)
