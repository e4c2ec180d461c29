/**
 * The booking reminders' tick at scale (docs/product.md, Booking reminders; target: one tick on
 * the PostgreSQL server under 5 s). A fresh database of the PostgreSQL test server gets
 * BENCH_ORGS organizations (default 1,000) with the Booking Reminders upgrade and the default
 * times (24 hours and 1 hour before), two providers each, and BENCH_PER_DAY appointments a day
 * (default 100,000) for two days, all starting on the quarter hour (the worst case: a day's
 * appointments bunched on 96 start times, about 1,040 each). The tick at a quarter hour then
 * finds two start times due, the one in an hour and the one in a day: about 2,080 reminders.
 * It runs `runDueJobs` with the reminders job alone, as one instance does each minute: the
 * minute's key, whose run is the tick (app/.server/booking/reminders.ts): the one statement that
 * finds what is due, one that claims it all, then per reminder its mail through `deliverOnce`,
 * ten at a time, and per ten one statement for their events and claims. Mail goes to an outbox on tmpfs (/dev/shm),
 * the mail port's file adapter: each message is built by nodemailer as in production, and
 * written where no disk waits: the null sink. Then the same mails through the mail port alone
 * (its share of the tick), and the next minute's tick (nothing new). Prints the times, the
 * process's CPU time in the tick, and how many range scans of booking_appointments_reminder_idx
 * the statement made; not a pass/fail test.
 *
 *   node_modules/.bin/tsx bench/reminders.ts
 *   BENCH_PER_DAY=20000 node_modules/.bin/tsx bench/reminders.ts
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { runnerImport } from 'vite'
import { freshPgDatabase } from './pg-database.ts'

const ORGS = Number(process.env.BENCH_ORGS ?? 1_000)
const PER_DAY = Number(process.env.BENCH_PER_DAY ?? 100_000)
const SLOTS_PER_DAY = 96
const PER_SLOT = Math.ceil(PER_DAY / SLOTS_PER_DAY)
const TARGET_S = 5
const REMINDERS_UPGRADE = 'c0000000-0000-4000-8000-000000000007'
const BOOKING_MODULE = 'b0000000-0000-4000-8000-000000000003'
const root = path.resolve(import.meta.dirname, '..')

if (PER_SLOT > ORGS * 2) throw new Error(`${PER_SLOT} appointments per start time need more than ${ORGS} organizations of two providers`)

const outbox = mkdtempSync('/dev/shm/reminders-bench-')
process.env.DATA_DIR = outbox
process.env.SESSION_SECRET ??= 'bench-session-secret-of-at-least-32-characters'
process.env.SECRETS_KEY ??= 'bench-secrets-key-of-at-least-32-characters!'
process.env.LOG_LEVEL ??= 'silent'
delete process.env.SMTP_URL

const db = await freshPgDatabase('reminders_bench')
process.env.DATABASE_URL = db.url
const { module: app } = await runnerImport<typeof import('./reminders-app.ts')>(path.join(root, 'bench/reminders-app.ts'), {
	configFile: false,
	root,
	logLevel: 'warn',
	ssr: { external: ['@electric-sql/pglite', 'pg', 'nodemailer'] },
})
const { asSystem, closeDatabase, dueReminders, migrate, openDatabase, reminderMail, remindersJob, runDueJobs, sendMail, sql } = app

async function time<T>(label: string, fn: () => Promise<T>): Promise<{ value: T; seconds: number }> {
	const start = performance.now()
	const value = await fn()
	const seconds = (performance.now() - start) / 1000
	console.log(`${label.padEnd(58)} ${seconds.toFixed(2)} s`)
	return { value, seconds }
}

/** The next quarter hour at least an hour from now: the tick's instant (every reminder's time is after the bookings were made). */
function tickInstant() {
	const quarter = 15 * 60_000
	return new Date(Math.ceil((Date.now() + 3_600_000) / quarter) * quarter)
}

