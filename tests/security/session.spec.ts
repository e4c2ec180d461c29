/**
 * Sessions as an attacker meets them: cookie flags (HttpOnly, SameSite, Path, and Secure behind
 * an https PUBLIC_URL), a new session id at every sign-in (no fixation), a cookie replayed after
 * sign-out is refused, and a session ends after 7 idle days and after 30 days in any case
 * (app/.server/auth/local.ts). The database ages a session instead of waiting.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { rmSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { withDatabase } from '../e2e/db.ts'
import { FORM, mergeCookies, raw } from './http.ts'
import { baseURLOf } from './walk.ts'
import { signIn, signUp } from './world.ts'

const tokenOf = (cookie: string) => /(?:^|; )p2p_session=([^;]+)/.exec(cookie)?.[1] ?? null
/** The session token the cookie carries (react-router's cookie encoding: base64 of JSON). */
const sessionToken = (cookie: string) => JSON.parse(decodeURIComponent(escape(atob(decodeURIComponent(tokenOf(cookie)!))))) as string
const sessionRow = (cookie: string) => createHash('sha256').update(sessionToken(cookie)).digest('hex')

function cookieLines(headers: Record<string, string | string[] | undefined>) {
	const lines = headers['set-cookie']
	return Array.isArray(lines) ? lines : lines ? [lines] : []
}

