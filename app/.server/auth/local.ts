/**
 * The local auth adapter: users in auth.users (Supabase's columns), argon2id passwords,
 * database sessions of which only the token's hash is stored (listed and ended from Settings),
 * throttled sign-in, and password recovery by an emailed one-hour, single-use link. The port's
 * local adapter (port.ts, localAuth) is made of these.
 */
import { asSystem, dbErrorCode, sql, type Tx } from '../db/index.ts'
import { hashPassword, verifyPassword } from './password.ts'
import { hashToken, newToken } from './tokens.ts'
import { allowEvent, LIMITS } from '../rate-limit.ts'
import { claimAccount, ownsAddress } from './verification.ts'
import { tIn } from '../i18n.ts'
import { queueMail } from '../mail/index.ts'
import { publicOrigin } from '../security.ts'
import type { Language } from '#app/lib/i18n.ts'
import type { AuthUser, SessionInfo } from './types.ts'

export const SESSION_IDLE_DAYS = 7
export const SESSION_ABSOLUTE_DAYS = 30
/** The idle limit and how often the sliding idle expiry is written at most, as SQL intervals. */
export const SESSION_IDLE = `${SESSION_IDLE_DAYS} days`
export const SESSION_TOUCH_AFTER = '1 hour'
const RECOVERY_MINUTES = 60
/** How recent a sign-in must be to stand for the password of an account that has none (port.ts, Reauthentication). */
export const REAUTH_MINUTES = 10

/** Whether a sign-in at `at` is recent enough for REAUTH_MINUTES. */
export function signedInRecently(at: Date | null) {
	return at !== null && Date.now() - at.getTime() < REAUTH_MINUTES * 60_000
}

export function normalizeEmail(email: string) {
	return email.trim().toLowerCase()
}

export type SignUpResult = { ok: true; user: AuthUser } | { ok: false; code: 'email_taken' | 'too_many_attempts' }

/**
 * Creates the user; the auth.users trigger creates profile, organization and membership in the
 * same transaction. At most SIGNUP_MAX_PER_IP sign-ups per address in SIGNUP_WINDOW_MINUTES, so
 * the form can be used neither to mass-create accounts nor to test many emails for an account.
 * The address is not verified yet (docs/decisions/037-verified-addresses.md): typing an address
 * proves nothing, so the account can use its own organization but take no invitation and be
 * linked to no other identity until a link mailed to the address is used (the port mails it).
 */
export async function signUp(input: {
	email: string
	password: string
	fullName: string
	language?: Language
	/** The new organization's zone (one of ORGANIZATION_TIMEZONES, checked by the form; the trigger ignores any other). */
	timezone?: string
	ip?: string
}): Promise<SignUpResult> {
	// `ip` is what a request came from; server-side callers (the demo seed) pass none.
	if (input.ip !== undefined && !(await allowEvent('signup', input.ip))) {
		return { ok: false, code: 'too_many_attempts' }
	}
	const email = normalizeEmail(input.email)
	const passwordHash = await hashPassword(input.password)
	try {
		const id = await asSystem((trx) =>
			insertUser(trx, { email, passwordHash, fullName: input.fullName, language: input.language, timezone: input.timezone }),
		)
		return { ok: true, user: { userId: id, email } }
	} catch (error) {
		if (dbErrorCode(error) === '23505') return { ok: false, code: 'email_taken' }
		throw error
	}
}

/**
 * Inserts a password user inside the caller's transaction; the auth.users trigger does the rest
 * (the profile, with `language` as its preferred language, and an organization, in `timezone`
 * when it is one of the organizations' zones: supabase/migrations/20261206100000_zones_travel.sql). `verified`:
 * only when the server itself knows the address is the user's (the demo owner it made).
 */
