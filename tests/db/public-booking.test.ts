import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ICAL from 'ical.js'
import PostalMime from 'postal-mime'
import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { asAnon, asSystem, sql } from '#app/.server/db/index.ts'
import { drainMail, onMailQueue } from '#app/.server/mail/index.ts'
import { notifyStaffOfBooking } from '#app/.server/notifications/index.ts'
import {
	allowPublic,
	bookedByAttempt,
	createPublicBooking,
	getManagedBooking,
	newBookingAttempt,
} from '#app/.server/booking/public/bookings.ts'
import { getPublicOrganization } from '#app/.server/booking/public/organization.ts'
import { calendarOf } from '#app/.server/booking/public/mail.ts'
import { loader as icsLoader } from '#app/routes/book/booked-ics.ts'
import { at, CATALOGUE, createBookingSetup, createUser, refusal, upcomingWeekday } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

const dataDir = useTemporaryDataDir()

async function world() {
	const owner = await createUser('Wizard Owner')
	const { serviceId, providerId } = await createBookingSetup(owner.orgId)
	const second = await asSystem((trx) =>
		trx
			.insertInto('booking_providers')
			.values({ organization_id: owner.orgId, display_name: 'Dr. Second' })
			.returning('id')
			.executeTakeFirstOrThrow(),
	)
	return { org: owner.orgId, service: serviceId, provider: providerId, second: second.id, day: upcomingWeekday(3) }
}

type W = Awaited<ReturnType<typeof world>>

const book = (w: W, startsAt: string, email = 'guest@example.com', provider = w.provider) =>
	asAnon((trx) =>
		sql<{ id: string; manage_token: string }>`select * from public.create_booking(${w.org}, ${w.service}, ${provider},
			${startsAt}::timestamptz, 'Guest', ${email}, null, null)`
			.execute(trx)
			.then((r) => r.rows[0]!),
	)
const reschedule = (token: string, provider: string, startsAt: string) =>
	asAnon((trx) =>
		sql<{ id: string; starts_at: Date }>`select * from public.reschedule_booking(${token}, ${provider}, ${startsAt}::timestamptz)`
			.execute(trx)
			.then((r) => r.rows),
	)

describe('reschedule_booking', () => {
	test('moves the booking (same id and token) and frees the old slot in the same statement', async () => {
		const w = await world()
		const booked = await book(w, at(w.day, '10:00'))
		const moved = await reschedule(booked.manage_token, w.provider, at(w.day, '10:30'))
		expect(moved).toEqual([expect.objectContaining({ id: booked.id, starts_at: new Date(at(w.day, '10:30')) })])
		// The old slot is free again, the new one is taken.
		await book(w, at(w.day, '10:00'), 'other@example.com')
		expect(await refusal(book(w, at(w.day, '10:30'), 'third@example.com'))).toBe('slot_taken')
		const row = await getManagedBooking(booked.manage_token)
		expect(row).toMatchObject({ id: booked.id, startsAt: new Date(at(w.day, '10:30')).toISOString(), status: 'confirmed' })
		// Moving onto an overlapping range of itself is allowed (it does not block itself).
		expect(await reschedule(booked.manage_token, w.provider, at(w.day, '11:00'))).toHaveLength(1)
		expect(await reschedule(booked.manage_token, w.provider, at(w.day, '11:00'))).toHaveLength(1)
	})

	test('refuses a taken slot and keeps the booking where it was', async () => {
		const w = await world()
		const mine = await book(w, at(w.day, '10:00'))
		await book(w, at(w.day, '11:00'), 'other@example.com')
		expect(await refusal(reschedule(mine.manage_token, w.provider, at(w.day, '11:00')))).toBe('slot_taken')
		expect((await getManagedBooking(mine.manage_token))!.startsAt).toBe(new Date(at(w.day, '10:00')).toISOString())
		// Another provider is free then.
		expect(await reschedule(mine.manage_token, w.second, at(w.day, '11:00'))).toHaveLength(1)
	})

	test('runs every check of a new booking and answers stable codes', async () => {
		const w = await world()
		const mine = await book(w, at(w.day, '10:00'))
		const other = await createUser('Other Org')
		const { providerId: foreign } = await createBookingSetup(other.orgId)
		expect(await refusal(reschedule(mine.manage_token, foreign, at(w.day, '12:00')))).toBe('provider_unavailable')
		expect(await refusal(reschedule(mine.manage_token, w.provider, at(w.day, '03:00')))).toBe('outside_business_hours')
		expect(await refusal(reschedule(mine.manage_token, w.provider, '2020-01-06T10:00:00Z'))).toBe('too_soon')
		expect(await refusal(reschedule(mine.manage_token, w.provider, at(upcomingWeekday(90), '10:00')))).toBe('too_far_ahead')
		await asSystem((trx) =>
			trx
				.insertInto('booking_date_overrides')
				.values({ organization_id: w.org, provider_id: w.provider, date: w.day, closed: true })
				.execute(),
		)
		expect(await refusal(reschedule(mine.manage_token, w.provider, at(w.day, '12:00')))).toBe('provider_day_off')
		for (const token of ['0'.repeat(64), 'nonsense', '']) {
			expect(await refusal(reschedule(token, w.provider, at(w.day, '12:00')))).toBe('booking_not_found')
		}
	})

	test('is refused inside the cancellation notice, and on a cancelled booking', async () => {
		const w = await world()
		const mine = await book(w, at(w.day, '10:00'))
		await asSystem((trx) =>
			trx
				.updateTable('booking_settings')
				.set({ cancellation_hours: 24 * 30 })
				.where('organization_id', '=', w.org)
				.execute(),
		)
		expect(await refusal(reschedule(mine.manage_token, w.provider, at(w.day, '12:00')))).toBe('too_late_to_change')
		await asSystem((trx) =>
			trx.updateTable('booking_settings').set({ cancellation_hours: 0 }).where('organization_id', '=', w.org).execute(),
		)
		await asAnon((trx) => sql`select * from public.cancel_booking(${mine.manage_token})`.execute(trx))
		expect(await refusal(reschedule(mine.manage_token, w.provider, at(w.day, '12:00')))).toBe('already_cancelled')
	})
})

