import { describe, expect, test } from 'vitest'
import { choiceQuery, readChoices } from '#app/.server/booking/public/choices.ts'
import { brandingOf } from '#app/.server/booking/public/organization.ts'
import { dayHeading, guessedZones } from '#app/.server/booking/public/slots.ts'
import { contactFormSchema } from '#app/lib/schemas/book.ts'
import { displayZones } from '#app/lib/timezones.ts'

describe('the public details form', () => {
	const errors = (value: Record<string, unknown>, requirePhone = false) => {
		const result = contactFormSchema(requirePhone).safeParse(value)
		// The first message of each field: the one shown under it.
		return result.success ? {} : Object.fromEntries(result.error.issues.toReversed().map((i) => [i.path.join('.'), i.message]))
	}
	test('name is required and spaces alone count as empty; email must look like text@text.text', () => {
		expect(errors({ name: '   ', email: '' })).toEqual({ name: 'nameRequired', email: 'emailRequired' })
		for (const email of ['a@b', 'a b@c.d', '@c.d', 'a@.', 'plain'])
			expect(errors({ name: 'Ann', email })).toEqual({ email: 'emailInvalid' })
		expect(errors({ name: ' Ann ', email: ' ann@example.com ' })).toEqual({})
		expect(contactFormSchema(false).parse({ name: ' Ann ', email: ' ann@example.com ', phone: '  ', notes: '' })).toEqual({
			name: 'Ann',
			email: 'ann@example.com',
		})
	})
	test('phone is required only when the organization requires it, and shows with the other errors', () => {
		expect(errors({ name: 'Ann', email: 'ann@example.com' }, false)).toEqual({})
		expect(errors({ name: '', email: 'ann@example.com', phone: ' ' }, true)).toEqual({ name: 'nameRequired', phone: 'phoneRequired' })
		expect(errors({ name: 'Ann', email: 'ann@example.com', phone: '1'.repeat(41) }, true)).toEqual({ phone: 'phoneTooLong' })
	})
	test('a phone, given or required, is written as a phone number', () => {
		for (const requirePhone of [false, true]) {
			for (const phone of ['abc', '555-CALL-NOW', '12', '<b>1</b>'])
				expect(errors({ name: 'Ann', email: 'ann@example.com', phone }, requirePhone)).toEqual({ phone: 'phoneInvalid' })
			for (const phone of ['+1 (555) 010-2030', '555.010.2030', '+55 11 91234-5678'])
				expect(errors({ name: 'Ann', email: 'ann@example.com', phone }, requirePhone)).toEqual({})
		}
	})
})

describe('choices in the address', () => {
	const url = (q: string) => new URL(`http://x/book/s/slot?${q}`)
	test('keeps well-formed choices and drops the rest', () => {
		const id = '6f1c2b3a-1111-4222-8333-444455556666'
		expect(readChoices(url(`service=${id}&provider=nope&mode=time&start=2026-12-01T10:00:00Z&tz=Europe/Paris&more=2`))).toEqual({
			service: id,
			mode: 'time',
			provider: undefined,
			date: undefined,
			start: '2026-12-01T10:00:00.000Z',
			tz: 'Europe/Paris',
			more: 2,
			reschedule: undefined,
		})
		expect(readChoices(url('start=yesterday&tz=Mars/Olympus&more=-1&mode=x&reschedule=abc'))).toMatchObject({
			mode: 'provider',
			start: undefined,
			tz: undefined,
			more: undefined,
			reschedule: undefined,
		})
	})
	test('writes them back without empty values or the default mode', () => {
		expect(choiceQuery({ service: 'a', mode: 'provider', provider: undefined, tz: 'UTC' })).toBe('?service=a&tz=UTC')
		expect(choiceQuery({ mode: 'provider' })).toBe('')
	})
	test('reads back as the same choices, the characters of a zone and an instant included', () => {
		const choices = {
			service: '6f1c2b3a-1111-4222-8333-444455556666',
			mode: 'time' as const,
			provider: '7f1c2b3a-1111-4222-8333-444455556666',
			date: '2026-12-01',
			start: '2026-12-01T10:00:00.000Z',
			tz: 'Etc/GMT+5',
			more: 3,
			reschedule: 'a1'.repeat(32),
		}
		const query = choiceQuery(choices)
		expect(query).toContain('tz=Etc%2FGMT%2B5')
		expect(readChoices(url(query.slice(1)))).toEqual(choices)
	})
})

describe('branding', () => {
	test("the organization's logo and colours when valid, the defaults otherwise", () => {
		expect(brandingOf({ logo_url: 'https://cdn.example.com/l.png', brand_colors: { primary: '#112233', secondary: '#445566' } })).toEqual({
			logoUrl: 'https://cdn.example.com/l.png',
			primary: '#112233',
			secondary: '#445566',
		})
		expect(brandingOf({ logo_url: 'javascript:alert(1)', brand_colors: { primary: 'red' } })).toEqual({
			logoUrl: null,
			primary: '#2563eb',
			secondary: '#64748b',
		})
		expect(brandingOf({ logo_url: null, brand_colors: null })).toEqual({ logoUrl: null, primary: '#2563eb', secondary: '#64748b' })
	})
	test('the display zones include the organization zone and the chosen one first', () => {
		expect(displayZones('America/Regina', 'UTC').slice(0, 2)).toEqual(['America/Regina', 'UTC'])
	})
})

describe('the slot step in the visitor language and region', () => {
	test('the zones offered first follow Accept-Language: its regions by preference, else its language; junk offers none', () => {
		expect(guessedZones('es-MX,es;q=0.9,en;q=0.5')).toEqual(['America/Mexico_City', 'Europe/Madrid', 'America/Bogota'])
		expect(guessedZones('en;q=0.3, pt-BR')).toEqual(['America/Sao_Paulo'])
		expect(guessedZones('en-US')).toContain('America/Los_Angeles')
		expect(guessedZones('en-US').length).toBeLessThanOrEqual(8)
		for (const junk of [null, '', '*', ';;;', 'xx-__proto__', 'constructor', 'es-MX;q=0', 'a'.repeat(10_000)]) {
			expect(() => guessedZones(junk)).not.toThrow()
			expect(guessedZones(junk).every((z) => typeof z === 'string')).toBe(true)
		}
		expect(guessedZones('es-MX;q=0')).toEqual([])
		expect(guessedZones('xx-__proto__')).toEqual([])
	})
	test('the heading over the times names the day in words, capitalized, in each language', () => {
		expect(dayHeading('2026-12-08', 'en')).toBe('Tuesday, December 8')
		expect(dayHeading('2026-12-08', 'es')).toBe('Martes, 8 de diciembre')
		expect(dayHeading('2026-12-08', 'pt-BR')).toBe('Terça-feira, 8 de dezembro')
	})
})
