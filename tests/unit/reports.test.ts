import { describe, expect, test } from 'vitest'
import { csvField, csvLine, ExportTally, fillMonths, presetRange, resolveRange, splitRange } from '#app/.server/payments/analytics.ts'

// The pure parts of the reports: ranges from the URL, months, and the CSV export's fields.

describe('calendar helpers', () => {
	test('presets cover calendar months, year to date ends today', () => {
		expect(presetRange('this-month', '2026-02-10')).toMatchObject({ from: '2026-02-01', to: '2026-02-28' })
		expect(presetRange('last-3-months', '2026-02-10')).toMatchObject({ from: '2025-12-01', to: '2026-02-28' })
		expect(presetRange('year-to-date', '2026-02-10')).toMatchObject({ from: '2026-01-01', to: '2026-02-10' })
		expect(presetRange('last-12-months', '2026-02-10')).toMatchObject({ from: '2025-03-01', to: '2026-02-28' })
		expect(presetRange('all', '2026-02-10')).toMatchObject({ from: null, to: null })
	})

	test('a URL range resolves to a preset, a custom range, or an error to show', () => {
		const today = '2026-06-15'
		const r = (query: string) => resolveRange(new URLSearchParams(query), today)
		expect(r('')).toEqual({ ok: true, range: presetRange('last-12-months', today) })
		expect(r('range=no-such-preset')).toEqual({ ok: true, range: presetRange('last-12-months', today) })
		expect(r('range=all')).toEqual({ ok: true, range: { preset: 'all', from: null, to: null } })
		expect(r('range=custom&from=2026-01-05&to=2026-02-01')).toEqual({
			ok: true,
			range: { preset: 'custom', from: '2026-01-05', to: '2026-02-01' },
		})
		expect(r('from=2026-01-05&to=2026-01-05')).toMatchObject({ ok: true, range: { preset: 'custom' } })
		expect(r('range=custom&from=2026-01-05')).toMatchObject({ ok: false, error: 'missingDates' })
		expect(r('range=custom&from=2026-02-30&to=2026-03-01')).toMatchObject({ ok: false, error: 'invalidFrom' })
		expect(r('range=custom&from=2026-02-01&to=tomorrow')).toMatchObject({ ok: false, error: 'invalidTo' })
		expect(r('range=custom&from=2026-03-01&to=2026-02-01')).toMatchObject({
			ok: false,
			error: 'fromAfterTo',
			from: '2026-03-01',
			to: '2026-02-01',
		})
		expect(r(`range=custom&from=${'9'.repeat(100_000)}&to=2026-01-01`)).toMatchObject({ ok: false, error: 'invalidFrom' })
	})

	test('a range splits into whole months and the days at its edges', () => {
		expect(splitRange(null, null)).toEqual({ months: { start: null, end: null }, days: [] })
		expect(splitRange('2026-01-01', '2026-03-31')).toEqual({ months: { start: '2026-01-01', end: '2026-04-01' }, days: [] })
		expect(splitRange('2026-01-15', '2026-03-10')).toEqual({
			months: { start: '2026-02-01', end: '2026-03-01' },
			days: [
				['2026-01-15', '2026-01-31'],
				['2026-03-01', '2026-03-10'],
			],
		})
		expect(splitRange('2026-01-15', '2026-02-10')).toEqual({ months: null, days: [['2026-01-15', '2026-02-10']] })
		expect(splitRange('2026-02-01', '2026-02-27')).toEqual({ months: null, days: [['2026-02-01', '2026-02-27']] })
		expect(splitRange('2024-02-29', null)).toEqual({ months: { start: '2024-03-01', end: null }, days: [['2024-02-29', '2024-02-29']] })
		expect(splitRange(null, '2025-12-30')).toEqual({ months: { start: null, end: '2025-12-01' }, days: [['2025-12-01', '2025-12-30']] })
	})

	test('months are filled with zeros, and a long span narrows to the months with data', () => {
		const data = [{ month: '2026-02-01', count: 1, amount: '5.00' }]
		expect(fillMonths(data, '2025-12-15', '2026-03-02').map((m) => [m.month, m.count])).toEqual([
			['2025-12-01', 0],
			['2026-01-01', 0],
			['2026-02-01', 1],
			['2026-03-01', 0],
		])
		expect(fillMonths(data, '1900-01-01', '2999-12-31')).toEqual(data)
		expect(fillMonths([], null, null)).toEqual([])
	})
})

describe('CSV', () => {
	test('fields are quoted when needed and formulas are defused', () => {
		expect(csvField('plain')).toBe('plain')
		expect(csvField('a,b')).toBe('"a,b"')
		expect(csvField('say "hi"')).toBe('"say ""hi"""')
		expect(csvField('two\nlines')).toBe('"two\nlines"')
		expect(csvField('=SUM(A1:A2)')).toBe("'=SUM(A1:A2)")
		expect(csvField('+1')).toBe("'+1")
		expect(csvField('-1')).toBe("'-1")
		expect(csvField('@cmd')).toBe("'@cmd")
		expect(csvField('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`)
		expect(csvField(null)).toBe('')
		expect(csvField(12)).toBe('12')
		expect(csvLine(['a', null, 'b,c'])).toBe('a,,"b,c"\r\n')
	})

	test('the tally sums in cents', () => {
		const tally = new ExportTally()
		for (const amount of ['0.10', '0.20', '1000000.05', '3']) tally.add({ amount, category: 'matched' })
		tally.add({ amount: '0.01', category: 'review' })
		expect(tally.total()).toBe('1000003.36')
		expect(tally.count).toBe(5)
		expect(tally.average()).toBe('200000.67')
		expect(tally.categories().map((c) => [c.category, c.count, c.amount])).toEqual([
			['matched', 4, '1000003.35'],
			['review', 1, '0.01'],
		])
	})
})
