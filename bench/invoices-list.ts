/**
 * The invoice screens at 100,000 invoices (issue 50: "the invoices list stays within the load
 * budgets with 100,000 invoices"). A fresh database of the PostgreSQL test server gets one
 * organization with BENCH_INVOICES invoices (default 100,000) over about three years, for
 * BENCH_CLIENTS clients (default 2,000), one to three lines each, in every state (BENCH_MIX, below:
 * `typical` is 5 % drafts, 2 % void, 85 % paid by a payment matched by its code, 3 % partly paid,
 * 3 % sent and not yet due, 2 % overdue; `heavy` leaves a third of them owed); plus a second organization with a tenth as many, whose rows a query of the
 * first must never read. Loaded with generate_series, the tables' triggers off (their totals
 * written as the triggers would), then vacuumed and analyzed (as autovacuum leaves them).
 *
 * Then it calls the services the loaders call, as the owner (RLS on), one caller at a time,
 * BENCH_RUNS times (default 30) after 3 warm-up calls, and prints p50/p95 in ms: the invoice list
 * (app/.server/invoices/list.ts) as the screen runs it (first page, a state filter, a search by
 * client and by number, a deep page), the dashboard's open and overdue totals and a client's
 * invoices (app/.server/invoices/overview.ts), and the recurring invoices job's scan of what is due
 * (app/.server/invoices/recurring.ts) over BENCH_SCHEDULES schedules (default 10,000). Figures,
 * not a pass/fail test; the budgets are bench/README.md's (a list page as the transactions page:
 * 30 ms p95; the dashboard: 50 ms p95).
 *
 *   node_modules/.bin/tsx bench/invoices-list.ts
 *   BENCH_INVOICES=20000 node_modules/.bin/tsx bench/invoices-list.ts
 *   BENCH_MIX=heavy node_modules/.bin/tsx bench/invoices-list.ts
 */
import { loadavg } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { runnerImport } from 'vite'
import { freshPgDatabase } from './pg-database.ts'

const INVOICES = Number(process.env.BENCH_INVOICES ?? 100_000)
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 2_000)
const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 10_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 30)
/**
 * The states' shares (%): drafts, void, paid, partly paid, sent (not yet due), overdue. `typical`:
 * a business whose clients pay (what is owed is about a month of invoices); `heavy`: a third of
 * every invoice ever sent still owed.
 */
const MIXES = { typical: [5, 2, 85, 3, 3, 2], heavy: [5, 3, 60, 10, 12, 10] } as const
const MIX = (process.env.BENCH_MIX ?? 'typical') as keyof typeof MIXES
if (!(MIX in MIXES)) throw new Error(`BENCH_MIX is one of ${Object.keys(MIXES).join(', ')}`)
const WARMUP = 3
const INVOICING = 'b0000000-0000-4000-8000-000000000005'
const RECURRING = 'c0000000-0000-4000-8000-000000000013'
const root = path.resolve(import.meta.dirname, '..')

process.env.SESSION_SECRET ??= 'bench-session-secret-of-at-least-32-characters'
process.env.LOG_LEVEL ??= 'silent'

const db = await freshPgDatabase('invoices_bench')
process.env.DATABASE_URL = db.url
const { module: app } = await runnerImport<typeof import('./invoices-list-app.ts')>(path.join(root, 'bench/invoices-list-app.ts'), {
	configFile: false,
	root,
	logLevel: 'warn',
	ssr: { external: ['@electric-sql/pglite', 'pg', 'nodemailer'] },
})
const { asSystem, closeDatabase, dashboardInvoiceTotals, dueRecurringKeys, listClientInvoices, listInvoices, migrate, openDatabase, sql } =
	app

async function time<T>(label: string, fn: () => Promise<T>): Promise<T> {
	const start = performance.now()
	const value = await fn()
	console.log(`${label.padEnd(64)} ${((performance.now() - start) / 1000).toFixed(1)} s`)
	return value
}

