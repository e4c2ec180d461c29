/**
 * The staff calendar's week view and provider filter (docs/product.md, Booking › Week view), read
 * through `getCalendarView` as the route's loader does, on both databases.
 */
import { describe, expect, test } from 'vitest'
import { getCalendarView } from '#app/.server/booking/calendar.ts'
import { asSystem } from '#app/.server/db/index.ts'
import type { AppointmentStatus } from '#app/lib/appointments.ts'
import { createBookingSetup, createUser } from './fixtures.ts'

async function calendarWorld(timezone = 'UTC') {
	const owner = await createUser('Calendar Owner')
	const { serviceId, providerId } = await createBookingSetup(owner.orgId)
	const second = await asSystem(async (trx) => {
		await trx.updateTable('booking_settings').set({ timezone }).where('organization_id', '=', owner.orgId).execute()
		return trx
			.insertInto('booking_providers')
			.values({ organization_id: owner.orgId, display_name: 'Blake' })
			.returning('id')
			.executeTakeFirstOrThrow()
	})
	const insert = (provider: string, startsAt: string, endsAt: string, name: string, status: AppointmentStatus = 'confirmed') =>
		asSystem((trx) =>
			trx
				.insertInto('booking_appointments')
				.values({
					organization_id: owner.orgId,
					service_id: serviceId,
					provider_id: provider,
					starts_at: startsAt,
					ends_at: endsAt,
					status,
					guest_name: name,
					guest_email: 'week@example.com',
				})
				.execute(),
		)
	const view = async (query: string) => (await getCalendarView(owner.userId, owner.orgId, new URLSearchParams(query)))!
	return { owner, alex: providerId, blake: second.id, insert, view }
}

describe('the week view', () => {
	test('on the week the clocks go back, the 01:30 that happens twice is two blocks side by side, their times with their offsets', async () => {
		const w = await calendarWorld('America/New_York')
		// 2026-11-01: 02:00 EDT becomes 01:00 EST.
		await w.insert(w.alex, '2026-11-01T05:30:00Z', '2026-11-01T06:00:00Z', 'Before the change')
		await w.insert(w.blake, '2026-11-01T06:30:00Z', '2026-11-01T07:00:00Z', 'After the change')
		await w.insert(w.alex, '2026-10-28T14:00:00Z', '2026-10-28T14:30:00Z', 'Wednesday')
		await w.insert(w.alex, '2026-11-02T15:00:00Z', '2026-11-02T15:30:00Z', 'Next week')

		const { grid, mode, week } = await w.view('view=week&day=2026-10-28')
		expect(mode).toBe('week')
		expect(week).toEqual(['2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29', '2026-10-30', '2026-10-31', '2026-11-01'])
		expect(grid!.days.map((d) => d.date)).toEqual(week)
		// From 01:00 (the earliest block) to 17:00 (the business hours' closing).
		expect([grid!.from, grid!.to]).toEqual([60, 1020])
		const sunday = grid!.days[6]!.blocks
		expect(sunday.map((b) => [b.clientName, b.startTime, b.endTime, b.lane, b.lanes])).toEqual([
			['Before the change', '01:30 (UTC-04:00)', '01:00 (UTC-05:00)', 0, 2],
			['After the change', '01:30 (UTC-05:00)', '02:00', 1, 2],
		])
		expect(sunday[0]!.top).toBe(sunday[1]!.top)
		// 30 minutes of the 16 hours each, the first not shrunk to nothing by its end reading earlier.
		for (const b of sunday) expect(b.height).toBeCloseTo((30 / 960) * 100)
		const wednesday = grid!.days[2]!.blocks
		expect(wednesday.map((b) => [b.clientName, b.startTime, b.endTime])).toEqual([['Wednesday', '10:00', '10:30']])
		expect(wednesday[0]!.top).toBeCloseTo((540 / 960) * 100)
		expect(grid!.days.flatMap((d) => d.blocks).map((b) => b.clientName)).not.toContain('Next week')

		// The day view of that Sunday says the same times.
		const day = await w.view('day=2026-11-01')
		expect(day.grid).toBeNull()
		expect(day.appointments.map((a) => [a.clientName, a.startTime, a.endTime])).toEqual([
			['Before the change', '01:30 (UTC-04:00)', '01:00 (UTC-05:00)'],
			['After the change', '01:30 (UTC-05:00)', '02:00'],
		])
	})

	test('a provider filter keeps the grid, the day list and the week counts to that provider; a cancelled appointment stays out of the grid', async () => {
		const w = await calendarWorld()
		await w.insert(w.alex, '2030-01-07T10:00:00Z', '2030-01-07T10:30:00Z', 'Alex Monday')
		await w.insert(w.blake, '2030-01-07T11:00:00Z', '2030-01-07T11:30:00Z', 'Blake Monday')
		await w.insert(w.blake, '2030-01-08T09:00:00Z', '2030-01-08T09:30:00Z', 'Blake Tuesday', 'cancelled')
		const names = (v: Awaited<ReturnType<typeof w.view>>) => v.grid!.days.flatMap((d) => d.blocks.map((b) => b.clientName))

		const everyone = await w.view('view=week&day=2030-01-09')
		expect(everyone.provider).toBeNull()
		expect(names(everyone)).toEqual(['Alex Monday', 'Blake Monday'])
		expect(everyone.counts).toEqual({ '2030-01-07': 2 })
		expect(everyone.providers.map((p) => p.name)).toEqual(['Blake', 'Dr. Rivera'])

		const blake = await w.view(`view=week&day=2030-01-09&provider=${w.blake}`)
		expect(blake.provider).toBe(w.blake)
		expect(names(blake)).toEqual(['Blake Monday'])
		expect(blake.counts).toEqual({ '2030-01-07': 1 })
		const tuesday = await w.view(`day=2030-01-08&provider=${w.blake}`)
		expect(tuesday.appointments.map((a) => [a.clientName, a.status])).toEqual([['Blake Tuesday', 'cancelled']])
		expect((await w.view(`day=2030-01-07&provider=${w.alex}`)).appointments.map((a) => a.clientName)).toEqual(['Alex Monday'])
	})

	test('a provider that is not one of the organization’s (another’s, unknown, not an id) filters nothing and reads nothing of theirs', async () => {
		const w = await calendarWorld()
		const other = await calendarWorld()
		await w.insert(w.alex, '2030-01-07T10:00:00Z', '2030-01-07T10:30:00Z', 'Ours')
		await other.insert(other.alex, '2030-01-07T12:00:00Z', '2030-01-07T12:30:00Z', 'Theirs')
		for (const provider of [other.alex, '00000000-0000-4000-8000-000000000000', 'not-an-id', "' or 1=1 --"]) {
			const view = await w.view(`view=week&day=2030-01-07&provider=${encodeURIComponent(provider)}`)
			expect(view.provider, provider).toBeNull()
			expect(view.grid!.days[0]!.blocks.map((b) => b.clientName)).toEqual(['Ours'])
			expect(view.providers.map((p) => p.id)).not.toContain(other.alex)
		}
	})
})
