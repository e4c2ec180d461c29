import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { payLinks } from '#app/.server/payments/handles.ts'
import { paymentHandlesSchema } from '#app/lib/schemas/payment-handles.ts'

// docs/product.md, Deposits and prepayment: the "Getting paid" form, as an owner types or pastes
// the handles, and the links a visitor taps to pay.

function form(fields: Record<string, string>) {
	const data = new FormData()
	for (const [key, value] of Object.entries(fields)) data.set(key, value)
	return parseWithZod(data, { schema: paymentHandlesSchema })
}

describe('the Getting paid form', () => {
	test('what people copy from their apps is reduced to what the table keeps', () => {
		const cases: Array<[Record<string, string>, Record<string, string | null>]> = [
			[{ zelle: '(555) 123-4567' }, { zelle: '5551234567' }],
			[{ zelle: '+1 555.123.4567' }, { zelle: '5551234567' }],
			[{ zelle: '  Pay@Studio.example ' }, { zelle: 'Pay@Studio.example' }],
			[{ venmo: '@Studio-Nine' }, { venmo: 'Studio-Nine' }],
			[{ venmo: 'https://venmo.com/u/Studio_Nine' }, { venmo: 'Studio_Nine' }],
			[{ cashapp: '$StudioNine' }, { cashapp: 'StudioNine' }],
			[{ cashapp: 'https://cash.app/$StudioNine/' }, { cashapp: 'StudioNine' }],
			[{ paypal: 'paypal.me/studio9' }, { paypal: 'studio9' }],
			[{ paypal: 'https://www.paypal.com/paypalme/studio9' }, { paypal: 'studio9' }],
		]
		for (const [input, expected] of cases) {
			const result = form(input)
			expect(result.status, JSON.stringify(input)).toBe('success')
			if (result.status === 'success') expect(result.value).toMatchObject(expected)
		}
		// Empty is none.
		const empty = form({ zelle: ' ', venmo: '' })
		expect(empty.status === 'success' && empty.value).toEqual({ zelle: null, venmo: null, cashapp: null, paypal: null })
	})

	test('anything the table would refuse gets its own message under its field, and nothing is kept', () => {
		const result = form({
			zelle: '555-1234',
			venmo: '@abc',
			cashapp: '$1dollar',
			paypal: 'paypal.me/with space',
		})
		expect(result.status).toBe('error')
		expect(result.reply().error).toEqual({
			zelle: ['zelleInvalid'],
			venmo: ['venmoInvalid'],
			cashapp: ['cashappInvalid'],
			paypal: ['paypalInvalid'],
		})
		// Not an e-mail address, not a US number (an area code never starts with 0 or 1; 12 digits is none).
		for (const zelle of ['owner@localhost', '0551234567', '155512345678', 'call me']) expect(form({ zelle }).status, zelle).toBe('error')
	})
})

describe('the ways to pay a deposit', () => {
	test('Zelle says where to send, Venmo opens the profile, Cash App and PayPal.me open with the amount', () => {
		expect(payLinks({ zelle: '5551234567', venmo: 'Studio-Nine', cashapp: 'StudioNine', paypal: 'studio9' }, '30.00')).toEqual([
			{ kind: 'zelle', handle: '(555) 123-4567', href: null },
			{ kind: 'venmo', handle: '@Studio-Nine', href: 'https://venmo.com/Studio-Nine' },
			{ kind: 'cashapp', handle: '$StudioNine', href: 'https://cash.app/$StudioNine/30' },
			{ kind: 'paypal', handle: 'paypal.me/studio9', href: 'https://paypal.me/studio9/30' },
		])
		expect(payLinks({ zelle: null, venmo: null, cashapp: 'StudioNine', paypal: null }, '12.5')).toEqual([
			{ kind: 'cashapp', handle: '$StudioNine', href: 'https://cash.app/$StudioNine/12.50' },
		])
		expect(payLinks({ zelle: null, venmo: null, cashapp: null, paypal: null }, '10')).toEqual([])
	})
})
