/**
 * The matching engine at scale (issue 49 target: 1,000 new payments against 10,000 open deposits
 * and 100,000 clients in under 1 s of database time per sync run, on the PostgreSQL server).
 *
 * A fresh database of the PostgreSQL test server (scripts/pg-test-server.sh, fsync off) gets one
 * organization with BENCH_CLIENTS clients (default 100,000) and BENCH_DEPOSITS pending bookings
 * (default 10,000), each with an open deposit of its own amount and code. Then one statement
 * inserts BENCH_PAYMENTS payments (default 1,000), as a sync run's batch does: a third carry a
 * code in their memo, a third come from a booking's client for its exact amount, a third match
 * nothing. The statement's time is the engine's (its triggers run inside it); the same insert
 * for an organization that waits for nothing is the floor. Prints times and counts; not a
 * pass/fail test (docs/decisions/040-one-matching-engine.md).
 *
 *   node_modules/.bin/tsx bench/matching.ts
 */
import { loadavg } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { freshPgDatabase } from './pg-database.ts'
import { asSystem, closeDatabase, openDatabase, sql } from '../app/.server/db/index.ts'
import { migrate } from '../app/.server/db/migrate.ts'

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000)
const DEPOSITS = Number(process.env.BENCH_DEPOSITS ?? 10_000)
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 1_000)
const TARGET_S = 1
const root = path.resolve(import.meta.dirname, '..')

async function owner(label: string) {
	return asSystem(async (trx) => {
		const user = await sql<{ id: string }>`
			insert into auth.users (email, raw_user_meta_data) values (${`${label}-${Date.now()}@example.test`}, '{"full_name":"Bench"}'::jsonb)
			returning id`.execute(trx)
		const org = await sql<{ organization_id: string }>`
			select organization_id from public.organization_members where user_id = ${user.rows[0]!.id}`.execute(trx)
		return org.rows[0]!.organization_id
	})
}

/** The n-th code of the alphabet, so 10,000 codes are made without 10,000 function calls. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTWXYZ'
function code(n: number) {
	let out = ''
	for (let i = 0, v = n + 1_000_003; i < 6; i++, v = Math.floor(v / 29)) out += ALPHABET[v % 29]
	return out
}

async function seed(orgId: string) {
	await asSystem(async (trx) => {
		await sql`insert into public.clients (organization_id, user_id, name, email)
			select ${orgId}::uuid, null, 'Client ' || g, 'client' || g || '@example.test' from generate_series(1, ${CLIENTS}) g`.execute(trx)
		// One booking a quarter of an hour apart for the first DEPOSITS clients, pending, each
		// with an open deposit of 20.00 + i cents and its own code.
		await sql`
			insert into public.booking_appointments (organization_id, client_id, starts_at, ends_at, status, guest_name, guest_email, total_price)
			select ${orgId}::uuid, c.id, now() + interval '1 day' + (c.n * interval '15 minutes'),
				now() + interval '1 day' + (c.n * interval '15 minutes') + interval '30 minutes', 'pending', c.name, c.email, 80
			from (select id, name, email, row_number() over (order by name) as n from public.clients where organization_id = ${orgId}) c
			where c.n <= ${DEPOSITS}`.execute(trx)
		const codes = Array.from({ length: DEPOSITS }, (_, i) => code(i))
		await sql`
			insert into public.payment_expectations (organization_id, kind, appointment_id, client_id, amount_due, memo_code, due_at)
			select ${orgId}::uuid, 'deposit', a.id, a.client_id, 20 + a.n / 100.0, (${codes}::text[])[a.n], now() + interval '2 hours'
			from (select id, client_id, row_number() over (order by starts_at) as n from public.booking_appointments where organization_id = ${orgId}) a`.execute(
			trx,
		)
		await sql`analyze`.execute(trx)
	})
}

/** One insert of PAYMENTS payments, as a sync batch: returns its seconds and how many matched. */
async function insertPayments(orgId: string, withCodes: boolean) {
	return asSystem(async (trx) => {
		// What each payment is made from, chosen before the clock starts.
		await sql`create temporary table picks on commit drop as
			select g, e.client_id, e.amount_due, e.memo_code from generate_series(1, ${PAYMENTS}) g
			left join (select x.client_id, x.amount_due, x.memo_code, row_number() over (order by x.memo_code) as n
				from public.payment_expectations x where x.organization_id = ${orgId} and x.status = 'open') e on e.n = g * 7`.execute(trx)
		const start = performance.now()
		await sql`
			insert into public.transactions (organization_id, user_id, client_id, amount, description, payment_method, external_id)
			select ${orgId}::uuid, null,
				case when ${withCodes} and g % 3 = 1 then client_id end,
				case when ${withCodes} and g % 3 in (0, 1) then amount_due else 13.37 end,
				case when ${withCodes} and g % 3 = 0 then 'Zelle from Client: deposit ' || lower(memo_code) else 'Payment ' || g end,
				'Zelle', 'bench-' || g
			from picks`.execute(trx)
		const seconds = (performance.now() - start) / 1000
		const matched = await sql<{ n: number }>`
			select count(*)::int as n from public.payment_matches where organization_id = ${orgId}`.execute(trx)
		return { seconds, matched: matched.rows[0]!.n }
	})
}

async function main() {
	const { url, drop } = await freshPgDatabase('p2p_bench_matching')
	await openDatabase({ kind: 'pg', url, max: 4 })
	try {
		await migrate(root)
		const busy = await owner('busy')
		const idle = await owner('idle')
		const seedStart = performance.now()
		await seed(busy)
		console.log(
			`seeded ${CLIENTS.toLocaleString()} clients, ${DEPOSITS.toLocaleString()} open deposits in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
		)
		const floor = await insertPayments(idle, false)
		const run = await insertPayments(busy, true)
		const load = loadavg()[0]!.toFixed(1)
		console.table({
			'nothing open (floor)': { seconds: floor.seconds.toFixed(3), matched: floor.matched },
			'10,000 open deposits': { seconds: run.seconds.toFixed(3), matched: run.matched },
		})
		const verdict = run.seconds <= TARGET_S ? 'met' : 'MISSED'
		console.log(
			`${PAYMENTS.toLocaleString()} payments matched in ${run.seconds.toFixed(3)} s (target ${TARGET_S} s: ${verdict}); load ${load}`,
		)
	} finally {
		await closeDatabase()
		if (process.env.BENCH_KEEP) console.log(`kept ${url}`)
		else await drop()
	}
}

await main()
