import { TZDate } from '@date-fns/tz'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
	availabilityOf,
	computeAvailability,
	daysWithSlots,
	DEFAULT_BUSINESS_HOURS,
	isSlotAvailable,
	MAX_LISTED_DAYS,
	parseWeeklyHours,
	slotsByTime,
	slotsForProvider,
	WEEKDAYS,
	type AvailabilityInput,
	type BusyAppointment,
	type WeeklyHours,
} from '#app/lib/availability.ts'

const NY = 'America/New_York'
/** The timezones booking_settings accepts. */
const ZONES = [
	'UTC',
	NY,
	'America/Chicago',
	'America/Denver',
	'America/Los_Angeles',
	'Europe/London',
	'Europe/Paris',
	'Asia/Tokyo',
	'Australia/Sydney',
]

/** The UTC instant (ISO) of a wall-clock time in a timezone, e.g. at('2026-11-23 09:00'). */
function at(local: string, tz = NY): string {
	const [y, mo, d, h, mi] = local.split(/[- :]/).map(Number) as [number, number, number, number, number]
	return new Date(+new TZDate(y, mo - 1, d, h, mi, tz)).toISOString()
}

function everyDay(start: string, end: string): WeeklyHours {
	return Object.fromEntries(WEEKDAYS.map((day) => [day, { start, end, enabled: true }])) as WeeklyHours
}

// Monday 2026-11-23 in New York (UTC-05:00); "now" is the Friday before, at noon.
const MONDAY = '2026-11-23'
const base: AvailabilityInput = {
	now: at('2026-11-20 12:00'),
	timezone: NY,
	settings: { minAdvanceHours: 1, maxAdvanceDays: 30, bufferMinutes: 0, businessHours: DEFAULT_BUSINESS_HOURS },
	service: { durationMinutes: 30 },
	providers: [{ id: 'ana' }, { id: 'ben' }],
	appointments: [],
	overrides: [],
}

function day(input: Partial<AvailabilityInput>, date = MONDAY) {
	const [only] = computeAvailability({ ...base, ...input, fromDate: date, days: 1 })
	return only!
}

const times = (input: Partial<AvailabilityInput>, date = MONDAY, provider?: string) =>
	day(input, date)
		.slots.filter((s) => provider === undefined || s.providerIds.includes(provider))
		.map((s) => s.time)

const booked = (providerId: string, from: string, to: string, extra: Partial<BusyAppointment> = {}): BusyAppointment => ({
	providerId,
	startsAt: at(from),
	endsAt: at(to),
	...extra,
})

