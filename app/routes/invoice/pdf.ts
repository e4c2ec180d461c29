import { getClientAddress } from '#app/.server/auth/session.ts'
import { getLocale, tIn } from '#app/.server/i18n.ts'
import { invoicePdf, logoForPdf } from '#app/.server/invoices/pdf.ts'
import { openPublicInvoice } from '#app/.server/invoices/page-access.ts'
import { invoiceLanguage, invoiceView } from '#app/.server/invoices/view.ts'
import type { Route } from './+types/pdf'

const HEADERS = { 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex, nofollow' }

/** A refusal as plain text in the reader's language: the same for a malformed token and a token of no invoice. */
function refusal(context: Route.LoaderArgs['context'], kind: 'notFound' | 'rateLimited', status: 404 | 429) {
	const t = tIn(getLocale(context), 'invoice-page')
	return new Response(`${t(`${kind}.title`)}\n\n${t(`${kind}.description`)}\n`, {
		status,
		headers: { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' },
	})
}

/**
 * The invoice's PDF (/i/{token}/invoice.pdf; docs/product.md, Invoicing › The client's page, PDF
 * and mail): what the page shows, in the page's language, drawn on the server (app/.server/invoices/pdf.ts).
 * Reached as the page is (app/.server/invoices/page-access.ts); never cached or indexed.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
	const opened = await openPublicInvoice(params.token, getClientAddress(request, context))
	if (!opened.ok) return refusal(context, opened.code, opened.code === 'notFound' ? 404 : 429)
	const invoice = opened.invoice
	const logo = await logoForPdf(invoice.organization.logoUrl)
	const bytes = await invoicePdf(invoiceView(invoice, invoiceLanguage(new URL(request.url), invoice)), logo)
	return new Response(new Uint8Array(bytes), {
		headers: {
			...HEADERS,
			'content-type': 'application/pdf',
			'content-length': String(bytes.byteLength),
			'content-disposition': `attachment; filename="invoice-${invoice.number}.pdf"`,
		},
	})
}
