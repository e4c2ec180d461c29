import { requireMember } from '#app/.server/auth/session.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { getAnalytics, ownsAdvancedAnalytics } from '#app/.server/reports/analytics.ts'
import { analyticsDocument } from '#app/.server/reports/analytics-document.ts'
import { EXPORT_UPGRADE_ID, ownsReportUpgrade, REPORTS_MODULE_PAGE } from '#app/.server/reports/overview-document.ts'
import { renderReportPdf } from '#app/.server/reports/pdf.ts'
import type { Route } from './+types/analytics-pdf'

/**
 * The analytics as a PDF (docs/product.md, Reports: Advanced Analytics): the range of the
 * screen's URL, drawn by the one report renderer in the viewer's language. Needs both Advanced
 * Analytics and Report Export: without either, a translated 403 page that links to the Reports
 * module in the marketplace, and nothing is read. A malformed range is a 400 with its reason.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const language = getLocale(context)
	const t = getInstance(context).getFixedT(null, 'analytics')
	const [analytics, pdf] = await Promise.all([
		ownsAdvancedAnalytics(user.userId, organization.id),
		ownsReportUpgrade(user.userId, organization.id, EXPORT_UPGRADE_ID),
	])
	if (!analytics || !pdf) {
		const [title, body] = analytics ? [t('pdf.exportTitle'), t('pdf.exportBody')] : [t('inactive.title'), t('inactive.description')]
		const page = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title></head><body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">
<h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>
<p><a href="${REPORTS_MODULE_PAGE}">${escapeHtml(t('pdf.marketplace'))}</a></p></body></html>`
		return new Response(page, { status: 403, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } })
	}
	const result = await getAnalytics(user.userId, organization.id, new URL(request.url).searchParams, { timezone: organization.timezone })
	if (!result.ok) {
		const r = getInstance(context).getFixedT(null, 'reports')
		const message = `${r(`errors.${result.error}.title`)}: ${r(`errors.${result.error}.description`)}`
		return new Response(message, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } })
	}
	const bytes = await renderReportPdf(analyticsDocument(result, organization.name, language))
	const name = result.range.from && result.range.to ? `analytics-${result.range.from}-${result.range.to}.pdf` : 'analytics-all.pdf'
	return new Response(new Uint8Array(bytes), {
		headers: {
			'content-type': 'application/pdf',
			'content-length': String(bytes.byteLength),
			'content-disposition': `attachment; filename="${name}"`,
			'cache-control': 'no-store',
		},
	})
}

/** Text safe inside HTML (the translations are ours, but an apostrophe or an ampersand must show as written). */
function escapeHtml(text: string) {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
