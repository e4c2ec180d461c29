import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
	addDays,
	addMonths,
	DATE_MAX,
	DATE_MIN,
	dateIn,
	dateTimeIn,
	isTimeZone,
	monthsFrom,
	MONTHS_IN_DATE_RANGE,
	parseIsoDate,
} from '#app/lib/dates.ts'
import { fillMonths } from '#app/.server/payments/analytics.ts'
import { resolveRange } from '#app/.server/payments/analytics.ts'

const pad = (n: number, width: number) => String(n).padStart(width, '0')

describe('the one date validator', () => {
	test('accepts real YYYY-MM-DD dates inside the product range', () => {
		expect(parseIsoDate('2026-02-28')).toBe('2026-02-28')
		expect(parseIsoDate('2024-02-29')).toBe('2024-02-29')
		expect(parseIsoDate(DATE_MIN)).toBe(DATE_MIN)
		expect(parseIsoDate(DATE_MAX)).toBe(DATE_MAX)
	})

	test.each([
		'2026-02-29',
		'2026-13-01',
		'2026-00-10',
		'2026-1-1',
		'01/02/2026',
		'',
		null,
		undefined,
		42,
		'x'.repeat(5000),
		'0999-01-01',
		'1899-12-31',
		'2101-01-01',
		'9999-12-31',
		'10000-01-01',
		'2026-01-01\u0000',
	])('refuses %s', (bad) => {
		expect(parseIsoDate(bad)).toBeNull()
	})

	test('any accepted text is a real date inside the range, and every real date inside it is accepted', () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 99999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (y, m, d) => {
				const text = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`
				const real = new Date(Date.UTC(y, m - 1, d))
				const isReal = y >= 1000 && m >= 1 && m <= 12 && real.getUTCDate() === d && real.getUTCMonth() === m - 1
				const inRange = text.length === 10 && text >= DATE_MIN && text <= DATE_MAX
				expect(parseIsoDate(text)).toBe(isReal && inRange ? text : null)
			}),
			{ numRuns: 5000 },
		)
	})

	test('any string at all gets an answer, never an exception', () => {
		fc.assert(fc.property(fc.string({ maxLength: 40 }), (text) => [null, text].includes(parseIsoDate(text))))
	})
})

describe('loops over months always end', () => {
	test('monthsFrom returns at most its limit, in order, for any two accepted dates', () => {
		const date = fc.date({ min: new Date(DATE_MIN), max: new Date(DATE_MAX), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))
		fc.assert(
			fc.property(date, date, fc.integer({ min: 0, max: 100 }), (a, b, limit) => {
				const months = monthsFrom(a, b, limit)
				expect(months.length).toBeLessThanOrEqual(limit)
				for (let i = 1; i < months.length; i++) expect(months[i]).toBe(addMonths(months[i - 1]!, 1))
			}),
		)
	})

	test('a report range in year 9999 is refused, not walked (the old loop never ended)', () => {
		const result = resolveRange(new URLSearchParams({ range: 'custom', from: '9999-12-01', to: '9999-12-31' }), '2026-06-15')
		expect(result).toMatchObject({ ok: false, error: 'invalidFrom' })
	})

	test('fillMonths over the whole accepted range stays bounded', () => {
		const data = [
			{ month: '1900-01-01', count: 1, amount: '1.00' },
			{ month: '2100-12-01', count: 1, amount: '1.00' },
		]
		const filled = fillMonths(data, DATE_MIN, DATE_MAX)
		expect(filled).toHaveLength(MONTHS_IN_DATE_RANGE)
		expect(filled.at(-1)).toEqual(data[1])
		// Even a month past the range (which no request can produce) cannot make it spin.
		expect(
			fillMonths(
				[
					{ month: '9999-12-01', count: 1, amount: '1.00' },
					{ month: '10000-01-01', count: 1, amount: '1.00' },
				],
				null,
				null,
			).length,
		).toBeLessThanOrEqual(MONTHS_IN_DATE_RANGE)
	})
})

describe('addDays on calendar dates', () => {
	test('crosses months, years and leap days', () => {
		expect(addDays('2026-01-31', 1)).toBe('2026-02-01')
		expect(addDays('2024-02-28', 1)).toBe('2024-02-29')
		expect(addDays('2026-01-01', -1)).toBe('2025-12-31')
		expect(addDays('2026-03-01', -731)).toBe('2024-02-29')
	})
})

describe('the date of an instant in a timezone', () => {
	test('today follows the organization timezone', () => {
		const instant = new Date('2026-03-31T20:00:00Z')
		expect(dateIn('UTC', instant)).toBe('2026-03-31')
		expect(dateIn('Asia/Tokyo', instant)).toBe('2026-04-01')
		expect(dateIn('America/Los_Angeles', new Date('2026-04-01T03:00:00Z'))).toBe('2026-03-31')
		// Asked again, from the kept formatter: the same answers.
		expect(dateIn('Asia/Tokyo', instant)).toBe('2026-04-01')
		expect(dateIn('Asia/Tokyo', new Date('2026-03-31T14:59:59Z'))).toBe('2026-03-31')
		expect(dateIn('Asia/Tokyo', new Date('2026-03-31T15:00:00Z'))).toBe('2026-04-01')
	})

	test('a moment is shown as the date and 24-hour time of the timezone', () => {
		const instant = new Date('2026-11-24T04:25:09Z')
		expect(dateTimeIn('America/New_York', instant)).toEqual({ date: '2026-11-23', time: '23:25' })
		expect(dateTimeIn('UTC', new Date('2026-11-24T00:05:00Z'))).toEqual({ date: '2026-11-24', time: '00:05' })
		expect(dateTimeIn('Asia/Tokyo', instant)).toEqual({ date: '2026-11-24', time: '13:25' })
		expect(dateTimeIn('Not/AZone', instant)).toEqual({ date: '2026-11-24', time: '04:25' })
	})

	test('a kept answer holds for its minute only, and what a caller does with it changes nothing', () => {
		const first = dateTimeIn('America/Sao_Paulo', new Date('2026-12-31T02:59:00Z'))
		expect(first).toEqual({ date: '2026-12-30', time: '23:59' })
		first.date = 'changed'
		expect(dateTimeIn('America/Sao_Paulo', new Date('2026-12-31T02:59:59.999Z'))).toEqual({ date: '2026-12-30', time: '23:59' })
		expect(dateTimeIn('America/Sao_Paulo', new Date('2026-12-31T03:00:00Z'))).toEqual({ date: '2026-12-31', time: '00:00' })
		expect(dateTimeIn('America/Sao_Paulo', new Date('2026-12-31T02:59:30Z'))).toEqual({ date: '2026-12-30', time: '23:59' })
		// Before 1973 offsets had seconds: Monrovia at -0:44:30, two instants of one UTC minute on two local minutes.
		expect(dateTimeIn('Africa/Monrovia', new Date('1971-06-01T12:00:10Z')).time).toBe('11:15')
		expect(dateTimeIn('Africa/Monrovia', new Date('1971-06-01T12:00:40Z')).time).toBe('11:16')
	})

	test('an unknown timezone counts in UTC', () => {
		const instant = new Date('2026-03-31T20:00:00Z')
		expect(dateIn('Not/AZone', instant)).toBe('2026-03-31')
		expect(dateIn('', instant)).toBe('2026-03-31')
		expect(isTimeZone('Not/AZone')).toBe(false)
		expect(isTimeZone('')).toBe(false)
	})

	test('any instant of the product range gives the same date as the UTC calendar in UTC', () => {
		const [min, max] = [Date.parse(`${DATE_MIN}T00:00:00Z`), Date.parse(`${DATE_MAX}T23:59:59Z`)]
		fc.assert(
			fc.property(fc.integer({ min, max }), (ms) => {
				expect(dateIn('UTC', new Date(ms))).toBe(new Date(ms).toISOString().slice(0, 10))
			}),
		)
	})

	test('timezones a visitor may pick', () => {
		expect(isTimeZone('America/Sao_Paulo')).toBe(true)
		expect(isTimeZone('Europe/Madrid')).toBe(true)
		expect(isTimeZone('UTC')).toBe(true)
		expect(isTimeZone('x'.repeat(65))).toBe(false)
		expect(isTimeZone('America/Sao_Paulo\u0000')).toBe(false)
	})
})
