/**
 * The Supabase adapter of the auth port (docs/decisions/019-supabase-adapters.md): Supabase
 * Auth through @supabase/ssr's server client, created once per request and reading and
 * writing the session cookies through `getAll`/`setAll`. Whatever it writes (a sign-in, a
 * token refresh, a sign-out) is collected per request and added to that request's response,
 * whatever the response is (a page, a redirect, an error), by `supabaseCookies` in the root
 * middleware (app/root.tsx).
 *
 * The server trusts only verified claims: `getClaims()` checks the access token's signature
 * (against the project's JWKS, or by asking Supabase Auth when the project still signs with
 * a shared secret), never the unverified session read from the cookie.
 *
 * Sign-in throttling is ours as well as Supabase's: failures per (email, address) and per
 * address are counted in private.rate_limit_events, the same limits as the local adapter
 * (LIMITS in app/.server/rate-limit.ts), and so are sign-ups per address.
 *
 * Supabase Auth does not let the server list a user's sessions: the Security card lists none,
 * and "Sign out everywhere else" is its `signOut({ scope: 'others' })`.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { env } from '../env.ts'
import { log } from '../log.ts'
import { allowEvent, countEvents, LIMITS, recordEvent } from '../rate-limit.ts'
import { publicOrigin, safeRedirect, secureCookies } from '../security.ts'
import { signedInRecently } from './local.ts'
import type { AuthPort, AuthUser, ClientMeta, Reauthentication } from './types.ts'
import { isVerified } from './verification.ts'

type Scope = { client: SupabaseClient; headers: Headers }

/**
 * The server never opens Realtime, but supabase-js builds its Realtime client in every
 * createClient, and on Node 20 (no native WebSocket) that throws unless a transport is given.
 * This one is never constructed; if it ever were, it says why.
 */
class NoRealtimeTransport {
	constructor() {
		throw new Error('Supabase Realtime is not used by the server')
	}
}

/** Options every server-side Supabase client takes (Node 20: see NoRealtimeTransport). */
export const serverClientOptions = {
	realtime: {
		transport: NoRealtimeTransport as unknown as NonNullable<NonNullable<Parameters<typeof createClient>[2]>['realtime']>['transport'],
	},
}

/**
 * The request's scope: the root middleware runs the rest of the request inside
 * `withSupabaseScope`, so every loader and action of one request finds the same client, whatever
 * Request object it was handed. Outside of it (tests calling the port directly) the scope hangs
 * on the Request object.
 */
const requestScope = new AsyncLocalStorage<{ scope?: Scope }>()
const scopes = new WeakMap<Request, Scope>()

export function withSupabaseScope<T>(fn: () => Promise<T>): Promise<T> {
	return requestScope.run({}, fn)
}

function settings() {
	const { SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY } = env()
	if (!SUPABASE_URL || !SUPABASE_ANON_KEY) throw new Error('SUPABASE_URL and SUPABASE_ANON_KEY must both be set for the Supabase adapters.')
	return { url: SUPABASE_URL, anonKey: SUPABASE_ANON_KEY, serviceRoleKey: SUPABASE_SERVICE_ROLE_KEY }
}

/** The request's server client (made on first use, then the same one) and the headers it has written. */
export function supabaseFor(request: Request): Scope {
	const holder = requestScope.getStore()
	let scope = holder?.scope ?? scopes.get(request)
	if (scope) return scope
	const { url, anonKey } = settings()
	const headers = new Headers()
	const client = createServerClient(url, anonKey, {
		...serverClientOptions,
		cookieOptions: { path: '/', sameSite: 'lax', httpOnly: true, secure: secureCookies() },
		cookies: {
			getAll: () => parseCookieHeader(request.headers.get('cookie') ?? '').map((c) => ({ name: c.name, value: c.value ?? '' })),
			setAll: (cookies, cacheHeaders) => {
				for (const { name, value, options } of cookies) headers.append('set-cookie', serializeCookieHeader(name, value, options))
				// Answers that set auth cookies must not be cached by a CDN (the library says which headers).
				for (const [key, value] of Object.entries(cacheHeaders ?? {})) headers.set(key, value)
			},
		},
		auth: { flowType: 'pkce' },
	})
	scope = { client, headers }
	if (holder) holder.scope = scope
	else scopes.set(request, scope)
	return scope
}

