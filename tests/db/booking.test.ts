import { createHash } from 'node:crypto'
import { describe, expect, expectTypeOf, test } from 'vitest'
import { asAnon, asSystem, asUser, sql, type Tx } from '#app/.server/db/index.ts'
import type { AppointmentStatus as DbAppointmentStatus } from '#app/.server/db/types.ts'
import { getCalendarView } from '#app/.server/booking/calendar.ts'
import { addDateOverride, changeAppointmentStatus, getBookingAnalytics } from '#app/.server/booking/staff.ts'
import { ACTIVE_STATUSES, APPOINTMENT_STATUSES, type AppointmentStatus } from '#app/lib/appointments.ts'
import { addMember, at, createBookingSetup, createUser, refusal, upcomingWeekday, weekdayAfter } from './fixtures.ts'

type Booked = {
	id: string
	manage_token: string
	status: string
	appointment_date: string
	start_time: string
	end_time: string
	starts_at: Date
	ends_at: Date
	total_price: string
	timezone: string
}

type BookingInput = {
	org: string
	service: string
	provider: string
	startsAt: string
	name?: string
	email?: string
	phone?: string | null
	notes?: string | null
}

function book(trx: Tx, b: BookingInput) {
	return sql<Booked>`select * from public.create_booking(
		${b.org}, ${b.service}, ${b.provider}, ${b.startsAt}::timestamptz,
		${b.name ?? 'Maria Lopez'}, ${b.email ?? 'maria@example.com'}, ${b.phone ?? null}, ${b.notes ?? null})`
		.execute(trx)
		.then((r) => r.rows[0]!)
}

const bookAsAnon = (b: BookingInput) => asAnon((trx) => book(trx, b))

async function setSettings(orgId: string, values: Record<string, unknown>) {
	await asSystem((trx) => trx.updateTable('booking_settings').set(values).where('organization_id', '=', orgId).execute())
}

async function bookingWorld(options: { durationMinutes?: number; price?: number } = {}) {
	const owner = await createUser('Booking Owner')
	const { serviceId, providerId } = await createBookingSetup(owner.orgId, options)
	const day = upcomingWeekday(2)
	return { owner, org: owner.orgId, service: serviceId, provider: providerId, day }
}

describe('the public booking reads', () => {
	test('return only what the public page shows: organization by slug, active services and providers without user ids, settings', async () => {
		const w = await bookingWorld()
		const member = await createUser('Provider Member')
		await addMember(w.org, member.userId, 'member')
		await asSystem(async (trx) => {
			await trx
				.updateTable('organizations')
				.set({ logo_url: 'https://cdn.example.com/logo.png', description: 'private notes' })
				.where('id', '=', w.org)
				.execute()
			await trx
				.insertInto('booking_services')
				.values([
					{ organization_id: w.org, name: 'Archived service', is_active: false },
					{ organization_id: w.org, name: 'Another service', price: 80, duration_minutes: 60, color: '#16a34a' },
				])
				.execute()
			await trx
				.insertInto('booking_providers')
				.values([
					{ organization_id: w.org, display_name: 'Away provider', is_active: false },
					{ organization_id: w.org, display_name: 'Member provider', user_id: member.userId },
				])
				.execute()
		})
		const slug = (await asSystem((trx) => trx.selectFrom('organizations').select('slug').where('id', '=', w.org).executeTakeFirstOrThrow()))
			.slug
		const seen = await asAnon(async (trx) => ({
			org: (await sql`select * from public.get_public_organization(${slug})`.execute(trx)).rows,
			missing: (await sql`select * from public.get_public_organization('no-such-org')`.execute(trx)).rows,
			services: (await sql<{ name: string }>`select * from public.get_public_services(${w.org})`.execute(trx)).rows,
			providers: (await sql<{ display_name: string }>`select * from public.get_public_providers(${w.org})`.execute(trx)).rows,
			settings: (await sql`select * from public.get_public_booking_settings(${w.org})`.execute(trx)).rows,
		}))
		expect(seen.org).toEqual([
			{
				id: w.org,
				slug,
				name: 'Booking Owner',
				logo_url: 'https://cdn.example.com/logo.png',
				brand_colors: { primary: '#2563eb', secondary: '#64748b' },
			},
		])
		expect(seen.missing).toEqual([])
		expect(seen.services.map((s) => s.name)).toEqual(['Another service', 'Consultation'])
		expect(Object.keys(seen.services[0]!).sort()).toEqual(['color', 'description', 'duration_minutes', 'id', 'name', 'price'])
		expect(seen.providers.map((p) => p.display_name)).toEqual(['Dr. Rivera', 'Member provider'])
		expect(Object.keys(seen.providers[0]!).sort()).toEqual(['avatar_url', 'bio', 'business_hours', 'display_name', 'id'])
		expect(JSON.stringify(seen)).not.toContain(member.userId)
		expect(seen.settings).toEqual([
			expect.objectContaining({ min_advance_hours: 1, max_advance_days: 30, timezone: 'UTC', require_phone: false }),
		])
	})

	test('busy ranges list live appointments with their buffer, inside the dates asked, at most 62 days', async () => {
		const w = await bookingWorld()
		await setSettings(w.org, { buffer_minutes: 10 })
		const kept = await bookAsAnon({ ...w, startsAt: at(w.day, '10:00') })
		const cancelled = await bookAsAnon({ ...w, startsAt: at(w.day, '14:00') })
		await asAnon((trx) => sql`select * from public.cancel_booking(${cancelled.manage_token})`.execute(trx))
		const ranges = await asAnon((trx) =>
			sql<{ provider_id: string; busy_from: Date; busy_until: Date }>`
			select * from public.get_public_busy_ranges(${w.org}, ${w.day}::date, ${w.day}::date)`
				.execute(trx)
				.then((r) => r.rows),
		)
		expect(ranges).toEqual([{ provider_id: w.provider, busy_from: new Date(at(w.day, '10:00')), busy_until: new Date(at(w.day, '10:40')) }])
		expect(kept.status).toBe('confirmed')
		const dayBefore = new Date(new Date(w.day).getTime() - 86_400_000).toISOString().slice(0, 10)
		const none = await asAnon((trx) =>
			sql`select * from public.get_public_busy_ranges(${w.org}, ${dayBefore}::date, ${dayBefore}::date)`.execute(trx),
		)
		expect(none.rows).toEqual([])
		expect(
			await refusal(asAnon((trx) => sql`select * from public.get_public_busy_ranges(${w.org}, '2030-01-01', '2030-06-01')`.execute(trx))),
		).toBe('invalid_range')
	})
})

