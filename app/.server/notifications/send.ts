import { sendMail } from '../mail/index.ts'
import type { NotificationKind } from '#app/lib/schemas/settings.ts'
import { tIn } from './translate.ts'
import { unsubscribeUrl } from './unsubscribe.ts'
import type { Recipient } from './preferences.ts'

/**
 * Sends one notification mail to one member, with the unsubscribe link of its kind in the
 * body and in List-Unsubscribe (one-click, RFC 8058). Resolves once the mail port took it.
 */
export async function sendNotification(recipient: Recipient, organizationId: string, kind: NotificationKind, mail: { subject: string; text: string }) {
	const link = unsubscribeUrl(recipient.userId, organizationId, kind)
	const t = tIn(recipient.language, 'settings')
	await sendMail({
		to: recipient.email,
		subject: mail.subject,
		text: `${mail.text}\n\n--\n${t('notifications.footer', { link })}\n`,
		headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
	})
}