describe('get_public_date_overrides', () => {
	test("lists the organization's and its active providers' overrides in the range, nothing else", async () => {
		const w = await world()
		const other = await createUser('Other Org')
		await asSystem(async (trx) => {
			await trx
				.insertInto('booking_date_overrides')
				.values([
					{ organization_id: w.org, provider_id: null, date: w.day, closed: true, note: 'private note' },
					{ organization_id: w.org, provider_id: w.provider, date: w.day, closed: false, start_time: '10:00', end_time: '24:00' },
					{ organization_id: w.org, provider_id: w.second, date: w.day, closed: true },
					{ organization_id: other.orgId, provider_id: null, date: w.day, closed: true },
				])
				.execute()
			await trx.updateTable('booking_providers').set({ is_active: false }).where('id', '=', w.second).execute()
		})
		const rows = await asAnon((trx) =>
			sql`select * from public.get_public_date_overrides(${w.org}, ${w.day}::date, ${w.day}::date)`.execute(trx).then((r) => r.rows),
		)
		expect(rows).toEqual([
			{ provider_id: null, date: w.day, closed: true, start_time: null, end_time: null },
			{ provider_id: w.provider, date: w.day, closed: false, start_time: '10:00', end_time: '24:00' },
		])
		expect(
			await refusal(
				asAnon((trx) => sql`select * from public.get_public_date_overrides(${w.org}, '2030-01-01', '2031-06-01')`.execute(trx)),
			),
		).toBe('invalid_range')
	})
})