describe('create_booking', () => {
	test('stores a confirmed booking with the price and end from the service, and returns a token stored only as its hash', async () => {
		const w = await bookingWorld({ durationMinutes: 45, price: 60 })
		const booked = await bookAsAnon({ ...w, startsAt: at(w.day, '10:00'), phone: ' 555-0101 ', notes: 'First visit' })
		expect(booked).toMatchObject({
			status: 'confirmed',
			appointment_date: w.day,
			start_time: '10:00:00',
			end_time: '10:45:00',
			total_price: '60.00',
			timezone: 'UTC',
			ends_at: new Date(at(w.day, '10:45')),
		})
		expect(booked.manage_token).toMatch(/^[0-9a-f]{64}$/)
		const row = await asSystem((trx) =>
			trx.selectFrom('booking_appointments').selectAll().where('id', '=', booked.id).executeTakeFirstOrThrow(),
		)
		expect(row).toMatchObject({
			organization_id: w.org,
			service_id: w.service,
			provider_id: w.provider,
			guest_name: 'Maria Lopez',
			guest_email: 'maria@example.com',
			guest_phone: '555-0101',
			notes: 'First visit',
			buffer_minutes: 0,
		})
		expect(row.manage_token_hash).toBe(createHash('sha256').update(booked.manage_token).digest('hex'))
		expect(JSON.stringify(row)).not.toContain(booked.manage_token)
	})

	test('derives the local date and times in the organization timezone and takes the buffer in force', async () => {
		const w = await bookingWorld()
		await setSettings(w.org, { timezone: 'America/New_York', buffer_minutes: 15 })
		// 15:00 UTC is 10:00 or 11:00 in New York depending on daylight saving time.
		const booked = await bookAsAnon({ ...w, startsAt: at(w.day, '15:00') })
		const local = await asSystem((trx) =>
			sql<{ date: string; time: string }>`
			select (${at(w.day, '15:00')}::timestamptz at time zone 'America/New_York')::date::text as date,
			       (${at(w.day, '15:00')}::timestamptz at time zone 'America/New_York')::time::text as time`
				.execute(trx)
				.then((r) => r.rows[0]!),
		)
		expect({ date: booked.appointment_date, time: booked.start_time, timezone: booked.timezone }).toEqual({
			...local,
			timezone: 'America/New_York',
		})
		const row = await asSystem((trx) =>
			trx
				.selectFrom('booking_appointments')
				.select(['buffer_minutes', 'buffer_ends_at'])
				.where('id', '=', booked.id)
				.executeTakeFirstOrThrow(),
		)
		expect(row).toEqual({ buffer_minutes: 15, buffer_ends_at: new Date(at(w.day, '15:45')) })
	})

	test('follows a change of the organization timezone: local date and times derived again, nothing else changed', async () => {
		const w = await bookingWorld()
		const other = await bookingWorld()
		await setSettings(w.org, { timezone: 'Asia/Tokyo' })
		await setSettings(other.org, { timezone: 'Asia/Tokyo' })
		// 01:00 UTC is 10:00 in Tokyo, and 20:00 of the day before in New York (21:00 in summer).
		const booked = await bookAsAnon({ ...w, startsAt: at(w.day, '01:00') })
		const untouched = await bookAsAnon({ ...other, startsAt: at(other.day, '01:00') })
		const read = (id: string) =>
			asSystem((trx) =>
				sql<{ date: string; start: string; end: string; updated_at: Date; buffer_ends_at: Date }>`
					select appointment_date::text as date, start_time::text as start, end_time::text as end, updated_at, buffer_ends_at
					from public.booking_appointments where id = ${id}`
					.execute(trx)
					.then((r) => r.rows[0]!),
			)
		const before = await read(booked.id)
		expect(before).toMatchObject({ date: w.day, start: '10:00:00', end: '10:30:00' })

		// As the owner saves it from the settings page.
		await asUser(w.owner.userId, (trx) =>
			trx.updateTable('booking_settings').set({ timezone: 'America/New_York' }).where('organization_id', '=', w.org).execute(),
		)
		const local = await asSystem((trx) =>
			sql<{ date: string; start: string; end: string }>`
			select (${at(w.day, '01:00')}::timestamptz at time zone 'America/New_York')::date::text as date,
			       (${at(w.day, '01:00')}::timestamptz at time zone 'America/New_York')::time::text as start,
			       (${at(w.day, '01:30')}::timestamptz at time zone 'America/New_York')::time::text as end`
				.execute(trx)
				.then((r) => r.rows[0]!),
		)
		const after = await read(booked.id)
		expect(after).toMatchObject(local)
		expect(after.date < w.day).toBe(true)
		// Not a change of the appointment: not listed as "changed" in the analytics' activity.
		expect(after.updated_at).toEqual(before.updated_at)
		expect(after.buffer_ends_at).toEqual(before.buffer_ends_at)
		// Another organization's appointments are left alone.
		expect(await read(untouched.id)).toMatchObject({ date: other.day, start: '10:00:00' })

		// A real change still moves updated_at.
		await asSystem((trx) => trx.updateTable('booking_appointments').set({ status: 'cancelled' }).where('id', '=', booked.id).execute())
		expect((await read(booked.id)).updated_at.getTime()).toBeGreaterThan(before.updated_at.getTime())
	})

	test('is pending when the organization does not confirm automatically', async () => {
		const w = await bookingWorld()
		await setSettings(w.org, { auto_confirm: false })
		expect((await bookAsAnon({ ...w, startsAt: at(w.day, '11:00') })).status).toBe('pending')
	})

	test('re-validates everything the visitor sent', async () => {
		const w = await bookingWorld()
		const other = await bookingWorld()
		const inactive = await createBookingSetup(w.org)
		await asSystem(async (trx) => {
			await trx.updateTable('booking_services').set({ is_active: false }).where('id', '=', inactive.serviceId).execute()
			await trx.updateTable('booking_providers').set({ is_active: false }).where('id', '=', inactive.providerId).execute()
		})
		const saturday = (() => {
			const d = new Date(`${w.day}T00:00:00Z`)
			while (d.getUTCDay() !== 6) d.setUTCDate(d.getUTCDate() + 1)
			return d.toISOString().slice(0, 10)
		})()
		const ok = { ...w, startsAt: at(w.day, '10:00') }
		const cases: [string, BookingInput][] = [
			['organization_not_found', { ...ok, org: '00000000-0000-4000-8000-000000000000' }],
			['service_unavailable', { ...ok, service: inactive.serviceId }],
			['service_unavailable', { ...ok, service: other.service }],
			['provider_unavailable', { ...ok, provider: inactive.providerId }],
			['provider_unavailable', { ...ok, provider: other.provider }],
			['invalid_guest_name', { ...ok, name: '   ' }],
			['invalid_guest_email', { ...ok, email: 'maria-at-example' }],
			['invalid_guest_email', { ...ok, email: 'maria@example' }],
			['outside_business_hours', { ...ok, startsAt: at(w.day, '08:30') }],
			['outside_business_hours', { ...ok, startsAt: at(w.day, '16:45') }],
			['outside_business_hours', { ...ok, startsAt: at(saturday, '10:00') }],
			['too_soon', { ...ok, startsAt: new Date(Date.now() + 30 * 60_000).toISOString() }],
			['too_soon', { ...ok, startsAt: at('2020-01-06', '10:00') }],
			['too_far_ahead', { ...ok, startsAt: at(upcomingWeekday(40), '10:00') }],
		]
		for (const [code, input] of cases) {
			expect({ code: await refusal(bookAsAnon(input)), input }).toEqual({ code, input })
		}
		await setSettings(w.org, { require_phone: true })
		expect(await refusal(bookAsAnon({ ...ok, phone: '  ' }))).toBe('phone_required')
		const rows = await asSystem((trx) => trx.selectFrom('booking_appointments').select('id').where('organization_id', '=', w.org).execute())
		expect(rows).toEqual([])
		expect((await bookAsAnon({ ...ok, startsAt: at(w.day, '16:30'), phone: '555-0102' })).end_time).toBe('17:00:00')
	})

	test('is refused with guest_booking_disabled when the organization closed its public page, and stores nothing; the page can tell', async () => {
		const w = await bookingWorld()
		await setSettings(w.org, { allow_guest_booking: false })
		const settings = await asAnon((trx) =>
			sql<{ allow_guest_booking: boolean }>`
			select allow_guest_booking from public.get_public_booking_settings(${w.org})`.execute(trx),
		)
		expect(settings.rows).toEqual([{ allow_guest_booking: false }])
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(w.day, '10:00') }))).toBe('guest_booking_disabled')
		// Refused before anything else is looked at: an invalid request gets the same answer.
		expect(await refusal(bookAsAnon({ ...w, service: w.provider, email: 'nope', startsAt: at('2020-01-06', '10:00') }))).toBe(
			'guest_booking_disabled',
		)
		const rows = await asSystem((trx) => trx.selectFrom('booking_appointments').select('id').where('organization_id', '=', w.org).execute())
		expect(rows).toEqual([])
		// Staff still book for the organization themselves.
		const staff = await asUser(w.owner.userId, (trx) =>
			trx
				.insertInto('booking_appointments')
				.values({
					organization_id: w.org,
					service_id: w.service,
					provider_id: w.provider,
					starts_at: at(w.day, '11:00'),
					ends_at: at(w.day, '11:30'),
					status: 'confirmed',
					guest_name: 'Phone booking',
					guest_email: 'phone@example.com',
					total_price: 45,
				})
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		expect(staff.id).toBeTruthy()
	})

	test('is accepted again once guest booking is allowed, and a guest can still cancel while it is off', async () => {
		const w = await bookingWorld()
		const before = await bookAsAnon({ ...w, startsAt: at(w.day, '09:00') })
		await setSettings(w.org, { allow_guest_booking: false })
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(w.day, '10:00') }))).toBe('guest_booking_disabled')
		const cancelled = await asAnon((trx) =>
			sql<{ id: string; status: string }>`select * from public.cancel_booking(${before.manage_token})`.execute(trx),
		)
		expect(cancelled.rows).toEqual([{ id: before.id, status: 'cancelled' }])
		await setSettings(w.org, { allow_guest_booking: true })
		const booked = await bookAsAnon({ ...w, startsAt: at(w.day, '10:00') })
		expect(booked.status).toBe('confirmed')
		const settings = await asAnon((trx) =>
			sql<{ allow_guest_booking: boolean }>`
			select allow_guest_booking from public.get_public_booking_settings(${w.org})`.execute(trx),
		)
		expect(settings.rows).toEqual([{ allow_guest_booking: true }])
	})

	test("the provider's own hours narrow the organization's, never widen them", async () => {
		const w = await bookingWorld()
		const hours = Object.fromEntries(
			['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
				day,
				{ start: '12:00', end: '20:00', enabled: true },
			]),
		)
		await asSystem((trx) =>
			trx
				.updateTable('booking_providers')
				.set({ business_hours: JSON.stringify(hours) })
				.where('id', '=', w.provider)
				.execute(),
		)
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(w.day, '10:00') }))).toBe('outside_provider_hours')
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(w.day, '19:00') }))).toBe('outside_business_hours')
		expect((await bookAsAnon({ ...w, startsAt: at(w.day, '16:00') })).start_time).toBe('16:00:00')
	})

	test('an identical or overlapping slot of the same provider is taken; another provider or a cancelled slot is free', async () => {
		const w = await bookingWorld()
		const second = await createBookingSetup(w.org)
		const first = await bookAsAnon({ ...w, startsAt: at(w.day, '10:00') })
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(w.day, '10:00') }))).toBe('slot_taken')
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(w.day, '10:15') }))).toBe('slot_taken')
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(w.day, '09:45') }))).toBe('slot_taken')
		expect((await bookAsAnon({ ...w, provider: second.providerId, startsAt: at(w.day, '10:00') })).status).toBe('confirmed')
		await asAnon((trx) => sql`select * from public.cancel_booking(${first.manage_token})`.execute(trx))
		expect((await bookAsAnon({ ...w, startsAt: at(w.day, '10:15') })).status).toBe('confirmed')
	})

	test('the buffer in force is kept on both sides of an appointment', async () => {
		const w = await bookingWorld()
		await setSettings(w.org, { buffer_minutes: 15 })
		await bookAsAnon({ ...w, startsAt: at(w.day, '10:00') }) // 10:00-10:30, blocks until 10:45
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(w.day, '10:30') }))).toBe('slot_taken')
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(w.day, '10:40') }))).toBe('slot_taken')
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(w.day, '09:20') }))).toBe('slot_taken') // would block until 10:05
		expect((await bookAsAnon({ ...w, startsAt: at(w.day, '10:45') })).start_time).toBe('10:45:00')
		expect((await bookAsAnon({ ...w, startsAt: at(w.day, '09:15') })).start_time).toBe('09:15:00')
	})

	test('with buffer 0, back-to-back appointments both succeed', async () => {
		const w = await bookingWorld()
		await bookAsAnon({ ...w, startsAt: at(w.day, '10:00') })
		expect((await bookAsAnon({ ...w, startsAt: at(w.day, '10:30') })).status).toBe('confirmed')
		expect((await bookAsAnon({ ...w, startsAt: at(w.day, '09:30') })).status).toBe('confirmed')
	})

	test('staff may add appointments directly, but the derived fields come from the trigger and overlaps are still refused', async () => {
		const w = await bookingWorld()
		await setSettings(w.org, { buffer_minutes: 5 })
		const row = await asUser(w.owner.userId, (trx) =>
			trx
				.insertInto('booking_appointments')
				.values({
					organization_id: w.org,
					service_id: w.service,
					provider_id: w.provider,
					starts_at: at(w.day, '13:00'),
					ends_at: at(w.day, '13:30'),
					status: 'confirmed',
					guest_name: 'Phone booking',
					guest_email: 'phone@example.com',
					total_price: 45,
				})
				.returning(['appointment_date', 'start_time', 'end_time', 'buffer_minutes'])
				.executeTakeFirstOrThrow(),
		)
		expect(row).toEqual({ appointment_date: w.day, start_time: '13:00:00', end_time: '13:30:00', buffer_minutes: 5 })
		expect(
			await refusal(
				asUser(w.owner.userId, (trx) =>
					trx
						.insertInto('booking_appointments')
						.values({
							organization_id: w.org,
							starts_at: at(w.day, '14:00'),
							ends_at: at(w.day, '14:30'),
							guest_name: 'Forged',
							guest_email: 'f@example.com',
							appointment_date: '2000-01-01',
						})
						.execute(),
				),
			),
		).toBe('42501')
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(w.day, '13:30') }))).toBe('slot_taken')
	})

	test('a visitor cannot write an appointment directly', async () => {
		const w = await bookingWorld()
		expect(
			await refusal(
				asAnon((trx) =>
					trx
						.insertInto('booking_appointments')
						.values({
							organization_id: w.org,
							service_id: w.service,
							provider_id: w.provider,
							starts_at: at(w.day, '10:00'),
							ends_at: at(w.day, '10:30'),
							guest_name: 'Anon',
							guest_email: 'a@example.com',
						})
						.execute(),
				),
			),
		).toBe('42501')
	})
})

