import { readFileSync } from 'node:fs'
import ICAL from 'ical.js'
import { describe, expect, test } from 'vitest'
import type { z } from 'zod'
import { bookingIcs, icsParam, icsText } from '#app/.server/booking/ics.ts'
import { forgotPasswordSchema, signUpSchema } from '#app/lib/schemas/auth.ts'
import { contactSchema } from '#app/lib/schemas/book.ts'
import { dateOverrideSchema, newAppointmentSchema } from '#app/lib/schemas/booking.ts'
import { providersSaveSchema, servicesSaveSchema } from '#app/lib/schemas/booking-tables.ts'
import { clientsSaveSchema } from '#app/lib/schemas/clients.ts'
import { CONTROL_CHARACTERS, CONTROL_CHARACTERS_IN_TEXT, isMultiLine, isSingleLine, oneLine } from '#app/lib/schemas/fields.ts'
import { imapConnectSchema } from '#app/lib/schemas/integrations.ts'
import { newOrganizationSchema } from '#app/lib/schemas/onboarding.ts'
import { organizationSchema, profileSchema } from '#app/lib/schemas/settings.ts'
import { transactionsSaveSchema } from '#app/lib/schemas/transactions.ts'

/** Every kind of character the rule refuses in one line: C0 (tab and line breaks included), DEL, C1, the Unicode separators. */
const REFUSED_ON_ONE_LINE = [
	'\t',
	'\n',
	'\r',
	'\r\n',
	'\u0000',
	'\u0007',
	'\u000b',
	'\u001b',
	'\u007f',
	'\u0085',
	'\u009b',
	'\u2028',
	'\u2029',
]
/** What a multi-line text refuses all the same. */
const REFUSED_IN_TEXT = ['\u0000', '\u0007', '\u000b', '\u000c', '\u001b', '\u007f', '\u0085', '\u009b', '\u2028', '\u2029']
const ALLOWED_IN_TEXT = ['\t', '\n', '\r', '\r\n']

const uuid = '7c9e6679-7425-40de-944b-e07fc1f99ae7'
const row = (values: Record<string, unknown>) => ({ rows: [values] })

type Case = {
	form: string
	schema: z.ZodType
	valid: Record<string, unknown>
	field: string
	path: (string | number)[]
	kind: 'single' | 'multi'
	message?: string
}

