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

	test('a closing time must come after the opening time, on every weekday', () => {
		const result = form({ 'hours.sunday.end': '08:00', 'hours.tuesday.end': '24:00' })
		expect(result.reply().error?.['hours.sunday.end']).toEqual(['endBeforeStart'])
		expect(result.reply().error?.['hours.tuesday.end']).toBeUndefined()
	})

	test('only the nine timezones are accepted', () => {
		expect(form({ timezone: 'Mars/Olympus' }).reply().error?.timezone).toEqual(['timezoneInvalid'])
	})
})
