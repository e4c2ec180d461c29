import { describe, expect, test } from 'vitest'
import { formatDate, formatMoney, formatPercent } from '#app/lib/format.ts'

describe('money and date formats (docs/product.md, Limits and formats)', () => {
	test('money is US dollars with 2 decimals', () => {
		expect(formatMoney('1234.5')).toBe('$1,234.50')
		expect(formatMoney(0)).toBe('$0.00')
		expect(formatMoney('not a number')).toBe('$0.00')
	})
	test('dates are MM/DD/YYYY and never shift a day', () => {
		expect(formatDate('2026-01-02')).toBe('01/02/2026')
		expect(formatDate('2026-12-31')).toBe('12/31/2026')
		expect(formatDate(null)).toBe('')
	})
	test('percentages keep one decimal', () => {
		expect(formatPercent(0.5)).toBe('50.0%')
	})
})