/** Each form's free-text fields: the schema, a valid post, the field, where its error sits, and whether it may span lines. */
const CASES: Case[] = [
	...['name', 'email'].map((field) => ({
		form: 'book details',
		schema: contactSchema,
		valid: { name: 'Ana', email: 'ana@example.com' },
		field,
		path: [field],
		kind: 'single' as const,
		message: field === 'email' ? 'emailInvalid' : undefined,
	})),
	{
		form: 'book details',
		schema: contactSchema,
		valid: { name: 'Ana', email: 'ana@example.com' },
		field: 'notes',
		path: ['notes'],
		kind: 'multi',
	},
	...['clientName', 'clientEmail', 'clientPhone'].map((field) => ({
		form: 'new appointment',
		schema: newAppointmentSchema,
		valid: {
			service: uuid,
			provider: uuid,
			start: '2026-12-01T10:00:00Z',
			clientName: 'Ana',
			clientEmail: 'ana@example.com',
			clientPhone: '555 0100',
		},
		field,
		path: [field],
		kind: 'single' as const,
		message: field === 'clientEmail' ? 'clientEmailInvalid' : undefined,
	})),
	{
		form: 'new appointment',
		schema: newAppointmentSchema,
		valid: { service: uuid, provider: uuid, start: '2026-12-01T10:00:00Z', clientName: 'Ana', clientEmail: 'ana@example.com' },
		field: 'notes',
		path: ['notes'],
		kind: 'multi',
	},
	{
		form: 'date override',
		schema: dateOverrideSchema,
		valid: { date: '2026-12-01', closed: true, note: 'Holiday' },
		field: 'note',
		path: ['note'],
		kind: 'single',
	},
	{
		form: 'services',
		schema: servicesSaveSchema,
		valid: row({ name: 'Cut', description: 'A cut', price: '10', duration: '30', color: '#2563eb', active: 'active' }),
		field: 'rows.0.name',
		path: ['rows', 0, 'name'],
		kind: 'single',
	},
	{
		form: 'services',
		schema: servicesSaveSchema,
		valid: row({ name: 'Cut', description: 'A cut', price: '10', duration: '30', color: '#2563eb', active: 'active' }),
		field: 'rows.0.description',
		path: ['rows', 0, 'description'],
		kind: 'multi',
	},
	{
		form: 'providers',
		schema: providersSaveSchema,
		valid: row({ member: uuid, displayName: 'Dr. Rivera', bio: 'Bio', avatarUrl: 'https://example.com/a.png', active: 'active' }),
		field: 'rows.0.displayName',
		path: ['rows', 0, 'displayName'],
		kind: 'single',
	},
	{
		form: 'providers',
		schema: providersSaveSchema,
		valid: row({ member: uuid, displayName: 'Dr. Rivera', bio: 'Bio', avatarUrl: 'https://example.com/a.png', active: 'active' }),
		field: 'rows.0.bio',
		path: ['rows', 0, 'bio'],
		kind: 'multi',
	},
	{
		form: 'providers',
		schema: providersSaveSchema,
		valid: row({ member: uuid, displayName: 'Dr. Rivera', avatarUrl: 'https://example.com/a.png', active: 'active' }),
		field: 'rows.0.avatarUrl',
		path: ['rows', 0, 'avatarUrl'],
		kind: 'single',
		message: 'avatarUrlInvalid',
	},
	...['name', 'company', 'email'].map((field) => ({
		form: 'clients',
		schema: clientsSaveSchema,
		valid: row({ name: 'Ana', company: 'Acme', email: 'ana@example.com', status: 'active' }),
		field: `rows.0.${field}`,
		path: ['rows', 0, field],
		kind: 'single' as const,
		message: field === 'email' ? 'emailInvalid' : undefined,
	})),
	...['client', 'externalId'].map((field) => ({
		form: 'transactions',
		schema: transactionsSaveSchema,
		valid: row({
			client: 'Ana',
			externalId: 'X-1',
			amount: '10',
			dateReceived: '2026-12-01',
			category: 'matched',
			paymentMethod: 'Zelle',
			description: 'Rent',
		}),
		field: `rows.0.${field}`,
		path: ['rows', 0, field],
		kind: 'single' as const,
	})),
	{
		form: 'transactions',
		schema: transactionsSaveSchema,
		valid: row({
			client: 'Ana',
			amount: '10',
			dateReceived: '2026-12-01',
			category: 'matched',
			paymentMethod: 'Zelle',
			description: 'Rent',
		}),
		field: 'rows.0.description',
		path: ['rows', 0, 'description'],
		kind: 'multi',
	},
	{
		form: 'profile',
		schema: profileSchema,
		valid: { fullName: 'Ana Silva', preferredLanguage: 'en' },
		field: 'fullName',
		path: ['fullName'],
		kind: 'single',
	},
	{
		form: 'organization',
		schema: organizationSchema,
		valid: { name: 'Acme', slug: 'acme', timezone: 'UTC', description: 'We cut' },
		field: 'name',
		path: ['name'],
		kind: 'single',
	},
	{
		form: 'organization',
		schema: organizationSchema,
		valid: { name: 'Acme', slug: 'acme', timezone: 'UTC', description: 'We cut' },
		field: 'description',
		path: ['description'],
		kind: 'multi',
	},
	{ form: 'onboarding', schema: newOrganizationSchema, valid: { name: 'Acme' }, field: 'name', path: ['name'], kind: 'single' },
	// The sign-up form's errors are the form's own (one alert above it).
	{
		form: 'sign-up',
		schema: signUpSchema,
		valid: { fullName: 'Ana Silva', email: 'ana@example.com', password: 'secret1', confirmPassword: 'secret1' },
		field: 'fullName',
		path: [],
		kind: 'single',
	},
	{
		form: 'sign-up',
		schema: signUpSchema,
		valid: { fullName: 'Ana Silva', email: 'ana@example.com', password: 'secret1', confirmPassword: 'secret1' },
		field: 'email',
		path: [],
		kind: 'single',
		message: 'invalidEmail',
	},
	{
		form: 'forgot password',
		schema: forgotPasswordSchema,
		valid: { email: 'ana@example.com' },
		field: 'email',
		path: ['email'],
		kind: 'single',
		message: 'invalidEmail',
	},
	...['user', 'password'].map((field) => ({
		form: 'imap',
		schema: imapConnectSchema,
		valid: { intent: 'connectImap', host: 'imap.example.com', port: '993', user: 'ana@example.com', password: 'app-password' },
		field,
		path: [field],
		kind: 'single' as const,
		message: `integrations.errors.${field}Invalid`,
	})),
]

/** Where each form's messages are translated (the key its page looks up). */
const MESSAGE_KEY: Record<string, (message: string) => [string, string]> = {
	'book details': (m) => ['book', `errors.${m}`],
	'new appointment': (m) => ['booking', `errors.${m}`],
	'date override': (m) => ['booking', `errors.${m}`],
	services: (m) => ['booking', `errors.${m}`],
	providers: (m) => ['booking', `errors.${m}`],
	clients: (m) => ['clients', `errors.${m}`],
	transactions: (m) => ['transactions', `errors.${m}`],
	profile: (m) => ['settings', `errors.${m}`],
	organization: (m) => ['settings', `errors.${m}`],
	onboarding: (m) => ['common', `onboarding.errors.${m}`],
	'sign-up': (m) => ['auth', `errors.${m}.description`],
	'forgot password': (m) => ['auth', `errors.${m}.description`],
	imap: (m) => ['marketplace', m],
}

