/**
 * Hardening rules that live in the database and the auth adapter: a recovery token is spent
 * once however many requests race for it, onboarding makes an organization only for a user
 * who has none, and sign-ups are throttled per address.
 */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { createRecoveryToken, resetPasswordWithToken, signIn, signUp } from '#app/.server/auth/local.ts'
import { asSystem, asUser, sql, systemStatement } from '#app/.server/db/index.ts'
import { createOrganization } from '#app/.server/organizations/current.ts'
import { allowEvent, rateLimitPruningJob } from '#app/.server/rate-limit.ts'
import { createUser, isDbTarget } from './fixtures.ts'

beforeAll(() => {
	process.env.SESSION_SECRET ??= 'test-session-secret-of-at-least-32-characters'
	process.env.LOG_LEVEL = 'silent'
})

const address = () => `hardening-${randomUUID()}@example.test`

async function sessionsOf(userId: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ n: number }>`select count(*)::int as n from auth.sessions where user_id = ${userId}`.execute(trx),
	)
	return rows[0]!.n
}

async function organizationsOf(userId: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ n: number; gears: number }>`
			select count(*)::int as n, coalesce(sum(o.gears_owned), 0)::int as gears
			from public.organization_members m join public.organizations o on o.id = m.organization_id
			where m.user_id = ${userId}`.execute(trx),
	)
	return rows[0]!
}

describe('password recovery token', () => {
	test('is spent by the first reset: a second use with the same token changes nothing', async () => {
		const email = address()
		const created = await signUp({ email, password: 'old-password', fullName: 'Once' })
		const recovery = await createRecoveryToken(email)
		const first = await resetPasswordWithToken(recovery!.token, 'first-new')
		expect(first).toMatchObject({ userId: created.ok && created.user.userId })
		expect(await resetPasswordWithToken(recovery!.token, 'second-new')).toBeNull()
		expect((await signIn({ email, password: 'first-new', ip: '10.9.0.1' })).ok).toBe(true)
		expect((await signIn({ email, password: 'second-new', ip: '10.9.0.1' })).ok).toBe(false)
	})

	test.runIf(isDbTarget('pg'))('six concurrent resets with one token: exactly one succeeds and sets its password', async () => {
		const email = address()
		await signUp({ email, password: 'old-password', fullName: 'Race' })
		const recovery = await createRecoveryToken(email)
		const passwords = Array.from({ length: 6 }, (_, i) => `raced-password-${i}`)
		const outcomes = await Promise.all(passwords.map((p) => resetPasswordWithToken(recovery!.token, p)))
		const winners = outcomes.flatMap((o, i) => (o ? [passwords[i]!] : []))
		expect(winners).toHaveLength(1)
		for (const p of passwords)
			expect((await signIn({ email, password: p, ip: `10.9.1.${passwords.indexOf(p)}` })).ok).toBe(p === winners[0])
	})
})

describe('onboarding', () => {
	test('a user who already belongs to an organization cannot create another one, however often they post', async () => {
		const owner = await createUser('Onboarded')
		expect(await organizationsOf(owner.userId)).toEqual({ n: 1, gears: 15000 })
		for (let i = 0; i < 3; i++) expect(await createOrganization(owner.userId, `Extra ${i}`)).toEqual({ ok: false, code: 'already_member' })
		expect(await organizationsOf(owner.userId)).toEqual({ n: 1, gears: 15000 })
	})

	test('a user with no organization creates exactly one', async () => {
		const user = await createUser('Leaver')
		await asSystem((trx) =>
			sql`delete from public.organizations where id in (select organization_id from public.organization_members where user_id = ${user.userId})`.execute(
				trx,
			),
		)
		expect(await organizationsOf(user.userId)).toEqual({ n: 0, gears: 0 })
		expect((await createOrganization(user.userId, 'Second Start')).ok).toBe(true)
		expect(await createOrganization(user.userId, 'Third Start')).toEqual({ ok: false, code: 'already_member' })
		expect(await organizationsOf(user.userId)).toEqual({ n: 1, gears: 15000 })
	})

	test.runIf(isDbTarget('pg'))('ten concurrent onboarding posts of a user without organization make one organization', async () => {
		const user = await createUser('Racer')
		await asSystem((trx) =>
			sql`delete from public.organizations where id in (select organization_id from public.organization_members where user_id = ${user.userId})`.execute(
				trx,
			),
		)
		const results = await Promise.all(Array.from({ length: 10 }, (_, i) => createOrganization(user.userId, `Race ${i}`)))
		expect(results.filter((r) => r.ok)).toHaveLength(1)
		expect(await organizationsOf(user.userId)).toEqual({ n: 1, gears: 15000 })
	})

	test('the SQL function itself refuses (a caller that skips the screen gets the same rule)', async () => {
		const owner = await createUser('Direct Caller')
		await expect(asUser(owner.userId, (trx) => sql`select public.create_organization('Sneaky')`.execute(trx))).rejects.toThrow(
			'already_member',
		)
	})
})

