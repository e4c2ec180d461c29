/**
 * The two shared validators behind the check constraints (and create_booking's email check):
 * public.is_valid_email and public.is_valid_business_hours, called directly, as a signed-in user
 * (who runs them whenever they write one of those columns). tests/db/constraints.test.ts checks
 * that the constraints refuse bad values through them.
 */
import { describe, expect, test } from 'vitest'
import { asAnon, asUser, sql } from '#app/.server/db/index.ts'
import { createUser, refusal } from './fixtures.ts'

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
const day = { start: '09:00', end: '17:00', enabled: true }
const week = (d: unknown = day) => Object.fromEntries(DAYS.map((name) => [name, d]))

async function emailVerdicts(values: (string | null)[]) {
	const user = await createUser('Validator Email')
	return asUser(user.userId, async (trx) => {
		const verdicts: Record<string, boolean | null> = {}
		for (const value of values) {
			const { rows } = await sql<{ ok: boolean | null }>`select public.is_valid_email(${value}::text) as ok`.execute(trx)
			verdicts[String(value)] = rows[0]!.ok
		}
		return verdicts
	})
}

async function hoursVerdicts(values: [string, string | null][]) {
	const user = await createUser('Validator Hours')
	return asUser(user.userId, async (trx) => {
		const verdicts: Record<string, boolean | null> = {}
		for (const [label, value] of values) {
			const { rows } = await sql<{ ok: boolean | null }>`select public.is_valid_business_hours(${value}::jsonb) as ok`.execute(trx)
			verdicts[label] = rows[0]!.ok
		}
		return verdicts
	})
}

describe('public.is_valid_email', () => {
	test('accepts an address with one @, no whitespace and a dot in the domain, up to 254 characters', async () => {
		const at254 = `${'x'.repeat(254 - '@example.com'.length)}@example.com`
		const verdicts = await emailVerdicts([
			'maria@example.com',
			'maria.lopez+bookings@mail.example.co.uk',
			at254,
			`x${at254}`,
			'not-an-email',
			'a@b',
			'@example.com',
			'maria@',
			'maria@@example.com',
			'maria lopez@example.com',
			'maria@example .com',
			'maria@example.',
			'',
			null,
		])
		expect(verdicts).toEqual({
			'maria@example.com': true,
			'maria.lopez+bookings@mail.example.co.uk': true,
			[at254]: true,
			[`x${at254}`]: false,
			'not-an-email': false,
			'a@b': false,
			'@example.com': false,
			'maria@': false,
			'maria@@example.com': false,
			'maria lopez@example.com': false,
			'maria@example .com': false,
			'maria@example.': false,
			'': false,
			// Null in, null out: a check constraint lets an empty optional column through.
			null: null,
		})
	})
})

describe('public.is_valid_business_hours', () => {
	test('accepts the seven weekdays, each with start before end (24:00 allowed as an end) and enabled', async () => {
		const verdicts = await hoursVerdicts([
			['a working week', JSON.stringify({ ...week(), saturday: { ...day, enabled: false } })],
			['open until midnight', JSON.stringify(week({ start: '00:00', end: '24:00', enabled: true }))],
			['a day missing', JSON.stringify({ ...week(), sunday: undefined })],
			['an extra key', JSON.stringify({ ...week(), holiday: day })],
			['enabled not a boolean', JSON.stringify(week({ ...day, enabled: 'yes' }))],
			['a time without its leading zero', JSON.stringify(week({ ...day, start: '9:00' }))],
			['start after end', JSON.stringify(week({ ...day, start: '18:00' }))],
			['start equal to end', JSON.stringify(week({ ...day, end: '09:00' }))],
			['an hour past 24', JSON.stringify(week({ ...day, end: '25:00' }))],
			['24:00 as a start', JSON.stringify(week({ ...day, start: '24:00', end: '24:00' }))],
			['an end missing', JSON.stringify(week({ start: '09:00', enabled: true }))],
			['a number for a time', JSON.stringify(week({ ...day, start: 900 }))],
			['a day that is not an object', JSON.stringify({ ...week(), monday: 'closed' })],
			['an array', '[]'],
			['a string', '"closed"'],
			['json null', 'null'],
			['sql null', null],
		])
		expect(verdicts).toEqual({
			'a working week': true,
			'open until midnight': true,
			'a day missing': false,
			'an extra key': false,
			'enabled not a boolean': false,
			'a time without its leading zero': false,
			'start after end': false,
			'start equal to end': false,
			'an hour past 24': false,
			'24:00 as a start': false,
			'an end missing': false,
			'a number for a time': false,
			'a day that is not an object': false,
			'an array': false,
			'a string': false,
			'json null': false,
			'sql null': null,
		})
	})
})

test('a visitor cannot call either validator (they are granted to signed-in users and the service role)', async () => {
	expect(await refusal(asAnon((trx) => sql`select public.is_valid_email('a@example.com')`.execute(trx)))).toBe('42501')
	expect(await refusal(asAnon((trx) => sql`select public.is_valid_business_hours('{}'::jsonb)`.execute(trx)))).toBe('42501')
})