/** Checks every Set-Cookie line; returns them by name. */
function expectFlags(lines: string[], secure: boolean) {
	const byName: Record<string, string> = {}
	for (const line of lines) {
		const name = line.split('=')[0]!
		byName[name] = line
		expect(line, name).toMatch(/;\s*SameSite=(Lax|Strict)/i)
		expect(line, name).toMatch(/;\s*Path=\//i)
		if (secure) expect(line, name).toMatch(/;\s*Secure/i)
		else expect(line, name).not.toMatch(/;\s*Secure/i)
		// What identifies a user (the session, the current organization, the flash) is never readable by scripts.
		if (['p2p_session', 'p2p_org', 'p2p_toast', 'p2p_book', 'p2p_gmail_oauth'].includes(name)) expect(line, name).toMatch(/;\s*HttpOnly/i)
	}
	return byName
}

/** Signs up, switches the language, the sidebar and the organization, signs out and in again: every cookie the app sets. */
async function everyCookie(base: string) {
	const lines: string[] = []
	const account = await signUp(base, 'Cookie Monster')
	const signUpAgain = await signIn(base, account.email, account.password)
	lines.push(...cookieLines(signUpAgain.response.headers))
	let cookie = signUpAgain.cookie
	for (const body of ['intent=language&language=es&redirectTo=/app', 'intent=sidebar&state=collapsed&redirectTo=/app']) {
		const response = await raw(base, 'POST', '/preferences', { headers: { ...FORM, cookie }, body })
		lines.push(...cookieLines(response.headers))
		cookie = mergeCookies(cookie, response.headers)
	}
	const orgId = await withDatabase(
		async (db) =>
			(
				await db.query<{ id: string }>(
					`select m.organization_id as id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
					[account.email],
				)
			).rows[0]!.id,
	)
	const switched = await raw(base, 'POST', '/preferences', {
		headers: { ...FORM, cookie },
		body: `intent=organization&organizationId=${orgId}&redirectTo=/app`,
	})
	lines.push(...cookieLines(switched.headers))
	const out = await raw(base, 'POST', '/auth/sign-out', { headers: { ...FORM, cookie }, body: '' })
	lines.push(...cookieLines(out.headers))
	return lines
}

test('every cookie is SameSite with a Path, the session’s and the organization’s HttpOnly; no Secure over plain http', async () => {
	const byName = expectFlags(await everyCookie(baseURLOf()), false)
	expect(Object.keys(byName)).toEqual(expect.arrayContaining(['p2p_session', 'p2p_org', 'lng', 'sidebar:state']))
	expect(byName.p2p_session).toMatch(/Max-Age=\d+/)
})

test('behind an https PUBLIC_URL every cookie is Secure too', async () => {
	test.setTimeout(90_000)
	const port = Number(new URL(baseURLOf()).port) + 2
	const dataDir = `tests/.tmp/e2e-secure-${port}`
	rmSync(dataDir, { recursive: true, force: true })
	const busy = await raw(`http://localhost:${port}`, 'GET', '/healthz').catch(() => null)
	if (busy) throw new Error(`port ${port} is in use: the https-configured server needs it`)
	const server = spawn('node', ['server.js'], {
		env: {
			...process.env,
			PORT: String(port),
			HOST: '127.0.0.1',
			DATA_DIR: dataDir,
			DATABASE_URL: process.env.E2E_DATABASE_URL,
			PUBLIC_URL: `https://localhost:${port}`,
			SESSION_SECRET: 'e2e-session-secret-of-at-least-32-characters',
			SECRETS_KEY: 'e2e-secrets-key-of-at-least-32-characters',
			SIGNUP_MAX_PER_IP: '100000',
			LOG_LEVEL: 'silent',
		},
		stdio: ['ignore', 'ignore', 'pipe'],
	})
	// What the server says when it cannot start (it logs why, then exits with code 1).
	let stderr = ''
	server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
	try {
		const base = `http://localhost:${port}`
		for (let i = 0; ; i++) {
			const up = await raw(base, 'GET', '/healthz').catch(() => null)
			if (up?.status === 200) break
			if (i > 120 || server.exitCode !== null)
				throw new Error(`the https-configured server did not start (exit code ${server.exitCode}): ${stderr}`)
			await new Promise((r) => setTimeout(r, 500))
		}
		const byName = expectFlags(await everyCookie(base), true)
		expect(Object.keys(byName)).toEqual(expect.arrayContaining(['p2p_session', 'p2p_org', 'lng', 'sidebar:state']))
	} finally {
		server.kill('SIGTERM')
	}
})

test('signing in always starts a new session: a cookie planted before sign-in is never the victim’s session', async () => {
	const base = baseURLOf()
	const attacker = await signUp(base, 'Planter')
	const victim = await signUp(base, 'Planted')
	const planted = (await signIn(base, attacker.email, attacker.password)).cookie
	// The victim signs in in a browser that carries the attacker's session cookie.
	const { response, cookie } = await signIn(base, victim.email, victim.password, planted)
	expect(response.status).toBe(302)
	expect(tokenOf(cookie)).not.toBe(tokenOf(planted))
	// The planted cookie is still only the attacker's session.
	const asPlanted = await raw(base, 'GET', '/app/settings', { headers: { cookie: planted } })
	expect(asPlanted.body).toContain(attacker.email)
	expect(asPlanted.body).not.toContain(victim.email)
	// A made-up token is replaced too, and two sign-ins never share an id.
	const forged = await signIn(base, victim.email, victim.password, 'p2p_session=InRoaXMtaXMtYS1mb3JnZWQtc2Vzc2lvbi10b2tlbiI%3D')
	expect(tokenOf(forged.cookie)).not.toContain('InRoaXMtaXMtYS1mb3JnZWQtc2Vzc2lvbi10b2tlbiI')
	expect(tokenOf(forged.cookie)).not.toBe(tokenOf(cookie))
})

test('a session cookie replayed after sign-out is refused', async () => {
	const base = baseURLOf()
	const account = await signUp(base, 'Replayed')
	const { cookie } = await signIn(base, account.email, account.password)
	expect((await raw(base, 'GET', '/app/dashboard', { headers: { cookie } })).status).toBe(200)
	const out = await raw(base, 'POST', '/auth/sign-out', { headers: { ...FORM, cookie }, body: '' })
	expect(out.status).toBe(302)
	for (const path of ['/app/dashboard', '/app/clients', '/app/dashboard.data', '/app/reports/export.csv']) {
		const replay = await raw(base, 'GET', path, { headers: { cookie } })
		expect(replay.status, path).not.toBe(200)
		expect(replay.body, path).not.toContain(account.email)
	}
	const post = await raw(base, 'POST', '/app/settings?index', {
		headers: { ...FORM, cookie },
		body: 'intent=profile&fullName=Replayed%20Again',
	})
	expect([302, 401, 403]).toContain(post.status)
	if (post.status === 302) expect(post.headers.location).toMatch(/^\/auth/)
	const name = await withDatabase(
		async (db) =>
			(
				await db.query<{ n: string }>(
					`select full_name as n from public.profiles p join auth.users u on u.id = p.user_id where u.email = $1`,
					[account.email],
				)
			).rows[0]!.n,
	)
	expect(name).toBe('Replayed')
})

test('a session ends after 7 idle days and after 30 days however active; a 6-day pause does not end it', async () => {
	const base = baseURLOf()
	const account = await signUp(base, 'Aging')
	const age = async (cookie: string, set: string) =>
		withDatabase((db) => db.query(`update auth.sessions set ${set} where token_hash = $1`, [sessionRow(cookie)]))
	const rows = async (cookie: string) =>
		withDatabase(async (db) => (await db.query(`select 1 from auth.sessions where token_hash = $1`, [sessionRow(cookie)])).rowCount)

	const paused = (await signIn(base, account.email, account.password)).cookie
	await age(paused, `updated_at = now() - interval '6 days'`)
	expect((await raw(base, 'GET', '/app/dashboard', { headers: { cookie: paused } })).status).toBe(200)

	const idle = (await signIn(base, account.email, account.password)).cookie
	await age(idle, `updated_at = now() - interval '7 days 1 minute'`)
	const idleAnswer = await raw(base, 'GET', '/app/dashboard', { headers: { cookie: idle } })
	expect(idleAnswer.status).toBe(302)
	expect(idleAnswer.headers.location).toMatch(/^\/auth/)
	expect(await rows(idle)).toBe(0)

	const old = (await signIn(base, account.email, account.password)).cookie
	await age(old, `created_at = now() - interval '31 days', not_after = now() - interval '1 minute', updated_at = now()`)
	const oldAnswer = await raw(base, 'GET', '/app/dashboard', { headers: { cookie: old } })
	expect(oldAnswer.status).toBe(302)
	expect(oldAnswer.headers.location).toMatch(/^\/auth/)
	expect(await rows(old)).toBe(0)
})
