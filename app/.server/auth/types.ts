/**
 * The types of the auth port (app/.server/auth/port.ts), apart from it so that its adapters
 * (local.ts, supabase.ts) name them without importing the port that imports them.
 */
import type { Language } from '#app/lib/i18n.ts'
import type { Reauthentication } from '#app/lib/schemas/auth.ts'
import type { ResendOutcome } from './verification.ts'

export type { Reauthentication }

export type AuthUser = { userId: string; email: string }

/** Who is asking, for throttling and the list of sessions. */
export type ClientMeta = { ip: string; userAgent?: string | null }

/** `email_not_confirmed`: Supabase Auth with "Confirm email", the right password before the emailed link was opened. */
export type SignInOutcome =
	{ ok: true; user: AuthUser; headers: Headers } | { ok: false; code: 'invalid_credentials' | 'too_many_attempts' | 'email_not_confirmed' }

/** `signedIn` is false when the project asks new users to confirm their email first (Supabase's "Confirm email"). */
export type SignUpOutcome =
	| { ok: true; user: AuthUser; headers: Headers; signedIn: boolean }
	| { ok: false; code: 'email_taken' | 'too_many_attempts' | 'weak_password' }

export type PasswordChangeOutcome = { ok: true; headers: Headers } | { ok: false; code: 'wrong_password' | 'weak_password' }

export type IdentityCheck = 'ok' | 'wrong_password' | 'sign_in_again'

export interface AuthPort {
	readonly name: 'local' | 'supabase'
	/** The signed-in user, from verified credentials only; null when there is none. */
	getUser(request: Request): Promise<AuthUser | null>
	signIn(request: Request, input: { email: string; password: string } & ClientMeta): Promise<SignInOutcome>
	/**
	 * Creates the user with `full_name`, `preferred_language` and `timezone` in its metadata: the
	 * auth.users trigger makes profile (with that language), organization (in that zone, when it is
	 * one of ORGANIZATION_TIMEZONES), membership and gears.
	 */
	signUp(
		request: Request,
		input: { email: string; password: string; fullName: string; language?: Language; timezone?: string } & ClientMeta,
	): Promise<SignUpOutcome>
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
	/** The user's sessions still in force, this browser's first, then the most recently seen; empty where the adapter cannot list them (Supabase Auth). */
	listSessions(request: Request, user: AuthUser): Promise<SessionInfo[]>
	/** Ends one other session of the user, picked from listSessions by its id as posted (SessionEnding). */
	endSession(request: Request, user: AuthUser, sessionId: string): Promise<SessionEnding>
	/** Ends every session of the user but this browser's ("Sign out everywhere else"). */
	endOtherSessions(request: Request, user: AuthUser): Promise<OtherSessionsEnded>
	/**
	 * Signs in an account the server has just made with this password (an invitation accepted
	 * without an account): the headers carry the session, none when the adapter refuses it.
	 */
	signInNewAccount(request: Request, user: AuthUser, input: { password: string } & ClientMeta): Promise<Headers>
	/**
	 * "Forgot password": mails the address a link that leads to a new password, when it has an
	 * account (the caller says the same either way), in `language`.
	 */
	sendPasswordReset(request: Request, input: { email: string; language: Language }): Promise<void>
	/** The new-password page: the reset link it stands for (the form posts it back), and whether it still works. */
	passwordResetLink(request: Request): Promise<{ token: string; valid: boolean }>
	/** Sets the new password of a reset link (passwordResetLink's token) and signs this browser in; every other session ends. */
	resetPassword(request: Request, input: { token: string; password: string } & ClientMeta): Promise<PasswordResetOutcome>
	/** "Continue with Google": where to send the browser and the cookies that go with it; null when Google cannot be reached. */
	startGoogle(request: Request, redirectTo: string): Promise<{ url: string; headers: Headers } | null>
	/**
	 * /auth/callback, where the browser comes back signed in (from Google, or an emailed link of
	 * Supabase Auth): the session's headers and where to go, or why it failed. A sign-in through
	 * our own Google client remembers the profile's language (in `language`, the page's, for a
	 * profile without one), as a password sign-in does.
	 */
	finishCallback(request: Request, input: { language: Language } & ClientMeta): Promise<CallbackOutcome>
}

/** One session in the Security card: where it was used from and when last. */
export type SessionInfo = {
	id: string
	userAgent: string | null
	ip: string | null
	signedInAt: string
	lastSeen: string
	current: boolean
}

/**
 * What "Sign out" beside a session did: `ended`; `current` for this browser's own session (the
 * header's sign out ends that one); `gone` when no session of this user has that id (already
 * ended, expired, or someone else's); `invalid_id` for a post that is not a session id at all;
 * `no_session` when this browser holds no session the adapter can pick others from.
 */
export type SessionEnding = 'ended' | 'current' | 'gone' | 'invalid_id' | 'no_session'

/** How many other sessions ended (`count` null: the adapter does not say); `no_session` when this browser holds none to keep. */
export type OtherSessionsEnded = { ok: true; count: number | null } | { ok: false; code: 'no_session' }

/** `invalid_link`: unknown, used or expired (or, with Supabase Auth, no session from the link). */
export type PasswordResetOutcome = { ok: true; headers: Headers } | { ok: false; code: 'invalid_link' | 'weak_password' }

/**
 * `welcome`: a sign-in (the welcome toast); false for a reset link, which lands on the new-password
 * form. Failures: Google not configured, refused or unverified; an emailed link that did not work.
 */
export type CallbackOutcome =
	| { ok: true; headers: Headers; redirectTo: string; welcome: boolean }
	| { ok: false; code: 'google_not_configured' | 'google_failed' | 'google_email_not_verified' | 'email_link_failed' | 'reset_link_failed' }
