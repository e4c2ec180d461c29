import { oneLine } from '#app/lib/schemas/fields.ts'
import type { NotificationKind } from '#app/lib/schemas/settings.ts'
import { sendMail } from '../mail/index.ts'
import { recipientsFor, type Recipient } from './audience.ts'
import { tIn, type Translate } from '../i18n.ts'
import { unsubscribeUrl } from './unsubscribe.ts'

export type NotificationMail = { subject: string; text: string }

export type NotifyOptions = {
	/**
	 * Wraps each member's send, e.g. the scheduler's `deliverOnce`; resolves to whether it sent.
	 * By default the mail is sent at once.
	 */
	deliver?: (recipient: Recipient, send: () => Promise<void>) => Promise<boolean>
	/** Called with a member's failed send, which then does not stop the others; without it, the failure is thrown. */
	onError?: (error: unknown, recipient: Recipient) => void
}

/**
 * The one way a notification mail reaches the staff: to each member `recipientsFor` allows for
 * `kind` (the module's activation, switch and visibility, then the member's toggle: audience.ts),
 * the mail `write` makes in the member's language. Each mail carries the unsubscribe link of its
 * kind in the body and in List-Unsubscribe (one-click, RFC 8058). Returns how many were sent.
 */
export async function notifyMembers(
	organizationId: string,
	kind: NotificationKind,
	write: (recipient: Recipient, t: Translate) => NotificationMail,
	{ deliver = async (_recipient, send) => (await send(), true), onError }: NotifyOptions = {},
): Promise<number> {
	let sent = 0
	for (const recipient of await recipientsFor(organizationId, kind)) {
		try {
			const t = tIn(recipient.language, 'settings')
			if (await deliver(recipient, () => sendNotification(recipient, organizationId, kind, write(recipient, t), t))) sent++
		} catch (error) {
			if (!onError) throw error
			onError(error, recipient)
		}
	}
	return sent
}

/** Sends one notification mail to one member; the subject is kept to one line, whatever the names in it hold. */
async function sendNotification(
	recipient: Recipient,
	organizationId: string,
	kind: NotificationKind,
	mail: NotificationMail,
	t: Translate,
) {
	const link = unsubscribeUrl(recipient.userId, organizationId, kind)
	await sendMail({
		to: recipient.email,
		subject: oneLine(mail.subject),
		text: `${mail.text}\n\n--\n${t('notifications.footer', { link })}\n`,
		headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
	})
}