/** Adds the cookies the request's client wrote to a response (the root middleware calls it for every answer). */
export function applySupabaseHeaders(request: Request, response: Response) {
	const scope = requestScope.getStore()?.scope ?? scopes.get(request)
	if (!scope) return response
	for (const cookie of scope.headers.getSetCookie()) response.headers.append('set-cookie', cookie)
	for (const [key, value] of scope.headers) if (key !== 'set-cookie') response.headers.set(key, value)
	return response
}

/** A client with the service role key, for the server's own work (storage, tests); never per user. */
export function supabaseAdmin(): SupabaseClient {
	const { url, serviceRoleKey } = settings()
	if (!serviceRoleKey) throw new Error('SUPABASE_SERVICE_ROLE_KEY is required for this Supabase operation.')
	return createClient(url, serviceRoleKey, { ...serverClientOptions, auth: { persistSession: false, autoRefreshToken: false } })
}

/** Where Supabase sends the browser back after Google, an email confirmation or a reset link. */
export function callbackUrl(next: string, via: 'google' | 'email' = 'email') {
	return `${publicOrigin()}/auth/callback?${new URLSearchParams({ next, via })}`
}

const LOGIN_FAILURE = 'login_failure'
const LOGIN_FAILURE_IP = 'login_failure_ip'

/** Whether sign-in is refused for now: failures (not attempts) are counted, recorded once a sign-in failed (rate-limit.ts says why). */
async function throttled(email: string, ip: string) {
	const { login_failure: perEmail, login_failure_ip: perIp } = LIMITS
	const [forEmail, forIp] = await Promise.all([
		countEvents(LOGIN_FAILURE, `${email}|${ip}`, perEmail.windowMinutes),
		countEvents(LOGIN_FAILURE_IP, ip, perIp.windowMinutes),
	])
	return forEmail >= perEmail.limit || forIp >= perIp.limit
}

function userOf(user: { id: string; email?: string | null } | null | undefined, email: string): AuthUser | null {
	return user ? { userId: user.id, email: user.email ?? email } : null
}

/** Supabase Auth's error codes that mean "this password is not acceptable". */
function isWeakPassword(error: { code?: string } | null) {
	return error?.code === 'weak_password'
}

async function signInWith(request: Request, email: string, password: string) {
	const { client } = supabaseFor(request)
	return client.auth.signInWithPassword({ email, password })
}