describe('one booking per confirm form', () => {
	test('the same form posted twice books once: the second post gets the first booking, even when the slot check comes first', async () => {
		const w = await world()
		const org = (await getPublicOrganization(
			(await asSystem((trx) => trx.selectFrom('organizations').select('slug').where('id', '=', w.org).executeTakeFirstOrThrow())).slug,
		))!
		const attempt = newBookingAttempt()
		const input = {
			serviceId: w.service,
			providerId: w.provider,
			start: at(w.day, '09:00'),
			contact: { name: 'Twice', email: 'twice@example.com' },
			attempt,
		}
		const first = await createPublicBooking(org, input, 'en')
		if (!first.ok) throw new Error(first.code)
		expect(await createPublicBooking(org, input, 'en')).toEqual(first)
		expect(await bookedByAttempt(attempt)).toEqual({ id: first.id, token: first.token })
		const rows = await asSystem((trx) => trx.selectFrom('booking_appointments').select('id').where('organization_id', '=', w.org).execute())
		expect(rows).toEqual([{ id: first.id }])
		// Another form (another attempt key) for the same slot is told it is taken.
		expect(await createPublicBooking(org, { ...input, attempt: newBookingAttempt() }, 'en')).toEqual({ ok: false, code: 'slot_taken' })
		expect(await bookedByAttempt(newBookingAttempt())).toBeNull()
		expect(await bookedByAttempt('short')).toBeNull()
	})

	test('nobody can attach an attempt key to a booking their own transaction did not make', async () => {
		const w = await world()
		const { id } = await book(w, at(w.day, '10:00'), 'victim@example.com')
		expect(
			await refusal(asAnon((trx) => sql`select public.remember_booking_attempt(${newBookingAttempt()}, ${id}, 'v1.x')`.execute(trx))),
		).toBe('invalid_attempt')
		expect(await refusal(asAnon((trx) => sql`select * from private.booking_attempts`.execute(trx)))).toBe('42501')
	})
})

describe('abuse limits', () => {
	test('one email holds at most 3 upcoming bookings with an organization by default; the server may set its own limit', async () => {
		const w = await world()
		for (const time of ['09:00', '09:30', '10:00']) await book(w, at(w.day, time), 'Many@Example.com')
		expect(await refusal(book(w, at(w.day, '10:30'), 'many@example.com'))).toBe('too_many_bookings')
		// Another email is not held back; the app's own setting raises the limit.
		await book(w, at(w.day, '10:30'), 'someone@example.com')
		const org = (await getPublicOrganization(
			(await asSystem((trx) => trx.selectFrom('organizations').select('slug').where('id', '=', w.org).executeTakeFirstOrThrow())).slug,
		))!
		const result = await createPublicBooking(
			org,
			{ serviceId: w.service, providerId: w.provider, start: at(w.day, '11:00'), contact: { name: 'Many', email: 'many@example.com' } },
			'en',
		)
		// Through the app, with its default setting (BOOK_MAX_UPCOMING_PER_EMAIL = 3): the same refusal.
		expect(result).toEqual({ ok: false, code: 'too_many_bookings' })
		// A higher limit set for the transaction lets the fourth in.
		const fourth = await asAnon(async (trx) => {
			await sql`select set_config('app.booking_max_upcoming', '4', true)`.execute(trx)
			return sql`select id from public.create_booking(${w.org}, ${w.service}, ${w.provider}, ${at(w.day, '11:30')}::timestamptz,
				'Many', 'many@example.com', null, null)`
				.execute(trx)
				.then((r) => r.rows.length)
		})
		expect(fourth).toBe(1)
	})

	test('the limit counts an address however it is written: upper case and a +tag make no new address; the address is kept as typed', async () => {
		const w = await world()
		for (const [time, email] of [
			['09:00', 'Plus@Example.com'],
			['09:30', 'plus+1@example.com'],
			['10:00', 'PLUS+shop@EXAMPLE.COM'],
		] as const)
			await book(w, at(w.day, time), email)
		for (const email of ['plus+2@example.com', 'plus@example.com', ' Plus+a+b@example.com ']) {
			expect(await refusal(book(w, at(w.day, '10:30'), email))).toBe('too_many_bookings')
		}
		// Another local part, or the same one at another domain, is another address.
		await book(w, at(w.day, '10:30'), 'plusx@example.com')
		await book(w, at(w.day, '11:00'), 'plus@example.org')
		const stored = await asSystem((trx) =>
			trx.selectFrom('booking_appointments').select('guest_email').where('organization_id', '=', w.org).orderBy('starts_at').execute(),
		)
		expect(stored.map((r) => r.guest_email)).toEqual([
			'Plus@Example.com',
			'plus+1@example.com',
			'PLUS+shop@EXAMPLE.COM',
			'plusx@example.com',
			'plus@example.org',
		])
	})

	test('confirms sent at once for one address on different providers never pass the limit, however the address is written', async () => {
		const w = await world()
		const providers = await asSystem((trx) =>
			trx
				.insertInto('booking_providers')
				.values(Array.from({ length: 10 }, (_, i) => ({ organization_id: w.org, display_name: `Parallel ${i}` })))
				.returning('id')
				.execute(),
		)
		const confirm = (email: string, provider: string, time: string) =>
			refusal(
				asAnon((trx) =>
					sql`select * from public.create_booking(${w.org}, ${w.service}, ${provider}, ${at(w.day, time)}::timestamptz,
				'Parallel', ${email}, null, null)`.execute(trx),
				),
			)
		const live = async (key: string) =>
			(
				await asSystem((trx) => trx.selectFrom('booking_appointments').select('guest_email').where('organization_id', '=', w.org).execute())
			).filter((r) => (r.guest_email ?? '').toLowerCase().replace(/\+[^@]*@/, '@') === key).length
		const tally = (codes: (string | null)[]) =>
			codes.reduce<Record<string, number>>((t, c) => ({ ...t, [c ?? 'ok']: (t[c ?? 'ok'] ?? 0) + 1 }), {})
		// The same address ten times at once: the count and the insert are one step per address.
		expect(tally(await Promise.all(providers.map((p) => confirm('same@example.com', p.id, '14:00'))))).toEqual({
			ok: 3,
			too_many_bookings: 7,
		})
		expect(await live('same@example.com')).toBe(3)
		// Ten spellings of another address at once.
		const spellings = [
			'a+1@example.com',
			'A+2@example.com',
			'a@example.com',
			'A@EXAMPLE.COM',
			'a+x@Example.com',
			'a+1+2@example.com',
			'a+@example.com',
			'A+Y@example.com',
			'a+z@EXAMPLE.com',
			'a+9@example.com',
		]
		expect(tally(await Promise.all(providers.map((p, i) => confirm(spellings[i]!, p.id, '15:00'))))).toEqual({
			ok: 3,
			too_many_bookings: 7,
		})
		expect(await live('a@example.com')).toBe(3)
	})

	test('booking posts and slot lookups are limited per address', async () => {
		const address = `203.0.113.${Math.floor(Math.random() * 250)}-${Date.now()}`
		const results = []
		for (let i = 0; i < 11; i++) results.push(await allowPublic('book_post', address))
		expect(results.filter(Boolean)).toHaveLength(10)
		expect(results.at(-1)).toBe(false)
		expect(await allowPublic('book_post', `${address}-other`)).toBe(true)
	})
})

