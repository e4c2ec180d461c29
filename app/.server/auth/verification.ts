/**
 * Verified addresses (docs/decisions/037-verified-addresses.md). One rule decides whether an
 * account may be attached to something through its address (an invitation, a Google identity):
 * "this account verifiably owns this address", `private.owns_address`, that is, Supabase's
 * `auth.users.email_confirmed_at` is set for the address the account has now.
 *
 * Locally an address becomes verified when a link mailed to it is used by the account: the
 * verification link sent at sign-up (or again from the reminder), a password reset link, an
 * invitation that creates the account, the confirmation of an email change, the revert of one;
 * or when Google vouches for it at a Google sign-in. With Supabase Auth, by its own confirmation.
 *
 * The verification link confirms on a POST, signed in as the account: a mail scanner fetching
 * the link changes nothing, and a person who gets a link for an account someone else created
 * with their address (a pre-registration) cannot verify that account for its creator.
 */
import { hashToken, newToken } from './tokens.ts'
import { asSystem, sql, type Tx } from '../db/index.ts'
import { queueMail } from '../mail/index.ts'
import { tIn } from '../i18n.ts'
import { allowEvent } from '../rate-limit.ts'
import { publicOrigin } from '../security.ts'

/** How long a verification link works. */
export const VERIFY_HOURS = 24

/** Whether `userId` verifiably owns `email` (the one rule, in SQL), inside the caller's transaction. */
export async function ownsAddress(trx: Tx, userId: string, email: string) {
	const { rows } = await sql<{ owns: boolean }>`select private.owns_address(${userId}::uuid, ${email}) as owns`.execute(trx)
	return rows[0]?.owns === true
}

/** Whether the account's current address is verified. */
export async function isVerified(userId: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ verified: boolean }>`select email_confirmed_at is not null as verified from auth.users where id = ${userId}`.execute(trx),
	)
	return rows[0]?.verified === true
}

/**
 * Marks the account's current address verified (a link mailed to it was used, or Google vouched
 * for it) and drops a pending verification link, inside the caller's transaction.
 */
export async function markVerified(trx: Tx, userId: string) {
	await sql`update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = ${userId}`.execute(trx)
	await sql`delete from private.email_verifications where user_id = ${userId}`.execute(trx)
}

/**
 * An account that was not verified passes to the person who has just proved they own its address
 * (Google vouched for it, or a reset link mailed to it was used): whatever its creator set up
 * that could outlast this ends — every session, a recovery link, a pending email change and the
 * undo links of earlier ones, a pending verification link — and, with `clearPassword`, the
 * password the creator chose. The address is then verified. Inside the caller's transaction.
 */
export async function claimAccount(trx: Tx, userId: string, { clearPassword }: { clearPassword: boolean }) {
	await sql`update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), recovery_token = null,
		encrypted_password = case when ${clearPassword}::boolean then '' else encrypted_password end, updated_at = now()
		where id = ${userId}`.execute(trx)
	await sql`delete from auth.sessions where user_id = ${userId}`.execute(trx)
	await sql`delete from private.email_changes where user_id = ${userId}`.execute(trx)
	await sql`delete from private.email_change_reverts where user_id = ${userId}`.execute(trx)
	await sql`delete from private.email_verifications where user_id = ${userId}`.execute(trx)
}

/**
 * Mails a verification link (valid VERIFY_HOURS, single use) to the account's current address,
 * in `language`; a new link replaces the previous one. Null when the address is verified already.
 */
export async function sendVerification(userId: string, language: string | null | undefined): Promise<{ email: string } | null> {
	const token = newToken()
	const email = await asSystem(async (trx) => {
		const { rows } = await sql<{ email: string }>`
			insert into private.email_verifications (user_id, email, token_hash)
			select u.id, lower(u.email), ${hashToken(token)} from auth.users u
			where u.id = ${userId} and u.email_confirmed_at is null and u.email is not null and u.deleted_at is null
			on conflict (user_id) do update set email = excluded.email, token_hash = excluded.token_hash, sent_at = now()
			returning email`.execute(trx)
		return rows[0]?.email ?? null
	})
	if (!email) return null
	const t = tIn(language, 'auth')
	const link = `${publicOrigin()}/auth/verify-email?${new URLSearchParams({ token })}`
	queueMail({ to: email, subject: t('verify.mail.subject'), text: t('verify.mail.body', { link, hours: VERIFY_HOURS }) })
	return { email }
}

export type ResendOutcome = { ok: true; email: string } | { ok: false; code: 'already_verified' | 'too_many_attempts' }

/** The reminder's "send the link again": at most LIMITS['email-verification'] mails per account. */
export async function resendVerification(userId: string, language: string | null | undefined): Promise<ResendOutcome> {
	if (await isVerified(userId)) return { ok: false, code: 'already_verified' }
	if (!(await allowEvent('email-verification', userId))) return { ok: false, code: 'too_many_attempts' }
	const sent = await sendVerification(userId, language)
	return sent ? { ok: true, email: sent.email } : { ok: false, code: 'already_verified' }
}

/** The account and address a verification link is for, while it works (to show the page; nothing is spent). */
export async function findVerification(token: string): Promise<{ userId: string; email: string } | null> {
	const { rows } = await asSystem((trx) =>
		sql<{ user_id: string; email: string }>`
			select v.user_id, v.email from private.email_verifications v join auth.users u on u.id = v.user_id
			where v.token_hash = ${hashToken(token)} and v.sent_at > now() - make_interval(hours => ${VERIFY_HOURS})
				and lower(u.email) = v.email and u.deleted_at is null`.execute(trx),
	)
	const row = rows[0]
	return row ? { userId: row.user_id, email: row.email } : null
}

export type VerifyOutcome = { ok: true; email: string } | { ok: false; code: 'invalid_token' | 'other_account' }

/**
 * Spends the link and verifies the address, for the signed-in account `userId` only: a link of
 * another account is left unspent ('other_account'). A link for an address the account no
 * longer has, or past VERIFY_HOURS, verifies nothing ('invalid_token').
 */
export async function confirmVerification(token: string, userId: string): Promise<VerifyOutcome> {
	return asSystem(async (trx) => {
		const { rows } = await sql<{ user_id: string; email: string }>`
			select user_id, email from private.email_verifications
			where token_hash = ${hashToken(token)} and sent_at > now() - make_interval(hours => ${VERIFY_HOURS})
			for update`.execute(trx)
		const pending = rows[0]
		if (!pending) return { ok: false, code: 'invalid_token' } as const
		if (pending.user_id !== userId) return { ok: false, code: 'other_account' } as const
		await sql`delete from private.email_verifications where user_id = ${userId}`.execute(trx)
		const verified = await sql<{ id: string }>`update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now())
			where id = ${userId} and lower(email) = ${pending.email} and deleted_at is null returning id`.execute(trx)
		if (!verified.rows[0]) return { ok: false, code: 'invalid_token' } as const
		return { ok: true, email: pending.email } as const
	})
}