describe('the slot grid', () => {
	test('a weekday from 09:00 to 17:00 with a 30-minute service has 16 slots, the last ending at 17:00', () => {
		const { slots, weekday } = day({})
		expect(weekday).toBe('monday')
		expect(slots).toHaveLength(16)
		expect(slots[0]).toMatchObject({
			start: '2026-11-23T14:00:00.000Z',
			end: '2026-11-23T14:30:00.000Z',
			date: MONDAY,
			time: '09:00',
			endTime: '09:30',
			offset: '-05:00',
			repeated: false,
			label: '09:00',
			providerIds: ['ana', 'ben'],
		})
		expect(slots.at(-1)).toMatchObject({ time: '16:30', endTime: '17:00', end: at('2026-11-23 17:00') })
	})

	test('a 45-minute service steps by 45 minutes and never runs past closing time', () => {
		expect(times({ service: { durationMinutes: 45 } })).toEqual([
			'09:00',
			'09:45',
			'10:30',
			'11:15',
			'12:00',
			'12:45',
			'13:30',
			'14:15',
			'15:00',
			'15:45',
		])
	})

	test('disabled weekdays have no slots: a week lists Monday to Friday only', () => {
		const week = computeAvailability({ ...base, fromDate: '2026-11-23', days: 7 })
		expect(week.map((d) => d.weekday)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
		expect(daysWithSlots(week)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'])
		expect(week[5]!.slots).toEqual([])
	})

	test('a closing time of 24:00 allows a slot ending at midnight', () => {
		expect(times({ settings: { ...base.settings, businessHours: everyDay('22:00', '24:00') } })).toEqual([
			'22:00',
			'22:30',
			'23:00',
			'23:30',
		])
		expect(day({ settings: { ...base.settings, businessHours: everyDay('22:00', '24:00') } }).slots.at(-1)!.endTime).toBe('00:00')
	})
})

describe('daylight saving in America/New_York, hours 00:00 to 04:00', () => {
	const night = { settings: { ...base.settings, businessHours: everyDay('00:00', '04:00') }, now: at('2026-03-01 12:00') }

	test('on 8 March 2026 the missing 02:00 hour yields no slot, and 01:30 ends at 03:00', () => {
		const { slots } = day(night, '2026-03-08')
		expect(slots.map((s) => s.label)).toEqual(['00:00', '00:30', '01:00', '01:30', '03:00', '03:30'])
		expect(slots.map((s) => s.offset)).toEqual(['-05:00', '-05:00', '-05:00', '-05:00', '-04:00', '-04:00'])
		expect(slots[3]).toMatchObject({ start: '2026-03-08T06:30:00.000Z', end: '2026-03-08T07:00:00.000Z', endTime: '03:00' })
		expect(slots[4]!.start).toBe('2026-03-08T07:00:00.000Z')
	})

	test('on 8 March an hour-long service starts at 00:00, 01:00 and 03:00', () => {
		expect(times({ ...night, service: { durationMinutes: 60 } }, '2026-03-08')).toEqual(['00:00', '01:00', '03:00'])
	})

	test('on 1 November 2026 the repeated 01:00 hour yields both instants, each labelled with its offset', () => {
		const now = at('2026-10-25 12:00')
		const { slots } = day({ ...night, now }, '2026-11-01')
		expect(slots.map((s) => s.label)).toEqual([
			'00:00',
			'00:30',
			'01:00 (UTC-04:00)',
			'01:30 (UTC-04:00)',
			'01:00 (UTC-05:00)',
			'01:30 (UTC-05:00)',
			'02:00',
			'02:30',
			'03:00',
			'03:30',
		])
		expect(slots.filter((s) => s.repeated).map((s) => s.start)).toEqual([
			'2026-11-01T05:00:00.000Z',
			'2026-11-01T05:30:00.000Z',
			'2026-11-01T06:00:00.000Z',
			'2026-11-01T06:30:00.000Z',
		])
		// Every slot is its own instant, in time order, lasting exactly the service's duration.
		const starts = slots.map((s) => Date.parse(s.start))
		expect(starts).toEqual([...starts].sort((a, b) => a - b))
		expect(new Set(starts).size).toBe(starts.length)
		for (const s of slots) expect(Date.parse(s.end) - Date.parse(s.start)).toBe(30 * 60_000)
	})

	test('09:00 stays 09:00 on the weekdays either side of both changes', () => {
		for (const date of ['2026-03-06', '2026-03-09', '2026-10-30', '2026-11-02']) {
			const { slots } = computeAvailability({
				...base,
				now: at('2026-03-01 12:00'),
				settings: { ...base.settings, maxAdvanceDays: 365 },
				fromDate: date,
				days: 1,
			})[0]!
			expect(slots[0]!.time).toBe('09:00')
			expect(slots[0]!.start).toBe(at(`${date} 09:00`))
		}
	})

	test('in every accepted timezone, through a whole year, each slot is the local date and time it claims, its instants in canonical ISO form', () => {
		const formatters = new Map(
			ZONES.map((tz) => [
				tz,
				new Intl.DateTimeFormat('en-CA', {
					timeZone: tz,
					hourCycle: 'h23',
					year: 'numeric',
					month: '2-digit',
					day: '2-digit',
					hour: '2-digit',
					minute: '2-digit',
				}),
			]),
		)
		const local = (tz: string, iso: string) => formatters.get(tz)!.format(new Date(iso)).replace(', ', ' ')
		for (const tz of ZONES) {
			const year = computeAvailability({
				...base,
				timezone: tz,
				now: '2026-01-01T00:00:00Z',
				settings: { ...base.settings, minAdvanceHours: 0, maxAdvanceDays: 400, businessHours: everyDay('00:00', '24:00') },
				service: { durationMinutes: 60 },
				fromDate: '2026-01-02',
				days: 365,
			})
			let previous = -Infinity
			const wrong: string[] = []
			const lengths = new Set<number>()
			for (const d of year) {
				lengths.add(d.slots.length)
				for (const s of d.slots) {
					const start = Date.parse(s.start)
					const canonical = new Date(start).toISOString() === s.start && new Date(s.end).toISOString() === s.end
					if (!canonical || local(tz, s.start) !== `${s.date} ${s.time}` || Date.parse(s.end) - start !== 3_600_000 || start <= previous)
						wrong.push(`${tz} ${s.date} ${s.label} ${s.start}`)
					previous = start
				}
			}
			expect(wrong).toEqual([])
			// 24 wall hours; 23 on the day that skips one, 25 on the day that repeats one.
			expect([...lengths].sort()).toEqual(tz === 'UTC' || tz === 'Asia/Tokyo' ? [24] : [23, 24, 25])
		}
	}, 60_000)
})

describe('notice and horizon', () => {
	test('a start at least min_advance_hours from now is offered, an earlier one is not', () => {
		expect(times({ now: at('2026-11-23 10:10'), settings: { ...base.settings, minAdvanceHours: 2 } })[0]).toBe('12:30')
		// Exactly min_advance_hours ahead is allowed, as in create_booking.
		expect(times({ now: at('2026-11-23 10:00'), settings: { ...base.settings, minAdvanceHours: 2 } })[0]).toBe('12:00')
	})

	test('nothing is offered before today, and today has only what remains of it', () => {
		const days = computeAvailability({ ...base, now: at('2026-11-23 15:00'), fromDate: '2026-11-22', days: 2 })
		expect(days[0]!.slots).toEqual([])
		expect(days[1]!.slots.map((s) => s.time)).toEqual(['16:00', '16:30'])
	})

	test('the last bookable day is max_advance_days ahead, and its starts are at most max_advance_days × 24 h from now', () => {
		const input = { ...base, now: at('2026-11-23 12:00'), settings: { ...base.settings, minAdvanceHours: 0, maxAdvanceDays: 3 } }
		const days = computeAvailability(input)
		expect(days.map((d) => d.date)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26'])
		expect(days[3]!.slots.map((s) => s.time)).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00'])
		expect(computeAvailability({ ...input, fromDate: '2026-11-27', days: 3 }).every((d) => d.slots.length === 0)).toBe(true)
	})

	test('a horizon of years lists at most MAX_LISTED_DAYS dates, and asking for more is refused', () => {
		const far = { ...base, settings: { ...base.settings, maxAdvanceDays: 5000 } }
		expect(computeAvailability(far)).toHaveLength(MAX_LISTED_DAYS)
		expect(() => computeAvailability({ ...far, days: MAX_LISTED_DAYS + 1 })).toThrow(RangeError)
	})
})

describe('providers: appointments, buffer, own hours', () => {
	test('a provider is busy during a pending or confirmed appointment; a back-to-back start is free', () => {
		const appointments = [booked('ana', '2026-11-23 11:00', '2026-11-23 11:30', { status: 'confirmed' })]
		const ana = times({ appointments }, MONDAY, 'ana')
		expect(ana).toContain('10:30')
		expect(ana).not.toContain('11:00')
		expect(ana).toContain('11:30')
		expect(times({ appointments }, MONDAY, 'ben')).toHaveLength(16)
	})

	test('cancelled, completed and no-show appointments block nothing', () => {
		for (const status of ['cancelled', 'completed', 'no_show']) {
			expect(times({ appointments: [booked('ana', '2026-11-23 11:00', '2026-11-23 11:30', { status })] }, MONDAY, 'ana')).toHaveLength(16)
		}
		expect(
			times({ appointments: [booked('ana', '2026-11-23 11:00', '2026-11-23 11:30', { status: 'pending' })] }, MONDAY, 'ana'),
		).toHaveLength(15)
	})

	test('the buffer keeps buffer_minutes free after every appointment, the existing one and the new one', () => {
		const appointments = [booked('ana', '2026-11-23 11:00', '2026-11-23 11:30')]
		const ana = times({ appointments, settings: { ...base.settings, bufferMinutes: 15 } }, MONDAY, 'ana')
		// 10:30 would end at 11:00 plus 15 minutes of buffer; 11:30 starts inside 11:00's buffer.
		expect(ana.filter((t) => t >= '10:00' && t <= '12:00')).toEqual(['10:00', '12:00'])
	})

	test("an appointment blocks until its own buffer_ends_at (the buffer in force when it was booked), the new slot's buffer is today's", () => {
		// Booked with no buffer; the buffer is now 15 minutes.
		const appointments = [booked('ana', '2026-11-23 11:00', '2026-11-23 11:30', { bufferEndsAt: at('2026-11-23 11:30') })]
		const ana = times({ appointments, settings: { ...base.settings, bufferMinutes: 15 } }, MONDAY, 'ana')
		expect(ana.filter((t) => t >= '10:00' && t <= '12:00')).toEqual(['10:00', '11:30', '12:00'])
	})

	test('a fully booked day has slots with no provider, and no wizard mode offers them', () => {
		const appointments = [booked('ana', '2026-11-23 08:00', '2026-11-23 18:00'), booked('ben', '2026-11-23 09:00', '2026-11-23 17:00')]
		const days = computeAvailability({ ...base, appointments, fromDate: MONDAY, days: 2 })
		expect(days[0]!.slots).toHaveLength(16)
		expect(days[0]!.slots.every((s) => s.providerIds.length === 0)).toBe(true)
		expect(daysWithSlots(days)).toEqual(['2026-11-24'])
		expect(slotsByTime(days)[0]!.date).toBe('2026-11-24')
		expect(slotsForProvider(days, 'ana')[0]!.date).toBe('2026-11-24')
	})

	test("a provider's own hours narrow the organization's, never widen them", () => {
		const hours = {
			...DEFAULT_BUSINESS_HOURS,
			monday: { start: '10:00', end: '12:00', enabled: true },
			tuesday: { start: '07:00', end: '20:00', enabled: true },
			wednesday: { start: '09:00', end: '17:00', enabled: false },
		}
		const providers = [{ id: 'ana' }, { id: 'ben', hours }]
		expect(times({ providers }, MONDAY, 'ben')).toEqual(['10:00', '10:30', '11:00', '11:30'])
		expect(times({ providers }, '2026-11-24', 'ben')).toEqual(times({ providers }, '2026-11-24', 'ana'))
		expect(times({ providers }, '2026-11-25', 'ben')).toEqual([])
		expect(times({ providers }, '2026-11-25', 'ana')).toHaveLength(16)
	})

	test('the wizard shows at most 6 slots of one provider and at most 12 slots by time, each with its provider count', () => {
		const appointments = [booked('ben', '2026-11-23 09:00', '2026-11-23 10:00')]
		const days = computeAvailability({ ...base, appointments, fromDate: MONDAY, days: 7 })
		expect(slotsForProvider(days, 'ben', 6).map((s) => s.time)).toEqual(['10:00', '10:30', '11:00', '11:30', '12:00', '12:30'])
		const byTime = slotsByTime(days, 12)
		expect(byTime).toHaveLength(12)
		expect(byTime.slice(0, 3).map((s) => [s.time, s.count, s.providerIds])).toEqual([
			['09:00', 1, ['ana']],
			['09:30', 1, ['ana']],
			['10:00', 2, ['ana', 'ben']],
		])
	})
})

describe('date overrides', () => {
	test('a day off for the organization closes the day for everyone', () => {
		const overrides = [{ date: MONDAY, providerId: null, closed: true }]
		expect(day({ overrides }).slots).toEqual([])
		expect(times({ overrides }, '2026-11-24')).toHaveLength(16)
	})

	test('a day off for one provider leaves the others available', () => {
		const overrides = [{ date: MONDAY, providerId: 'ana', closed: true }]
		expect(times({ overrides }, MONDAY, 'ana')).toEqual([])
		expect(times({ overrides }, MONDAY, 'ben')).toHaveLength(16)
	})

	test("special hours replace the organization's hours of that day, and can open a closed weekday", () => {
		expect(times({ overrides: [{ date: MONDAY, providerId: null, closed: false, start: '12:00', end: '14:00' }] })).toEqual([
			'12:00',
			'12:30',
			'13:00',
			'13:30',
		])
		expect(
			times({ overrides: [{ date: '2026-11-28', providerId: null, closed: false, start: '10:00', end: '11:00' }] }, '2026-11-28'),
		).toEqual(['10:00', '10:30'])
	})

	test("a provider's special hours replace their weekly hours that day, inside the organization's", () => {
		const hours = { ...DEFAULT_BUSINESS_HOURS, monday: { start: '10:00', end: '12:00', enabled: true } }
		const overrides = [{ date: MONDAY, providerId: 'ben', closed: false, start: '15:00', end: '18:00' }]
		expect(times({ providers: [{ id: 'ana' }, { id: 'ben', hours }], overrides }, MONDAY, 'ben')).toEqual([
			'15:00',
			'15:30',
			'16:00',
			'16:30',
		])
	})

	test('several special-hours rows are several periods, and a closed row wins over them', () => {
		const split = [
			{ date: MONDAY, providerId: null, closed: false, start: '14:00', end: '15:00' },
			{ date: MONDAY, providerId: null, closed: false, start: '09:00', end: '10:00' },
		]
		expect(times({ overrides: split })).toEqual(['09:00', '09:30', '14:00', '14:30'])
		expect(times({ overrides: [...split, { date: MONDAY, providerId: null, closed: true }] })).toEqual([])
	})

	test('an unknown timezone or a nonsense duration is refused loudly', () => {
		expect(() => day({ timezone: 'Mars/Olympus_Mons' })).toThrow(RangeError)
		expect(() => day({ service: { durationMinutes: 0 } })).toThrow(RangeError)
		expect(() => day({ service: { durationMinutes: 12.5 } })).toThrow(RangeError)
	})

	test('an override with invalid hours is refused loudly', () => {
		expect(() => day({ overrides: [{ date: MONDAY, providerId: null, closed: false, start: '14:00', end: '13:00' }] })).toThrow(RangeError)
		expect(() => day({ overrides: [{ date: '2026-02-30', providerId: null, closed: true }] })).toThrow(RangeError)
	})
})

describe('isSlotAvailable, the server check on a requested start', () => {
	const check = (start: string, providerId = 'ana', input: Partial<AvailabilityInput> = {}) =>
		isSlotAvailable({ ...base, ...input, providerId, start })

	test('accepts a listed start and returns its slot', () => {
		const result = check(at('2026-11-23 09:30'))
		expect(result).toMatchObject({ ok: true, slot: { time: '09:30', end: at('2026-11-23 10:00'), providerIds: ['ana'] } })
	})

	test('refuses a start off the grid, outside hours, on a day off, past, too soon, too far ahead, taken, or nonsense', () => {
		const taken = { appointments: [booked('ana', '2026-11-23 11:00', '2026-11-23 11:30')] }
		expect(check(at('2026-11-23 09:10'))).toEqual({ ok: false, reason: 'off_grid' })
		expect(check('2026-11-23T14:00:30.000Z')).toEqual({ ok: false, reason: 'off_grid' })
		expect(check(at('2026-11-23 16:45'))).toEqual({ ok: false, reason: 'outside_business_hours' })
		expect(check(at('2026-11-23 18:00'))).toEqual({ ok: false, reason: 'outside_business_hours' })
		expect(check(at('2026-11-28 10:00'))).toEqual({ ok: false, reason: 'outside_business_hours' })
		expect(check(at('2026-11-23 10:00'), 'ana', { overrides: [{ date: MONDAY, providerId: 'ana', closed: true }] })).toEqual({
			ok: false,
			reason: 'outside_business_hours',
		})
		expect(check(at('2026-11-19 10:00'))).toEqual({ ok: false, reason: 'in_past' })
		expect(check(at('2026-11-20 12:30'))).toEqual({ ok: false, reason: 'too_soon' })
		expect(check(at('2026-12-21 10:00'))).toEqual({ ok: false, reason: 'too_far_ahead' })
		expect(check(at('2026-11-23 11:00'), 'ana', taken)).toEqual({ ok: false, reason: 'slot_taken' })
		expect(check(at('2026-11-23 11:00'), 'ben', taken)).toMatchObject({ ok: true })
		expect(check(at('2026-11-23 10:00'), 'zoe')).toEqual({ ok: false, reason: 'provider_unavailable' })
		expect(check('tomorrow at ten')).toEqual({ ok: false, reason: 'invalid_start' })
	})

	test('accepts exactly the starts the listing offers, for any 5-minute start, on ordinary and daylight-saving days', () => {
		const ids = ['ana', 'ben', 'cy']
		const appointment = fc.record({
			provider: fc.constantFrom(...ids),
			minute: fc.integer({ min: 0, max: 2 * 24 * 12 }).map((n) => n * 5),
			length: fc.integer({ min: 1, max: 24 }).map((n) => n * 5),
			buffer: fc.option(fc.integer({ min: 0, max: 6 }).map((n) => n * 5)),
		})
		fc.assert(
			fc.property(
				fc.constantFrom('2026-03-08', '2026-11-01', '2026-11-22'),
				fc.constantFrom(15, 30, 45, 60, 90),
				fc.integer({ min: 0, max: 6 }).map((n) => n * 5),
				fc.array(appointment, { maxLength: 12 }),
				fc.boolean(),
				(first, duration, buffer, rows, narrow) => {
					const origin = Date.parse(at(`${first} 00:00`))
					const input: AvailabilityInput = {
						...base,
						now: new Date(origin - 6 * 3_600_000),
						settings: {
							...base.settings,
							bufferMinutes: buffer,
							businessHours: {
								...everyDay('00:00', '04:00'),
								monday: { start: '08:00', end: '17:30', enabled: true },
								tuesday: { start: '09:00', end: '17:00', enabled: false },
							},
						},
						service: { durationMinutes: duration },
						providers: [{ id: 'ana' }, { id: 'ben', hours: narrow ? everyDay('01:00', '03:00') : null }, { id: 'cy' }],
						appointments: rows.map((r) => {
							const startsAt = origin + r.minute * 60_000
							const endsAt = startsAt + r.length * 60_000
							return {
								providerId: r.provider,
								startsAt: new Date(startsAt),
								endsAt: new Date(endsAt),
								bufferEndsAt: r.buffer === null ? null : new Date(endsAt + r.buffer * 60_000),
							}
						}),
						overrides: [{ date: first, providerId: 'cy', closed: false, start: '00:30', end: '02:30' }],
					}
					const listed = new Set<string>()
					for (const d of computeAvailability({ ...input, fromDate: first, days: 2 })) {
						for (const s of d.slots) for (const id of s.providerIds) listed.add(`${id} ${s.start}`)
					}
					// A Sunday open 00:00–04:00 (a daylight-saving day for two of the three) and a
					// Monday open 08:00–17:30, with an hour either side of each.
					const range = (from: number, to: number) => Array.from({ length: (to - from) / 5 }, (_, i) => from + i * 5)
					const minutes = [...range(-60, 5 * 60), ...range(24 * 60 + 6 * 60, 24 * 60 + 19 * 60 + 30)]
					for (const minute of minutes) {
						const start = new Date(origin + minute * 60_000).toISOString()
						for (const id of ids) {
							expect(isSlotAvailable({ ...input, providerId: id, start }).ok).toBe(listed.has(`${id} ${start}`))
						}
					}
				},
			),
			{ numRuns: 20 },
		)
	}, 60_000)

	test('a provider listed as free is never inside an appointment widened by the buffer', () => {
		fc.assert(
			fc.property(
				fc.array(fc.record({ minute: fc.integer({ min: 0, max: 600 }), length: fc.integer({ min: 5, max: 120 }) }), { maxLength: 15 }),
				fc.integer({ min: 0, max: 30 }),
				(rows, buffer) => {
					const origin = Date.parse(at(`${MONDAY} 08:00`))
					const appointments = rows.map((r) => ({
						providerId: 'ana',
						startsAt: new Date(origin + r.minute * 60_000),
						endsAt: new Date(origin + (r.minute + r.length) * 60_000),
					}))
					const { slots } = day({ appointments, settings: { ...base.settings, bufferMinutes: buffer } })
					const widen = buffer * 60_000
					for (const s of slots) {
						const [from, to] = [Date.parse(s.start), Date.parse(s.end)]
						const clash = appointments.some((a) => from - widen < +a.endsAt && +a.startsAt < to + widen)
						expect(s.providerIds.includes('ana')).toBe(!clash)
					}
				},
			),
		)
	})
})

describe("availabilityOf, the wizard's availability worked out as far as it is asked", () => {
	test("answers what computeAvailability lists: listed dates, free dates per provider, one day's slots, the slot at a start", () => {
		const ids = ['ana', 'ben', 'cy']
		const appointment = fc.record({
			provider: fc.constantFrom(...ids),
			day: fc.integer({ min: 0, max: 12 }),
			minute: fc.integer({ min: 0, max: 24 * 12 }).map((n) => n * 5),
			length: fc.integer({ min: 1, max: 48 }).map((n) => n * 5),
		})
		const override = fc.record({
			provider: fc.option(fc.constantFrom(...ids)),
			day: fc.integer({ min: 0, max: 12 }),
			closed: fc.boolean(),
		})
		fc.assert(
			fc.property(
				fc.constantFrom(...ZONES),
				fc.constantFrom('2026-03-05', '2026-10-28', '2026-11-20'),
				fc.constantFrom(15, 30, 45, 60, 90),
				fc.integer({ min: 0, max: 14 }),
				fc.array(appointment, { maxLength: 20 }),
				fc.array(override, { maxLength: 4 }),
				fc.boolean(),
				(timezone, today, duration, maxAdvanceDays, rows, overrides, narrow) => {
					const origin = Date.parse(at(`${today} 00:00`, timezone))
					const date = (offset: number) => new Date(origin + (offset * 24 + 12) * 3_600_000).toISOString().slice(0, 10)
					const input: AvailabilityInput = {
						...base,
						timezone,
						now: new Date(origin + 10 * 3_600_000),
						settings: {
							...base.settings,
							maxAdvanceDays,
							businessHours: {
								...everyDay('00:00', '04:00'),
								monday: { start: '08:00', end: '17:30', enabled: true },
								tuesday: { start: '09:00', end: '17:00', enabled: false },
							},
						},
						service: { durationMinutes: duration },
						providers: [{ id: 'ana' }, { id: 'ben', hours: narrow ? everyDay('01:00', '03:00') : null }, { id: 'cy' }],
						appointments: rows.map((r) => {
							const startsAt = origin + r.day * 86_400_000 + r.minute * 60_000
							return { providerId: r.provider, startsAt: new Date(startsAt), endsAt: new Date(startsAt + r.length * 60_000) }
						}),
						overrides: overrides.map((o) => ({
							date: date(o.day),
							providerId: o.provider,
							closed: o.closed,
							start: '00:30',
							end: '02:30',
						})),
						fromDate: today,
						days: maxAdvanceDays + 1,
					}
					const all = computeAvailability(input)
					const lazy = availabilityOf(input)
					for (const providerId of [undefined, ...ids, 'zoe']) expect(lazy.freeDates(providerId)).toEqual(daysWithSlots(all, providerId))
					for (let offset = -2; offset <= maxAdvanceDays + 2; offset++) {
						const listed = all.find((d) => d.date === date(offset))
						expect(lazy.listed(date(offset))).toBe(listed !== undefined)
						expect(lazy.day(date(offset))).toEqual(listed)
					}
					for (const slot of all.flatMap((d) => d.slots)) expect(lazy.slotAt(slot.start)).toEqual(slot)
					expect(lazy.slotAt(new Date(origin + 61_000).toISOString())).toBeUndefined()
					expect(lazy.slotAt('tomorrow at ten')).toBeUndefined()
					expect(lazy.day('2026-02-30')).toBeUndefined()
				},
			),
			{ numRuns: 60 },
		)
	}, 60_000)
})

describe('business hours from the database', () => {
	test('reads the jsonb shape of booking_settings and booking_providers', () => {
		const json = JSON.parse(JSON.stringify(DEFAULT_BUSINESS_HOURS)) as unknown
		expect(parseWeeklyHours(json)).toEqual(DEFAULT_BUSINESS_HOURS)
		expect(parseWeeklyHours(everyDay('00:00', '24:00'))).not.toBeNull()
	})

	test.each([
		null,
		[],
		'x',
		{},
		{ ...DEFAULT_BUSINESS_HOURS, holiday: { start: '09:00', end: '17:00', enabled: true } },
		{ ...DEFAULT_BUSINESS_HOURS, monday: { start: '9:00', end: '17:00', enabled: true } },
		{ ...DEFAULT_BUSINESS_HOURS, monday: { start: '17:00', end: '09:00', enabled: true } },
		{ ...DEFAULT_BUSINESS_HOURS, monday: { start: '09:00', end: '17:00', enabled: 'yes' } },
		{ ...DEFAULT_BUSINESS_HOURS, monday: { start: '24:00', end: '24:00', enabled: true } },
	])('refuses %j', (bad) => {
		expect(parseWeeklyHours(bad)).toBeNull()
	})
})