export const supabaseAuth: AuthPort = {
	name: 'supabase',
	async getUser(request) {
		const { client } = supabaseFor(request)
		// Only a session cookie can make a user: without one there is nothing to verify (and no call to make).
		if (!/(^|;\s*)sb-[^=]*-auth-token/.test(request.headers.get('cookie') ?? '')) return null
		const { data, error } = await client.auth.getClaims()
		if (error || !data?.claims?.sub) return null
		return { userId: data.claims.sub, email: typeof data.claims.email === 'string' ? data.claims.email : '' }
	},
	async signIn(request, input) {
		const email = input.email.trim().toLowerCase()
		if (await throttled(email, input.ip)) return { ok: false, code: 'too_many_attempts' }
		const { data, error } = await signInWith(request, email, input.password)
		const user = userOf(data.user, email)
		// The right password for an address not confirmed yet ("Confirm email"): the emailed link comes first.
		if (error?.code === 'email_not_confirmed') return { ok: false, code: 'email_not_confirmed' }
		if (error || !user) {
			await Promise.all([recordEvent(LOGIN_FAILURE, `${email}|${input.ip}`), recordEvent(LOGIN_FAILURE_IP, input.ip)])
			return { ok: false, code: 'invalid_credentials' }
		}
		return { ok: true, user, headers: new Headers() }
	},
	async signUp(request, input) {
		// Counted and decided in one statement, as the local adapter does: concurrent sign-ups cannot slip past the limit together.
		if (!(await allowEvent('signup', input.ip))) return { ok: false, code: 'too_many_attempts' }
		const email = input.email.trim().toLowerCase()
		const { client } = supabaseFor(request)
		const { data, error } = await client.auth.signUp({
			email,
			password: input.password,
			options: {
				data: { full_name: input.fullName.trim(), preferred_language: input.language, timezone: input.timezone },
				emailRedirectTo: callbackUrl('/app/dashboard'),
			},
		})
		if (isWeakPassword(error)) return { ok: false, code: 'weak_password' }
		// With "Confirm email" on, Supabase answers a taken address with a user without identities (it does not tell).
		if (error?.code === 'user_already_exists' || error?.code === 'email_exists' || (data.user && data.user.identities?.length === 0)) {
			return { ok: false, code: 'email_taken' }
		}
		if (error) throw error
		const user = userOf(data.user, email)
		if (!user) throw new Error('Supabase sign-up returned no user')
		return { ok: true, user, headers: new Headers(), signedIn: Boolean(data.session) }
	},
	async signOut(request) {
		const { client } = supabaseFor(request)
		// scope 'local': this browser's session; its refresh token is revoked by Supabase Auth.
		await client.auth.signOut({ scope: 'local' })
		return new Headers()
	},
	async changePassword(request, user, input) {
		// The current password is checked by signing in with it again (a fresh session for this browser).
		const check = await signInWith(request, user.email, input.current)
		if (check.error || check.data.user?.id !== user.userId) return { ok: false, code: 'wrong_password' }
		const { client } = supabaseFor(request)
		const { error } = await client.auth.updateUser({ password: input.next })
		if (isWeakPassword(error)) return { ok: false, code: 'weak_password' }
		if (error) throw error
		// The user's other sessions end; this one stays.
		await client.auth.signOut({ scope: 'others' })
		return { ok: true, headers: new Headers() }
	},
	async reauthentication(request) {
		// Supabase Auth's own record, in the verified claims: the providers of the account, and
		// when and how this session authenticated (`amr`), which a token refresh keeps.
		const claims = await verifiedClaims(request)
		if (claims?.app_metadata?.providers?.includes('email')) return 'password'
		const at = Math.max(0, ...(claims?.amr ?? []).map((a) => (typeof a.timestamp === 'number' ? a.timestamp : 0)))
		return signedInRecently(at ? new Date(at * 1000) : null) ? 'recent' : 'stale'
	},
	async confirmIdentity(request, user, input) {
		const way: Reauthentication = await supabaseAuth.reauthentication(request, user)
		if (way === 'password') {
			// Supabase Auth checks the password itself: a sign-in with it (which renews this browser's session).
			const check = await signInWith(request, user.email, input.password ?? '')
			return check.error || check.data.user?.id !== user.userId ? 'wrong_password' : 'ok'
		}
		return way === 'recent' ? 'ok' : 'sign_in_again'
	},
	async resendVerification(request, user) {
		if (await isVerified(user.userId)) return { ok: false, code: 'already_verified' }
		if (!(await allowEvent('email-verification', user.userId))) return { ok: false, code: 'too_many_attempts' }
		// Supabase Auth mails its own "Confirm signup" link, which comes back through /auth/callback.
		const { client } = supabaseFor(request)
		const { error } = await client.auth.resend({
			type: 'signup',
			email: user.email,
			options: { emailRedirectTo: callbackUrl('/app/dashboard') },
		})
		if (error && error.status !== 429) throw error
		return { ok: true, email: user.email }
	},
	async listSessions() {
		return []
	},
	async endSession() {
		// None is listed, so none can be picked (a forged post).
		return 'no_session'
	},
	async endOtherSessions(request) {
		const { client } = supabaseFor(request)
		await client.auth.signOut({ scope: 'others' })
		return { ok: true, count: null }
	},
	async signInNewAccount(request, user, input) {
		// Supabase Auth makes the session: a sign-in with the password just chosen.
		const outcome = await supabaseAuth.signIn(request, {
			email: user.email,
			password: input.password,
			ip: input.ip,
			userAgent: input.userAgent,
		})
		return outcome.ok ? outcome.headers : new Headers()
	},
	async sendPasswordReset(request, input) {
		// Supabase Auth mails its own link (its "Reset password" template), which comes back through /auth/callback.
		await sendSupabaseReset(request, input.email)
	},
	async passwordResetLink(request) {
		// The reset link has already signed the user in (/auth/callback): the form stands for that session.
		return { token: SUPABASE_SESSION, valid: Boolean(await supabaseAuth.getUser(request)) }
	},
	async resetPassword(request, input) {
		const outcome = await setSupabasePassword(request, input.password)
		if (outcome === 'ok') return { ok: true, headers: new Headers() }
		return { ok: false, code: outcome === 'weak_password' ? 'weak_password' : 'invalid_link' }
	},
	async startGoogle(request, redirectTo) {
		// The PKCE verifier cookie the client writes goes out with the redirect (root middleware).
		const url = await startSupabaseGoogle(request, redirectTo).catch((error: unknown) => {
			log({ event: 'google_sign_in_failed', error: String(error) })
			return null
		})
		return url ? { url, headers: new Headers() } : null
	},
	async finishCallback(request) {
		// From Google, an email confirmation or a password reset link; `next` says where to go.
		const url = new URL(request.url)
		const next = safeRedirect(url.searchParams.get('next'))
		const reset = next.startsWith('/auth/reset-password')
		const user = await finishSupabaseCallback(request).catch((error: unknown) => {
			log({ event: 'supabase_callback_failed', error: String(error) })
			return null
		})
		if (!user)
			return {
				ok: false,
				code: reset ? 'reset_link_failed' : url.searchParams.get('via') === 'google' ? 'google_failed' : 'email_link_failed',
			}
		return { ok: true, headers: new Headers(), redirectTo: next, welcome: !reset }
	},
}

