/**
 * The tax-year view at a million payments (issue 51: "under 50 ms p95 at 1 M transactions and
 * 100,000 expenses on PostgreSQL"). A fresh database of the PostgreSQL test server gets one
 * organization with BENCH_ROWS transactions (default 1,000,000) over the last three years on every
 * rail, a third of the app ones with a fee and some Venmo ones with a tip, and BENCH_EXPENSES
 * expenses and refunds (default 100,000) over the same years; plus a second organization with a
 * tenth as many, whose rows the first's view must never read. Loaded with generate_series, the
 * rollup triggers on (so the rollups are the triggers' own), then vacuumed and analyzed.
 *
 * Then it calls getTaxYear (app/.server/reports/tax-year.ts) as the owner (RLS on), one caller at
 * a time, BENCH_RUNS times (default 30) after 3 warm-up calls, for the current year and the year
 * before, and prints p50/p95 in ms. Figures, not a pass/fail test; the budget is 50 ms p95.
 *
 *   node_modules/.bin/tsx bench/tax-year.ts
 *   BENCH_ROWS=200000 BENCH_EXPENSES=20000 node_modules/.bin/tsx bench/tax-year.ts
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { freshPgDatabase } from './pg-database.ts'

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const EXPENSES = Number(process.env.BENCH_EXPENSES ?? 100_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 30)
const WARMUP = 3
const CHUNK = 200_000

process.env.SESSION_SECRET ??= 'bench-session-secret-of-at-least-32-characters'
process.env.LOG_LEVEL ??= 'silent'

const db = await freshPgDatabase('tax_year_bench')
process.env.DATABASE_URL = db.url
const { asSystem, closeDatabase, openDatabase, sql } = await import('../app/.server/db/index.ts')
const { migrate } = await import('../app/.server/db/migrate.ts')
const { getTaxYear } = await import('../app/.server/reports/tax-year.ts')

async function time<T>(label: string, fn: () => Promise<T>): Promise<T> {
	const start = performance.now()
	const value = await fn()
	console.log(`${label.padEnd(64)} ${((performance.now() - start) / 1000).toFixed(1)} s`)
	return value
}

function percentile(sorted: number[], p: number) {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

type Result = { name: string; p50: number; p95: number; note: string }

async function measure(name: string, fn: () => Promise<unknown>, note: (value: unknown) => string) {
	let last: unknown
	for (let i = 0; i < WARMUP; i++) last = await fn()
	const samples: number[] = []
	for (let i = 0; i < RUNS; i++) {
		const start = performance.now()
		last = await fn()
		samples.push(performance.now() - start)
	}
	samples.sort((a, b) => a - b)
	const result = { name, p50: percentile(samples, 50), p95: percentile(samples, 95), note: note(last) }
	console.log(`${name.padEnd(40)} p50 ${result.p50.toFixed(1).padStart(6)} ms  p95 ${result.p95.toFixed(1).padStart(6)} ms  ${result.note}`)
	return result
}

/** An organization through the sign-up trigger, in Massachusetts; its owner's id and its id. */
async function organization(name: string) {
	return asSystem(async (trx) => {
		const user = await sql<{ id: string }>`
			insert into auth.users (email, raw_user_meta_data) values (${`${name}@bench.example`}, ${JSON.stringify({ full_name: name })}::jsonb)
			returning id`.execute(trx)
		const userId = user.rows[0]!.id
		const { rows } = await sql<{ organization_id: string }>`
			select organization_id from public.organization_members where user_id = ${userId}`.execute(trx)
		const orgId = rows[0]!.organization_id
		await sql`update public.organizations set state = 'MA' where id = ${orgId}`.execute(trx)
		return { userId, orgId }
	})
}

