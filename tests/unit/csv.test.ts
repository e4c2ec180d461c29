import { describe, expect, test } from 'vitest'
import { csvField, ExportTally } from '#app/.server/payments/analytics.ts'

describe('CSV export fields', () => {
	test.each([
		[';=1+1', `";'=1+1"`],
		['note;  @SUM(A1)', `"note;  '@SUM(A1)"`],
		['a,=cmd|x', `"a,'=cmd|x"`],
		['tab\t-2+3', `"tab\t'-2+3"`],
		['x|=1', `x|'=1`],
		['line\n+1', `"line\n'+1"`],
	])('a formula start after a separator is defused: %s', (text, expected) => {
		expect(csvField(text)).toBe(expected)
	})

	test('a field with the es and pt-BR list separator is quoted', () => {
		expect(csvField('Ana; Bruno')).toBe('"Ana; Bruno"')
	})

	test('plain text and numbers are unchanged', () => {
		expect(csvField('Rent - March')).toBe('Rent - March')
		expect(csvField('1250.00')).toBe('1250.00')
		expect(csvField(7)).toBe('7')
	})
})

describe('the export tally', () => {
	test('stays exact past 2^53 cents', () => {
		const tally = new ExportTally()
		// Each row is the largest numeric(12,2) amount; 10,000 of them pass 2^53 cents (9.0e15).
		for (let i = 0; i < 10_000; i++) tally.add({ amount: '9999999999.99', category: 'matched' })
		tally.add({ amount: '0.01', category: 'review' })
		expect(tally.total()).toBe('99999999999900.01')
		expect(tally.categories()[0]).toMatchObject({ category: 'matched', count: 10_000, amount: '99999999999900.00' })
		expect(tally.average()).toBe('9999000099.98') // 9999999999900001 / 10001 cents, rounded
	})

	test('the average rounds half up to the cent', () => {
		const tally = new ExportTally()
		for (const amount of ['0.01', '0.02']) tally.add({ amount, category: 'matched' })
		expect(tally.average()).toBe('0.02')
	})
})