function translation(language: string, ns: string, key: string) {
	let node: unknown = JSON.parse(readFileSync(`public/locales/${language}/${ns}.json`, 'utf8'))
	for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part]
	return node
}

/** The post with `text` in the middle of the field's valid value. */
function withText(c: Case, text: string) {
	const post = structuredClone(c.valid) as Record<string, unknown>
	const keys = c.field.split('.')
	let node = post as Record<string, unknown>
	for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>
	const last = keys.at(-1)!
	const value = String(node[last] ?? 'text')
	const at = value.indexOf('@') > 0 ? value.indexOf('@') : Math.ceil(value.length / 2)
	node[last] = `${value.slice(0, at)}${text}${value.slice(at)}`
	return post
}

function messagesAt(c: Case, post: unknown) {
	const result = c.schema.safeParse(post)
	if (result.success) return []
	return result.error.issues.filter((i) => JSON.stringify(i.path) === JSON.stringify(c.path)).map((i) => i.message)
}

describe('the control-character rule of every text field (fields.ts)', () => {
	test.each(CASES.map((c) => [`${c.form} › ${c.field}`, c] as const))('%s', (_label, c) => {
		expect(c.schema.safeParse(c.valid).success).toBe(true)
		const refused = c.kind === 'single' ? REFUSED_ON_ONE_LINE : REFUSED_IN_TEXT
		const message = c.message ?? (c.kind === 'single' ? CONTROL_CHARACTERS : CONTROL_CHARACTERS_IN_TEXT)
		for (const character of refused) {
			expect(messagesAt(c, withText(c, character)), JSON.stringify(character)).toContain(message)
		}
		if (c.kind === 'multi') {
			for (const character of ALLOWED_IN_TEXT)
				expect(c.schema.safeParse(withText(c, `line${character}line`)).success, JSON.stringify(character)).toBe(true)
		}
		// The message is said in every language.
		const [ns, key] = MESSAGE_KEY[c.form]!(message)
		for (const language of ['en', 'es', 'pt-BR']) expect(typeof translation(language, ns, key), `${language} ${ns}:${key}`).toBe('string')
		// A line break pasted at an end is trimmed, not refused; accents and emoji are text.
		if (c.kind === 'single' && !c.message) expect(c.schema.safeParse(withText(c, 'é—😀')).success).toBe(true)
	})

	test('the rule itself, and the one-line form of a stored text', () => {
		expect(isSingleLine('Ana Silva, Ltd. — "Café" 😀')).toBe(true)
		expect(REFUSED_ON_ONE_LINE.filter((c) => isSingleLine(`a${c}b`))).toEqual([])
		expect(isMultiLine('one\r\ntwo\n\tthree')).toBe(true)
		expect(REFUSED_IN_TEXT.filter((c) => isMultiLine(`a${c}b`))).toEqual([])
		expect(oneLine('Evil\r\nBcc: x@y\u2028z\u0000')).toBe('Evil Bcc: x@y z ')
	})
})

describe('calendar values (RFC 5545)', () => {
	test('TEXT escapes backslash, semicolon, comma and every line break, and drops other control characters', () => {
		expect(icsText('a\\b;c,d\r\ne\rf\ng\u2028h\u0000i\u001bj\tk')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng\\nh' + 'ij\tk')
	})

	test('a parameter is quoted, with no DQUOTE and no control character left', () => {
		expect(icsParam('Evil"\r\nATTENDEE:mailto:x@y')).toBe(`"Evil' ATTENDEE:mailto:x@y"`)
	})

	test('any organizer name, title and description parse back to one event with one organizer and no attendee or alarm', () => {
		const hostile = [
			'Evil\r\nATTENDEE:mailto:x@y',
			'x"\r\nBEGIN:VALARM\r\nTRIGGER:-PT5M\r\nEND:VALARM',
			'a;b,c\\d\u2028END:VEVENT',
			`${'é'.repeat(100)}\n${'😀'.repeat(40)}`,
		]
		for (const text of hostile) {
			const ics = bookingIcs({
				id: uuid,
				startsAt: '2026-12-01T10:00:00Z',
				endsAt: '2026-12-01T10:30:00Z',
				title: text,
				description: text,
				revision: 2,
				cancelled: false,
				organizerName: text,
				url: `https://example.com/x?t=${encodeURIComponent(text)}`,
			})
			expect(ics.split('\r\n').filter((line) => Buffer.byteLength(line) > 75 || /[\r\n]/.test(line))).toEqual([])
			const calendar = new ICAL.Component(ICAL.parse(ics))
			expect(calendar.getAllSubcomponents().map((c) => c.name)).toEqual(['vevent'])
			const event = calendar.getFirstSubcomponent('vevent')!
			expect(event.getAllSubcomponents()).toEqual([])
			expect(event.getAllProperties('attendee')).toEqual([])
			expect(event.getAllProperties('organizer')).toHaveLength(1)
			expect(event.getFirstPropertyValue('summary')).toBe(text.replace(/\r\n?|\u2028/g, '\n'))
		}
	})
})