/** `count` payments over the last three years on every rail, in chunks (one statement, one pass of the rollup triggers each). */
async function seedPayments(orgId: string, count: number) {
	for (let first = 1; first <= count; first += CHUNK) {
		const last = Math.min(count, first + CHUNK - 1)
		await asSystem((trx) =>
			sql`insert into public.transactions (organization_id, amount, date_received, category, payment_method, fee, tip)
				select ${orgId}, (10 + g % 200)::numeric(12, 2), current_date - (g % 1095)::int, 'unmatched',
					(array['Zelle', 'Venmo', 'CashApp', 'PayPal', 'Wire Transfer', 'Other'])[1 + g % 6]::public.payment_method,
					case when g % 6 in (1, 2, 3) and g % 3 = 0 then (0.25 + (g % 10) / 10.0)::numeric(12, 2) end,
					case when g % 6 = 1 and g % 4 = 0 then (g % 5 + 1)::numeric(12, 2) end
				from generate_series(${first}::int, ${last}::int) g`.execute(trx),
		)
	}
}

/** `count` expenses and refunds (one in ten) over the same three years, in every category. */
async function seedExpenses(orgId: string, userId: string, count: number) {
	await asSystem((trx) =>
		sql`insert into public.expenses (organization_id, kind, spent_on, amount, vendor, category, payment_method, created_by)
			select ${orgId}, case when g % 10 = 0 then 'refund' else 'expense' end, current_date - (g % 1095)::int,
				(5 + g % 300)::numeric(12, 2), 'Vendor ' || (g % 500),
				(array['advertising', 'supplies', 'rent', 'utilities', 'software', 'travel', 'meals', 'fees', 'contractors',
					'equipment', 'insurance', 'taxes', 'other'])[1 + g % 13],
				case when g % 10 = 0 then (array['Venmo', 'CashApp', 'PayPal'])[1 + g % 3]::public.payment_method end, ${userId}
			from generate_series(1, ${count}::int) g`.execute(trx),
	)
}

const results: Result[] = []
try {
	await openDatabase({ kind: 'pg', url: db.url, max: 4 })
	await time('migrate', () => migrate())
	const a = await organization('Busy Salon')
	const b = await organization('Other Salon')
	await time(`${ROWS.toLocaleString('en-US')} payments`, () => seedPayments(a.orgId, ROWS))
	await time(`${EXPENSES.toLocaleString('en-US')} expenses and refunds`, () => seedExpenses(a.orgId, a.userId, EXPENSES))
	await time('another organization, a tenth as many', async () => {
		await seedPayments(b.orgId, Math.round(ROWS / 10))
		await seedExpenses(b.orgId, b.userId, Math.round(EXPENSES / 10))
	})
	await time('vacuum analyze', async () => {
		const client = new pg.Client({ connectionString: db.url })
		await client.connect()
		await client.query('vacuum analyze')
		await client.end()
	})

	const year = new Date().getUTCFullYear()
	const note = (value: unknown) => {
		const r = value as { ok: boolean; report?: { totals: { count: number; received: string }; expenseTotal: string } }
		return r.report
			? `${r.report.totals.count.toLocaleString('en-US')} payments, ${r.report.totals.received} in, ${r.report.expenseTotal} spent`
			: 'refused'
	}
	results.push(await measure('tax year: the current year', () => getTaxYear(a.userId, a.orgId, String(year), { timezone: 'UTC' }), note))
	results.push(await measure('tax year: the year before', () => getTaxYear(a.userId, a.orgId, String(year - 1), { timezone: 'UTC' }), note))

	// Scoping: another organization's owner reads nothing of the first organization's year.
	const other = await getTaxYear(b.userId, a.orgId, String(year - 1))
	console.log(`\nscoping: another organization's owner reads ${other.ok ? other.report.totals.count : 'refused'} of its payments`)

	console.log(
		`\nload average ${loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}\n`,
	)
	console.log('| measure | p50 ms | p95 ms | budget p95 | |')
	console.log('| --- | --- | --- | --- | --- |')
	for (const r of results)
		console.log(`| ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | 50 ${r.p95 <= 50 ? 'ok' : 'MISSED'} | ${r.note} |`)
} finally {
	await closeDatabase()
	if (process.env.BENCH_KEEP !== '1') await db.drop()
	else console.log(`kept database ${db.name}: ${db.url}`)
}
