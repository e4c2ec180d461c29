import { describe, expect, test } from 'vitest'
import { clientsSaveSchema } from '#app/lib/schemas/clients.ts'
import { groupsThousandsWithDots } from '#app/lib/schemas/fields.ts'
import { parseAmount, transactionsSaveSchema, transactionsSaveSchemaIn } from '#app/lib/schemas/transactions.ts'

describe('amounts as typed', () => {
	test('digits with an optional $, thousands commas and at most 2 decimals become digits.dd', () => {
		expect(parseAmount('1,234.5')).toEqual({ ok: true, value: '1234.50' })
		expect(parseAmount('$0')).toEqual({ ok: true, value: '0.00' })
		expect(parseAmount(' $ 12 ')).toEqual({ ok: true, value: '12.00' })
		expect(parseAmount('.5')).toEqual({ ok: true, value: '0.50' })
		expect(parseAmount('007.10')).toEqual({ ok: true, value: '7.10' })
		expect(parseAmount('9999999999.99')).toEqual({ ok: true, value: '9999999999.99' })
	})

	test('a decimal comma, as es and pt-BR write amounts, is read as the decimal point', () => {
		expect(parseAmount('10,50')).toEqual({ ok: true, value: '10.50' })
		expect(parseAmount('1,23')).toEqual({ ok: true, value: '1.23' })
		expect(parseAmount('1.234,5')).toEqual({ ok: true, value: '1234.50' })
		expect(parseAmount('$ 1.234.567,89')).toEqual({ ok: true, value: '1234567.89' })
		// A comma followed by three digits is a thousands comma, as before.
		expect(parseAmount('1,234')).toEqual({ ok: true, value: '1234.00' })
		expect(parseAmount('1.23,45')).toEqual({ ok: false, error: 'amountInvalid' })
		expect(parseAmount('-10,50')).toEqual({ ok: false, error: 'amountNegative' })
	})

	test('in a language that groups thousands with dots (es, pt-BR), "1.500" is one thousand five hundred; in en it is refused', () => {
		expect(groupsThousandsWithDots('es')).toBe(true)
		expect(groupsThousandsWithDots('pt-BR')).toBe(true)
		expect(groupsThousandsWithDots('en')).toBe(false)
		expect(parseAmount('1.500', { dotGroups: true })).toEqual({ ok: true, value: '1500.00' })
		expect(parseAmount('$ 10.000.000', { dotGroups: true })).toEqual({ ok: true, value: '10000000.00' })
		expect(parseAmount('1.500,75', { dotGroups: true })).toEqual({ ok: true, value: '1500.75' })
		// One or two digits after the dot stay decimals; four are no grouping.
		expect(parseAmount('1.5', { dotGroups: true })).toEqual({ ok: true, value: '1.50' })
		expect(parseAmount('12.34', { dotGroups: true })).toEqual({ ok: true, value: '12.34' })
		expect(parseAmount('1.5000', { dotGroups: true })).toEqual({ ok: false, error: 'amountDecimals' })
		// The comma is their decimal mark: three digits after it are three decimals, never a
		// thousands group (it was read as one: 0,125 saved as 125.00), and en's "1,500.25" is refused.
		expect(parseAmount('1,5', { dotGroups: true })).toEqual({ ok: true, value: '1.50' })
		expect(parseAmount('0,125', { dotGroups: true })).toEqual({ ok: false, error: 'amountDecimals' })
		expect(parseAmount('1,555', { dotGroups: true })).toEqual({ ok: false, error: 'amountDecimals' })
		expect(parseAmount('1,500.25', { dotGroups: true })).toEqual({ ok: false, error: 'amountInvalid' })
		expect(parseAmount('1,500.25')).toEqual({ ok: true, value: '1500.25' })
		expect(parseAmount('1.500')).toEqual({ ok: false, error: 'amountDecimals' })
		// The amount as the screens show it, copied back: the currency before or after it.
		expect(parseAmount('US$ 1.234,56', { dotGroups: true })).toEqual({ ok: true, value: '1234.56' })
		expect(parseAmount('1.234,56\u00a0US$', { dotGroups: true })).toEqual({ ok: true, value: '1234.56' })
		expect(parseAmount('$1,234.56')).toEqual({ ok: true, value: '1234.56' })
		expect(parseAmount('R$ 1.234,56', { dotGroups: true })).toEqual({ ok: false, error: 'amountInvalid' })
		const row = { dateReceived: '2026-11-01', amount: '1.500', category: 'matched', paymentMethod: 'Zelle' }
		expect(transactionsSaveSchemaIn('es').parse({ rows: [row] }).rows[0]!.amount).toBe('1500.00')
		expect(transactionsSaveSchemaIn('pt-BR').parse({ rows: [row] }).rows[0]!.amount).toBe('1500.00')
		expect(transactionsSaveSchemaIn('en').safeParse({ rows: [row] }).success).toBe(false)
	})

	test('negative, badly grouped, scientific, too precise or too large amounts are refused with a reason', () => {
		expect(parseAmount('-1')).toEqual({ ok: false, error: 'amountNegative' })
		expect(parseAmount('1.234')).toEqual({ ok: false, error: 'amountDecimals' })
		expect(parseAmount('12abc')).toEqual({ ok: false, error: 'amountInvalid' })
		expect(parseAmount('1e5')).toEqual({ ok: false, error: 'amountInvalid' })
		expect(parseAmount('NaN')).toEqual({ ok: false, error: 'amountInvalid' })
		expect(parseAmount('1,2345')).toEqual({ ok: false, error: 'amountInvalid' })
		expect(parseAmount('')).toEqual({ ok: false, error: 'amountInvalid' })
		expect(parseAmount('99999999999')).toEqual({ ok: false, error: 'amountTooLarge' })
	})
})