describe('a booking by its token', () => {
	test('shows the booking to whoever holds the token, and nothing for a wrong token', async () => {
		const w = await bookingWorld()
		const booked = await bookAsAnon({ ...w, startsAt: at(w.day, '11:00') })
		const found = await asAnon((trx) => sql`select * from public.get_public_booking(${booked.manage_token})`.execute(trx))
		expect(found.rows).toEqual([
			expect.objectContaining({
				id: booked.id,
				status: 'confirmed',
				service_name: 'Consultation',
				provider_name: 'Dr. Rivera',
				guest_name: 'Maria Lopez',
				organization_name: 'Booking Owner',
				duration_minutes: 30,
				cancellable_until: new Date(new Date(at(w.day, '11:00')).getTime() - 24 * 3_600_000),
			}),
		])
		for (const token of ['0'.repeat(64), booked.manage_token.slice(0, 63), '', "' or 1=1 --"]) {
			const none = await asAnon((trx) => sql`select * from public.get_public_booking(${token})`.execute(trx))
			expect(none.rows).toEqual([])
		}
	})

	test('cancels once, outside the cancellation window only', async () => {
		const w = await bookingWorld()
		const booked = await bookAsAnon({ ...w, startsAt: at(w.day, '11:00') })
		const cancel = (token: string) =>
			asAnon((trx) => sql<{ id: string; status: string }>`select * from public.cancel_booking(${token})`.execute(trx))
		expect((await cancel(booked.manage_token)).rows).toEqual([{ id: booked.id, status: 'cancelled' }])
		expect(await refusal(cancel(booked.manage_token))).toBe('already_cancelled')
		expect(await refusal(cancel('f'.repeat(64)))).toBe('booking_not_found')
		expect(await refusal(cancel('not a token'))).toBe('booking_not_found')

		const late = await bookAsAnon({ ...w, startsAt: at(w.day, '12:00') })
		await setSettings(w.org, { cancellation_hours: 24 * 30 })
		expect(await refusal(cancel(late.manage_token))).toBe('too_late_to_cancel')
		const status = await asSystem((trx) =>
			trx.selectFrom('booking_appointments').select('status').where('id', '=', late.id).executeTakeFirstOrThrow(),
		)
		expect(status.status).toBe('confirmed')
	})
})

