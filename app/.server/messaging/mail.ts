/**
 * A client mail of Reminders & Messaging (docs/product.md, Reminders & Messaging): a rendered
 * template, then the unsubscribe line in the mail's language with its signed link, and the
 * `List-Unsubscribe` headers. Every client mail of the module goes through here, so none lacks
 * the way out.
 */
import type { Mail } from '../mail/index.ts'
import { tIn } from '../i18n.ts'
import { escapeHtml, type RenderedMessage } from './render.ts'
import { clientUnsubscribeHeaders, clientUnsubscribeUrl } from './unsubscribe.ts'

export type ClientMailInput = {
	organizationId: string
	organizationName: string
	to: string
	language: string
	message: RenderedMessage
}

/** The mail to a client: the message, its unsubscribe line (text and HTML) and headers. */
export function clientMail({ organizationId, organizationName, to, language, message }: ClientMailInput): Mail {
	const t = tIn(language, 'messaging')
	const link = clientUnsubscribeUrl(organizationId, to)
	const why = t('mail.unsubscribe', { organization: organizationName })
	const html = [
		`<div lang="${escapeHtml(language)}" style="font-family:Arial,Helvetica,sans-serif;color:#111827;line-height:1.5;max-width:600px">`,
		message.html,
		`<p style="margin:24px 0 0;font-size:12px;color:#6b7280">${escapeHtml(why)} <a href="${escapeHtml(link)}">${escapeHtml(t('mail.unsubscribeLink'))}</a></p>`,
		'</div>',
	].join('\n')
	return {
		to,
		subject: message.subject,
		text: `${message.text.trimEnd()}\n\n--\n${why}\n${link}\n`,
		html,
		headers: clientUnsubscribeHeaders(organizationId, to),
	}
}
