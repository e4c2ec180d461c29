import { describe, expect, test } from 'vitest'
import {
	formatCompactMoney,
	formatDate,
	formatInstant,
	formatInstantRange,
	formatMoney,
	formatNumber,
	formatPercent,
	formatTime,
	formatWholeMoney,
	formatZonedInstant,
} from '#app/lib/format.ts'

// Intl separates "US$" and "%" from the number with a no-break space: compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ')

describe('money and date formats in English (docs/decisions/022-formats-follow-the-language.md)', () => {
	test('money is US dollars with 2 decimals', () => {
		expect(formatMoney('1234.5', 'en')).toBe('$1,234.50')
		expect(formatMoney(0, 'en')).toBe('$0.00')
		expect(formatMoney('not a number', 'en')).toBe('$0.00')
		expect(formatMoney('-5', 'en')).toBe('-$5.00')
	})
	test('dates are MM/DD/YYYY and never shift a day', () => {
		expect(formatDate('2026-01-02', 'en')).toBe('01/02/2026')
		expect(formatDate('2026-12-31', 'en')).toBe('12/31/2026')
		expect(formatDate('2026-12-31T23:30:00.000Z', 'en')).toBe('12/31/2026')
		expect(formatDate(null, 'en')).toBe('')
		expect(formatDate('not a date', 'en')).toBe('')
	})
	test('percentages keep one decimal', () => {
		expect(formatPercent(0.5, 'en')).toBe('50.0%')
		expect(formatPercent(0.451, 'en')).toBe('45.1%')
	})
	test('counts and plan prices', () => {
		expect(formatNumber(14000, 'en')).toBe('14,000')
		expect(formatNumber(1400, 'en')).toBe('1,400')
		expect(formatWholeMoney(29, 'en')).toBe('$29')
		expect(formatCompactMoney(12500, 'en')).toBe('$12.5K')
	})
})

describe('Spanish: comma decimals, dot thousands, "US$" after the amount, DD/MM/YYYY', () => {
	test('money', () => {
		expect(plain(formatMoney('1234.56', 'es'))).toBe('1.234,56 US$')
		expect(plain(formatMoney('24308.85', 'es'))).toBe('24.308,85 US$')
		expect(plain(formatMoney(0, 'es'))).toBe('0,00 US$')
		expect(plain(formatWholeMoney(29, 'es'))).toBe('29 US$')
	})
	test('four-digit figures are grouped too, so a column lines up', () => {
		expect(formatNumber(1400, 'es')).toBe('1.400')
		expect(formatNumber(14000, 'es')).toBe('14.000')
	})
	test('percentages', () => {
		expect(plain(formatPercent(0.451, 'es'))).toBe('45,1 %')
	})
	test('dates put the day first', () => {
		expect(formatDate('2025-01-12', 'es')).toBe('12/01/2025')
		expect(formatDate('2026-12-31', 'es')).toBe('31/12/2026')
	})
})

describe('Brazilian Portuguese: "US$" before the amount, DD/MM/YYYY', () => {
	test('money', () => {
		expect(plain(formatMoney('1234.56', 'pt-BR'))).toBe('US$ 1.234,56')
		expect(plain(formatWholeMoney(199, 'pt-BR'))).toBe('US$ 199')
	})
	test('numbers and percentages', () => {
		expect(formatNumber(1400, 'pt-BR')).toBe('1.400')
		expect(formatPercent(0.451, 'pt-BR')).toBe('45,1%')
	})
	test('dates put the day first', () => {
		expect(formatDate('2025-01-12', 'pt-BR')).toBe('12/01/2025')
	})
})

describe('an unknown or missing language formats as English', () => {
	test('fallback', () => {
		expect(formatMoney('1', 'fr')).toBe('$1.00')
		expect(formatDate('2026-01-02', null)).toBe('01/02/2026')
		expect(formatNumber(1400, undefined)).toBe('1,400')
	})
})

describe('formatTime', () => {
	test('writes a time as each language does: 12-hour in English, 24-hour in Spanish and Portuguese', () => {
		expect(['00:05', '09:30', '12:00', '13:45', '23:59'].map((t) => formatTime(t, 'en'))).toEqual([
			'12:05 AM',
			'9:30 AM',
			'12:00 PM',
			'1:45 PM',
			'11:59 PM',
		])
		expect(['00:05', '13:45'].map((t) => formatTime(t, 'es'))).toEqual(['00:05', '13:45'])
		expect(formatTime('13:45:00', 'pt-BR')).toBe('13:45')
		expect(formatTime('soon', 'en')).toBe('soon')
	})

	test('a day that ends at 24:00 ends at midnight: 12:00 AM in English', () => {
		expect(formatTime('24:00', 'en')).toBe('12:00 AM')
		expect(formatTime('24:00', 'es')).toBe('24:00')
	})

	test('what follows the time stays: the offset that tells apart the two 1:30s of the day the clocks go back', () => {
		expect(formatTime('01:30 (UTC-04:00)', 'en')).toBe('1:30 AM (UTC-04:00)')
		expect(formatTime('01:30 (UTC-05:00)', 'pt-BR')).toBe('01:30 (UTC-05:00)')
	})
})

describe('an instant in a zone: one time format per language, in mails and screens alike', () => {
	// 2026-12-05 15:05 UTC: 10:05 in New York, 7:05 in Los Angeles, 12:05 in São Paulo.
	const instant = '2026-12-05T15:05:00Z'

	test('12-hour in English, 24-hour in Spanish and Portuguese, in the zone asked', () => {
		expect(formatInstant(instant, 'America/New_York', 'en', { date: 'none' })).toBe('10:05 AM')
		expect(formatInstant(instant, 'America/Los_Angeles', 'en', { date: 'numeric' })).toBe('12/05/2026 7:05 AM')
		expect(formatInstant(instant, 'America/Sao_Paulo', 'pt-BR', { date: 'numeric' })).toBe('05/12/2026 12:05')
		expect(formatInstant('2026-12-05T21:30:00Z', 'UTC', 'es', { date: 'none' })).toBe('21:30')
	})

	test('a range names its day once, and both days when it crosses midnight in the zone', () => {
		expect(formatInstantRange(instant, '2026-12-05T15:35:00Z', 'America/New_York', 'en', { date: 'numeric' })).toBe(
			'12/05/2026 10:05 AM–10:35 AM',
		)
		expect(formatInstantRange('2026-12-06T04:30:00Z', '2026-12-06T05:30:00Z', 'America/New_York', 'es', { date: 'numeric' })).toBe(
			'05/12/2026 23:30–06/12/2026 00:30',
		)
	})

	test('the zone is named in words, and an unknown zone reads as UTC rather than failing', () => {
		expect(formatZonedInstant(instant, 'America/Los_Angeles', 'en', { date: 'none' })).toBe('7:05 AM Pacific Time (Los Angeles)')
		expect(formatInstant(instant, 'Mars/Olympus', 'en', { date: 'none' })).toBe('3:05 PM')
	})
})
