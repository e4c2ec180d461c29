/**
 * Recurring invoices (supabase/migrations/20261207200000_recurring_invoices.sql,
 * app/.server/invoices/recurring.ts): periods count from the anchor (the 31st falls on a short
 * month's last day and comes back; February 29 falls on February 28), a schedule ends at its end
 * date or its count, starts on or after today and never bills a period twice; two instances ticking
 * at once, or a run taken over, make one invoice and send one mail; without the upgrade nothing is
 * saved or made; a deleted client pauses the schedule. On PGlite and on the PostgreSQL server.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import {
	dueRecurringKeys,
	getSchedule,
	recurringJob,
	runRecurringKey,
	saveSchedule,
	setScheduleActive,
} from '#app/.server/invoices/recurring.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { runDueJobs } from '#app/.server/scheduler.ts'
import type { RecurringValues } from '#app/lib/schemas/recurring.ts'
import { createUser, refusal, type TestUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()
process.env.SECRETS_KEY ??= 'db-test-secrets-key-of-at-least-32-characters'

const INVOICING = 'b0000000-0000-4000-8000-000000000005'
const RECURRING = 'c0000000-0000-4000-8000-000000000013'

type World = { owner: TestUser; clientId: string; clientEmail: string }

async function world({ upgrade = true } = {}): Promise<World> {
	const owner = await createUser('Retainer Studio')
	const clientEmail = `client-${randomUUID()}@example.com`
	const clientId = await asSystem(async (trx) => {
		const module = await trx
			.insertInto('organization_modules')
			.values({ organization_id: owner.orgId, module_id: INVOICING })
			.returning('id')
			.executeTakeFirstOrThrow()
		if (upgrade) {
			await trx
				.insertInto('organization_module_upgrades')
				.values({ organization_id: owner.orgId, organization_module_id: module.id, upgrade_id: RECURRING })
				.execute()
		}
		await trx.insertInto('payment_handles').values({ organization_id: owner.orgId, venmo: 'Retainer-Studio' }).execute()
		const client = await trx
			.insertInto('clients')
			.values({ organization_id: owner.orgId, name: 'Marta Díaz', email: clientEmail, status: 'active' })
			.returning('id')
			.executeTakeFirstOrThrow()
		return client.id
	})
	return { owner, clientId, clientEmail }
}

function values(extra: Partial<RecurringValues> = {}): RecurringValues {
	return {
		clientId: null,
		client: 'marta díaz',
		language: 'es',
		cadence: 'monthly',
		startDate: '2025-01-31',
		endDate: null,
		maxCount: null,
		daysUntilDue: 10,
		discount: '0',
		taxRate: '0',
		notes: 'Retainer',
		lines: [{ description: 'Monthly retainer', quantity: '1', unitPrice: '450' }],
		...extra,
	}
}

async function create(w: World, extra: Partial<RecurringValues> = {}) {
	const saved = await saveSchedule(w.owner.userId, w.owner.orgId, null, values(extra))
	if (!saved.ok) throw new Error(saved.code)
	return saved
}

/** The organization's date today, as the database reads it. */
async function today(w: World) {
	const { rows } = await asSystem((trx) =>
		sql<{ d: string }>`select to_char(private.organization_today(${w.owner.orgId}), 'YYYY-MM-DD') as d`.execute(trx),
	)
	return rows[0]!.d
}

/** Puts a schedule's next period back in the past, as if the job had not run since (the system's write). */
async function rewind(id: string, date: string) {
	await asSystem((trx) => sql`update public.recurring_invoices set next_run = ${date}::date where id = ${id}`.execute(trx))
}

async function schedule(id: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ next_run: string | null; made_count: number; active: boolean; paused_reason: string | null }>`
			select to_char(next_run, 'YYYY-MM-DD') as next_run, made_count, active, paused_reason
			from public.recurring_invoices where id = ${id}`.execute(trx),
	)
	return rows[0]!
}

