/**
 * Scale out (docs/deploy.md, "Scale out"): two server instances on one PostgreSQL database
 * behind a proxy. Whatever one instance does, the other sees: sessions, flash messages,
 * sign-in throttling, the public pages' rate limits and the reads they keep, the scheduler's
 * once-only runs and the booking calendar's live refresh. Needs the build (`npm run build`).
 */
import { readdirSync, readFileSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { CookieJar, startCluster, type Backend, type Cluster } from './cluster.ts'

const BOOKING_MODULE_ID = 'b0000000-0000-4000-8000-000000000003'
const LOGIN_MAX_FAILURES = 4
const BOOK_LOOKUPS_PER_HOUR = 4
// A Monday 09:00 UTC: the weekly report of an organization in UTC is due (app/.server/notifications/weekly-report.ts).
const SCHEDULER_NOW = '2026-11-16T09:00:00Z'

let cluster: Cluster

beforeAll(async () => {
	cluster = await startCluster({
		LOGIN_MAX_FAILURES: String(LOGIN_MAX_FAILURES),
		BOOK_LOOKUPS_PER_HOUR: String(BOOK_LOOKUPS_PER_HOUR),
		SIGNUP_MAX_PER_IP: '1000',
		SCHEDULER_NOW,
		SCHEDULER_TICK_MS: '200',
	})
})

afterAll(async () => {
	await cluster?.stop()
})

type Options = { jar?: CookieJar; form?: Record<string, string> }

/** One request through the proxy, to the named instance; cookies kept in the jar. */
async function call(backend: Backend, pathname: string, { jar, form }: Options = {}) {
	const headers: Record<string, string> = { 'x-backend': backend, 'accept-language': 'en' }
	if (jar) headers.cookie = jar.header()
	if (form) {
		headers['content-type'] = 'application/x-www-form-urlencoded'
		headers.origin = cluster.origin
	}
	const response = await fetch(cluster.origin + pathname, {
		method: form ? 'POST' : 'GET',
		headers,
		body: form ? new URLSearchParams(form).toString() : undefined,
		redirect: 'manual',
	})
	expect(response.headers.get('x-served-by'), 'the proxy sent it where asked').toBe(backend)
	jar?.take(response)
	return response
}

let counter = 0
function account() {
	counter += 1
	return { fullName: 'Scale Owner', email: `scale-${Date.now()}-${counter}@example.test`, password: 'a long enough password 1' }
}

async function signUp(backend: Backend, jar: CookieJar) {
	const a = account()
	const res = await call(backend, '/auth?mode=signup', {
		jar,
		form: { intent: 'signup', fullName: a.fullName, email: a.email, password: a.password, confirmPassword: a.password },
	})
	expect(res.status, cluster.output()).toBe(302)
	const [row] = await cluster.query<{ user_id: string; organization_id: string; slug: string }>(
		`select m.user_id, m.organization_id, o.slug from auth.users u
		 join public.organization_members m on m.user_id = u.id join public.organizations o on o.id = m.organization_id
		 where u.email = $1`,
		[a.email],
	)
	return { ...a, userId: row!.user_id, orgId: row!.organization_id, slug: row!.slug }
}

/** A visitor who asks for the transactions page and closes the connection after `afterMs`. */
function leaveMidPage(backend: Backend, jar: CookieJar, afterMs: number) {
	return new Promise<void>((resolve) => {
		const request = http.get(
			`${cluster.origin}/app/transactions`,
			{ headers: { 'x-backend': backend, cookie: jar.header() } },
			(answer) => {
				answer.on('error', () => undefined)
				answer.resume()
			},
		)
		request.on('error', () => undefined)
		request.on('close', () => resolve())
		setTimeout(() => request.destroy(), afterMs)
	})
}

describe('two instances on one database', () => {
	test('a session made on one instance is valid on the other, and signing out on the other ends it everywhere', async () => {
		const jar = new CookieJar()
		await signUp('a', jar)
		expect(jar.has('p2p_session')).toBe(true)
		const onB = await call('b', '/app/dashboard', { jar })
		expect(onB.status).toBe(200)
		expect(await onB.text()).toContain('Account created!')
		expect((await call('a', '/app/dashboard', { jar })).status).toBe(200)

		const replay = new CookieJar()
		replay.take(new Response(null, { headers: { 'set-cookie': `p2p_session=${/p2p_session=([^;]+)/.exec(jar.header())![1]}` } }))
		const out = await call('b', '/auth/sign-out', { jar, form: {} })
		expect(out.status).toBe(302)
		const after = await call('a', '/app/dashboard', { jar: replay })
		expect(after.status).toBe(302)
		expect(after.headers.get('location')).toMatch(/^\/auth\?/)
	})

	test('sign-in throttling counts the failures made on both instances', async () => {
		const owner = await signUp('a', new CookieJar())
		const wrong = { intent: 'login', email: owner.email, password: 'not the password at all', redirectTo: '' }
		for (const backend of ['a', 'b', 'a', 'b'] as const) {
			expect((await call(backend, '/auth', { form: wrong })).status).toBe(400)
		}
		// The right password is refused now, on either instance: the fifth attempt is over the limit.
		const right = { ...wrong, password: owner.password }
		expect((await call('a', '/auth', { form: right })).status).toBe(429)
		expect((await call('b', '/auth', { form: right })).status).toBe(429)
	})

	test('the public booking pages count slot look-ups from both instances against one limit', async () => {
		const owner = await signUp('a', new CookieJar())
		const page = `/book/${owner.slug}/slot`
		for (const backend of ['a', 'b', 'a', 'b'] as const) {
			expect((await call(backend, page)).status).not.toBe(429)
		}
		expect((await call('a', page)).status).toBe(429)
		expect((await call('b', page)).status).toBe(429)
	})

	test('a change made through instance A reaches the public pages that instance B keeps (NOTIFY)', async () => {
		const jar = new CookieJar()
		const owner = await signUp('a', jar)
		const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)
		const start = `${day}T09:00:00.000Z`
		const everyDay = Object.fromEntries(
			['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
				d,
				{ start: '08:00', end: '18:00', enabled: true },
			]),
		)
		const [ids] = await cluster.query<{ service: string; provider: string; appointment: string }>(
			`with m as (insert into public.organization_modules (organization_id, module_id) values ($1, $2)),
			 b as (update public.booking_settings set business_hours = $4, timezone = 'UTC', min_advance_hours = 1 where organization_id = $1),
			 s as (insert into public.booking_services (organization_id, name, price, duration_minutes, color) values ($1, 'Haircut', 25, 30, '#16a34a') returning id),
			 p as (insert into public.booking_providers (organization_id, display_name) values ($1, 'Ana Silva') returning id),
			 a as (insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name, guest_email)
			   select $1, s.id, p.id, $3::timestamptz, $3::timestamptz + interval '30 minutes', 'confirmed', 'Pat Booked', 'pat@example.com' from s, p returning id)
			 select s.id as service, p.id as provider, a.id as appointment from s, p, a`,
			[owner.orgId, BOOKING_MODULE_ID, start, JSON.stringify(everyDay)],
		)
		// The details step of a taken time sends the visitor back to choose another.
		const details = `/book/${owner.slug}/details?service=${ids!.service}&provider=${ids!.provider}&start=${encodeURIComponent(start)}`
		for (let i = 0; i < 3; i++) {
			const taken = await call('b', details)
			expect(taken.status).toBe(302)
			expect(taken.headers.get('location')).toContain('refused=slot_taken')
			await new Promise((resolve) => setTimeout(resolve, 100))
		}
		const cancelled = await call('a', '/app/booking/calendar', {
			jar,
			form: { intent: 'change-status', id: ids!.appointment, change: 'cancel', day },
		})
		expect(cancelled.status).toBe(302)
		// B kept the busy times for a while; the database told it they changed.
		let free = await call('b', details)
		for (let i = 0; i < 20 && free.status !== 200; i++) {
			await new Promise((resolve) => setTimeout(resolve, 50))
			free = await call('b', details)
		}
		expect(free.status).toBe(200)
	})

	test('a visitor who leaves mid-page is no error on either instance: nothing logged, and both serve on', async () => {
		const jar = new CookieJar()
		const owner = await signUp('a', jar)
		// A full page of payments, so that the page is still loading when its visitor leaves.
		await cluster.query(
			`insert into public.transactions (organization_id, amount, date_received, description)
			 select $1, g * 3.5, current_date - g, 'Payment number ' || g from generate_series(1, 60) g`,
			[owner.orgId],
		)
		const logged = cluster.output().length
		// Each visitor closes its connection 1 to 12 ms after asking (node:http rather than fetch:
		// a socket that closes is what a server sees of a visitor who leaves).
		const visits = Array.from({ length: 40 }, (_, i) => leaveMidPage(i % 2 === 0 ? 'a' : 'b', jar, 1 + (i % 12)))
		await Promise.all(visits)
		await new Promise((r) => setTimeout(r, 500))
		const after = cluster.output().slice(logged)
		expect(after, 'nothing logged for visitors who left').not.toMatch(/error/i)
		for (const backend of ['a', 'b'] as const) {
			const page = await call(backend, '/app/transactions', { jar })
			expect(page.status).toBe(200)
			expect(await page.text()).toContain('Payment number 1')
		}
	})

	test("an error that is the server's is logged once, as one JSON line with the page's path", async () => {
		const jar = new CookieJar()
		await signUp('b', jar)
		const logged = cluster.output().length
		// A fault no request can cause: the signed-in role loses the right to read payments.
		await cluster.query('revoke select on public.transactions from authenticated')
		try {
			const page = await call('b', '/app/transactions', { jar })
			expect(page.status).toBe(500)
			expect(await page.text()).toContain('Failed to load transactions')
		} finally {
			await cluster.query('grant select on public.transactions to authenticated')
		}
		const lines = cluster
			.output()
			.slice(logged)
			.split('\n')
			.filter((line) => line.includes('"level":"error"'))
		expect(lines, cluster.output().slice(logged)).toHaveLength(1)
		expect(JSON.parse(lines[0]!.replace(/^\[b\] /, ''))).toMatchObject({
			path: '/app/transactions',
			error: expect.stringContaining('permission denied'),
		})
		expect((await call('b', '/app/transactions', { jar })).status).toBe(200)
	})

	test('a scheduled job runs once although both instances tick', async () => {
		const owner = await signUp('b', new CookieJar())
		await cluster.query(
			`insert into private.notification_preferences (user_id, organization_id, weekly_reports) values ($1, $2, true)
			 on conflict (user_id, organization_id) do update set weekly_reports = true`,
			[owner.userId, owner.orgId],
		)
		const runKey = `${owner.orgId}:2026-11-16`
		await expect
			.poll(
				async () =>
					(
						await cluster.query(`select 1 from private.job_runs where job = 'weekly-report' and run_key = $1 and finished_at is not null`, [
							runKey,
						])
					).length,
				{
					timeout: 15_000,
				},
			)
			.toBe(1)
		// Both instances keep ticking every 200 ms with the same "now": a few more rounds.
		await new Promise((r) => setTimeout(r, 1_500))
		const runs = await cluster.query(`select 1 from private.job_runs where job = 'weekly-report' and run_key = $1`, [runKey])
		const deliveries = await cluster.query(`select 1 from private.job_deliveries where job = 'weekly-report' and run_key = $1`, [runKey])
		expect(runs).toHaveLength(1)
		expect(deliveries).toHaveLength(1)
		const mails = (['a', 'b'] as const).flatMap((b) => {
			const outbox = path.join(cluster.dataDirs[b], 'outbox')
			let files: string[] = []
			try {
				files = readdirSync(outbox)
			} catch {
				return []
			}
			return files.filter((f) => f.includes(owner.email.split('@')[0]!)).map((f) => readFileSync(path.join(outbox, f), 'utf8'))
		})
		expect(mails.filter((m) => /weekly/i.test(m))).toHaveLength(1)
	})

	test("the calendar's live refresh carries a change made on instance A to a stream open on instance B, and A's flash shows on B", async () => {
		const jar = new CookieJar()
		const owner = await signUp('a', jar)
		await call('a', '/app/dashboard', { jar }) // reads the sign-up's flash
		const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)
		const [appointment] = await cluster.query<{ id: string }>(
			`with m as (insert into public.organization_modules (organization_id, module_id) values ($1, $2)),
			 s as (insert into public.booking_services (organization_id, name, price, duration_minutes, color) values ($1, 'Haircut', 25, 30, '#16a34a') returning id),
			 p as (insert into public.booking_providers (organization_id, display_name) values ($1, 'Ana Silva') returning id)
			 insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name, guest_email)
			 select $1, s.id, p.id, $3::timestamptz, $3::timestamptz + interval '30 minutes', 'pending', 'Pat Pending', 'pat@example.com' from s, p
			 returning id`,
			[owner.orgId, BOOKING_MODULE_ID, `${day}T09:00:00Z`],
		)

		const controller = new AbortController()
		const stream = await fetch(`${cluster.origin}/app/booking/events`, {
			headers: { 'x-backend': 'b', cookie: jar.header() },
			signal: controller.signal,
		})
		expect(stream.status).toBe(200)
		expect(stream.headers.get('x-served-by')).toBe('b')
		const reader = stream.body!.getReader()
		const decoder = new TextDecoder()
		let received = ''
		const readUntil = async (pattern: RegExp, timeoutMs: number) => {
			const until = Date.now() + timeoutMs
			while (!pattern.test(received)) {
				const left = until - Date.now()
				if (left <= 0) return false
				const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))])
				if (!chunk || chunk.done) return pattern.test(received)
				received += decoder.decode(chunk.value, { stream: true })
			}
			return true
		}
		try {
			// The stream on B is subscribed once its first line arrives.
			expect(await readUntil(/retry: 3000/, 10_000)).toBe(true)
			const changed = await call('a', '/app/booking/calendar', {
				jar,
				form: { intent: 'change-status', id: appointment!.id, change: 'confirm', day },
			})
			expect(changed.status).toBe(302)
			expect(await readUntil(/event: change/, 10_000), received).toBe(true)
		} finally {
			controller.abort()
			await reader.cancel().catch(() => undefined)
		}
		const onB = await call('b', `/app/booking/calendar?day=${day}`, { jar })
		expect(onB.status).toBe(200)
		expect(await onB.text()).toContain('Appointment confirmed')
	})
})