/** The raw mails the outbox holds for `to`, parsed with their attachments. */
async function rawMailsTo(to: string) {
	const outbox = path.join(dataDir, 'outbox')
	const files = readdirSync(outbox)
		.filter((f) => f.endsWith(`-${to.replace(/[^a-zA-Z0-9@._-]/g, '_')}.eml`))
		.sort()
	return Promise.all(files.map((f) => PostalMime.parse(readFileSync(path.join(outbox, f)))))
}

describe('calendar files', () => {
	test("names holding line breaks, quotes, commas or semicolons cannot add an attendee, an alarm or an event to a guest's .ics, mailed or downloaded", async () => {
		const w = await world()
		// Saved before the control-character rule (or by SQL): the files must still say only what we write.
		const organizationName = 'Evil\r\nATTENDEE:mailto:x@y'
		await asSystem(async (trx) => {
			await trx.updateTable('organizations').set({ name: organizationName }).where('id', '=', w.org).execute()
			await trx
				.updateTable('booking_services')
				.set({ name: 'Cut, wash; dry\nBEGIN:VALARM\nACTION:DISPLAY\nTRIGGER:-PT5M\nEND:VALARM' })
				.where('id', '=', w.service)
				.execute()
			await trx
				.updateTable('booking_providers')
				.set({ display_name: 'Dr. "Q"\r\nEND:VEVENT\r\nBEGIN:VEVENT\\' })
				.where('id', '=', w.provider)
				.execute()
		})
		const slug = (await asSystem((trx) => trx.selectFrom('organizations').select('slug').where('id', '=', w.org).executeTakeFirstOrThrow()))
			.slug
		const org = (await getPublicOrganization(slug))!
		const email = `ics-${Date.now()}@example.test`
		const booked = await createPublicBooking(
			org,
			{ serviceId: w.service, providerId: w.provider, start: at(w.day, '09:00'), contact: { name: 'Guest', email } },
			'en',
		)
		if (!booked.ok) throw new Error(booked.code)
		await drainMail()
		const [mail] = await rawMailsTo(email)
		// The subject stays one header: no line of the organization's name becomes a header of its own.
		expect(mail!.subject).not.toMatch(/[\r\n]/)
		expect(mail!.headers.map((h) => h.key)).not.toContain('attendee')
		const attachment = mail!.attachments.find((a) => a.filename === 'booking.ics')!
		const mailed = typeof attachment.content === 'string' ? attachment.content : new TextDecoder().decode(attachment.content)
		const response = await icsLoader({
			request: new Request(`http://localhost/book/${slug}/booked/${booked.id}/calendar.ics?token=${booked.token}`),
			params: { orgSlug: slug, id: booked.id },
			context: new RouterContextProvider(),
		} as never)
		const downloaded = await response.text()
		const expected = calendarOf((await getManagedBooking(booked.token))!, 'en')
		for (const ics of [mailed, downloaded]) {
			const calendar = new ICAL.Component(ICAL.parse(ics))
			expect(calendar.getAllSubcomponents().map((c) => c.name)).toEqual(['vevent'])
			const event = calendar.getFirstSubcomponent('vevent')!
			expect(event.getAllSubcomponents()).toEqual([])
			expect(
				event
					.getAllProperties()
					.map((p) => p.name)
					.sort(),
			).toEqual(['description', 'dtend', 'dtstamp', 'dtstart', 'organizer', 'sequence', 'status', 'summary', 'uid', 'url'])
			const organizer = event.getFirstProperty('organizer')!
			expect(organizer.getParameter('cn')).toBe('Evil ATTENDEE:mailto:x@y')
			expect(organizer.getFirstValue()).toBe('mailto:no-reply@localhost')
			// Text values come back as they were written, their line breaks as line breaks.
			expect(event.getFirstPropertyValue('summary')).toBe(expected.title.replace(/\r\n?/g, '\n'))
			expect(event.getFirstPropertyValue('description')).toContain('Dr. "Q"\nEND:VEVENT\nBEGIN:VEVENT\\')
			expect(event.getFirstPropertyValue('uid')).toBe(`${booked.id}@p2p-booking`)
			// No line is longer than 75 octets (RFC 5545 §3.1).
			expect(ics.split(/\r?\n/).filter((line) => Buffer.byteLength(line) > 75)).toEqual([])
		}
		// Lines end in CRLF (the outbox's files are written with Unix line ends, the download is as made).
		expect(downloaded.split('\r\n').filter((line) => /[\r\n]/.test(line))).toEqual([])
	})
})

