/**
 * Changing the sign-in email (docs/product.md, Settings; docs/decisions/037-verified-addresses.md).
 *
 * - A request needs proof that the account's holder is at the keyboard, not only their session:
 *   the current password, or, for an account without one, a sign-in within the last minutes
 *   (the auth port's `confirmIdentity`). A stolen or unattended session cannot move the account.
 * - It stores a one-day, single-use token (only its hash) and mails a confirmation link to the
 *   NEW address; the address changes only when that link is confirmed, which also verifies it.
 * - The OLD address then gets a notice with an undo link, valid 7 days, single use: it restores
 *   the old address, ends every session, clears the password and the identities linked since
 *   the change, so that only the old address's owner gets back in (by a password reset). The
 *   old address stays reserved for the account meanwhile (no one else can take it).
 */
import type { AuthUser, ClientMeta } from '../auth/port.ts'
import { auth } from '../auth/port.ts'
import { normalizeEmail } from '../auth/local.ts'
import { hashToken, newToken } from '../auth/tokens.ts'
import { asSystem, dbErrorCode, sql } from '../db/index.ts'
import { queueMail } from '../mail/index.ts'
import { tIn } from '../i18n.ts'
import { publicOrigin } from '../security.ts'

const CONFIRM_HOURS = 24
/** How long the notice's undo link works. */
export const REVERT_DAYS = 7

export type EmailChangeRequest = { ok: true } | { ok: false; code: 'same_email' | 'email_taken' | 'wrong_password' | 'sign_in_again' }

/**
 * The signed-in `user` asks to sign in with `email` from now on. Refused, with nothing stored or
 * mailed, unless `currentPassword` is right (or, without a password, the sign-in is recent).
 */
export async function requestEmailChange(
	request: Request,
	user: AuthUser,
	input: { email: string; currentPassword: string | null; language: string | null } & ClientMeta,
): Promise<EmailChangeRequest> {
	const identity = await auth().confirmIdentity(request, user, {
		password: input.currentPassword,
		ip: input.ip,
		userAgent: input.userAgent,
	})
	if (identity !== 'ok') return { ok: false, code: identity }
	const email = normalizeEmail(input.email)
	const token = newToken()
	const outcome = await asSystem(async (trx) => {
		const me = await trx.selectFrom('auth.users').select('email').where('id', '=', user.userId).executeTakeFirstOrThrow()
		if (normalizeEmail(me.email ?? '') === email) return 'same_email' as const
		const taken = await trx
			.selectFrom('auth.users')
			.select('id')
			.where(sql`lower(email)`, '=', email)
			.executeTakeFirst()
		if (taken) return 'email_taken' as const
		await sql`insert into private.email_changes (user_id, new_email, token_hash) values (${user.userId}, ${email}, ${hashToken(token)})
			on conflict (user_id) do update set new_email = excluded.new_email, token_hash = excluded.token_hash, requested_at = now()`.execute(trx)
		return 'ok' as const
	})
	if (outcome !== 'ok') return { ok: false, code: outcome }
	const t = tIn(input.language, 'settings')
	const link = `${publicOrigin()}/auth/confirm-email?${new URLSearchParams({ token })}`
	queueMail({ to: email, subject: t('email.mail.subject'), text: t('email.mail.body', { link, hours: CONFIRM_HOURS }) })
	return { ok: true }
}

/** The pending change a token belongs to (to show the confirmation page; nothing is spent). */
export async function findEmailChange(token: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ new_email: string }>`select new_email from private.email_changes
			where token_hash = ${hashToken(token)} and requested_at > now() - make_interval(hours => ${CONFIRM_HOURS})`.execute(trx),
	)
	return rows[0] ? { newEmail: rows[0].new_email } : null
}

export type EmailChangeConfirmation = { ok: true; userId: string; email: string } | { ok: false; code: 'invalid_token' | 'email_taken' }

/**
 * Spends the token and changes the address of the account and profile, in one transaction. The
 * link reached the new address, so it is verified; a recovery link sent to the old one no longer
 * works. The old address gets the notice with its undo link.
 */
