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
import { z } from 'zod'
import { languageAtSignIn } from '../account/profile.ts'
import { usesSupabase } from '../env.ts'
import { languageCookie } from '../i18n.ts'
import { log } from '../log.ts'
import { safeRedirect, secureCookies } from '../security.ts'
import { clearOauthCookie, finishGoogleSignIn, googleSignInAvailable, startGoogleSignIn } from './google.ts'
import {
	accountHasPassword,
	createSession,
	findRecoveryUser,
	getSessionUser,
	listSessions,
	resetPasswordWithToken,
	revokeOtherSessions,
	revokeSession,
	revokeSessionById,
	SESSION_ABSOLUTE_DAYS,
	sendRecoveryMail,
	sessionStartedAt,
	signedInRecently,
	signIn as localSignIn,
	signInWithGoogle,
	signUp as localSignUp,
	verifyPasswordOf,
	changePassword,
} from './local.ts'
import { supabaseAuth } from './supabase.ts'
import { resendVerification, sendVerification } from './verification.ts'
import type { AuthPort, ClientMeta } from './types.ts'

export type {
	AuthPort,
	AuthUser,
	CallbackOutcome,
	ClientMeta,
	IdentityCheck,
	OtherSessionsEnded,
	PasswordChangeOutcome,
	PasswordResetOutcome,
	Reauthentication,
	SessionEnding,
	SessionInfo,
	SignInOutcome,
	SignUpOutcome,
} from './types.ts'

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

/** The cookie that keeps the profile's language, added to a sign-in's headers. */
export async function appendLanguage(headers: Headers, preferredLanguage?: string | null) {
	if (preferredLanguage) headers.append('set-cookie', await languageCookie.serialize(preferredLanguage, { secure: secureCookies() }))
	return headers
}

/** A session id as the local adapter keeps them (auth.sessions.id, a UUID). */
const sessionIdSchema = z.uuid()

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
	async listSessions(request, user) {
		return listSessions(user.userId, await readLocalToken(request))
	},
	async endSession(request, user, sessionId) {
		const token = await readLocalToken(request)
		if (!token) return 'no_session'
		if (!sessionIdSchema.safeParse(sessionId).success) return 'invalid_id'
		return revokeSessionById(user.userId, sessionId, token)
	},
	async endOtherSessions(request, user) {
		const token = await readLocalToken(request)
		if (!token) return { ok: false, code: 'no_session' }
		return { ok: true, count: await revokeOtherSessions(user.userId, token) }
	},
	async signInNewAccount(_request, user, input) {
		return localSessionHeaders(user.userId, input)
	},
	async sendPasswordReset(_request, input) {
		await sendRecoveryMail(input.email, input.language)
	},
	async passwordResetLink(request) {
		// The link of the recovery mail (sendRecoveryMail): its token, checked without being spent.
		const token = new URL(request.url).searchParams.get('token') ?? ''
		return { token, valid: Boolean(token && (await findRecoveryUser(token))) }
	},
	async resetPassword(_request, input) {
		const user = await resetPasswordWithToken(input.token, input.password)
		if (!user) return { ok: false, code: 'invalid_link' }
		return { ok: true, headers: await localSessionHeaders(user.userId, input) }
	},
	async startGoogle(request, redirectTo) {
		// Our own OAuth client; the cookie remembers its state, verifier and where to go after.
		const { url, cookie } = await startGoogleSignIn(request, redirectTo)
		return { url, headers: new Headers({ 'set-cookie': cookie }) }
	},
	async finishCallback(request, input) {
		// Locally only Google comes back here, through our own OAuth client.
		if (!googleSignInAvailable()) return { ok: false, code: 'google_not_configured' }
		const profile = await finishGoogleSignIn(request).catch((error: unknown) => {
			log({ event: 'google_sign_in_failed', error: String(error) })
			return null
		})
		if (!profile) return { ok: false, code: 'google_failed' }
		const outcome = await signInWithGoogle(profile)
		if (!outcome.ok) return { ok: false, code: 'google_email_not_verified' }
		const { userId } = outcome.user
		const headers = await appendLanguage(await localSessionHeaders(userId, input), await languageAtSignIn(userId, input.language))
		headers.append('set-cookie', await clearOauthCookie())
		return { ok: true, headers, redirectTo: safeRedirect(profile.redirectTo), welcome: true }
	},
}

/** The configured adapter: Supabase when SUPABASE_URL and SUPABASE_ANON_KEY are set, else local. */
export function auth(): AuthPort {
	return usesSupabase() ? supabaseAuth : localAuth
}
