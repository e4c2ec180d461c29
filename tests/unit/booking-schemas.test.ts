import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { WEEKDAYS } from '#app/lib/availability.ts'
import { bookingSettingsSchema } from '#app/lib/schemas/booking.ts'

function form(overrides: Record<string, string | null> = {}) {
	const fields: Record<string, string | null> = {
		minAdvanceHours: '1',
		maxAdvanceDays: '30',
		bufferMinutes: '0',
		cancellationHours: '24',
		depositHold: '2',
		depositHoldUnit: 'hours',
		autoConfirm: 'on',
		timezone: 'UTC',
		...Object.fromEntries(
			WEEKDAYS.flatMap((day) => [
				[`hours.${day}.start`, '09:00'],
				[`hours.${day}.end`, '17:00'],
			]),
		),
		'hours.monday.enabled': 'on',
		...overrides,
	}
	const data = new FormData()
	for (const [key, value] of Object.entries(fields)) if (value !== null) data.set(key, value)
	return parseWithZod(data, { schema: bookingSettingsSchema })
}

describe('booking settings form', () => {
	test('a complete form parses, unchecked boxes are false', () => {
		const result = form()
		expect(result.status).toBe('success')
		if (result.status !== 'success') return
		expect(result.value.autoConfirm).toBe(true)
		expect(result.value.allowGuestBooking).toBe(false)
		expect(result.value.hours.monday).toEqual({ enabled: true, start: '09:00', end: '17:00' })
		expect(result.value.hours.sunday.enabled).toBe(false)
	})

	test('out-of-range, unparsable and missing numbers get their own errors', () => {
		const result = form({ minAdvanceHours: '-1', maxAdvanceDays: '0', bufferMinutes: 'abc', cancellationHours: null })
		expect(result.status).toBe('error')
		const errors = result.reply().error ?? {}
		expect(errors.minAdvanceHours).toEqual(['min0'])
		expect(errors.maxAdvanceDays).toEqual(['min1'])
		expect(errors.bufferMinutes).toEqual(['notANumber'])
		expect(errors.cancellationHours).toEqual(['required'])
	})

	test('an open day needs both times, the closing one after the opening one (24:00 allowed)', () => {
		const result = form({
			'hours.sunday.enabled': 'on',
			'hours.sunday.end': '08:00',
			'hours.tuesday.enabled': 'on',
			'hours.tuesday.end': '24:00',
			'hours.monday.start': null,
		})
		expect(result.reply().error?.['hours.sunday.end']).toEqual(['endBeforeStart'])
		expect(result.reply().error?.['hours.tuesday.end']).toBeUndefined()
		expect(result.reply().error?.['hours.monday.start']).toEqual(['timeRequired'])
	})

	test("a closed day's times are not checked: cleared or inverted, it saves, with 09:00 to 17:00 in the place of times that cannot be", () => {
		const result = form({
			'hours.sunday.start': null,
			'hours.sunday.end': null,
			'hours.saturday.end': '08:00',
			'hours.friday.start': '10:00',
			'hours.friday.end': '12:00',
		})
		expect(result.status).toBe('success')
		if (result.status !== 'success') return
		expect(result.value.hours.sunday).toEqual({ enabled: false, start: '09:00', end: '17:00' })
		expect(result.value.hours.saturday).toEqual({ enabled: false, start: '09:00', end: '17:00' })
		expect(result.value.hours.friday).toEqual({ enabled: false, start: '10:00', end: '12:00' })
	})

	test('only the nine timezones are accepted', () => {
		expect(form({ timezone: 'Mars/Olympus' }).reply().error?.timezone).toEqual(['timezoneInvalid'])
	})

	test('an unpaid booking is held from 15 minutes to 7 days, in minutes or hours; "before the start" is optional, 0 to 168 hours', () => {
		const held = (overrides: Record<string, string | null>) => form(overrides).reply().error ?? {}
		expect(held({ depositHold: '14', depositHoldUnit: 'minutes' }).depositHold).toEqual(['holdOutOfRange'])
		expect(held({ depositHold: '169', depositHoldUnit: 'hours' }).depositHold).toEqual(['holdOutOfRange'])
		expect(held({ depositHold: '1.5' }).depositHold).toEqual(['notAWholeNumber'])
		expect(held({ depositHold: null }).depositHold).toEqual(['required'])
		expect(held({ depositHoldUnit: 'days' }).depositHoldUnit).toEqual(['holdUnitInvalid'])
		expect(held({ depositHoldBeforeStartHours: '169' }).depositHoldBeforeStartHours).toEqual(['tooLarge'])
		const ok = form({ depositHold: '90', depositHoldUnit: 'minutes', depositHoldBeforeStartHours: '0' })
		expect(ok.status).toBe('success')
		if (ok.status !== 'success') return
		expect(ok.value).toMatchObject({ depositHold: 90, depositHoldUnit: 'minutes', depositHoldBeforeStartHours: 0 })
		const noLimit = form({ depositHold: '168' })
		expect(noLimit.status === 'success' && noLimit.value.depositHoldBeforeStartHours).toBeUndefined()
	})
})
