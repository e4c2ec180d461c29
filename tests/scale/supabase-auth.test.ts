/**
 * The Supabase auth adapter inside the built server, with no network: two instances configured
 * with SUPABASE_URL pointing at a local stand-in for Supabase Auth (tests/support/
 * supabase-auth-stand-in.ts), one PostgreSQL database, a proxy. It shows what the adapter itself
 * must do: the @supabase/ssr cookies go out on redirects and pages alike (a refreshed token
 * too), only a token whose signature verifies against the project's JWKS signs anyone in, the
 * auth.users trigger makes the organization of a user Supabase Auth created, and a session made
 * on one instance holds on the other. Not run against a real Supabase project (docs/deploy.md).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createUserIn, startSupabaseAuthStandIn, type StandIn } from '#tests/support/supabase-auth-stand-in.ts'
import { CookieJar, startCluster, type Backend, type Cluster } from './cluster.ts'

const PROXY_PORT = Number(process.env.SCALE_PORT ?? process.env.E2E_PORT ?? 4180)
const STAND_IN_PORT = PROXY_PORT + 5
const COOKIE = 'sb-127-auth-token'

let cluster: Cluster
let standIn: StandIn
let createUser: ReturnType<typeof createUserIn> | undefined

beforeAll(async () => {
	cluster = await startCluster({
		SUPABASE_URL: `http://127.0.0.1:${STAND_IN_PORT}`,
		SUPABASE_ANON_KEY: 'anon-key-of-the-stand-in-0123456789',
		SIGNUP_MAX_PER_IP: '1000',
	})
	createUser = createUserIn(cluster.databaseUrl)
	standIn = await startSupabaseAuthStandIn(STAND_IN_PORT, createUser)
})

afterAll(async () => {
	await standIn?.stop()
	await createUser?.end()
	await cluster?.stop()
})

async function call(backend: Backend, pathname: string, { jar, form }: { jar?: CookieJar; form?: Record<string, string> } = {}) {
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
	jar?.take(response)
	return response
}

const authCookies = (response: Response) => response.headers.getSetCookie().filter((c) => c.startsWith(COOKIE))
const PASSWORD = 'stand-in password 1'

describe('the Supabase auth adapter in the built server (against a stand-in for Supabase Auth)', () => {
	const jar = new CookieJar()
	const email = `supabase-${Date.now()}@example.test`

	test("sign-up goes through Supabase Auth, its cookies leave on the redirect, and the auth.users trigger makes the user's organization", async () => {
		const res = await call('a', '/auth?mode=signup', {
			jar,
			form: { intent: 'signup', fullName: 'Sam Supabase', email, password: PASSWORD, confirmPassword: PASSWORD },
		})
		expect(res.status, cluster.output()).toBe(302)
		expect(res.headers.get('location')).toBe('/app/dashboard')
		expect(authCookies(res).length).toBeGreaterThan(0)
		expect(authCookies(res)[0]).toMatch(/HttpOnly/i)
		expect(standIn.calls.some((c) => c.startsWith('POST /auth/v1/signup'))).toBe(true)
		const rows = await cluster.query<{ full_name: string; role: string }>(
			`select p.full_name, m.role from auth.users u join public.profiles p on p.user_id = u.id
			 join public.organization_members m on m.user_id = u.id where u.email = $1`,
			[email],
		)
		expect(rows).toEqual([{ full_name: 'Sam Supabase', role: 'owner' }])
	})

	test('the session is verified on the other instance (JWKS), and the flash message shows there', async () => {
		const res = await call('b', '/app/dashboard', { jar })
		expect(res.status).toBe(200)
		expect(await res.text()).toContain('Account created!')
		expect(standIn.calls).toContain('GET /auth/v1/.well-known/jwks.json')
	})

	test('a token signed with another key signs no one in', async () => {
		const [row] = await cluster.query<{ id: string }>('select id from auth.users where email = $1', [email])
		const now = Math.floor(Date.now() / 1000)
		const forged = {
			access_token: standIn.forgedToken(row!.id, email),
			token_type: 'bearer',
			expires_in: 3600,
			expires_at: now + 3600,
			refresh_token: 'forged',
			user: { id: row!.id, email, aud: 'authenticated', role: 'authenticated' },
		}
		const cookie = `${COOKIE}=base64-${Buffer.from(JSON.stringify(forged)).toString('base64url')}`
		const res = await fetch(`${cluster.origin}/app/dashboard`, { headers: { 'x-backend': 'a', cookie }, redirect: 'manual' })
		expect(res.status).toBe(302)
		expect(res.headers.get('location')).toMatch(/^\/auth\?/)
	})

	test('a token about to expire is refreshed on the way, and the new cookies ride on a redirect and on a page', async () => {
		standIn.setTokenLifetime(30) // within supabase-js's 90-second margin: every use refreshes
		const fresh = new CookieJar()
		const signIn = await call('a', '/auth', { jar: fresh, form: { intent: 'login', email, password: PASSWORD, redirectTo: '' } })
		expect(signIn.status).toBe(302)
		expect(authCookies(signIn).length).toBeGreaterThan(0)
		const before = standIn.calls.filter((c) => c === 'POST /auth/v1/token?grant_type=refresh_token').length

		const redirected = await call('b', '/auth', { jar: fresh }) // signed in: the sign-in page sends to the dashboard
		expect(redirected.status).toBe(302)
		expect(authCookies(redirected).length).toBeGreaterThan(0)
		const page = await call('a', '/app/dashboard', { jar: fresh })
		expect(page.status).toBe(200)
		expect(authCookies(page).length).toBeGreaterThan(0)
		expect(standIn.calls.filter((c) => c === 'POST /auth/v1/token?grant_type=refresh_token').length).toBeGreaterThanOrEqual(before + 2)
		standIn.setTokenLifetime(3600)
	})

	test('a wrong password is refused; a password change goes through Supabase Auth and only the new password signs in', async () => {
		expect((await call('a', '/auth', { form: { intent: 'login', email, password: 'not the password', redirectTo: '' } })).status).toBe(400)
		const changed = await call('b', '/app/settings?index', {
			jar,
			form: { intent: 'password', currentPassword: PASSWORD, newPassword: 'stand-in password 2', confirmPassword: 'stand-in password 2' },
		})
		expect(changed.status).toBe(302)
		expect(standIn.calls).toContain('PUT /auth/v1/user')
		expect((await call('a', '/auth', { form: { intent: 'login', email, password: PASSWORD, redirectTo: '' } })).status).toBe(400)
		expect((await call('a', '/auth', { form: { intent: 'login', email, password: 'stand-in password 2', redirectTo: '' } })).status).toBe(
			302,
		)
	})

	test('signing out clears the cookies on the redirect', async () => {
		const res = await call('b', '/auth/sign-out', { jar, form: {} })
		expect(res.status).toBe(302)
		expect(authCookies(res).some((c) => /max-age=0/i.test(c))).toBe(true)
		expect(standIn.calls.some((c) => c.startsWith('POST /auth/v1/logout'))).toBe(true)
		const after = await call('a', '/app/dashboard', { jar })
		expect(after.status).toBe(302)
		expect(after.headers.get('location')).toMatch(/^\/auth\?/)
	})
})