function staffBook(userId: string, b: BookingInput) {
	return asUser(userId, (trx) =>
		sql<{ id: string }>`select public.staff_create_booking(
			${b.org}, ${b.service}, ${b.provider}, ${b.startsAt}::timestamptz,
			${b.name ?? 'Walk-in Client'}, ${b.email ?? 'walkin@example.com'}, ${b.phone ?? null}, ${b.notes ?? null}) as id`
			.execute(trx)
			.then((r) => r.rows[0]!.id),
	)
}

describe('staff_create_booking', () => {
	test('books a confirmed appointment with the same checks, inside the minimum notice, for members only', async () => {
		const w = await bookingWorld()
		// Two weeks' notice: every day this test books on is inside it, whatever weekday today is.
		await setSettings(w.org, { min_advance_hours: 24 * 14, auto_confirm: false, allow_guest_booking: false })
		const soon = weekdayAfter(w.day)
		const id = await staffBook(w.owner.userId, { ...w, startsAt: at(soon, '10:00') })
		const row = await asSystem((trx) =>
			trx
				.selectFrom('booking_appointments')
				.select(['status', 'total_price', 'manage_token_hash'])
				.where('id', '=', id)
				.executeTakeFirstOrThrow(),
		)
		expect(row).toEqual({ status: 'confirmed', total_price: '45.00', manage_token_hash: null })
		expect(await refusal(staffBook(w.owner.userId, { ...w, startsAt: at(w.day, '10:00') }))).toBeNull()
		expect(await refusal(staffBook(w.owner.userId, { ...w, startsAt: at(w.day, '10:15') }))).toBe('slot_taken')
		expect(await refusal(staffBook(w.owner.userId, { ...w, startsAt: at(w.day, '08:00') }))).toBe('outside_business_hours')
		expect(await refusal(staffBook(w.owner.userId, { ...w, startsAt: at('2020-01-06', '10:00') }))).toBe('too_soon')
		const outsider = await createUser('Outsider')
		expect(await refusal(staffBook(outsider.userId, { ...w, startsAt: at(w.day, '11:00') }))).toBe('not_member')
		expect(
			await refusal(
				asAnon((trx) =>
					sql`select public.staff_create_booking(${w.org}, ${w.service}, ${w.provider}, now(), 'x', 'x@example.com')`.execute(trx),
				),
			),
		).toBe('42501')
	})

	test('date overrides close a day or change its hours, for everyone or one provider, on both paths', async () => {
		const w = await bookingWorld()
		const second = await createBookingSetup(w.org)
		const next = weekdayAfter(w.day)
		await asUser(w.owner.userId, (trx) =>
			trx
				.insertInto('booking_date_overrides')
				.values([
					{ organization_id: w.org, date: w.day, closed: true },
					{ organization_id: w.org, provider_id: w.provider, date: next, closed: true },
					{ organization_id: w.org, provider_id: second.providerId, date: next, closed: false, start_time: '13:00', end_time: '15:00' },
				])
				.execute(),
		)
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(w.day, '10:00') }))).toBe('closed_that_day')
		expect(await refusal(staffBook(w.owner.userId, { ...w, startsAt: at(w.day, '10:00') }))).toBe('closed_that_day')
		expect(await refusal(bookAsAnon({ ...w, startsAt: at(next, '10:00') }))).toBe('provider_day_off')
		expect(await refusal(bookAsAnon({ ...w, provider: second.providerId, startsAt: at(next, '10:00') }))).toBe('outside_provider_hours')
		expect((await bookAsAnon({ ...w, provider: second.providerId, startsAt: at(next, '13:00') })).start_time).toBe('13:00:00')
	})

	test("a day off counts the appointments it leaves booked: pending or confirmed, that day, in the override's scope", async () => {
		const w = await bookingWorld()
		const second = await createBookingSetup(w.org)
		// Before 10:00 in Sydney is the day before in UTC: the organization's date is the one counted.
		// No cancellation notice: 09:30 in Sydney two days ahead is under 24 hours away late in the UTC day.
		await setSettings(w.org, { timezone: 'Australia/Sydney', auto_confirm: false, cancellation_hours: 0 })
		await bookAsAnon({ ...w, startsAt: `${w.day} 09:00 Australia/Sydney` })
		await bookAsAnon({ ...w, provider: second.providerId, startsAt: `${w.day} 09:00 Australia/Sydney` })
		const cancelled = await bookAsAnon({ ...w, startsAt: `${w.day} 09:30 Australia/Sydney` })
		await asAnon((trx) => sql`select * from public.cancel_booking(${cancelled.manage_token})`.execute(trx))
		const add = (values: { date: string; provider?: string }) =>
			addDateOverride(w.owner.userId, w.org, { closed: true, note: '', ...values }, '2000-01-01')
		expect(await add({ date: w.day, provider: w.provider })).toEqual({ refused: null, booked: 1 })
		expect(await add({ date: w.day })).toEqual({ refused: null, booked: 2 })
		expect(await add({ date: weekdayAfter(w.day) })).toEqual({ refused: null, booked: 0 })
	})
})

