/**
 * Booking reminders (docs/product.md, Booking reminders): the job finds the reminders due with
 * one statement and sends each once, at the organization's times, in the booker's language and
 * zone, with the manage page's links (docs/decisions/041-reminder-links.md); never for a
 * cancelled, completed or no-show appointment, one booked after the reminder's time, one whose
 * time passed longer ago than the catch-up, nor without the upgrade; a moved appointment is
 * reminded again; two runners ticking at once send each reminder once; the provider's member
 * gets a copy when their notification settings allow it. Each test books on days of its own, so
 * the ticks of one test never find another's reminders. On PGlite and on the PostgreSQL server.
 */
import { describe, expect, test } from 'vitest'
import { createPublicBooking, getManagedBooking } from '#app/.server/booking/public/bookings.ts'
import { getPublicOrganization } from '#app/.server/booking/public/organization.ts'
import { getReminderSettings, remindersJob, saveReminderOffsets, sendDueReminders } from '#app/.server/booking/reminders.ts'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { savePreferences } from '#app/.server/notifications/index.ts'
import { runDueJobs } from '#app/.server/scheduler.ts'
import { addMember, at, CATALOGUE, createBookingSetup, createUser, type TestUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'
import { zoneLabel } from '#app/lib/timezones.ts'

useTemporaryDataDir()

const REMINDERS_UPGRADE = 'c0000000-0000-4000-8000-000000000007'
const DEPOSITS_UPGRADE = 'c0000000-0000-4000-8000-000000000008'
const MINUTE = 60_000

type World = { owner: TestUser; slug: string; serviceId: string; providerId: string }

async function world(options: { upgrade?: boolean; offsets?: number[]; deposit?: boolean } = {}): Promise<World> {
	const owner = await createUser('Studio Nine')
	const { serviceId, providerId } = await createBookingSetup(owner.orgId, { price: 80 })
	await asSystem(async (trx) => {
		// Changes are taken online until 2 hours before the start: the one-day reminder links them, the one-hour one cannot.
		await sql`update public.booking_settings set min_advance_hours = 0, max_advance_days = 90, timezone = 'America/New_York', cancellation_hours = 2,
			reminder_offsets_minutes = ${options.offsets ?? [1440, 60]}::integer[],
			business_hours = (select jsonb_object_agg(d, '{"start": "00:00", "end": "24:00", "enabled": true}'::jsonb)
				from unnest(array['monday','tuesday','wednesday','thursday','friday','saturday','sunday']) d)
			where organization_id = ${owner.orgId}`.execute(trx)
		if (options.deposit) {
			await trx.updateTable('booking_services').set({ deposit_kind: 'fixed', deposit_amount: '30' }).where('id', '=', serviceId).execute()
			await trx.insertInto('payment_handles').values({ organization_id: owner.orgId, venmo: 'Studio-Nine', zelle: '5551234567' }).execute()
		}
		if (options.upgrade ?? true) {
			const module = await trx
				.insertInto('organization_modules')
				.values({ organization_id: owner.orgId, module_id: CATALOGUE.modules.booking })
				.returning('id')
				.executeTakeFirstOrThrow()
			for (const upgrade of options.deposit ? [REMINDERS_UPGRADE, DEPOSITS_UPGRADE] : [REMINDERS_UPGRADE]) {
				await trx
					.insertInto('organization_module_upgrades')
					.values({ organization_id: owner.orgId, organization_module_id: module.id, upgrade_id: upgrade })
					.execute()
			}
		}
	})
	const { slug } = await asSystem((trx) =>
		trx.selectFrom('organizations').select('slug').where('id', '=', owner.orgId).executeTakeFirstOrThrow(),
	)
	return { owner, slug, serviceId, providerId }
}

/** A date (UTC) `n` days from today: each test takes days of its own (see the top). */
function day(n: number) {
	const d = new Date()
	d.setUTCHours(0, 0, 0, 0)
	d.setUTCDate(d.getUTCDate() + n)
	return d.toISOString().slice(0, 10)
}

const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2)}@guest.example`

/** A booking through the public page's own function, as a visitor of `language` who chose `timezone`. */
async function book(w: World, start: string, guest: { email: string; language?: string; timezone?: string; name?: string }) {
	const org = (await getPublicOrganization(w.slug))!
	const booked = await createPublicBooking(
		org,
		{
			serviceId: w.serviceId,
			providerId: w.providerId,
			start,
			contact: { name: guest.name ?? 'Lucía Pérez', email: guest.email },
			timezone: guest.timezone,
		},
		guest.language ?? 'en',
	)
	if (!booked.ok) throw new Error(booked.code)
	await drainMail()
	return booked
}

/** One tick of the reminders at `minutesBefore` minutes before `start` (30 seconds after it, or `lateMinutes`): how many mails went. */
async function tick(start: string, minutesBefore: number, lateMinutes = 0.5) {
	return (await sendDueReminders(new Date(Date.parse(start) - minutesBefore * MINUTE + lateMinutes * MINUTE))).sent
}

async function reminders(email: string, subject: RegExp = /^(Reminder|Recordatorio|Lembrete):/) {
	return (await mailsTo(email)).filter((m) => subject.test(m.subject))
}

async function reminderEvents(appointmentId: string) {
	return asSystem((trx) =>
		trx
			.selectFrom('booking_appointment_events')
			.select(['detail'])
			.where('appointment_id', '=', appointmentId)
			.where('kind', '=', 'reminder_sent')
			.orderBy('id')
			.execute(),
	)
}

describe('sending', () => {
	test('a booking is reminded at each of the organization’s times, once, in the booker’s language and zone, with links that work', async () => {
		const w = await world()
		const email = uniqueEmail('lucia')
		const start = at(day(20), '15:00')
		const booked = await book(w, start, { email, language: 'pt-BR', timezone: 'America/Sao_Paulo' })

		expect(await tick(start, 1440)).toBe(1)
		const [first, ...others] = await reminders(email)
		expect(others).toEqual([])
		expect(first!.subject).toMatch(/^Lembrete: Consultation com Studio Nine/)
		expect(first!.text).toContain('Olá, Lucía Pérez')
		// 15:00 UTC is 12:00 in São Paulo (24-hour in pt-BR), named in words; 10:00 at the business (New York).
		expect(first!.text).toContain(
			`12:00–12:30 ${zoneLabel('America/Sao_Paulo', 'pt-BR')} — 10:00–10:30 no horário do negócio, ${zoneLabel('America/New_York', 'pt-BR')}`,
		)
		const manage = /https?:\/\/\S+\/book\/\S+\/booked\/\S+\?token=([0-9a-f]{64})(?=\s)/.exec(first!.text)
		expect(manage, first!.text).not.toBeNull()
		expect((await getManagedBooking(manage![1]!))?.id).toBe(booked.id)
		expect(first!.text).toContain(`${manage![0]}&cancel=1`)
		expect(first!.text).toContain(`reschedule=${booked.token}`)
		expect(await reminderEvents(booked.id)).toEqual([{ detail: expect.objectContaining({ offset_minutes: 1440, to: email }) }])

		// The same tick again, and a later one inside the catch-up: nothing more.
		expect(await tick(start, 1440)).toBe(0)
		expect(await tick(start, 1440, 10)).toBe(0)
		expect(await tick(start, 60)).toBe(1)
		const [, second] = await reminders(email)
		// Inside the two hours' notice: the booking is linked, changing it is up to the organization.
		expect(second!.text).toContain('Ele não pode mais ser alterado online: para alterá-lo, fale com Studio Nine')
		expect(second!.text).not.toContain('cancel=1')
		expect(second!.text).not.toContain('reschedule=')
		expect((await reminderEvents(booked.id)).map((e) => (e.detail as { offset_minutes: number }).offset_minutes)).toEqual([1440, 60])
	})

	test('never for a cancelled, completed or no-show appointment, one booked after the reminder’s time, or a reminder later than the catch-up', async () => {
		const w = await world({ offsets: [60] })
		const cases = ['cancelled', 'completed', 'no_show'] as const
		for (const [i, status] of cases.entries()) {
			const email = uniqueEmail(status)
			const start = at(day(22 + i), '15:00')
			const booked = await book(w, start, { email })
			await asSystem((trx) => trx.updateTable('booking_appointments').set({ status }).where('id', '=', booked.id).execute())
			expect(await tick(start, 60)).toBe(0)
			expect(await reminders(email)).toEqual([])
		}
		// Booked 30 minutes before it starts: the one-hour reminder's time had passed.
		const lateEmail = uniqueEmail('late-booker')
		const lateStart = at(day(25), '15:00')
		const late = await book(w, lateStart, { email: lateEmail })
		await asSystem((trx) =>
			sql`update public.booking_appointments set created_at = starts_at - interval '30 minutes' where id = ${late.id}`.execute(trx),
		)
		expect(await tick(lateStart, 60, 5)).toBe(0)
		// A reminder 20 minutes late (the server was down) is not sent; 10 minutes late it is.
		const email = uniqueEmail('catch-up')
		const start = at(day(26), '15:00')
		await book(w, start, { email })
		expect(await tick(start, 60, 20)).toBe(0)
		expect(await reminders(email)).toEqual([])
		expect(await tick(start, 60, 10)).toBe(1)
		expect(await reminders(email)).toHaveLength(1)
	})

	test('nothing without the upgrade, and only at the organization’s own times', async () => {
		const without = await world({ upgrade: false })
		const email = uniqueEmail('no-upgrade')
		const start = at(day(28), '15:00')
		await book(without, start, { email })
		expect(await tick(start, 1440)).toBe(0)
		expect(await tick(start, 60)).toBe(0)
		expect(await reminders(email)).toEqual([])

		const twoHours = await world({ offsets: [120] })
		const other = uniqueEmail('two-hours')
		const otherStart = at(day(29), '15:00')
		await book(twoHours, otherStart, { email: other })
		expect(await tick(otherStart, 1440)).toBe(0)
		expect(await tick(otherStart, 120)).toBe(1)
		expect(await reminders(other)).toHaveLength(1)
	})

	test('a moved appointment is reminded again for its new time', async () => {
		const w = await world({ offsets: [1440] })
		const email = uniqueEmail('moved')
		const start = at(day(31), '15:00')
		const booked = await book(w, start, { email })
		expect(await tick(start, 1440)).toBe(1)
		const later = at(day(32), '16:00')
		await asSystem((trx) =>
			trx
				.updateTable('booking_appointments')
				.set({ starts_at: later, ends_at: new Date(Date.parse(later) + 30 * MINUTE).toISOString() })
				.where('id', '=', booked.id)
				.execute(),
		)
		expect(await tick(later, 1440)).toBe(1)
		const sent = await reminders(email)
		expect(sent).toHaveLength(2)
		// 12-hour in English ("10:00 AM"), in the organization's zone (the booker chose none).
		const local = (instant: string) =>
			new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone: 'America/New_York' })
				.format(new Date(instant))
				.replace(/\s/g, ' ')
		expect(sent[0]!.text).toContain(`${local(start)}–`)
		expect(sent[1]!.text).toContain(`${local(later)}–`)
	})

	test('a booking waiting for its deposit is told how to pay it to be confirmed: the amount, the code and the handles', async () => {
		const w = await world({ deposit: true, offsets: [1440] })
		const email = uniqueEmail('deposit')
		const start = at(day(34), '15:00')
		const booked = await book(w, start, { email, language: 'es' })
		const { memo_code } = await asSystem((trx) =>
			trx.selectFrom('payment_expectations').select('memo_code').where('appointment_id', '=', booked.id).executeTakeFirstOrThrow(),
		)
		expect(await tick(start, 1440)).toBe(1)
		const [mail] = await reminders(email)
		expect(mail!.text).toContain('Tu reserva aún no está confirmada')
		expect(mail!.text).toContain(`escribe el código ${memo_code}`)
		expect(mail!.text).toMatch(/Para pagar 30,00\sUS\$/)
		expect(mail!.text).toContain('Zelle a (555) 123-4567')
		expect(mail!.text).toContain('Venmo @Studio-Nine')
		expect(mail!.text).toContain('Para confirmar tu reserva, ábrela:')
	})
})

describe('across instances', () => {
	test('instances ticking at the same time, in the same minute or a minute apart, send each reminder once', async () => {
		const start = at(day(36), '15:00')
		const guests: Array<{ email: string; id: string }> = []
		for (let i = 0; i < 3; i++) {
			const w = await world({ offsets: [60] })
			const email = uniqueEmail(`twice-${i}`)
			guests.push({ email, id: (await book(w, start, { email })).id })
		}
		const now = new Date(Date.parse(start) - 60 * MINUTE + 30_000)
		const aMinuteLater = new Date(now.getTime() + MINUTE)
		// Two instances in the same minute (one of them runs the minute's key), and two more a minute later, all at once.
		const [, , , direct] = await Promise.all([
			runDueJobs(now, [remindersJob]),
			runDueJobs(now, [remindersJob]),
			runDueJobs(aMinuteLater, [remindersJob]),
			sendDueReminders(aMinuteLater),
		])
		expect(direct.sent).toBeLessThanOrEqual(3)
		for (const guest of guests) {
			expect(await reminders(guest.email)).toHaveLength(1)
			expect(await reminderEvents(guest.id)).toHaveLength(1)
		}
		const claims = await asSystem((trx) =>
			sql<{ run_key: string; finished: boolean }>`select run_key, finished_at is not null as finished from private.job_runs
				where job = 'booking-reminders' and split_part(run_key, ':', 1) in (${sql.join(guests.map((g) => g.id))})`.execute(trx),
		)
		expect(claims.rows.map((c) => c.finished)).toEqual([true, true, true])
	})
})

describe('the provider’s copy', () => {
	test('goes to the provider’s member while their Email notifications allow it, to nobody else, once', async () => {
		const w = await world({ offsets: [1440, 60] })
		const provider = await createUser('Dr. Rivera')
		await addMember(w.owner.orgId, provider.userId, 'member')
		await asSystem((trx) => trx.updateTable('booking_providers').set({ user_id: provider.userId }).where('id', '=', w.providerId).execute())
		const start = at(day(38), '15:00')
		await book(w, start, { email: uniqueEmail('copy'), name: 'Ana Souza' })
		await tick(start, 1440)
		await tick(start, 1440)
		const copiesOf = async () => (await mailsTo(provider.email)).filter((m) => m.subject.startsWith('Reminder sent'))
		const copies = await copiesOf()
		expect(copies.map((m) => m.subject)).toEqual([expect.stringMatching(/^Reminder sent: Consultation on /)])
		expect(copies[0]!.text).toContain('Ana Souza was reminded of Consultation with Dr. Rivera')
		expect((await mailsTo(w.owner.email)).filter((m) => m.subject.startsWith('Reminder sent'))).toEqual([])

		expect(
			await savePreferences(provider.userId, w.owner.orgId, { emailNotifications: false, transactionAlerts: true, weeklyReports: false }),
		).toBe(true)
		expect(await tick(start, 60)).toBe(1)
		expect(await copiesOf()).toHaveLength(1)
	})
})

describe('the reminder times', () => {
	test('are saved by a member of the organization and change nothing elsewhere; the upgrade decides whether they run', async () => {
		const w = await world({ upgrade: false })
		expect(await getReminderSettings(w.owner.userId, w.owner.orgId)).toEqual({ offsets: [1440, 60], active: false })
		expect(await saveReminderOffsets(w.owner.userId, w.owner.orgId, [2880, 120, 15])).toBe(true)
		expect(await getReminderSettings(w.owner.userId, w.owner.orgId)).toEqual({ offsets: [2880, 120, 15], active: false })
		const stranger = await createUser('Stranger')
		expect(await saveReminderOffsets(stranger.userId, w.owner.orgId, [30])).toBe(false)
		const stored = await asUser(w.owner.userId, (trx) =>
			trx
				.selectFrom('booking_settings')
				.select('reminder_offsets_minutes')
				.where('organization_id', '=', w.owner.orgId)
				.executeTakeFirstOrThrow(),
		)
		expect(stored.reminder_offsets_minutes).toEqual([2880, 120, 15])
	})
})