/** The token the new-password form carries with Supabase Auth: the session the reset link made stands for it. */
const SUPABASE_SESSION = 'supabase-session'

type SessionClaims = { app_metadata?: { providers?: string[] }; amr?: Array<{ method?: string; timestamp?: number }> }

/** The request's verified access-token claims (getClaims), or null. */
async function verifiedClaims(request: Request): Promise<SessionClaims | null> {
	const { client } = supabaseFor(request)
	const { data, error } = await client.auth.getClaims()
	return error || !data?.claims ? null : (data.claims as unknown as SessionClaims)
}

/** Google through Supabase Auth: the URL to send the browser to (PKCE verifier kept in a cookie by the client). */
async function startSupabaseGoogle(request: Request, redirectTo: string) {
	const { client } = supabaseFor(request)
	const { data, error } = await client.auth.signInWithOAuth({
		provider: 'google',
		options: { redirectTo: callbackUrl(redirectTo, 'google'), skipBrowserRedirect: true },
	})
	if (error || !data.url) throw error ?? new Error('Supabase returned no Google URL')
	return data.url
}

/** The callback: a `code` (Google, PKCE email links) or a `token_hash` + `type` (email templates) becomes a session. */
export async function finishSupabaseCallback(request: Request): Promise<AuthUser | null> {
	const url = new URL(request.url)
	const { client } = supabaseFor(request)
	const code = url.searchParams.get('code')
	const tokenHash = url.searchParams.get('token_hash')
	const type = url.searchParams.get('type')
	if (code) {
		const { data, error } = await client.auth.exchangeCodeForSession(code)
		return error ? null : userOf(data.user, '')
	}
	if (tokenHash && (type === 'recovery' || type === 'signup' || type === 'email' || type === 'invite' || type === 'email_change')) {
		const { data, error } = await client.auth.verifyOtp({ token_hash: tokenHash, type })
		return error ? null : userOf(data.user, '')
	}
	return null
}

/** Sends Supabase's reset mail; its link signs the user in through /auth/callback and lands on the new-password form. */
async function sendSupabaseReset(request: Request, email: string) {
	const { client } = supabaseFor(request)
	const { error } = await client.auth.resetPasswordForEmail(email.trim().toLowerCase(), {
		redirectTo: callbackUrl('/auth/reset-password?session=1'),
	})
	// Unknown addresses and Supabase's own rate limit look the same to the visitor: nothing is said.
	if (error && error.status !== 429 && error.status !== 400) throw error
}

/** Sets a new password for the user signed in by a reset link (the session the callback made). */
async function setSupabasePassword(request: Request, password: string): Promise<'ok' | 'weak_password' | 'no_session'> {
	const { client } = supabaseFor(request)
	const user = await supabaseAuth.getUser(request)
	if (!user) return 'no_session'
	const { error } = await client.auth.updateUser({ password })
	if (isWeakPassword(error)) return 'weak_password'
	if (error) throw error
	await client.auth.signOut({ scope: 'others' })
	return 'ok'
}

export type { ClientMeta }