describe('the calendar day', () => {
	test("on the day the clocks go back, every time carries its offset, in the calendar and in the analytics' activity: the repeated 01:30 twice, an end earlier than its start", async () => {
		const w = await bookingWorld()
		await setSettings(w.org, { timezone: 'America/New_York' })
		const insert = (startsAt: string, endsAt: string, name: string) =>
			asSystem((trx) =>
				trx
					.insertInto('booking_appointments')
					.values({
						organization_id: w.org,
						service_id: w.service,
						provider_id: w.provider,
						starts_at: startsAt,
						ends_at: endsAt,
						status: 'confirmed',
						guest_name: name,
						guest_email: 'clock@example.com',
						total_price: 45,
					})
					.execute(),
			)
		// 2026-11-01: 02:00 EDT becomes 01:00 EST.
		await insert('2026-11-01T05:30:00Z', '2026-11-01T06:00:00Z', 'Before the change')
		await insert('2026-11-01T06:30:00Z', '2026-11-01T07:00:00Z', 'After the change')
		await insert('2026-11-02T15:00:00Z', '2026-11-02T15:30:00Z', 'Next day')
		const times = async (day: string) =>
			(await getCalendarView(w.owner.userId, w.org, new URLSearchParams({ day })))!.appointments.map((a) => [
				a.clientName,
				a.startTime,
				a.endTime,
			])
		expect(await times('2026-11-01')).toEqual([
			['Before the change', '01:30 (UTC-04:00)', '01:00 (UTC-05:00)'],
			['After the change', '01:30 (UTC-05:00)', '02:00'],
		])
		expect(await times('2026-11-02')).toEqual([['Next day', '10:00', '10:30']])
		// The analytics' recent activity says the same times.
		const { activity } = await getBookingAnalytics(w.owner.userId, w.org, 'America/New_York', '2026-10-01', '2026-11-30')
		expect(activity.map((e) => [e.client, e.date, e.time]).sort()).toEqual([
			['After the change', '2026-11-01', '01:30 (UTC-05:00)'],
			['Before the change', '2026-11-01', '01:30 (UTC-04:00)'],
			['Next day', '2026-11-02', '10:00'],
		])
	})
})

