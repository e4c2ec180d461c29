import { beforeAll, describe, expect, test } from 'vitest'
import { asSystem, sql } from '#app/.server/db/index.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import {
	notifyStaffOfBooking,
	recipientsFor,
	savePreferences,
	sendTransactionDigest,
	turnOff,
	verifyUnsubscribe,
} from '#app/.server/notifications/index.ts'
import { dueMonday, weeklyReportJob, WEEKLY_REPORT_JOB } from '#app/.server/notifications/weekly-report.ts'
import { runDueJobs, startScheduler } from '#app/.server/scheduler.ts'
import { addMember, CATALOGUE, createBookingSetup, createUser, type TestUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()

async function setLanguage(userId: string, language: string) {
	await asSystem((trx) => trx.updateTable('profiles').set({ preferred_language: language }).where('user_id', '=', userId).execute())
}

/**
 * The organization's record of a module as Module detail › Configuration saves it: activated,
 * with a default visibility and its "Email notifications" switch.
 */
async function setModule(
	orgId: string,
	moduleId: string,
	settings: { visibility: 'any' | 'manager' | 'administrator' | 'owner'; notifications: boolean },
) {
	await asSystem((trx) =>
		trx
			.insertInto('organization_modules')
			.values({
				organization_id: orgId,
				module_id: moduleId,
				default_visibility: settings.visibility,
				email_notifications: settings.notifications,
			})
			.onConflict((oc) =>
				oc
					.columns(['organization_id', 'module_id'])
					.doUpdateSet({ default_visibility: settings.visibility, email_notifications: settings.notifications }),
			)
			.execute(),
	)
}

async function bookedAppointment(orgId: string, guestName = 'Ana Guest') {
	const { serviceId, providerId } = await createBookingSetup(orgId)
	return asSystem((trx) =>
		trx
			.insertInto('booking_appointments')
			.values({
				organization_id: orgId,
				service_id: serviceId,
				provider_id: providerId,
				starts_at: new Date('2026-12-03T15:00:00Z'),
				ends_at: new Date('2026-12-03T15:30:00Z'),
				guest_name: guestName,
				guest_email: 'guest@example.test',
			})
			.returning('id')
			.executeTakeFirstOrThrow(),
	)
}

/** An owner (English), a manager (Spanish) and a member (Portuguese) in one organization. */
async function team(name: string) {
	const owner = await createUser(`${name} Owner`)
	const manager = await createUser(`${name} Manager`)
	const member = await createUser(`${name} Member`)
	await addMember(owner.orgId, manager.userId, 'manager')
	await addMember(owner.orgId, member.userId, 'member')
	await setLanguage(manager.userId, 'es')
	await setLanguage(member.userId, 'pt-BR')
	return { owner, manager, member, orgId: owner.orgId }
}

describe('notifyStaffOfBooking', () => {
	test('mails each member with "Email notifications" on, in their language, with a working unsubscribe link', async () => {
		const { owner, manager, member, orgId } = await team('Booking')
		await setModule(orgId, CATALOGUE.modules.booking, { visibility: 'any', notifications: true })
		await savePreferences(member.userId, orgId, { emailNotifications: false, transactionAlerts: true, weeklyReports: false })
		const { serviceId, providerId } = await createBookingSetup(orgId)
		await asSystem((trx) =>
			trx.updateTable('booking_settings').set({ timezone: 'America/New_York' }).where('organization_id', '=', orgId).execute(),
		)
		const appointment = await asSystem((trx) =>
			trx
				.insertInto('booking_appointments')
				.values({
					organization_id: orgId,
					service_id: serviceId,
					provider_id: providerId,
					starts_at: new Date('2026-12-01T15:00:00Z'),
					ends_at: new Date('2026-12-01T15:30:00Z'),
					guest_name: 'Ana Guest',
					guest_email: 'ana@example.test',
				})
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		expect(await notifyStaffOfBooking({ organizationId: orgId, appointmentId: appointment.id, kind: 'booked' })).toBe(2)
		const [toOwner] = await mailsTo(owner.email)
		const [toManager] = await mailsTo(manager.email)
		expect(await mailsTo(member.email)).toEqual([])
		// The time in the organization's zone, labelled with it: 15:00 UTC is 10:00 in New York.
		expect(toOwner!.subject).toMatch(/^New booking: Consultation on Dec 1, 2026, 10:00 AM Eastern Time \(New York\)$/)
		expect(toOwner!.text).toContain('Ana Guest booked Consultation with Dr. Rivera')
		expect(toManager!.subject).toMatch(/^Nueva reserva: Consultation el/)
		expect(toManager!.headers['list-unsubscribe']).toMatch(/\/unsubscribe\?/)

		// The manager's link turns their toggle off without signing in; a tampered one does not.
		const link = new URL(/https?:\/\/\S+\/unsubscribe\?\S+/.exec(toManager!.text)![0])
		const forged = new URLSearchParams(link.searchParams)
		forged.set('u', owner.userId)
		expect(verifyUnsubscribe(forged)).toBeNull()
		const request = verifyUnsubscribe(link.searchParams)!
		expect(request).toEqual({ userId: manager.userId, organizationId: orgId, kind: 'emailNotifications' })
		expect(await turnOff(request.userId, request.organizationId, request.kind)).toBe(true)

		expect(await notifyStaffOfBooking({ organizationId: orgId, appointmentId: appointment.id, kind: 'cancelled' })).toBe(1)
		expect((await mailsTo(owner.email)).at(-1)!.subject).toMatch(/^Booking cancelled/)
		expect(await mailsTo(manager.email)).toHaveLength(1)
	})

	test('the booking module decides who hears of a booking: nobody without it or with its notifications off; owner-only tells the owners alone', async () => {
		const { owner, manager, member, orgId } = await team('Module')
		const admin = await createUser('Module Admin')
		await addMember(orgId, admin.userId, 'administrator')
		const appointment = await bookedAppointment(orgId)
		const notify = () => notifyStaffOfBooking({ organizationId: orgId, appointmentId: appointment.id, kind: 'booked' })
		const told = async () => {
			const everyone = { owner, admin, manager, member }
			const names: string[] = []
			for (const [name, user] of Object.entries(everyone)) if ((await mailsTo(user.email)).length) names.push(name)
			return names
		}
		// Not activated (a booking made before a deactivation): nobody.
		expect(await notify()).toBe(0)
		// Activated, visible to everyone, but its "Email notifications" off: nobody, whatever the members' own toggles.
		await setModule(orgId, CATALOGUE.modules.booking, { visibility: 'any', notifications: false })
		expect(await notify()).toBe(0)
		expect(await told()).toEqual([])
		// Owners only: the owner, not the administrator, the manager or the member, who cannot open the calendar.
		await setModule(orgId, CATALOGUE.modules.booking, { visibility: 'owner', notifications: true })
		expect(await notify()).toBe(1)
		expect(await told()).toEqual(['owner'])
		expect((await mailsTo(owner.email))[0]!.text).toContain('Ana Guest')
		// Managers and above.
		await setModule(orgId, CATALOGUE.modules.booking, { visibility: 'manager', notifications: true })
		expect(await notify()).toBe(3)
		expect(await told()).toEqual(['owner', 'admin', 'manager'])
		// The same one place answers for every kind: here the booking notices' audience.
		expect((await recipientsFor(orgId, 'emailNotifications')).map((r) => r.userId)).toEqual([owner.userId, manager.userId, admin.userId])
	})

	test('a client name holding a line break cannot add a header to the staff mail', async () => {
		const { owner, orgId } = await team('Header')
		await setModule(orgId, CATALOGUE.modules.booking, { visibility: 'any', notifications: true })
		// Saved before the control-character rule (or by SQL): the mail must stay one mail to the same people.
		const appointment = await bookedAppointment(orgId, 'Ana\r\nBcc: thief@example.test\r\nX-Injected: yes')
		expect(await notifyStaffOfBooking({ organizationId: orgId, appointmentId: appointment.id, kind: 'booked' })).toBeGreaterThan(0)
		const [mail] = await mailsTo(owner.email)
		expect(mail!.subject).toMatch(/^New booking: Consultation on /)
		expect(mail!.subject).not.toMatch(/[\r\n]/)
		expect(Object.keys(mail!.headers)).not.toContain('bcc')
		expect(Object.keys(mail!.headers)).not.toContain('x-injected')
		expect(await mailsTo('thief@example.test')).toEqual([])
	})

	test('an appointment of another organization sends nothing', async () => {
		const { orgId } = await team('Other')
		const stranger = await createUser('Stranger')
		const { serviceId, providerId } = await createBookingSetup(stranger.orgId)
		const appointment = await asSystem((trx) =>
			trx
				.insertInto('booking_appointments')
				.values({
					organization_id: stranger.orgId,
					service_id: serviceId,
					provider_id: providerId,
					starts_at: new Date('2026-12-02T15:00:00Z'),
					ends_at: new Date('2026-12-02T15:30:00Z'),
					guest_name: 'Bo',
					guest_email: 'bo@example.test',
				})
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		expect(await notifyStaffOfBooking({ organizationId: orgId, appointmentId: appointment.id, kind: 'booked' })).toBe(0)
	})
})

describe('sendTransactionDigest', () => {
	test('one mail per run to each member with "Transaction alerts" on, never twice for a batch, none for an empty run', async () => {
		const { owner, manager, member, orgId } = await team('Digest')
		await savePreferences(manager.userId, orgId, { emailNotifications: true, transactionAlerts: false, weeklyReports: false })
		const digest = { organizationId: orgId, batchId: 'import-1', source: 'import' as const, count: 250, total: '12345.5' }
		expect(await sendTransactionDigest(digest)).toBe(2)
		expect(await sendTransactionDigest(digest)).toBe(0)
		expect(await sendTransactionDigest({ ...digest, batchId: 'import-2', count: 0 })).toBe(0)
		const [toOwner] = await mailsTo(owner.email)
		expect(toOwner!.subject).toBe('250 new payments in Digest Owner')
		expect(toOwner!.text).toContain('$12,345.50')
		expect((await mailsTo(member.email))[0]!.subject).toBe('250 novos pagamentos em Digest Owner')
		expect((await mailsTo(member.email))[0]!.text.replace(/\u00a0/g, ' ')).toContain('US$ 12.345,50')
		expect(await mailsTo(manager.email)).toEqual([])
		expect(await mailsTo(owner.email)).toHaveLength(1)
		// One payment is said in the singular.
		expect(await sendTransactionDigest({ ...digest, batchId: 'import-3', count: 1, total: '10' })).toBe(2)
		expect((await mailsTo(owner.email)).map((m) => m.subject)).toContain('1 new payment in Digest Owner')
		expect((await mailsTo(member.email)).map((m) => m.subject)).toContain('1 novo pagamento em Digest Owner')
	})
})

describe('payment notices and the P2P Transaction Tracking module', () => {
	test('with the module activated, its switch and its visibility decide who gets the digest and the weekly report', async () => {
		const { owner, manager, member, orgId } = await team('Payments')
		const digest = { organizationId: orgId, source: 'import' as const, count: 2, total: '20' }
		// Payments are core screens: without the module every member with the toggle on is told.
		expect(await sendTransactionDigest({ ...digest, batchId: 'p-1' })).toBe(3)
		await setModule(orgId, CATALOGUE.modules.p2p, { visibility: 'owner', notifications: false })
		expect(await sendTransactionDigest({ ...digest, batchId: 'p-2' })).toBe(0)
		expect(await recipientsFor(orgId, 'weeklyReports')).toEqual([])
		await setModule(orgId, CATALOGUE.modules.p2p, { visibility: 'owner', notifications: true })
		expect(await sendTransactionDigest({ ...digest, batchId: 'p-3' })).toBe(1)
		expect((await mailsTo(owner.email)).length).toBe(2)
		expect((await mailsTo(manager.email)).length).toBe(1)
		expect((await mailsTo(member.email)).length).toBe(1)
		await savePreferences(member.userId, orgId, { emailNotifications: true, transactionAlerts: true, weeklyReports: true })
		await savePreferences(owner.userId, orgId, { emailNotifications: true, transactionAlerts: true, weeklyReports: true })
		expect((await recipientsFor(orgId, 'weeklyReports')).map((r) => r.userId)).toEqual([owner.userId])
	})
})

describe('the weekly report job', () => {
	let t: Awaited<ReturnType<typeof team>>
	let extra: TestUser

	beforeAll(async () => {
		t = await team('Weekly')
		extra = await createUser('Weekly Off')
		await addMember(t.orgId, extra.userId, 'member')
		await asSystem(async (trx) => {
			await trx.updateTable('booking_settings').set({ timezone: 'America/New_York' }).where('organization_id', '=', t.orgId).execute()
			const client = await trx
				.insertInto('clients')
				.values({ organization_id: t.orgId, name: 'Top Client' })
				.returning('id')
				.executeTakeFirstOrThrow()
			// The week of Oct 19–25 (reported on Oct 26) and Oct 26–Nov 1 (reported on Nov 2).
			await sql`insert into public.transactions (organization_id, client_id, amount, date_received) values
				(${t.orgId}, ${client.id}, 100, '2026-10-19'), (${t.orgId}, null, 50, '2026-10-25'),
				(${t.orgId}, ${client.id}, 300, '2026-10-27')`.execute(trx)
		})
		for (const u of [t.owner, t.manager])
			await savePreferences(u.userId, t.orgId, { emailNotifications: true, transactionAlerts: true, weeklyReports: true })
		// `extra` keeps the default: weekly reports off.
	})

	test('Monday 08:00 is found in the organization timezone across the end of daylight saving time', () => {
		const tz = 'America/New_York'
		expect(dueMonday(new Date('2026-10-26T11:59:00Z'), tz)).toBeNull()
		expect(dueMonday(new Date('2026-10-26T12:00:00Z'), tz)).toBe('2026-10-26') // 08:00 EDT
		expect(dueMonday(new Date('2026-11-02T12:30:00Z'), tz)).toBeNull() // 07:30 EST
		expect(dueMonday(new Date('2026-11-02T13:00:00Z'), tz)).toBe('2026-11-02') // 08:00 EST
		expect(dueMonday(new Date('2026-11-03T12:59:00Z'), tz)).toBe('2026-11-02')
		expect(dueMonday(new Date('2026-11-03T13:00:00Z'), tz)).toBeNull()
	})

	test('a fixed clock ticking through two weeks across the DST change sends exactly once per member and week, at 08:00 local', async () => {
		const sentAt: Record<string, string[]> = {}
		for (let ms = Date.parse('2026-10-24T00:00:00Z'); ms <= Date.parse('2026-11-04T00:00:00Z'); ms += 30 * 60_000) {
			const now = new Date(ms)
			for (const run of await runDueJobs(now, [weeklyReportJob])) {
				if (run.includes(t.orgId)) (sentAt[run] ??= []).push(now.toISOString())
			}
		}
		expect(sentAt).toEqual({
			[`${WEEKLY_REPORT_JOB}:${t.orgId}:2026-10-26`]: ['2026-10-26T12:00:00.000Z'],
			[`${WEEKLY_REPORT_JOB}:${t.orgId}:2026-11-02`]: ['2026-11-02T13:00:00.000Z'],
		})
		await drainMail()
		const toOwner = await mailsTo(t.owner.email)
		const weekly = toOwner.filter((m) => m.subject.startsWith('Your week'))
		expect(weekly.map((m) => m.subject)).toEqual(['Your week in Weekly Owner: $150.00', 'Your week in Weekly Owner: $300.00'])
		expect(weekly[0]!.text).toContain('Week of 10/19/2026 to 10/25/2026')
		expect(weekly[0]!.text).toContain('Payments: 2')
		expect(weekly[0]!.text).toContain('1. Top Client: $100.00')
		expect(weekly[1]!.text).toContain('+100%')
		expect((await mailsTo(t.manager.email)).filter((m) => m.subject.startsWith('Tu semana'))).toHaveLength(2)
		expect(await mailsTo(t.member.email)).toEqual([])
		expect(await mailsTo(extra.email)).toEqual([])
	})

	test('two schedulers started at once, and a restart, send each report once', async () => {
		await savePreferences(t.member.userId, t.orgId, { emailNotifications: true, transactionAlerts: true, weeklyReports: true })
		const now = () => new Date('2026-11-09T13:05:00Z') // Monday Nov 9, 08:05 EST
		const jobs = () => [weeklyReportJob]
		const a = startScheduler({ now, jobs, intervalMs: 3_600_000, runAtStart: false })
		const b = startScheduler({ now, jobs, intervalMs: 3_600_000, runAtStart: false })
		const [ranA, ranB] = await Promise.all([a.tick(), b.tick()])
		await Promise.all([a.stop(), b.stop()])
		const ran = [...ranA, ...ranB].filter((r) => r.includes(t.orgId))
		expect(ran).toEqual([`${WEEKLY_REPORT_JOB}:${t.orgId}:2026-11-09`])
		// A restart (a new scheduler) later the same morning finds the run done.
		const c = startScheduler({ now: () => new Date('2026-11-09T14:00:00Z'), jobs, intervalMs: 3_600_000, runAtStart: false })
		expect((await c.tick()).filter((r) => r.includes(t.orgId))).toEqual([])
		await c.stop()
		await drainMail()
		const deliveries = await asSystem((trx) =>
			sql<{ recipient: string; n: number }>`select recipient, count(*)::int as n from private.job_deliveries
				where job = ${WEEKLY_REPORT_JOB} and run_key = ${`${t.orgId}:2026-11-09`} group by recipient`.execute(trx),
		)
		expect(deliveries.rows.map((r) => r.n)).toEqual([1, 1, 1])
		// Amounts in the recipient's language (docs/decisions/022-formats-follow-the-language.md).
		expect((await mailsTo(t.member.email)).map((m) => m.subject.replace(/\u00a0/g, ' '))).toEqual(['Sua semana em Weekly Owner: US$ 0,00'])
		expect((await mailsTo(t.owner.email)).filter((m) => m.subject.startsWith('Your week'))).toHaveLength(3)
	})
})
