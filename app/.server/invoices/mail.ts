/**
 * The invoice mail (docs/product.md, Invoicing): what the client receives when an invoice is sent,
 * in the invoice's language, branded with the organization's name, logo and colour as its public
 * pages show them: the number, the amount due, the due date, how to pay it (the organization's
 * handles and the memo code, in the one text of app/.server/payments/instructions.ts) and the
 * link to the invoice's public page (/i/{token}, with its PDF). Text and HTML parts.
 *
 * Sent once per invoice: the mail is recorded in private.invoice_mails before it is queued
 * (supabase/migrations/20261207100000_invoice_mail_once.sql), so a double submit or a retried
 * request sends nothing more; a send that fails forgets the record (as `deliverOnce` does).
 */
import { createHash } from 'node:crypto'
import { formatDate, formatMoney } from '#app/lib/format.ts'
import { oneLine } from '#app/lib/schemas/fields.ts'
import { brandingOf, type Branding } from '../booking/public/organization.ts'
import { asSystem, asUser, sql } from '../db/index.ts'
import { tIn } from '../i18n.ts'
import { logError } from '../log.ts'
import { onMailQueue, sendMail, type Mail } from '../mail/index.ts'
import { payLinks } from '../payments/handles.ts'
import { paymentInstructionLines } from '../payments/instructions.ts'
import { publicOrigin } from '../security.ts'
import { getPublicInvoice, type PublicInvoice } from './public-page.ts'
import { INVOICE_TOKEN } from './sending.ts'

/** The absolute address of an invoice's public page: the link its mails carry. */
export function invoicePageLink(token: string) {
	return `${publicOrigin()}/i/${token}`
}

/** An invoice's number as its client reads it, in their language: "Invoice #12", "Factura n.º 12", "Fatura nº 12". */
export function invoiceNumberText(number: number, language: string) {
	return tIn(language, 'invoice-page')('numbered', { number })
}

const escapeHtml = (text: string) =>
	text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** A logo's address as a mail needs it: absolute (a stored logo is a path on this server). */
function absoluteLogo(url: string | null) {
	if (!url) return null
	return url.startsWith('/') ? `${publicOrigin()}${url}` : url
}

/**
 * The invoice's mail to `to`, in the invoice's language: a pure function of what the public page
 * shows (`getPublicInvoice`), its link and the organization's branding, so every sender (sending
 * now, a recurring invoice) writes the same mail.
 */
