import { describe, expect, test } from 'vitest'
import { asAnon, asSystem, sql } from '#app/.server/db/index.ts'
import { allowPublic, bookedByAttempt, createPublicBooking, getManagedBooking, getPublicOrganization, newBookingAttempt } from '#app/.server/public-booking.ts'
import { at, createBookingSetup, createUser, refusal, upcomingWeekday } from './fixtures.ts'

async function world() {
	const owner = await createUser('Wizard Owner')
	const { serviceId, providerId } = await createBookingSetup(owner.orgId)
	const second = await asSystem((trx) =>
		trx.insertInto('booking_providers').values({ organization_id: owner.orgId, display_name: 'Dr. Second' }).returning('id').executeTakeFirstOrThrow(),
	)
	return { org: owner.orgId, service: serviceId, provider: providerId, second: second.id, day: upcomingWeekday(3) }
}

type W = Awaited<ReturnType<typeof world>>

const book = (w: W, startsAt: string, email = 'guest@example.com', provider = w.provider) =>
	asAnon((trx) =>
		sql<{ id: string; manage_token: string }>`select * from public.create_booking(${w.org}, ${w.service}, ${provider},
			${startsAt}::timestamptz, 'Guest', ${email}, null, null)`.execute(trx).then((r) => r.rows[0]!),
	)
const reschedule = (token: string, provider: string, startsAt: string) =>
	asAnon((trx) => sql<{ id: string; starts_at: Date }>`select * from public.reschedule_booking(${token}, ${provider}, ${startsAt}::timestamptz)`.execute(trx).then((r) => r.rows))

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
		await asSystem((trx) => trx.insertInto('booking_date_overrides').values({ organization_id: w.org, provider_id: w.provider, date: w.day, closed: true }).execute())
		expect(await refusal(reschedule(mine.manage_token, w.provider, at(w.day, '12:00')))).toBe('provider_day_off')
		for (const token of ['0'.repeat(64), 'nonsense', '']) {
			expect(await refusal(reschedule(token, w.provider, at(w.day, '12:00')))).toBe('booking_not_found')
		}
	})

	test('is refused inside the cancellation notice, and on a cancelled booking', async () => {
		const w = await world()
		const mine = await book(w, at(w.day, '10:00'))
		await asSystem((trx) => trx.updateTable('booking_settings').set({ cancellation_hours: 24 * 30 }).where('organization_id', '=', w.org).execute())
		expect(await refusal(reschedule(mine.manage_token, w.provider, at(w.day, '12:00')))).toBe('too_late_to_change')
		await asSystem((trx) => trx.updateTable('booking_settings').set({ cancellation_hours: 0 }).where('organization_id', '=', w.org).execute())
		await asAnon((trx) => sql`select * from public.cancel_booking(${mine.manage_token})`.execute(trx))
		expect(await refusal(reschedule(mine.manage_token, w.provider, at(w.day, '12:00')))).toBe('already_cancelled')
	})
})

describe('get_public_date_overrides', () => {
	test("lists the organization's and its active providers' overrides in the range, nothing else", async () => {
		const w = await world()
		const other = await createUser('Other Org')
		await asSystem(async (trx) => {
			await trx.insertInto('booking_date_overrides').values([
				{ organization_id: w.org, provider_id: null, date: w.day, closed: true, note: 'private note' },
				{ organization_id: w.org, provider_id: w.provider, date: w.day, closed: false, start_time: '10:00', end_time: '24:00' },
				{ organization_id: w.org, provider_id: w.second, date: w.day, closed: true },
				{ organization_id: other.orgId, provider_id: null, date: w.day, closed: true },
			]).execute()
			await trx.updateTable('booking_providers').set({ is_active: false }).where('id', '=', w.second).execute()
		})
		const rows = await asAnon((trx) => sql`select * from public.get_public_date_overrides(${w.org}, ${w.day}::date, ${w.day}::date)`.execute(trx).then((r) => r.rows))
		expect(rows).toEqual([
			{ provider_id: null, date: w.day, closed: true, start_time: null, end_time: null },
			{ provider_id: w.provider, date: w.day, closed: false, start_time: '10:00', end_time: '24:00' },
		])
		expect(await refusal(asAnon((trx) => sql`select * from public.get_public_date_overrides(${w.org}, '2030-01-01', '2031-06-01')`.execute(trx)))).toBe('invalid_range')
	})
})

describe('one booking per confirm form', () => {
	test('the same form posted twice books once: the second post gets the first booking, even when the slot check comes first', async () => {
		const w = await world()
		const org = (await getPublicOrganization((await asSystem((trx) => trx.selectFrom('organizations').select('slug').where('id', '=', w.org).executeTakeFirstOrThrow())).slug))!
		const attempt = newBookingAttempt()
		const input = { serviceId: w.service, providerId: w.provider, start: at(w.day, '09:00'), contact: { name: 'Twice', email: 'twice@example.com' }, attempt }
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

	test("nobody can attach an attempt key to a booking their own transaction did not make", async () => {
		const w = await world()
		const { id } = await book(w, at(w.day, '10:00'), 'victim@example.com')
		expect(await refusal(asAnon((trx) => sql`select public.remember_booking_attempt(${newBookingAttempt()}, ${id}, 'v1.x')`.execute(trx)))).toBe('invalid_attempt')
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
		const org = (await getPublicOrganization((await asSystem((trx) => trx.selectFrom('organizations').select('slug').where('id', '=', w.org).executeTakeFirstOrThrow())).slug))!
		const result = await createPublicBooking(org, { serviceId: w.service, providerId: w.provider, start: at(w.day, '11:00'), contact: { name: 'Many', email: 'many@example.com' } }, 'en')
		// Through the app, with its default setting (BOOK_MAX_UPCOMING_PER_EMAIL = 3): the same refusal.
		expect(result).toEqual({ ok: false, code: 'too_many_bookings' })
		// A higher limit set for the transaction lets the fourth in.
		const fourth = await asAnon(async (trx) => {
			await sql`select set_config('app.booking_max_upcoming', '4', true)`.execute(trx)
			return sql`select id from public.create_booking(${w.org}, ${w.service}, ${w.provider}, ${at(w.day, '11:30')}::timestamptz,
				'Many', 'many@example.com', null, null)`.execute(trx).then((r) => r.rows.length)
		})
		expect(fourth).toBe(1)
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