describe('sign-up throttling', () => {
	test('an address gets SIGNUP_MAX_PER_IP sign-ups in the window, then a refusal that creates nothing', async () => {
		process.env.SIGNUP_MAX_PER_IP = '20'
		const ip = `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID()}`
		for (let i = 0; i < 20; i++) expect((await signUp({ email: address(), password: 'pw-123456', fullName: 'Many', ip })).ok).toBe(true)
		const refused = address()
		expect(await signUp({ email: refused, password: 'pw-123456', fullName: 'One Too Many', ip })).toEqual({
			ok: false,
			code: 'too_many_attempts',
		})
		const { rows } = await asSystem((trx) =>
			sql<{ n: number }>`select count(*)::int as n from auth.users where email = ${refused}`.execute(trx),
		)
		expect(rows[0]!.n).toBe(0)
		// Another address is not affected.
		expect((await signUp({ email: address(), password: 'pw-123456', fullName: 'Elsewhere', ip: `${ip}-other` })).ok).toBe(true)
	})

	/** Moves a key's counted events to the bucket (a minute, for a 60-minute window) of `ago`. */
	const age = (key: string, ago: string) =>
		asSystem((trx) =>
			sql`update private.rate_limit_buckets set bucket = date_bin(interval '1 minute', now() - ${ago}::interval, timestamptz 'epoch') where key = ${key}`.execute(
				trx,
			),
		)

	test('events older than the window no longer count', async () => {
		const key = `window-${randomUUID()}`
		expect(await allowEvent('test', key, { limit: 1, windowMinutes: 60 })).toBe(true)
		expect(await allowEvent('test', key, { limit: 1, windowMinutes: 60 })).toBe(false)
		await age(key, '61 minutes')
		expect(await allowEvent('test', key, { limit: 1, windowMinutes: 60 })).toBe(true)
	})

	test('events inside the window still count', async () => {
		const key = `window-${randomUUID()}`
		expect(await allowEvent('test', key, { limit: 1, windowMinutes: 60 })).toBe(true)
		await age(key, '59 minutes')
		expect(await allowEvent('test', key, { limit: 1, windowMinutes: 60 })).toBe(false)
	})

	test('a key keeps one row a sixtieth of the window, however many events it had (the cost of a call does not grow with the limit)', async () => {
		const key = `busy-${randomUUID()}`
		await asSystem((trx) =>
			sql`insert into private.rate_limit_buckets (kind, key, bucket, events)
				select 'test', ${key}, date_bin(interval '1 minute', now() - make_interval(mins => m), timestamptz 'epoch'), 500
				from generate_series(1, 180) m`.execute(trx),
		)
		expect(await allowEvent('test', key, { limit: 1_000_000, windowMinutes: 60 })).toBe(true)
		const { rows } = await asSystem((trx) =>
			sql<{
				n: number
				events: number
			}>`select count(*)::int as n, sum(events)::int as events from private.rate_limit_buckets where key = ${key}`.execute(trx),
		)
		// The buckets of the last hour and a minute (500 events each) and this event's, nothing older.
		expect(rows[0]!.n).toBeLessThanOrEqual(62)
		expect(rows[0]!.n).toBeGreaterThanOrEqual(60)
		expect(rows[0]!.events).toBe((rows[0]!.n - 1) * 500 + 1)
		// Over a limit just under that count, the next event is refused.
		expect(await allowEvent('test', key, { limit: rows[0]!.events, windowMinutes: 60 })).toBe(false)
	})

	test.runIf(isDbTarget('pg'))('thirty concurrent events against a limit of five: five allowed', async () => {
		const key = `race-${randomUUID()}`
		const allowed = await Promise.all(Array.from({ length: 30 }, () => allowEvent('test', key, { limit: 5, windowMinutes: 60 })))
		expect(allowed.filter(Boolean)).toHaveLength(5)
	})

	test('events of several keys that arrive together are answered each by its own key’s count', async () => {
		const [a, b] = [`together-a-${randomUUID()}`, `together-b-${randomUUID()}`]
		const limit = { limit: 2, windowMinutes: 60 }
		// One turn of the event loop: one statement for all five.
		const answers = await Promise.all([
			allowEvent('test', a, limit),
			allowEvent('test', b, limit),
			allowEvent('test', a, limit),
			allowEvent('test', a, limit),
			allowEvent('test', b, limit),
		])
		expect(answers).toEqual([true, true, true, false, true])
		expect(await allowEvent('test', b, limit)).toBe(false)
	})

	test.runIf(isDbTarget('pg'))(
		'two batches of the same keys in opposite orders, at once on two connections, both answer (no deadlock)',
		async () => {
			const events = Array.from({ length: 20 }, (_, i) => ({
				kind: 'test',
				key: `order-${randomUUID()}-${i}`,
				max_events: 100,
				window_minutes: 60,
			}))
			const batch = (list: typeof events) =>
				systemStatement(sql<{ allowed: boolean }>`select allowed from private.allow_events(${JSON.stringify(list)}::jsonb)`)
			for (let round = 0; round < 10; round++) {
				const [forward, backward] = await Promise.all([batch(events), batch([...events].reverse())])
				expect([...forward, ...backward].every((row) => row.allowed)).toBe(true)
			}
		},
	)

	test('the previous version’s function (a rolling deploy) counts in the same buckets', async () => {
		const key = `previous-${randomUUID()}`
		const previous = () =>
			systemStatement(sql<{ allowed: boolean }>`select private.allow_event('test', ${key}, 2, now() - interval '60 minutes') as allowed`)
		expect(await previous()).toEqual([{ allowed: true }])
		expect(await allowEvent('test', key, { limit: 2, windowMinutes: 60 })).toBe(true)
		expect(await previous()).toEqual([{ allowed: false }])
	})

	test('an event the database refuses fails only its own call, not the others sent with it', async () => {
		const key = `neighbour-${randomUUID()}`
		const [bad, good] = await Promise.allSettled([
			allowEvent('k'.repeat(41), key, { limit: 5, windowMinutes: 60 }),
			allowEvent('test', key, { limit: 5, windowMinutes: 60 }),
		])
		expect(bad.status).toBe('rejected')
		expect(good).toEqual({ status: 'fulfilled', value: true })
	})

	test('a key with a NUL or a lone surrogate (a header an attacker wrote) is counted, not an error', async () => {
		const key = `odd-${randomUUID()}\0\ud800`
		expect(await allowEvent('test', key, { limit: 1, windowMinutes: 60 })).toBe(true)
		expect(await allowEvent('test', key, { limit: 1, windowMinutes: 60 })).toBe(false)
	})

	test('the daily pruning forgets counts older than two days, of any key, and keeps the rest', async () => {
		const [gone, kept] = [`gone-${randomUUID()}`, `kept-${randomUUID()}`]
		await asSystem(async (trx) => {
			await sql`insert into private.rate_limit_buckets (kind, key, bucket, events) values
				('test', ${gone}, now() - interval '3 days', 5), ('test', ${kept}, now() - interval '3 days', 5),
				('test', ${kept}, date_bin(interval '1 minute', now() - interval '30 minutes', timestamptz 'epoch'), 2)`.execute(trx)
			await sql`insert into private.rate_limit_events (kind, key, happened_at) values
				('test', ${gone}, now() - interval '3 days'), ('test', ${kept}, now() - interval '1 day')`.execute(trx)
		})
		const now = new Date()
		const [runKey] = await rateLimitPruningJob.due(now)
		await rateLimitPruningJob.run(runKey!, { now, job: rateLimitPruningJob.name, signal: new AbortController().signal })
		const { rows } = await asSystem((trx) =>
			sql<{ key: string; events: number }>`select key, events from private.rate_limit_buckets where key in (${gone}, ${kept})
				union all select key, 0 from private.rate_limit_events where key in (${gone}, ${kept})`.execute(trx),
		)
		expect(rows).toEqual(
			expect.arrayContaining([
				{ key: kept, events: 2 },
				{ key: kept, events: 0 },
			]),
		)
		expect(rows).toHaveLength(2)
		// The count the limit reads is the recent one.
		expect(await allowEvent('test', kept, { limit: 3, windowMinutes: 60 })).toBe(true)
		expect(await allowEvent('test', kept, { limit: 3, windowMinutes: 60 })).toBe(false)
	})

	test('a window longer than the two days of counts kept is refused as a programming error', async () => {
		await expect(allowEvent('test', 'any', { limit: 1, windowMinutes: 2 * 24 * 60 })).rejects.toThrow('1440 minutes at most')
	})

	test('a refused reset leaves the user’s sessions alone', async () => {
		const owner = await createUser('Sessions Kept')
		await asSystem((trx) =>
			sql`insert into auth.sessions (user_id, token_hash, not_after) values (${owner.userId}, ${randomUUID()}, now() + interval '1 day')`.execute(
				trx,
			),
		)
		expect(await resetPasswordWithToken('not-a-real-token', 'whatever')).toBeNull()
		expect(await sessionsOf(owner.userId)).toBe(1)
	})
})