/** Runs the key of the schedule's next period, as the job would. */
async function runNext(id: string) {
	const { next_run } = await schedule(id)
	if (!next_run) throw new Error('the schedule has ended')
	return runRecurringKey(`${id}:${next_run}`)
}

async function invoicesOf(w: World) {
	const { rows } = await asSystem((trx) =>
		sql<{ number: number; issue_date: string; due_date: string; total: string; status: string; language: string }>`
			select number, to_char(issue_date, 'YYYY-MM-DD') as issue_date, to_char(due_date, 'YYYY-MM-DD') as due_date,
				total::text as total, status, language
			from public.invoices where organization_id = ${w.owner.orgId} order by number`.execute(trx),
	)
	return rows
}

/** The job, asked about this schedule only (other tests' schedules share the server's database). */
const jobFor = (w: World, scheduleId: string) => ({
	...recurringJob,
	due: (now: Date) => dueRecurringKeys(now, { organizationId: w.owner.orgId, scheduleId }),
})

describe('periods', () => {
	test('monthly on the 31st bills the last day of a shorter month, the 31st after it, and stops at its end date', async () => {
		const w = await world()
		const { id } = await create(w, { startDate: '2025-01-31', endDate: '2025-04-15' })
		await rewind(id, '2025-01-31')
		const made = []
		for (let i = 0; i < 3; i++) made.push((await runNext(id)).result)
		expect(made).toEqual(['made', 'made', 'made'])
		expect(await invoicesOf(w)).toEqual([
			{ number: 1, issue_date: '2025-01-31', due_date: '2025-02-10', total: '450.00', status: 'sent', language: 'es' },
			{ number: 2, issue_date: '2025-02-28', due_date: '2025-03-10', total: '450.00', status: 'sent', language: 'es' },
			{ number: 3, issue_date: '2025-03-31', due_date: '2025-04-10', total: '450.00', status: 'sent', language: 'es' },
		])
		// April 30 is after the end date: the schedule has ended, and that period is never made.
		expect(await schedule(id)).toMatchObject({ next_run: null, made_count: 3, active: true })
		expect((await runRecurringKey(`${id}:2025-04-30`)).result).toBe('not_due')
		const detail = await getSchedule(w.owner.userId, w.owner.orgId, id)
		expect(detail!.history.map((h) => [h.periodDate, h.number])).toEqual([
			['2025-03-31', 3],
			['2025-02-28', 2],
			['2025-01-31', 1],
		])
	})

	test('yearly on February 29 bills February 28 in the years without it, and February 29 again in a leap year', async () => {
		const w = await world()
		const { id } = await create(w, { cadence: 'yearly', startDate: '2024-02-29' })
		await rewind(id, '2024-02-29')
		for (let i = 0; i < 3; i++) expect((await runNext(id)).result).toBe('made')
		expect((await invoicesOf(w)).map((i) => i.issue_date)).toEqual(['2024-02-29', '2025-02-28', '2026-02-28'])
		expect((await schedule(id)).next_run).toBe('2027-02-28')
		const { rows } = await asSystem((trx) =>
			sql<{ d: string }>`select to_char(private.recurring_period('2024-02-29', 'yearly', 4), 'YYYY-MM-DD') as d`.execute(trx),
		)
		expect(rows[0]!.d).toBe('2028-02-29')
	})

	test('weekly with a count makes that many invoices, then ends; raising the count goes on from today', async () => {
		const w = await world()
		const { id } = await create(w, { cadence: 'weekly', startDate: '2025-06-02', maxCount: 2 })
		await rewind(id, '2025-06-02')
		expect((await runNext(id)).result).toBe('made')
		expect((await runNext(id)).result).toBe('made')
		expect((await invoicesOf(w)).map((i) => i.issue_date)).toEqual(['2025-06-02', '2025-06-09'])
		expect(await schedule(id)).toMatchObject({ next_run: null, made_count: 2 })
		// Three now: the next Monday on or after today, not the periods skipped since June 2025.
		const saved = await saveSchedule(w.owner.userId, w.owner.orgId, id, values({ cadence: 'weekly', startDate: '2025-06-02', maxCount: 3 }))
		expect(saved.ok).toBe(true)
		const next = (await schedule(id)).next_run!
		const now = await today(w)
		expect(next >= now).toBe(true)
		expect(new Date(`${next}T00:00:00Z`).getUTCDay()).toBe(1)
		expect(Date.parse(next) - Date.parse(now)).toBeLessThan(7 * 86_400_000)
	})

	test('a new schedule starts on its first date on or after today; paused it is not run, resumed it starts again from today', async () => {
		const w = await world()
		const now = await today(w)
		const tenDaysAgo = new Date(Date.parse(`${now}T00:00:00Z`) - 10 * 86_400_000).toISOString().slice(0, 10)
		const { id, nextRun } = await create(w, { cadence: 'weekly', startDate: tenDaysAgo })
		// Ten days after the anchor is in its second week: the next period is the third, 14 days after it.
		expect(nextRun).toBe(new Date(Date.parse(`${tenDaysAgo}T00:00:00Z`) + 14 * 86_400_000).toISOString().slice(0, 10))

		await rewind(id, tenDaysAgo)
		const paused = await setScheduleActive(w.owner.userId, w.owner.orgId, id, false)
		expect(paused).toEqual({ ok: true, nextRun: null })
		expect((await runRecurringKey(`${id}:${tenDaysAgo}`)).result).toBe('not_due')
		expect(await invoicesOf(w)).toEqual([])
		const resumed = await setScheduleActive(w.owner.userId, w.owner.orgId, id, true)
		expect(resumed).toEqual({ ok: true, nextRun })
	})
})