try {
	await openDatabase({ kind: 'pg', url: db.url, max: 10 })
	await time('migrate', () => migrate())
	const T = tickInstant()
	await time(`${ORGS.toLocaleString('en-US')} organizations with the upgrade, 2 providers each`, () =>
		asSystem(async (trx) => {
			await sql`
				insert into auth.users (email, raw_user_meta_data)
				select 'owner' || g || '@bench.example', jsonb_build_object('full_name', 'Studio ' || g) from generate_series(1, ${ORGS}::int) g`.execute(
				trx,
			)
			await sql`
				with o as (
					insert into public.organization_modules (organization_id, module_id)
					select id, ${BOOKING_MODULE}::uuid from public.organizations returning id, organization_id)
				insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
				select organization_id, id, ${REMINDERS_UPGRADE}::uuid from o`.execute(trx)
			await sql`insert into public.booking_services (organization_id, name, price, duration_minutes)
				select id, 'Haircut', 40, 15 from public.organizations`.execute(trx)
			await sql`insert into public.booking_providers (organization_id, display_name)
				select o.id, 'Provider ' || p from public.organizations o, generate_series(1, 2) p`.execute(trx)
		}),
	)
	const { seconds: loadSeconds } = await time(`${(PER_SLOT * SLOTS_PER_DAY * 2).toLocaleString('en-US')} appointments over two days`, () =>
		asSystem(async (trx) => {
			// The bookings' own triggers (client links, history) are not what this measures: loaded as a replica would.
			await sql`set local session_replication_role = replica`.execute(trx)
			await sql`
				with orgs as (select id, row_number() over (order by id) - 1 as n from public.organizations),
				slots as (
					select o.id as organization_id, p.id as provider_id, s.id as service_id,
						${T}::timestamptz + make_interval(mins => 15 * j) as starts_at, k, j
					from generate_series(0, ${SLOTS_PER_DAY * 2 - 1}::int) j
					cross join generate_series(0, ${PER_SLOT - 1}::int) k
					join orgs o on o.n = k % ${ORGS}
					join lateral (select id from public.booking_providers bp where bp.organization_id = o.id order by bp.display_name
						offset (k / ${ORGS}) limit 1) p on true
					join public.booking_services s on s.organization_id = o.id)
				insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status,
					guest_name, guest_email, total_price, appointment_date, start_time, end_time, buffer_ends_at)
				select organization_id, service_id, provider_id, starts_at, starts_at + interval '15 minutes',
					(case when k % 5 = 0 then 'pending' else 'confirmed' end)::public.appointment_status,
					'Guest ' || j || '-' || k, 'guest' || j || '-' || k || '@bench.example', 40,
					(starts_at at time zone 'UTC')::date, (starts_at at time zone 'UTC')::time, (starts_at at time zone 'UTC' + interval '15 minutes')::time,
					starts_at + interval '15 minutes'
				from slots`.execute(trx)
		}),
	)
	await asSystem((trx) => sql`analyze`.execute(trx))
	const now = new Date(T.getTime() + 30_000)
	// Whether the statement reads the appointments through booking_appointments_reminder_idx (its scans counted by PostgreSQL).
	const scans = async () =>
		(
			await asSystem((trx) =>
				sql<{ n: number }>`select coalesce(sum(idx_scan), 0)::int as n from pg_stat_user_indexes
					where indexrelname = 'booking_appointments_reminder_idx'`.execute(trx),
			)
		).rows[0]!.n
	const before = await scans()
	const due = await time('due(): the one statement', () => dueReminders(now))
	// A server process reports its statistics once idle for a while (up to 10 s): wait for them.
	let scanned = 0
	for (let waited = 0; waited < 15_000 && scanned === 0; waited += 500) {
		await new Promise((resolve) => setTimeout(resolve, 500))
		scanned = (await scans()) - before
	}
	console.log(`  reminders due: ${due.value.length.toLocaleString('en-US')}; range scans of booking_appointments_reminder_idx: ${scanned}`)
	const sentCount = async () =>
		(
			await asSystem((trx) =>
				sql<{ n: number }>`select count(*)::int as n from public.booking_appointment_events where kind = 'reminder_sent'`.execute(trx),
			)
		).rows[0]!.n
	const cpu = process.cpuUsage()
	const first = await time('tick: find, claim, send (deliverOnce), record', () => runDueJobs(now, [remindersJob]))
	const used = process.cpuUsage(cpu)
	console.log(`  the server process's CPU time in it: ${((used.user + used.system) / 1e6).toFixed(2)} s`)
	const mails = readdirSync(path.join(outbox, 'outbox')).length
	console.log(
		`  keys run: ${first.value.length}; reminders sent: ${(await sentCount()).toLocaleString('en-US')}; mails written: ${mails.toLocaleString('en-US')}`,
	)
	// What of the tick is the mail port's (nodemailer building each message, the outbox's file): the same mails, one after another.
	await time('the mail port alone: the same mails, built and written in turn', async () => {
		for (const r of due.value) await sendMail(reminderMail(r, now))
	})
	await time("the next minute's tick (nothing new)", () => runDueJobs(new Date(now.getTime() + 60_000), [remindersJob]))
	console.log(`  reminders sent in all: ${(await sentCount()).toLocaleString('en-US')}`)
	const { rows } = await asSystem((trx) => sql<{ n: number }>`select count(*)::int as n from public.booking_appointments`.execute(trx))
	console.log(
		`\n${rows[0]!.n.toLocaleString('en-US')} appointments (load ${loadSeconds.toFixed(1)} s); one tick: ${first.seconds.toFixed(2)} s ` +
			`(${first.seconds <= TARGET_S ? 'ok' : 'over'} the ${TARGET_S} s target); load average ${loadavg()
				.map((l) => l.toFixed(1))
				.join(' ')} on ${cpus().length} cores`,
	)
} finally {
	await closeDatabase()
	await db.drop()
	rmSync(outbox, { recursive: true, force: true })
}
