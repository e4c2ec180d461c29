/**
 * The types of the auth port (app/.server/auth/port.ts), apart from it so that its adapters
 * (local.ts, supabase.ts) name them without importing the port that imports them.
 */
import type { Language } from '#app/lib/i18n.ts'
import type { ResendOutcome } from './verification.ts'

export type AuthUser = { userId: string; email: string }

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

