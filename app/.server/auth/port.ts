/**
 * The auth port (docs/decisions/019-supabase-adapters.md): what the app asks of "auth", with
 * two adapters. The local one (users and sessions in our own tables, app/.server/auth/local.ts)
 * is the default; with SUPABASE_URL and SUPABASE_ANON_KEY set, Supabase Auth through
 * @supabase/ssr (app/.server/auth/supabase.ts). Both yield the same `{ userId, email }`, which
 * sets the RLS claims; every method takes the request, since both keep the session in cookies,
 * and returns the Set-Cookie headers its answer must carry.
 *
 * The test list in tests/contract/auth-port.ts runs against each adapter.
 */
import { createCookie } from 'react-router'
import type { Language } from '#app/lib/i18n.ts'
import { usesSupabase } from '../env.ts'
import { secureCookies } from '../security.ts'
import {
	accountHasPassword,
	createSession,
	getSessionUser,
	revokeSession,
	SESSION_ABSOLUTE_DAYS,
	sessionStartedAt,
	signedInRecently,
	signIn as localSignIn,
	signUp as localSignUp,
	verifyPasswordOf,
	type AuthUser,
} from './local.ts'
import { supabaseAuth } from './supabase.ts'
import { resendVerification, sendVerification, type ResendOutcome } from './verification.ts'
import { changePassword } from '../account/profile.ts'

export type { AuthUser }

/** Who is asking, for throttling and the list of sessions. */
export type ClientMeta = { ip: string; userAgent?: string | null }

/** `email_not_confirmed`: Supabase Auth with "Confirm email", the right password before the emailed link was opened. */
export type SignInOutcome = { ok: true; user: AuthUser; headers: Headers } | { ok: false; code: 'invalid_credentials' | 'too_many_attempts' | 'email_not_confirmed' }

/** `signedIn` is false when the project asks new users to confirm their email first (Supabase's "Confirm email"). */
export type SignUpOutcome =
	| { ok: true; user: AuthUser; headers: Headers; signedIn: boolean }
	| { ok: false; code: 'email_taken' | 'too_many_attempts' | 'weak_password' }

export type PasswordChangeOutcome = { ok: true; headers: Headers } | { ok: false; code: 'wrong_password' | 'weak_password' }

/**
 * How the user at the keyboard proves it is the account's holder before a change that could lock
 * the holder out (the sign-in email): `password`, the current password; an account without one
 * (Google only) has `recent` when this browser signed in within REAUTH_MINUTES (local.ts), else `stale`
 * (sign in again first).
 */
export type Reauthentication = 'password' | 'recent' | 'stale'
export type IdentityCheck = 'ok' | 'wrong_password' | 'sign_in_again'

export interface AuthPort {
	readonly name: 'local' | 'supabase'
	/** The signed-in user, from verified credentials only; null when there is none. */
	getUser(request: Request): Promise<AuthUser | null>
	signIn(request: Request, input: { email: string; password: string } & ClientMeta): Promise<SignInOutcome>
	/**
	 * Creates the user with `full_name` and `preferred_language` in its metadata: the auth.users
	 * trigger makes profile (with that language), organization, membership and gears.
	 */
	signUp(request: Request, input: { email: string; password: string; fullName: string; language?: Language } & ClientMeta): Promise<SignUpOutcome>
	/** Ends the request's session; the headers clear its cookies. */
	signOut(request: Request): Promise<Headers>
	/** Checks the current password, sets the new one and ends the user's other sessions; this browser stays signed in. */
	changePassword(request: Request, user: AuthUser, input: { current: string; next: string } & ClientMeta): Promise<PasswordChangeOutcome>
	/** What confirmIdentity will ask of this user in this browser. */
	reauthentication(request: Request, user: AuthUser): Promise<Reauthentication>
	/** The current password, or for an account without one a recent sign-in (Reauthentication). */
	confirmIdentity(request: Request, user: AuthUser, input: { password: string | null } & ClientMeta): Promise<IdentityCheck>
	/**
	 * Mails the user's address its verification link again (docs/decisions/037-verified-addresses.md),
	 * at most a few times an hour; `already_verified` when there is nothing to verify.
	 */
	resendVerification(request: Request, user: AuthUser, language: Language | null): Promise<ResendOutcome>
}

const sessionCookie = createCookie('p2p_session', { path: '/', sameSite: 'lax', httpOnly: true })

/** The raw token of the local session cookie, or null. */
export async function readLocalToken(request: Request): Promise<string | null> {
	const value: unknown = await sessionCookie.parse(request.headers.get('cookie'))
	return typeof value === 'string' && value.length > 20 ? value : null
}

/** A new local session for `userId`: the cookie that carries it. */
export async function localSessionHeaders(userId: string, meta: ClientMeta) {
	const token = await createSession(userId, { userAgent: meta.userAgent, ip: meta.ip })
	const headers = new Headers()
	headers.append('set-cookie', await sessionCookie.serialize(token, { maxAge: SESSION_ABSOLUTE_DAYS * 86_400, secure: secureCookies() }))
	return headers
}

export const localAuth: AuthPort = {
	name: 'local',
	async getUser(request) {
		const token = await readLocalToken(request)
		return token ? getSessionUser(token) : null
	},
	async signIn(_request, input) {
		const outcome = await localSignIn(input)
		if (!outcome.ok) return outcome
		return { ok: true, user: outcome.user, headers: await localSessionHeaders(outcome.user.userId, input) }
	},
	async signUp(_request, input) {
		const outcome = await localSignUp(input)
		if (!outcome.ok) return outcome
		// Signed in at once, in their own organization; the address is verified by the mailed link.
		await sendVerification(outcome.user.userId, input.language)
		return { ok: true, user: outcome.user, headers: await localSessionHeaders(outcome.user.userId, input), signedIn: true }
	},
	async signOut(request) {
		const token = await readLocalToken(request)
		if (token) await revokeSession(token)
		return new Headers({ 'set-cookie': await sessionCookie.serialize('', { maxAge: 0, secure: secureCookies() }) })
	},
	async changePassword(_request, user, input) {
		// Every session of the user ends with the change; this browser gets a new one.
		if (!(await changePassword(user.userId, input.current, input.next))) return { ok: false, code: 'wrong_password' }
		return { ok: true, headers: await localSessionHeaders(user.userId, input) }
	},
	async reauthentication(request, user) {
		if (await accountHasPassword(user.userId)) return 'password'
		const token = await readLocalToken(request)
		return signedInRecently(token ? await sessionStartedAt(token) : null) ? 'recent' : 'stale'
	},
	async confirmIdentity(request, user, input) {
		const way = await localAuth.reauthentication(request, user)
		if (way === 'password') return (await verifyPasswordOf(user.userId, input.password ?? '')) ? 'ok' : 'wrong_password'
		return way === 'recent' ? 'ok' : 'sign_in_again'
	},
	async resendVerification(_request, user, language) {
		return resendVerification(user.userId, language)
	},
}

/** The configured adapter: Supabase when SUPABASE_URL and SUPABASE_ANON_KEY are set, else local. */
export function auth(): AuthPort {
	return usesSupabase() ? supabaseAuth : localAuth
}