export async function insertUser(
	trx: Tx,
	input: { email: string; passwordHash: string; fullName: string; language?: Language; timezone?: string; verified?: boolean },
) {
	const row = await trx
		.insertInto('auth.users')
		.values({
			email: normalizeEmail(input.email),
			encrypted_password: input.passwordHash,
			raw_user_meta_data: JSON.stringify({
				full_name: input.fullName.trim(),
				preferred_language: input.language,
				timezone: input.timezone,
			}),
			raw_app_meta_data: JSON.stringify({ provider: 'email', providers: ['email'] }),
			email_confirmed_at: input.verified ? new Date() : null,
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	return row.id
}

export type SignInResult = { ok: true; user: AuthUser } | { ok: false; code: 'invalid_credentials' | 'too_many_attempts' }

/**
 * Checks the password under throttling: after LOGIN_MAX_FAILURES failures for one
 * (email, address) in the window, or LOGIN_MAX_FAILURES_PER_IP for one address, every
 * attempt is refused until the window passes. Unknown email and wrong password look alike.
 */
export async function signIn(input: { email: string; password: string; ip: string }): Promise<SignInResult> {
	const email = normalizeEmail(input.email)
	// Failure limits (app/.server/rate-limit.ts): one window for both, LOGIN_WINDOW_MINUTES.
	const { login_failure: perEmail, login_failure_ip: perIp } = LIMITS
	const since = new Date(Date.now() - perEmail.windowMinutes * 60_000)
	const { user, failures } = await asSystem(async (trx) => {
		const counts = await sql<{ for_email: number; for_ip: number }>`
			select count(*) filter (where email = ${email}) as for_email, count(*) as for_ip
			from auth.login_attempts where ip = ${input.ip} and attempted_at > ${since}`.execute(trx)
		const user = await trx
			.selectFrom('auth.users')
			.select(['id', 'email', 'encrypted_password'])
			.where(sql`lower(email)`, '=', email)
			.where('deleted_at', 'is', null)
			.executeTakeFirst()
		return { user, failures: counts.rows[0]! }
	})
	if (failures.for_email >= perEmail.limit || failures.for_ip >= perIp.limit) {
		return { ok: false, code: 'too_many_attempts' }
	}
	const valid = await verifyPassword(user?.encrypted_password, input.password)
	if (!valid || !user) {
		await asSystem(async (trx) => {
			await trx.insertInto('auth.login_attempts').values({ email, ip: input.ip }).execute()
			await trx.deleteFrom('auth.login_attempts').where('attempted_at', '<', since).execute()
		})
		return { ok: false, code: 'invalid_credentials' }
	}
	await asSystem(async (trx) => {
		await trx.deleteFrom('auth.login_attempts').where('email', '=', email).where('ip', '=', input.ip).execute()
		await trx.updateTable('auth.users').set({ last_sign_in_at: new Date() }).where('id', '=', user.id).execute()
	})
	return { ok: true, user: { userId: user.id, email: user.email ?? email } }
}

/** A new session (a new token at every sign-in); returns the token for the cookie. */
export async function createSession(userId: string, meta: { userAgent?: string | null; ip?: string }) {
	const token = newToken()
	await asSystem((trx) =>
		trx
			.insertInto('auth.sessions')
			.values({
				user_id: userId,
				token_hash: hashToken(token),
				not_after: new Date(Date.now() + SESSION_ABSOLUTE_DAYS * 86_400_000),
				user_agent: meta.userAgent?.slice(0, 300) ?? null,
				ip: meta.ip ?? null,
			})
			.execute(),
	)
	return token
}

/** When the session of `token` began (its sign-in), or null when there is no such session. */
export async function sessionStartedAt(token: string): Promise<Date | null> {
	const row = await asSystem((trx) =>
		trx.selectFrom('auth.sessions').select('created_at').where('token_hash', '=', hashToken(token)).executeTakeFirst(),
	)
	return row ? new Date(row.created_at) : null
}

/** Whether the account has a password (an account made through Google has none, nor one whose password was cleared). */
export async function accountHasPassword(userId: string) {
	const row = await asSystem((trx) => trx.selectFrom('auth.users').select('encrypted_password').where('id', '=', userId).executeTakeFirst())
	return Boolean(row?.encrypted_password)
}

/** Whether `password` is the account's password (false for an account without one; as slow either way). */
export async function verifyPasswordOf(userId: string, password: string) {
	const row = await asSystem((trx) => trx.selectFrom('auth.users').select('encrypted_password').where('id', '=', userId).executeTakeFirst())
	return verifyPassword(row?.encrypted_password, password)
}

/** The session's user, or null when unknown, idle for 7 days or past its 30 days. */
export async function getSessionUser(token: string): Promise<AuthUser | null> {
	return asSystem((trx) => sessionUserIn(trx, token))
}

/**
 * getSessionUser inside a transaction of the owner role (auth.sessions is out of RLS's reach).
 * The rule (unknown, expired or idle: null, an expired session deleted; the idle expiry slid at
 * most once per SESSION_TOUCH_AFTER) is `private.session_user`'s, which the signed-in shell uses
 * too (app/.server/auth/session.ts).
 */
export async function sessionUserIn(trx: Tx, token: string): Promise<AuthUser | null> {
	const { rows } = await sql<{ user_id: string; email: string | null }>`
		select * from private.session_user(${hashToken(token)}, ${SESSION_IDLE}::interval, ${SESSION_TOUCH_AFTER}::interval)`.execute(trx)
	const row = rows[0]
	return row ? { userId: row.user_id, email: row.email ?? '' } : null
}

/** Ends the session of `token` (a sign-out). */
export async function revokeSession(token: string) {
	await asSystem((trx) => trx.deleteFrom('auth.sessions').where('token_hash', '=', hashToken(token)).execute())
}

/** The user's sessions still in force, the one holding `currentToken` first, then the most recently seen. */
export async function listSessions(userId: string, currentToken: string | null): Promise<SessionInfo[]> {
	const currentHash = currentToken ? hashToken(currentToken) : null
	const rows = await asSystem((trx) =>
		trx
			.selectFrom('auth.sessions')
			.select(['id', 'user_agent', 'ip', 'created_at', 'updated_at', 'token_hash'])
			.where('user_id', '=', userId)
			.where('not_after', '>', new Date())
			.orderBy('updated_at', 'desc')
			.execute(),
	)
	return rows
		.map((r) => ({
			id: r.id,
			userAgent: r.user_agent,
			ip: r.ip,
			signedInAt: new Date(r.created_at).toISOString(),
			lastSeen: new Date(r.updated_at).toISOString(),
			current: r.token_hash === currentHash,
		}))
		.sort((a, b) => Number(b.current) - Number(a.current))
}

/**
 * Ends one other session of the user ("Sign out" beside it in the Security card): 'ended', or
 * 'current' for the session holding `currentToken` (the header's sign out ends that one), or
 * 'gone' when no session of this user has that id (already ended, expired, or someone else's).
 */
export async function revokeSessionById(userId: string, sessionId: string, currentToken: string): Promise<'ended' | 'current' | 'gone'> {
	return asSystem(async (trx) => {
		const session = await trx
			.selectFrom('auth.sessions')
			.select('token_hash')
			.where('id', '=', sessionId)
			.where('user_id', '=', userId)
			.executeTakeFirst()
		if (!session) return 'gone'
		if (session.token_hash === hashToken(currentToken)) return 'current'
		await trx.deleteFrom('auth.sessions').where('id', '=', sessionId).execute()
		return 'ended'
	})
}

/** Ends every session of the user but the one holding `currentToken`; returns how many ended. */
export async function revokeOtherSessions(userId: string, currentToken: string) {
	const result = await asSystem((trx) =>
		trx.deleteFrom('auth.sessions').where('user_id', '=', userId).where('token_hash', '!=', hashToken(currentToken)).executeTakeFirst(),
	)
	return Number(result.numDeletedRows)
}

/** Sets a new password and revokes every session of the user (the caller starts a new one). */
export async function setPassword(userId: string, password: string) {
	const passwordHash = await hashPassword(password)
	await asSystem(async (trx) => {
		await trx
			.updateTable('auth.users')
			.set({ encrypted_password: passwordHash, recovery_token: null, updated_at: new Date() })
			.where('id', '=', userId)
			.execute()
		await trx.deleteFrom('auth.sessions').where('user_id', '=', userId).execute()
	})
}

/**
 * "Forgot password": mails the account of the address a one-hour link to /auth/reset-password, in
 * `language` (nothing when there is no such account or a link went out in the last minute).
 * Queued: the answer comes as fast for a known address as for an unknown one.
 */
export async function sendRecoveryMail(email: string, language: Language) {
	const recovery = await createRecoveryToken(email)
	if (!recovery) return
	const t = tIn(language, 'auth')
	const link = `${publicOrigin()}/auth/reset-password?${new URLSearchParams({ token: recovery.token })}`
	queueMail({ to: recovery.email, subject: t('recovery.mailSubject'), text: t('recovery.mailBody', { link }) })
}

/** A recovery token for the email's account (null when there is none or one was sent in the last minute; the caller says the same either way). */
export async function createRecoveryToken(rawEmail: string) {
	const email = normalizeEmail(rawEmail)
	const token = newToken()
	const updated = await asSystem((trx) =>
		trx
			.updateTable('auth.users')
			.set({ recovery_token: hashToken(token), recovery_sent_at: new Date() })
			.where(sql`lower(email)`, '=', email)
			.where('deleted_at', 'is', null)
			// At most one mail a minute per account: the form cannot be used to flood an inbox.
			.where((eb) => eb.or([eb('recovery_sent_at', 'is', null), eb('recovery_sent_at', '<', new Date(Date.now() - 60_000))]))
			.returning('id')
			.executeTakeFirst(),
	)
	return updated ? { token, email } : null
}

/** The user a recovery token belongs to, if it is unused and under an hour old (to show the form; nothing is spent). */
export async function findRecoveryUser(token: string) {
	const row = await asSystem((trx) =>
		trx
			.selectFrom('auth.users')
			.select(['id', 'email'])
			.where('recovery_token', '=', hashToken(token))
			.where('recovery_sent_at', '>', recoveryCutoff())
			.executeTakeFirst(),
	)
	return row ? { userId: row.id, email: row.email ?? '' } : null
}

/**
 * Spends a recovery token and sets the new password, in one statement: only the request whose
 * update still finds the token unused wins, however many arrive together. Every session of the
 * user is revoked (the caller starts a new one). Null when the token is unknown, used or expired.
 * The link came to the account's address, so that address is now verified; an account that was
 * not verified passes to whoever proved it (claimAccount: what its creator left pending ends).
 */
export async function resetPasswordWithToken(token: string, password: string): Promise<AuthUser | null> {
	const passwordHash = await hashPassword(password)
	return asSystem(async (trx) => {
		const row = await trx
			.updateTable('auth.users')
			.set({ encrypted_password: passwordHash, recovery_token: null, updated_at: new Date() })
			.where('recovery_token', '=', hashToken(token))
			.where('recovery_sent_at', '>', recoveryCutoff())
			.where('deleted_at', 'is', null)
			.returning(['id', 'email'])
			.executeTakeFirst()
		if (!row) return null
		await trx.deleteFrom('auth.sessions').where('user_id', '=', row.id).execute()
		if (!(await ownsAddress(trx, row.id, row.email ?? ''))) await claimAccount(trx, row.id, { clearPassword: false })
		return { userId: row.id, email: row.email ?? '' }
	})
}

function recoveryCutoff() {
	return new Date(Date.now() - RECOVERY_MINUTES * 60_000)
}

export type GoogleSignIn = { ok: true; user: AuthUser } | { ok: false; code: 'email_not_verified' }

/**
 * Google sign-in: the user of the Google identity; else, when Google reports the address
 * verified, the account of that address, linked to the identity; else a new account. The address
 * counts as verified either way (Google vouches for it). An account of that address that was
 * not verified is a password account anyone could have created with someone else's address (a
 * pre-registration): before it is linked its sessions end and its password is cleared
 * (claimAccount), so that only the address's owner, through Google or a password reset, gets in.
 */
export async function signInWithGoogle(profile: {
	sub: string
	email: string
	emailVerified: boolean
	name?: string
}): Promise<GoogleSignIn> {
	const email = normalizeEmail(profile.email)
	return asSystem(async (trx) => {
		const identity = await trx
			.selectFrom('auth.identities as i')
			.innerJoin('auth.users as u', 'u.id', 'i.user_id')
			.select(['i.id', 'i.user_id', 'u.email'])
			.where('i.provider', '=', 'google')
			.where('i.provider_id', '=', profile.sub)
			.executeTakeFirst()
		if (identity) {
			await trx.updateTable('auth.identities').set({ last_sign_in_at: new Date() }).where('id', '=', identity.id).execute()
			return { ok: true as const, user: { userId: identity.user_id, email: identity.email ?? email } }
		}
		if (!profile.emailVerified) return { ok: false as const, code: 'email_not_verified' as const }
		let user = await trx
			.selectFrom('auth.users')
			.select('id')
			.where(sql`lower(email)`, '=', email)
			.executeTakeFirst()
		if (user && !(await ownsAddress(trx, user.id, email))) {
			await claimAccount(trx, user.id, { clearPassword: true })
		}
		user ??= await trx
			.insertInto('auth.users')
			.values({
				email,
				email_confirmed_at: new Date(),
				raw_user_meta_data: JSON.stringify({ full_name: profile.name ?? '' }),
				raw_app_meta_data: JSON.stringify({ provider: 'google', providers: ['google'] }),
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		await trx
			.insertInto('auth.identities')
			.values({
				provider: 'google',
				provider_id: profile.sub,
				user_id: user.id,
				identity_data: JSON.stringify({ sub: profile.sub, email, email_verified: true }),
				last_sign_in_at: new Date(),
			})
			.execute()
		return { ok: true as const, user: { userId: user.id, email } }
	})
}

/**
 * Verifies the current password, then sets the new one; every session of the user ends
 * (setPassword revokes them all) and the caller starts a fresh one for this browser.
 */
export async function changePassword(userId: string, current: string, next: string): Promise<boolean> {
	const row = await asSystem((trx) => trx.selectFrom('auth.users').select('encrypted_password').where('id', '=', userId).executeTakeFirst())
	if (!(await verifyPassword(row?.encrypted_password, current))) return false
	await setPassword(userId, next)
	return true
}