describe('once', () => {
	test('two instances ticking at once make the period one invoice and send it one mail', async () => {
		const w = await world()
		const { id, nextRun } = await create(w, { startDate: await today(w) })
		expect(nextRun).toBe(await today(w))
		const job = jobFor(w, id)
		const now = new Date()
		const [a, b] = await Promise.all([runDueJobs(now, [job]), runDueJobs(now, [job])])
		expect([...a, ...b]).toEqual([`recurring-invoices:${id}:${nextRun}`])
		await drainMail()
		expect(await invoicesOf(w)).toHaveLength(1)
		const mails = await mailsTo(w.clientEmail)
		expect(mails).toHaveLength(1)
		expect(mails[0]!.text).toContain('450,00')
		// The next tick finds the next month due later, not this period again.
		expect(await runDueJobs(new Date(), [job])).toEqual([])
		expect((await schedule(id)).made_count).toBe(1)
	})

	test('a run taken over after its invoice was made finds it made, makes none and mails it once', async () => {
		const w = await world()
		const { id, nextRun } = await create(w, { startDate: await today(w) })
		const key = `${id}:${nextRun}`
		// Two runs of one key with no claim between them (an instance that died after its run committed, and its successor).
		const outcomes = await Promise.all([runRecurringKey(key), runRecurringKey(key)])
		expect(outcomes.map((o) => o.result).sort()).toEqual(['already_made', 'made'])
		expect(outcomes[0]!.invoiceId).toBe(outcomes[1]!.invoiceId)
		await drainMail()
		expect(await invoicesOf(w)).toHaveLength(1)
		expect(await mailsTo(w.clientEmail)).toHaveLength(1)
	})
})