export function invoiceMail(invoice: PublicInvoice, input: { to: string; link: string; branding: Branding }): Mail {
	const language = invoice.language
	const t = tIn(language, 'invoice-page')
	const book = tIn(language, 'book')
	const organization = invoice.organization.name
	const numbered = invoiceNumberText(invoice.number, language)
	const amount = formatMoney(invoice.balance, language)
	const date = formatDate(invoice.dueDate, language)
	const intro = invoice.billTo ? t('mail.intro', { name: invoice.billTo, organization }) : t('mail.introNoName', { organization })
	const handles = invoice.handles
	const pay = invoice.code
		? paymentInstructionLines(book, language, { handles, amount: invoice.balance, code: invoice.code, organization })
		: []
	const facts = [numbered, t('mail.amount', { amount }), t('mail.due', { date })]
	const text = [
		intro,
		'',
		...facts,
		...(invoice.notes ? [t('mail.notes', { notes: invoice.notes })] : []),
		'',
		...(pay.length ? [...pay, ''] : []),
		t('mail.view'),
		input.link,
		'',
		t('mail.thanks'),
		organization,
	].join('\n')

	const { primary } = input.branding
	const logo = absoluteLogo(input.branding.logoUrl)
	const links = invoice.code ? payLinks(handles, invoice.balance) : []
	const para = (s: string) => `<p style="margin:0 0 12px">${escapeHtml(s)}</p>`
	// The first line of the instructions, then one item per way to pay, each a link when the app has one.
	const payHtml = pay.length
		? para(pay[0]!) +
			(links.length
				? `<ul style="margin:0 0 12px;padding-left:20px">${links
						.map((l) => {
							const label = escapeHtml(book(`pay.${l.kind}`, { handle: l.handle }))
							return `<li>${l.href ? `<a href="${escapeHtml(l.href)}" style="color:${primary}">${label}</a>` : label}</li>`
						})
						.join('')}</ul>`
				: '')
		: ''
	const html = `<!doctype html><html lang="${escapeHtml(language)}"><body style="margin:0;padding:0;background:#f4f4f5">
<div style="max-width:560px;margin:0 auto;padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#18181b;background:#ffffff">
<div style="border-bottom:3px solid ${primary};padding-bottom:12px;margin-bottom:16px">${
		logo
			? `<img src="${escapeHtml(logo)}" alt="" height="40" style="height:40px;max-width:200px;vertical-align:middle;margin-right:8px">`
			: ''
	}<strong style="font-size:18px;vertical-align:middle">${escapeHtml(organization)}</strong></div>
${para(intro)}
<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${facts
		.map((f) => `<tr><td style="padding:2px 0">${escapeHtml(f)}</td></tr>`)
		.join('')}</table>
${invoice.notes ? para(t('mail.notes', { notes: invoice.notes })) : ''}
${payHtml}
<p style="margin:16px 0"><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 18px;background:${primary};color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(t('mail.button'))}</a></p>
<p style="margin:0 0 12px;font-size:13px;color:#52525b">${escapeHtml(t('mail.view'))} <a href="${escapeHtml(input.link)}" style="color:${primary}">${escapeHtml(input.link)}</a></p>
${para(t('mail.thanks'))}
</div></body></html>`

	return {
		to: input.to,
		// One line whatever the organization's name holds.
		subject: oneLine(t('mail.subject', { invoice: numbered, organization, amount, date })),
		text,
		html,
	}
}

type Sent = { email: string | null; status: string; logo_url: string | null; brand_colors: unknown }

/**
 * Mails a sent invoice of the organization to its bill-to address, once: call it after
 * `sendInvoice` with the token it returned. Not sent (`sent: false`) when the invoice is not the
 * organization's, is not sent (a draft, a void one), has no e-mail, the token is not its page's,
 * or its mail was sent already. The mail goes after the request has answered (the mail queue);
 * a failure is logged and forgets the record, so a later send can try again.
 */
export async function mailInvoice(userId: string, organizationId: string, invoiceId: string, token: string): Promise<{ sent: boolean }> {
	if (!INVOICE_TOKEN.test(token)) return { sent: false }
	const hash = createHash('sha256').update(token, 'utf8').digest('hex')
	const row = await asUser(userId, async (trx) => {
		const { rows } = await sql<Sent>`
			select i.bill_to_email as email, i.status, o.logo_url, o.brand_colors
			from public.invoices i join public.organizations o on o.id = i.organization_id
			where i.id = ${invoiceId} and i.organization_id = ${organizationId} and i.public_token_hash = ${hash}`.execute(trx)
		return rows[0]
	})
	const to = row?.email?.trim()
	if (!row || row.status !== 'sent' || !to) return { sent: false }
	const invoice = await getPublicInvoice(token)
	if (!invoice) return { sent: false }
	const claimed = await asSystem(async (trx) => {
		const { rows } = await sql`insert into private.invoice_mails (invoice_id, recipient) values (${invoiceId}, ${to})
			on conflict do nothing returning invoice_id`.execute(trx)
		return rows.length > 0
	})
	if (!claimed) return { sent: false }
	const mail = invoiceMail(invoice, { to, link: invoicePageLink(token), branding: brandingOf(row) })
	onMailQueue(() => sendMail(mail)).catch(async (error: unknown) => {
		logError(error, { event: 'invoice_mail_failed', invoiceId })
		await asSystem((trx) => sql`delete from private.invoice_mails where invoice_id = ${invoiceId}`.execute(trx)).catch((e: unknown) =>
			logError(e, { event: 'invoice_mail_release_failed', invoiceId }),
		)
	})
	return { sent: true }
}