describe("the staff's notice of a booking", () => {
	test('goes through the mail queue: it waits for the mails queued before it, and is sent before the call resolves', async () => {
		const w = await world()
		const owner = await createUser('Queue Owner')
		const { serviceId, providerId } = await createBookingSetup(owner.orgId)
		await asSystem((trx) =>
			trx
				.insertInto('organization_modules')
				.values({
					organization_id: owner.orgId,
					module_id: CATALOGUE.modules.booking,
					default_visibility: 'any',
					email_notifications: true,
				})
				.execute(),
		)
		const booked = await book(
			{ ...w, org: owner.orgId, service: serviceId, provider: providerId },
			at(w.day, '10:00'),
			'queued@example.com',
		)
		// A mail before it on the queue, still being sent.
		let release = () => {}
		const before = onMailQueue(() => new Promise<void>((resolve) => (release = resolve)))
		const notified = notifyStaffOfBooking({ organizationId: owner.orgId, appointmentId: booked.id, kind: 'booked' })
		const early = await Promise.race([notified.then(() => 'sent'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 500))])
		expect(early).toBe('waiting')
		expect(await mailsTo(owner.email)).toEqual([])
		release()
		await before
		expect(await notified).toBe(1)
		const [mail] = await mailsTo(owner.email)
		expect(mail!.subject).toMatch(/^New booking: Consultation on /)
	})
})