export async function confirmEmailChange(token: string): Promise<EmailChangeConfirmation> {
	const revertToken = newToken()
	try {
		const result = await asSystem(async (trx) => {
			const { rows } = await sql<{ user_id: string; new_email: string }>`delete from private.email_changes
				where token_hash = ${hashToken(token)} and requested_at > now() - make_interval(hours => ${CONFIRM_HOURS})
				returning user_id, new_email`.execute(trx)
			const change = rows[0]
			if (!change) return null
			const old = await trx.selectFrom('auth.users').select('email').where('id', '=', change.user_id).executeTakeFirstOrThrow()
			await sql`update auth.users set email = ${change.new_email}, email_confirmed_at = now(), recovery_token = null, updated_at = now()
				where id = ${change.user_id}`.execute(trx)
			await trx.updateTable('profiles').set({ email: change.new_email }).where('user_id', '=', change.user_id).execute()
			await sql`delete from private.email_verifications where user_id = ${change.user_id}`.execute(trx)
			if (old.email) {
				await sql`insert into private.email_change_reverts (token_hash, user_id, old_email, new_email)
					values (${hashToken(revertToken)}, ${change.user_id}, ${normalizeEmail(old.email)}, ${change.new_email})`.execute(trx)
			}
			const profile = await trx.selectFrom('profiles').select('preferred_language').where('user_id', '=', change.user_id).executeTakeFirst()
			return { userId: change.user_id, email: change.new_email, oldEmail: old.email, language: profile?.preferred_language ?? null }
		})
		if (!result) return { ok: false, code: 'invalid_token' }
		if (result.oldEmail) {
			const t = tIn(result.language, 'settings')
			const link = `${publicOrigin()}/auth/revert-email?${new URLSearchParams({ token: revertToken })}`
			queueMail({
				to: result.oldEmail,
				subject: t('email.notice.subject'),
				text: t('email.notice.body', { email: result.email, link, days: REVERT_DAYS }),
			})
		}
		return { ok: true, userId: result.userId, email: result.email }
	} catch (error) {
		if (dbErrorCode(error) === '23505') return { ok: false, code: 'email_taken' }
		throw error
	}
}

/** The change an undo link belongs to, while it works (to show the page; nothing is spent). */
export async function findEmailRevert(token: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ old_email: string; new_email: string }>`select old_email, new_email from private.email_change_reverts
			where token_hash = ${hashToken(token)} and changed_at > now() - make_interval(days => ${REVERT_DAYS})`.execute(trx),
	)
	return rows[0] ? { oldEmail: rows[0].old_email, newEmail: rows[0].new_email } : null
}

export type EmailRevert = { ok: true; userId: string; email: string } | { ok: false; code: 'invalid_token' | 'email_taken' }

/**
 * Undoes a change from the old address's link, in one transaction: the old address comes back
 * (verified: the link reached it), every session of the account ends, the password is cleared
 * (whoever changed the address may have set it), and so are a pending email change, the undo
 * links of later changes, and the Google identities linked since the change. The user then
 * resets the password through the restored address.
 */
export async function revertEmailChange(token: string): Promise<EmailRevert> {
	try {
		const result = await asSystem(async (trx) => {
			const { rows } = await sql<{ user_id: string; old_email: string; changed_at: Date }>`delete from private.email_change_reverts
				where token_hash = ${hashToken(token)} and changed_at > now() - make_interval(days => ${REVERT_DAYS})
				returning user_id, old_email, changed_at`.execute(trx)
			const revert = rows[0]
			if (!revert) return null
			const userId = revert.user_id
			await sql`update auth.users set email = ${revert.old_email}, email_confirmed_at = now(), encrypted_password = '',
				recovery_token = null, updated_at = now() where id = ${userId}`.execute(trx)
			await trx.updateTable('profiles').set({ email: revert.old_email }).where('user_id', '=', userId).execute()
			await sql`delete from auth.sessions where user_id = ${userId}`.execute(trx)
			await sql`delete from auth.identities where user_id = ${userId} and created_at >= ${revert.changed_at}`.execute(trx)
			await sql`delete from private.email_changes where user_id = ${userId}`.execute(trx)
			await sql`delete from private.email_verifications where user_id = ${userId}`.execute(trx)
			await sql`delete from private.email_change_reverts where user_id = ${userId} and changed_at >= ${revert.changed_at}`.execute(trx)
			return { userId, email: revert.old_email }
		})
		return result ? { ok: true, ...result } : { ok: false, code: 'invalid_token' }
	} catch (error) {
		if (dbErrorCode(error) === '23505') return { ok: false, code: 'email_taken' }
		throw error
	}
}