describe('the upgrade and the client', () => {
	test('without the upgrade a schedule is refused and nothing is saved', async () => {
		const w = await world({ upgrade: false })
		expect(await saveSchedule(w.owner.userId, w.owner.orgId, null, values())).toEqual({ ok: false, code: 'upgrade_inactive' })
		const { rows } = await asSystem((trx) =>
			sql<{ n: number }>`select count(*)::int as n from public.recurring_invoices where organization_id = ${w.owner.orgId}`.execute(trx),
		)
		expect(rows[0]!.n).toBe(0)
	})

	test('once the upgrade is gone the job skips the schedule, a run pauses it with the reason, and it cannot be resumed', async () => {
		const w = await world()
		const { id, nextRun } = await create(w, { startDate: await today(w) })
		await asSystem((trx) =>
			sql`delete from public.organization_module_upgrades where organization_id = ${w.owner.orgId} and upgrade_id = ${RECURRING}`.execute(
				trx,
			),
		)
		expect(await dueRecurringKeys(new Date(), { organizationId: w.owner.orgId, scheduleId: id })).toEqual([])
		expect((await runRecurringKey(`${id}:${nextRun}`)).result).toBe('upgrade_inactive')
		expect(await schedule(id)).toMatchObject({ active: false, paused_reason: 'upgrade_inactive', next_run: null })
		expect(await invoicesOf(w)).toEqual([])
		expect(await setScheduleActive(w.owner.userId, w.owner.orgId, id, true)).toEqual({ ok: false, code: 'upgrade_inactive' })
	})

	test('without the Invoicing module a run pauses the schedule and makes nothing', async () => {
		const w = await world()
		const { id, nextRun } = await create(w, { startDate: await today(w) })
		await asSystem((trx) =>
			sql`delete from public.organization_modules where organization_id = ${w.owner.orgId} and module_id = ${INVOICING}`.execute(trx),
		)
		const outcome = await runRecurringKey(`${id}:${nextRun}`)
		expect(['module_inactive', 'upgrade_inactive']).toContain(outcome.result)
		expect((await schedule(id)).active).toBe(false)
		expect(await invoicesOf(w)).toEqual([])
	})

	test('a deleted client pauses their schedule, which says why', async () => {
		const w = await world()
		const { id } = await create(w)
		await asUser(w.owner.userId, (trx) => trx.deleteFrom('clients').where('id', '=', w.clientId).execute())
		expect(await schedule(id)).toMatchObject({ active: false, paused_reason: 'client_removed', next_run: null })
		expect(await setScheduleActive(w.owner.userId, w.owner.orgId, id, true)).toEqual({ ok: false, code: 'invoice_without_client' })
	})

	test('a client name that is nobody, or two clients, is refused', async () => {
		const w = await world()
		expect(await saveSchedule(w.owner.userId, w.owner.orgId, null, values({ client: 'Nobody Here' }))).toEqual({
			ok: false,
			code: 'clientNotFound',
		})
		await asSystem((trx) =>
			trx.insertInto('clients').values({ organization_id: w.owner.orgId, name: 'Marta Díaz', email: 'other@example.com' }).execute(),
		)
		expect(await saveSchedule(w.owner.userId, w.owner.orgId, null, values())).toEqual({ ok: false, code: 'clientAmbiguous' })
		const saved = await saveSchedule(w.owner.userId, w.owner.orgId, null, values({ client: `Marta Díaz <${w.clientEmail}>` }))
		expect(saved.ok).toBe(true)
	})

	test("another organization's member can neither read a schedule nor make its invoice", async () => {
		const w = await world()
		const other = await createUser('Someone Else')
		const { id, nextRun } = await create(w, { startDate: await today(w) })
		expect(await getSchedule(other.userId, w.owner.orgId, id)).toBeNull()
		expect(await setScheduleActive(other.userId, w.owner.orgId, id, false)).toEqual({ ok: false, code: 'not_found' })
		const tried = asUser(other.userId, (trx) =>
			sql`select * from public.make_recurring_invoice(${id}, ${nextRun}::date, ${randomUUID()}, ${'a'.repeat(64)}, null)`.execute(trx),
		)
		expect(await refusal(tried)).toBe('not_member')
		expect(await invoicesOf(w)).toEqual([])
	})

	test('a member cannot write what the database keeps: the next period, the count made', async () => {
		const w = await world()
		const { id } = await create(w)
		const tried = asUser(w.owner.userId, (trx) =>
			sql`update public.recurring_invoices set next_run = '2020-01-01', made_count = 0 where id = ${id}`.execute(trx),
		)
		expect(await refusal(tried)).toBe('42501')
	})
})