function percentile(sorted: number[], p: number) {
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

type Result = { name: string; p50: number; p95: number; budget: number | null; note: string }

async function measure(name: string, budget: number | null, fn: () => Promise<unknown>, note: (value: unknown) => string = () => '') {
	let last: unknown
	for (let i = 0; i < WARMUP; i++) last = await fn()
	const samples: number[] = []
	for (let i = 0; i < RUNS; i++) {
		const start = performance.now()
		last = await fn()
		samples.push(performance.now() - start)
	}
	samples.sort((a, b) => a - b)
	const result = { name, p50: percentile(samples, 50), p95: percentile(samples, 95), budget, note: note(last) }
	console.log(`${name.padEnd(40)} p50 ${result.p50.toFixed(1).padStart(6)} ms  p95 ${result.p95.toFixed(1).padStart(6)} ms  ${result.note}`)
	return result
}

/** An organization (through the sign-up trigger) with Invoicing and the Recurring Invoices upgrade; its owner's id and its id. */
async function organization(name: string) {
	return asSystem(async (trx) => {
		const user = await sql<{ id: string }>`
			insert into auth.users (email, raw_user_meta_data) values (${`${name}@bench.example`}, ${JSON.stringify({ full_name: name })}::jsonb)
			returning id`.execute(trx)
		const userId = user.rows[0]!.id
		const { rows } = await sql<{ organization_id: string }>`
			select organization_id from public.organization_members where user_id = ${userId}`.execute(trx)
		const orgId = rows[0]!.organization_id
		await sql`with m as (insert into public.organization_modules (organization_id, module_id) values (${orgId}, ${INVOICING}) returning id)
			insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id) select ${orgId}, id, ${RECURRING} from m`.execute(
			trx,
		)
		return { userId, orgId }
	})
}

/**
 * `count` invoices of the organization in the mix above, with their lines, expectations (a memo
 * code each), and the payments that paid them, the triggers off: the totals and the amount received
 * are written as the triggers keep them (one to three lines whose amounts add up to the subtotal, no tax).
 */
async function seedInvoices(orgId: string, userId: string, count: number, clients: number, tag: string) {
	await asSystem(async (trx) => {
		await sql`set local session_replication_role = replica`.execute(trx)
		await sql`insert into public.clients (organization_id, name, email, status)
			select ${orgId}, ${tag} || ' Client ' || g, 'client' || g || '@' || lower(${tag}) || '.example', 'active'
			from generate_series(1, ${clients}::int) g`.execute(trx)
		// One row per invoice: its state's bucket (g % 100), client, amount, dates.
		await sql`create temp table bench_invoices on commit drop as
			with c as (select array_agg(id order by name) as ids, array_agg(name order by name) as names, array_agg(email order by name) as emails
				from public.clients where organization_id = ${orgId})
			select g, gen_random_uuid() as id, gen_random_uuid() as e_id, gen_random_uuid() as t_id, g % 100 as bucket,
				c.ids[1 + g % ${clients}::int] as client_id, c.names[1 + g % ${clients}::int] as client_name, c.emails[1 + g % ${clients}::int] as client_email,
				(50 + (g % 40) * 25)::numeric(12, 2) as amount,
				now() - (${count}::int - g) * interval '15 minutes' as created_at
			from generate_series(1, ${count}::int) g, c`.execute(trx)
		await sql`alter table bench_invoices add column state text, add column issue_date date, add column due_date date, add column number integer, add column code text`.execute(
			trx,
		)
		const [draft, voided, paid, partly, sent] = MIXES[MIX].reduce<number[]>((edges, share) => [...edges, (edges.at(-1) ?? 0) + share], [])
		await sql`update bench_invoices set state = case
				when bucket < ${draft} then 'draft' when bucket < ${voided} then 'void' when bucket < ${paid} then 'paid'
				when bucket < ${partly} then 'partly_paid' when bucket < ${sent} then 'sent' else 'overdue' end`.execute(trx)
		// Still owed and not yet due: due within a month; overdue: issued at least 20 days ago and due 14 days later, before today.
		await sql`update bench_invoices set
				issue_date = case when state = 'overdue' then least(created_at::date, current_date - 20) else created_at::date end,
				due_date = case when state in ('sent', 'partly_paid') then current_date + (g % 30)
					when state = 'overdue' then least(created_at::date, current_date - 20) + 14
					else created_at::date + 14 end`.execute(trx)
		await sql`update bench_invoices b set number = n.number from (
				select g, row_number() over (order by g) as number from bench_invoices where state <> 'draft') n where n.g = b.g`.execute(trx)
		// A unique memo code per invoice: its g in base 29, in the codes' alphabet (${tag} has codes of its own alphabet order).
		await sql`update bench_invoices set code = (select string_agg(substr('23456789ABCDEFGHJKMNPQRSTWXYZ',
				((g / (29 ^ i)::bigint) % 29)::int + 1, 1), '' order by i) from generate_series(0, 5) i)`.execute(trx)
		await sql`insert into public.invoices (id, organization_id, number, status, client_id, bill_to_name, bill_to_email, language,
				issue_date, due_date, subtotal, total, amount_paid, public_token_hash, sent_at, voided_at, created_by, created_at, updated_at)
			select id, ${orgId}, number, case state when 'draft' then 'draft' when 'void' then 'void' else 'sent' end, client_id,
				case when state <> 'draft' then client_name end, case when state <> 'draft' then client_email end,
				(array['en', 'es', 'pt-BR'])[1 + g % 3], issue_date, due_date, amount, amount,
				case state when 'paid' then amount when 'partly_paid' then round(amount / 2, 2) else 0 end,
				case when state <> 'draft' then encode(sha256(convert_to(${tag} || g, 'UTF8')), 'hex') end,
				case when state <> 'draft' then created_at end, case when state = 'void' then created_at + interval '1 day' end,
				${userId}, created_at, created_at
			from bench_invoices`.execute(trx)
		await sql`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price)
			select ${orgId}, b.id, p, case p when 0 then 'Design work' when 1 then 'Hosting' else 'Support' end, 1,
				case when p = 0 then b.amount - 10 * (g % 3) else 10 end
			from bench_invoices b cross join lateral generate_series(0, g % 3) p`.execute(trx)
		await sql`insert into public.payment_expectations (id, organization_id, kind, invoice_id, client_id, amount_due, memo_code, opens_at, status, paid_at, created_at)
			select e_id, ${orgId}, 'invoice', id, client_id, amount, code, issue_date::timestamptz,
				case state when 'void' then 'void' when 'paid' then 'paid' else 'open' end,
				case when state = 'paid' then created_at + interval '3 days' end, created_at
			from bench_invoices where state <> 'draft'`.execute(trx)
		await sql`update public.invoices i set expectation_id = b.e_id from bench_invoices b where b.id = i.id and b.state <> 'draft'`.execute(
			trx,
		)
		await sql`insert into public.transactions (id, organization_id, client_id, amount, description, date_received, payment_method, category)
			select t_id, ${orgId}, client_id, case when state = 'paid' then amount else round(amount / 2, 2) end, 'Invoice ' || code,
				(created_at + interval '3 days')::date, 'Venmo', 'matched'
			from bench_invoices where state in ('paid', 'partly_paid')`.execute(trx)
		await sql`insert into public.payment_matches (organization_id, transaction_id, expectation_id, amount, method)
			select ${orgId}, t_id, e_id, case when state = 'paid' then amount else round(amount / 2, 2) end, 'memo_code'
			from bench_invoices where state in ('paid', 'partly_paid')`.execute(trx)
		await sql`insert into private.invoice_counters (organization_id, last_number) select ${orgId}, max(number) from bench_invoices`.execute(
			trx,
		)
	})
}

/** `count` monthly schedules of the organization, a thirtieth of them due today (the job's scan at the day's first tick). */
async function seedSchedules(orgId: string, userId: string, count: number) {
	await asSystem(async (trx) => {
		await sql`set local session_replication_role = replica`.execute(trx)
		await sql`insert into public.recurring_invoices (organization_id, client_id, cadence, anchor_date, next_run, created_by)
			select ${orgId}, (select id from public.clients where organization_id = ${orgId} order by id offset g % 100 limit 1), 'monthly',
				current_date - (g % 30), current_date - (g % 30) + interval '1 month', ${userId}
			from generate_series(1, ${count}::int) g`.execute(trx)
		await sql`update public.recurring_invoices set next_run = current_date where organization_id = ${orgId} and anchor_date = current_date`.execute(
			trx,
		)
	})
}

const results: Result[] = []
try {
	await openDatabase({ kind: 'pg', url: db.url, max: 4 })
	console.log(`mix: ${MIX} (${MIXES[MIX].join(' / ')} % drafts / void / paid / partly paid / sent / overdue)`)
	await time('migrate', () => migrate())
	const a = await organization('Busy Studio')
	const b = await organization('Other Studio')
	await time(`${INVOICES.toLocaleString('en-US')} invoices, their lines, expectations and payments`, () =>
		seedInvoices(a.orgId, a.userId, INVOICES, CLIENTS, 'Busy'),
	)
	await time(`${Math.round(INVOICES / 10).toLocaleString('en-US')} invoices of another organization`, () =>
		seedInvoices(b.orgId, b.userId, Math.round(INVOICES / 10), Math.round(CLIENTS / 10), 'Other'),
	)
	await time(`${SCHEDULES.toLocaleString('en-US')} recurring schedules`, () => seedSchedules(a.orgId, a.userId, SCHEDULES))
	// As autovacuum leaves tables at rest: statistics, and the visibility map the index-only scans read.
	await time('vacuum analyze', async () => {
		const client = new pg.Client({ connectionString: db.url })
		await client.connect()
		await client.query('vacuum analyze')
		await client.end()
	})

	const rowsNote = (value: unknown) => {
		const page = value as { total: number; totalCapped: boolean; rows: unknown[] }
		return `${page.rows.length} rows of ${page.totalCapped ? `${page.total.toLocaleString('en-US')}+` : page.total.toLocaleString('en-US')}`
	}
	const list = (options: Parameters<typeof listInvoices>[2]) => () => listInvoices(a.userId, a.orgId, options)
	results.push(await measure('list: first page', 30, list({}), rowsNote))
	results.push(await measure('list: overdue', 30, list({ state: 'overdue' }), rowsNote))
	results.push(await measure('list: partly paid', 30, list({ state: 'partly_paid' }), rowsNote))
	results.push(await measure('list: sent', 30, list({ state: 'sent' }), rowsNote))
	results.push(await measure('list: open', 30, list({ state: 'open' }), rowsNote))
	results.push(await measure('list: paid', 30, list({ state: 'paid' }), rowsNote))
	results.push(await measure('list: drafts', 30, list({ state: 'draft' }), rowsNote))
	results.push(await measure('list: search a client', 30, list({ q: 'Busy Client 1234' }), rowsNote))
	results.push(await measure('list: search a number', 30, list({ q: '#54321' }), rowsNote))
	results.push(await measure('list: page 200', 30, list({ page: 200 }), rowsNote))
	results.push(await measure('list: page 100 of paid', 30, list({ state: 'paid', page: 100 }), rowsNote))
	results.push(
		await measure(
			'dashboard: open and overdue totals',
			50,
			() => dashboardInvoiceTotals(a.userId, a.orgId, 'owner'),
			(v) => {
				const t = v as { open: { amount: string; count: number }; overdue: { amount: string; count: number } }
				return `open ${t.open.count} (${t.open.amount}), overdue ${t.overdue.count} (${t.overdue.amount})`
			},
		),
	)
	const client = await asSystem(
		async (trx) =>
			(
				await sql<{ id: string }>`select id from public.clients where organization_id = ${a.orgId} order by name limit 1 offset 17`.execute(
					trx,
				)
			).rows[0]!.id,
	)
	results.push(
		await measure(
			"client page: the client's invoices",
			30,
			() => listClientInvoices(a.userId, a.orgId, 'owner', client),
			(v) => `${(v as { rows: unknown[]; total: number }).rows.length} of ${(v as { total: number }).total}`,
		),
	)
	results.push(
		await measure(
			'recurring job: the scan of what is due',
			null,
			() => dueRecurringKeys(new Date()),
			(v) => `${(v as string[]).length} keys of ${SCHEDULES.toLocaleString('en-US')} schedules`,
		),
	)

	// Scoping: the first organization's list counts its own invoices only.
	const other = await listInvoices(b.userId, a.orgId, {})
	console.log(`\nscoping: another organization's owner reads ${other.total} of the first organization's invoices`)
	const paid = await listInvoices(a.userId, a.orgId, { state: 'paid' })
	console.log(`paid invoices of the first organization: ${paid.totalCapped ? `${paid.total}+` : paid.total}`)

	console.log(
		`\nload average ${loadavg()
			.map((l) => l.toFixed(2))
			.join(' ')}\n`,
	)
	console.log('| measure | p50 ms | p95 ms | budget p95 | |')
	console.log('| --- | --- | --- | --- | --- |')
	for (const r of results) {
		const verdict = r.budget === null ? '' : r.p95 <= r.budget ? 'ok' : 'MISSED'
		console.log(`| ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.budget ?? '—'} ${verdict} | ${r.note} |`)
	}
} finally {
	await closeDatabase()
	if (process.env.BENCH_KEEP !== '1') await db.drop()
	else console.log(`kept database ${db.name}: ${db.url}`)
}