describe('status changes from the calendar', () => {
	test('completing and marking a no-show wait for the start; confirming and cancelling do not', async () => {
		const w = await bookingWorld()
		const lastWeek = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10)
		const insert = (startsAt: string, endsAt: string, status: 'pending' | 'confirmed') =>
			asSystem((trx) =>
				trx
					.insertInto('booking_appointments')
					.values({
						organization_id: w.org,
						service_id: w.service,
						provider_id: w.provider,
						starts_at: startsAt,
						ends_at: endsAt,
						status,
						guest_name: 'Calendar Client',
						guest_email: 'calendar@example.com',
						total_price: 45,
					})
					.returning('id')
					.executeTakeFirstOrThrow(),
			).then((r) => r.id)
		const ahead = await insert(at(w.day, '09:00'), at(w.day, '09:30'), 'pending')
		const past = await insert(at(lastWeek, '09:00'), at(lastWeek, '09:30'), 'confirmed')
		const change = (id: string, c: Parameters<typeof changeAppointmentStatus>[3]) => changeAppointmentStatus(w.owner.userId, w.org, id, c)
		const statusOf = (id: string) =>
			asSystem((trx) => trx.selectFrom('booking_appointments').select('status').where('id', '=', id).executeTakeFirstOrThrow()).then(
				(r) => r.status,
			)

		expect(await change(ahead, 'complete')).toBe('notStarted')
		expect(await change(ahead, 'no-show')).toBe('notStarted')
		expect(await statusOf(ahead)).toBe('pending')
		expect(await change(ahead, 'confirm')).toBe('done')
		expect(await change(ahead, 'cancel')).toBe('done')
		// Cancelled: nothing more, started or not.
		expect(await change(ahead, 'complete')).toBe('refused')
		expect(await statusOf(ahead)).toBe('cancelled')

		expect(await change(past, 'no-show')).toBe('done')
		expect(await change(past, 'complete')).toBe('refused')
		expect(await statusOf(past)).toBe('no_show')
		// Another organization's appointment is not found, whatever the change.
		const stranger = await createUser('Calendar Stranger')
		expect(await changeAppointmentStatus(stranger.userId, stranger.orgId, past, 'cancel')).toBe('refused')
		expect(await statusOf(past)).toBe('no_show')
	})
})

