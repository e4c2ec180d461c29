/**
 * The expense screens at 100,000 expenses (docs/product.md, Expense Tracking). A fresh database of
 * the PostgreSQL test server gets one organization with BENCH_EXPENSES expenses (default 100,000;
 * one refund in twenty) over about three years and 200,000 payments received over the same time,
 * plus a second organization with a tenth as many, whose rows a query of the first must never read.
 * Loaded with generate_series (the transactions' triggers on, so their monthly rollups are real),
 * then analyzed.
 *
 * Then it calls the services the loaders call, as the owner (RLS on), one caller at a time,
 * BENCH_RUNS times (default 30) after 3 warm-up calls, and prints p50/p95 in ms: the list
 * (app/.server/expenses/expenses.ts) as the screen runs it (first page, a month, a search, the
 * refunds, a deep page) and the monthly profit of the dashboard and the Reports overview
 * (app/.server/expenses/profit.ts). Figures, not a pass/fail test; the budgets are bench/README.md's.
 *
 *   node_modules/.bin/tsx bench/expenses.ts
 */
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { runnerImport } from 'vite'
import { freshPgDatabase } from './pg-database.ts'

const EXPENSES = Number(process.env.BENCH_EXPENSES ?? 100_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 30)
const WARMUP = 3
const MODULE = 'b0000000-0000-4000-8000-000000000009'
const root = path.resolve(import.meta.dirname, '..')

process.env.SESSION_SECRET ??= 'bench-session-secret-of-at-least-32-characters'
process.env.LOG_LEVEL ??= 'silent'

const db = await freshPgDatabase('expenses_bench')
process.env.DATABASE_URL = db.url
const { module: app } = await runnerImport<typeof import('./expenses-app.ts')>(path.join(root, 'bench/expenses-app.ts'), {
	configFile: false,
	root,
	logLevel: 'warn',
	ssr: { external: ['@electric-sql/pglite', 'pg', 'nodemailer'] },
})
const { asSystem, closeDatabase, listExpenses, migrate, monthlyProfit, openDatabase, sql } = app

function percentile(sorted: number[], p: number) {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

async function measure(name: string, fn: () => Promise<unknown>) {
	for (let i = 0; i < WARMUP; i++) await fn()
	const samples: number[] = []
	for (let i = 0; i < RUNS; i++) {
		const start = performance.now()
		await fn()
		samples.push(performance.now() - start)
	}
	samples.sort((a, b) => a - b)
	console.log(
		`${name.padEnd(40)} p50 ${percentile(samples, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(samples, 95).toFixed(1).padStart(6)} ms`,
	)
}

/** An organization (through the sign-up trigger) with Expense Tracking, `count` expenses and twice as many payments. */
async function organization(name: string, count: number) {
	return asSystem(async (trx) => {
		const user = await sql<{ id: string }>`
			insert into auth.users (email, raw_user_meta_data) values (${`${name}@bench.example`}, ${JSON.stringify({ full_name: name })}::jsonb)
			returning id`.execute(trx)
		const userId = user.rows[0]!.id
		const { rows } = await sql<{ organization_id: string }>`
			select organization_id from public.organization_members where user_id = ${userId}`.execute(trx)
		const orgId = rows[0]!.organization_id
		await sql`insert into public.organization_modules (organization_id, module_id) values (${orgId}, ${MODULE})`.execute(trx)
		await sql`insert into public.expenses (organization_id, kind, spent_on, amount, fee, vendor, category, payment_method, note, created_by)
			select ${orgId}, case when g % 20 = 0 then 'refund' else 'expense' end, current_date - (g % 1100),
				(5 + g % 400)::numeric(12, 2), case when g % 7 = 0 then 1.25 end, 'Vendor ' || (g % 3000),
				(array['advertising','supplies','rent','software','travel','meals','other'])[1 + g % 7],
				(array['Zelle','Venmo','CashApp','PayPal']::public.payment_method[])[1 + g % 4], 'note ' || g, ${userId}
			from generate_series(1, ${count}::int) g`.execute(trx)
		await sql`insert into public.transactions (organization_id, amount, date_received)
			select ${orgId}, (20 + g % 500)::numeric(12, 2), current_date - (g % 1100)
			from generate_series(1, ${count * 2}::int) g`.execute(trx)
		return { userId, orgId }
	})
}

await openDatabase({ kind: 'pg', url: db.url })
try {
	await migrate()
	const started = performance.now()
	const owner = await organization('ExpenseOwner', EXPENSES)
	await organization('OtherOwner', Math.round(EXPENSES / 10))
	await asSystem((trx) =>
		sql`analyze public.expenses; analyze public.transactions; analyze public.transaction_monthly_rollups`.execute(trx),
	)
	console.log(`seeded ${EXPENSES} expenses in ${((performance.now() - started) / 1000).toFixed(1)} s`)
	const today = new Date().toISOString().slice(0, 10)
	const month = today.slice(0, 7)
	await measure('list: first page', () => listExpenses(owner.userId, owner.orgId))
	await measure('list: this month', () => listExpenses(owner.userId, owner.orgId, { month }))
	await measure('list: search "vendor 42"', () => listExpenses(owner.userId, owner.orgId, { q: 'vendor 42' }))
	await measure('list: refunds', () => listExpenses(owner.userId, owner.orgId, { kind: 'refund' }))
	await measure('list: page 200', () => listExpenses(owner.userId, owner.orgId, { page: 200 }))
	await measure('profit: 12 months', () => monthlyProfit(owner.userId, owner.orgId, today))
} finally {
	await closeDatabase()
	await db.drop()
}