describe('the transactions form schema', () => {
	test('refuses malformed amounts, dates and enumerations, and caps the rows', () => {
		const base = { amount: '1', dateReceived: '2026-02-28', category: 'matched', paymentMethod: 'Zelle' }
		const errors = (row: Record<string, unknown>) => {
			const parsed = transactionsSaveSchema.safeParse({ rows: [{ ...base, ...row }] })
			return parsed.success ? [] : parsed.error.issues.map((i) => i.message)
		}
		expect(errors({})).toEqual([])
		expect(errors({ dateReceived: '2026-02-30' })).toEqual(['dateInvalid'])
		expect(errors({ dateReceived: '02/28/2026' })).toEqual(['dateInvalid'])
		expect(errors({ category: 'refunded' })).toEqual(['categoryInvalid'])
		expect(errors({ paymentMethod: 'Bitcoin' })).toEqual(['methodInvalid'])
		expect(errors({ clientId: 'not-a-uuid' })).toEqual(['clientInvalid'])
		expect(transactionsSaveSchema.safeParse({ rows: Array.from({ length: 501 }, () => base) }).success).toBe(false)
	})
})

describe('the clients form schema', () => {
	test('requires a name and checks the email', () => {
		const errors = (row: Record<string, unknown>) => {
			const parsed = clientsSaveSchema.safeParse({ rows: [{ status: 'active', ...row }] })
			return parsed.success ? [] : parsed.error.issues.map((i) => i.message)
		}
		expect(errors({ name: 'Ok' })).toEqual([])
		expect(errors({ name: '' })).toEqual(['nameRequired'])
		expect(errors({ name: 'X', email: 'not-an-email' })).toEqual(['emailInvalid'])
		expect(errors({ name: 'X', email: 'a@b' })).toEqual(['emailInvalid'])
		expect(errors({ name: 'X', status: 'vip' })).toEqual(['statusInvalid'])
		expect(errors({ name: 'x'.repeat(201) })).toEqual(['nameTooLong'])
		// A new row's errors come together: the email's and the phone's.
		expect(errors({ name: 'Alberto Núñez', email: 'bad-email', phone: 'llámame' })).toEqual(['emailInvalid', 'phoneInvalid'])
		expect(errors({ name: 'X', phone: '+55 (11) 5555-0100' })).toEqual([])
	})
})

describe('new rows left as they were added', () => {
	const blank = {
		client: '',
		externalId: '',
		amount: '0',
		dateReceived: '2026-04-01',
		category: 'unmatched',
		paymentMethod: 'Zelle',
		description: '',
	}
	const parse = (rows: Record<string, unknown>[]) => transactionsSaveSchema.parse({ rows }).rows

	test('are parsed as removed, whatever their values would say, so a save skips them', () => {
		const [untouched, filled] = parse([
			{ ...blank, blank: JSON.stringify(blank) },
			{ ...blank, amount: '12', blank: JSON.stringify(blank) },
		])
		expect(untouched).toMatchObject({ id: null, deleted: true })
		expect(filled).toMatchObject({ id: null, deleted: false, amount: '12.00' })
		// An untouched new client (no name yet) is no error either.
		expect(
			clientsSaveSchema.safeParse({ rows: [{ name: '', status: 'active', blank: JSON.stringify({ name: '', status: 'active' }) }] })
				.success,
		).toBe(true)
	})

	test('a saved row, a missing or malformed blank is never skipped', () => {
		const id = '00000000-0000-4000-8000-000000000001'
		expect(parse([{ ...blank, id, version: '1', blank: JSON.stringify(blank) }])[0]).toMatchObject({ deleted: false })
		expect(parse([{ ...blank }])[0]).toMatchObject({ deleted: false })
		expect(parse([{ ...blank, blank: '{not json' }])[0]).toMatchObject({ deleted: false })
		expect(parse([{ ...blank, blank: '[1]' }])[0]).toMatchObject({ deleted: false })
	})
})
