/**
 * Changing the sign-in email (docs/product.md, Settings): a request stores a one-day,
 * single-use token (only its hash) and mails a confirmation link to the NEW address; the
 * address changes only when that link is confirmed, and the OLD address then gets a notice.
 */
import { normalizeEmail } from './auth/local.ts'
import { hashToken, newToken } from './auth/tokens.ts'
import { asSystem, dbErrorCode, sql } from './db/index.ts'
import { queueMail } from './mail/index.ts'
import { tIn } from './notifications/translate.ts'
import { publicOrigin } from './security.ts'

const CONFIRM_HOURS = 24

export type EmailChangeRequest = { ok: true } | { ok: false; code: 'same_email' | 'email_taken' }

export async function requestEmailChange(userId: string, rawEmail: string, language: string | null): Promise<EmailChangeRequest> {
	const email = normalizeEmail(rawEmail)
	const token = newToken()
	const outcome = await asSystem(async (trx) => {
		const me = await trx.selectFrom('auth.users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()
		if (normalizeEmail(me.email ?? '') === email) return 'same_email' as const
		const taken = await trx.selectFrom('auth.users').select('id').where(sql`lower(email)`, '=', email).executeTakeFirst()
		if (taken) return 'email_taken' as const
		await sql`insert into private.email_changes (user_id, new_email, token_hash) values (${userId}, ${email}, ${hashToken(token)})
			on conflict (user_id) do update set new_email = excluded.new_email, token_hash = excluded.token_hash, requested_at = now()`.execute(trx)
		return 'ok' as const
	})
	if (outcome !== 'ok') return { ok: false, code: outcome }
	const t = tIn(language, 'settings')
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

/** Spends the token and changes the address of the account and profile, in one transaction. */
export async function confirmEmailChange(token: string): Promise<EmailChangeConfirmation> {
	try {
		const result = await asSystem(async (trx) => {
			const { rows } = await sql<{ user_id: string; new_email: string }>`delete from private.email_changes
				where token_hash = ${hashToken(token)} and requested_at > now() - make_interval(hours => ${CONFIRM_HOURS})
				returning user_id, new_email`.execute(trx)
			const change = rows[0]
			if (!change) return null
			const old = await trx.selectFrom('auth.users').select('email').where('id', '=', change.user_id).executeTakeFirstOrThrow()
			await trx.updateTable('auth.users').set({ email: change.new_email, updated_at: new Date() }).where('id', '=', change.user_id).execute()
			await trx.updateTable('profiles').set({ email: change.new_email }).where('user_id', '=', change.user_id).execute()
			const profile = await trx.selectFrom('profiles').select('preferred_language').where('user_id', '=', change.user_id).executeTakeFirst()
			return { userId: change.user_id, email: change.new_email, oldEmail: old.email, language: profile?.preferred_language ?? null }
		})
		if (!result) return { ok: false, code: 'invalid_token' }
		if (result.oldEmail) {
			const t = tIn(result.language, 'settings')
			queueMail({ to: result.oldEmail, subject: t('email.notice.subject'), text: t('email.notice.body', { email: result.email }) })
		}
		return { ok: true, userId: result.userId, email: result.email }
	} catch (error) {
		if (dbErrorCode(error) === '23505') return { ok: false, code: 'email_taken' }
		throw error
	}
}
