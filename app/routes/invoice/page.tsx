import { data, isRouteErrorResponse, useRouteError } from 'react-router'
import { getClientAddress } from '#app/.server/auth/session.ts'
import { getLocale, tIn } from '#app/.server/i18n.ts'
import { openPublicInvoice } from '#app/.server/invoices/page-access.ts'
import { invoiceLanguage, invoiceView } from '#app/.server/invoices/view.ts'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { PublicInvoice } from '#app/components/invoices/public-invoice.tsx'
import { MAIN_ID } from '#app/components/shell/skip-link.tsx'
import { supportedLanguages, type Language } from '#app/lib/i18n.ts'
import { pageMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/page'

/**
 * An invoice's public page (/i/{token}; docs/product.md, Invoicing › The client's page, PDF and
 * mail): no sign-in, the token of the link the client was mailed. Never cached or indexed; its
 * pay links send no referrer. A malformed token and a token of no invoice get the same 404, and
 * an address that keeps missing is refused a while (app/.server/invoices/page-access.ts;
 * docs/security.md, Public pages by token).
 */
const PAGE_HEADERS = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex, nofollow' }

export const headers: Route.HeadersFunction = () => PAGE_HEADERS

export const meta: Route.MetaFunction = (args) => [
	...(args.loaderData ? [{ title: `${args.loaderData.view.title} · ${args.loaderData.view.organization.name}` }] : pageMeta(args, null)),
	{ name: 'robots', content: 'noindex, nofollow' },
	{ name: 'referrer', content: 'no-referrer' },
]

/** The refusals this page explains, in the reader's language (written on the server: the page loads no translations). */
function refusal(context: Route.LoaderArgs['context'], kind: 'notFound' | 'rateLimited', status: 404 | 429) {
	const t = tIn(getLocale(context), 'invoice-page')
	return data({ invoicePage: kind, title: t(`${kind}.title`), description: t(`${kind}.description`) }, { status, headers: PAGE_HEADERS })
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const opened = await openPublicInvoice(params.token, getClientAddress(request, context))
	if (!opened.ok) throw refusal(context, opened.code, opened.code === 'notFound' ? 404 : 429)
	const invoice = opened.invoice
	const language = invoiceLanguage(new URL(request.url), invoice)
	const self = `/i/${params.token}`
	return {
		view: invoiceView(invoice, language),
		pdfHref: `${self}/invoice.pdf?lng=${encodeURIComponent(language)}`,
		languageHref: Object.fromEntries(supportedLanguages.map((lng) => [lng, `${self}?lng=${encodeURIComponent(lng)}`])) as Record<
			Language,
			string
		>,
	}
}

export default function InvoicePage({ loaderData }: Route.ComponentProps) {
	return <PublicInvoice view={loaderData.view} pdfHref={loaderData.pdfHref} languageHref={loaderData.languageHref} />
}

export function ErrorBoundary() {
	const error = useRouteError()
	const body = isRouteErrorResponse(error) ? (error.data as { invoicePage?: string; title?: string; description?: string } | null) : null
	return (
		<main id={MAIN_ID} tabIndex={-1} className="mx-auto flex min-h-svh max-w-lg flex-col justify-center gap-3 p-6 text-center">
			{body?.invoicePage ? (
				<>
					<h1 className="text-2xl font-semibold">{body.title}</h1>
					<p className="text-muted-foreground">{body.description}</p>
				</>
			) : (
				<GeneralErrorBoundary />
			)}
		</main>
	)
}