describe('the active statuses', () => {
	test('the database holds the statuses of app/lib/appointments.ts, and treats as active exactly its active ones', async () => {
		expectTypeOf<AppointmentStatus>().toEqualTypeOf<DbAppointmentStatus>()
		const declared = await asSystem((trx) =>
			sql<{ status: string }>`select unnest(enum_range(null::public.appointment_status))::text as status`.execute(trx),
		)
		expect(declared.rows.map((r) => r.status)).toEqual([...APPOINTMENT_STATUSES])

		// One appointment of each status, an hour apart, each with its manage token.
		const w = await bookingWorld()
		const placed: { status: AppointmentStatus; startsAt: string; token: string }[] = []
		for (const [i, status] of APPOINTMENT_STATUSES.entries()) {
			const startsAt = at(w.day, `${10 + i}:00`)
			const token = createHash('sha256').update(`active-statuses-${w.org}-${status}`).digest('hex')
			await asSystem((trx) =>
				trx
					.insertInto('booking_appointments')
					.values({
						organization_id: w.org,
						service_id: w.service,
						provider_id: w.provider,
						starts_at: startsAt,
						ends_at: at(w.day, `${10 + i}:30`),
						status,
						guest_name: 'Status Client',
						guest_email: `status-${i}@example.com`,
						manage_token_hash: createHash('sha256').update(token).digest('hex'),
					})
					.execute(),
			)
			placed.push({ status, startsAt, token })
		}
		const activeBy = async (holds: (p: (typeof placed)[number]) => Promise<boolean>) => {
			const active: AppointmentStatus[] = []
			for (const p of placed) if (await holds(p)) active.push(p.status)
			return active
		}

		// The public pages' busy times list it.
		const busy = await asAnon((trx) =>
			sql<{ ms: number }>`select (extract(epoch from b.busy_from) * 1000)::float8 as ms
			from public.get_public_busy_ranges(${w.org}, ${w.day}::date, ${w.day}::date) b`.execute(trx),
		)
		const busyStarts = new Set(busy.rows.map((r) => Number(r.ms)))
		expect(await activeBy(async (p) => busyStarts.has(Date.parse(p.startsAt)))).toEqual([...ACTIVE_STATUSES])
		// A booking at its time is refused as taken (the overlap constraint).
		expect(
			await activeBy(
				async (p) => (await refusal(bookAsAnon({ ...w, startsAt: p.startsAt, email: `over-${p.status}@example.com` }))) === 'slot_taken',
			),
		).toEqual([...ACTIVE_STATUSES])
		// Its guest may still cancel it.
		expect(
			await activeBy(
				async (p) => (await refusal(asAnon((trx) => sql`select * from public.cancel_booking(${p.token})`.execute(trx)))) === null,
			),
		).toEqual([...ACTIVE_STATUSES])
	})
})
