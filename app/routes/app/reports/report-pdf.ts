import { requireMember } from '#app/.server/auth/session.ts'
import { getInstance, getLocale } from '#app/.server/i18n.ts'
import { getReport } from '#app/.server/payments/analytics.ts'
import { EXPORT_UPGRADE_ID, overviewDocument, ownsReportUpgrade, REPORTS_MODULE_PAGE } from '#app/.server/reports/overview-document.ts'
import { renderReportPdf } from '#app/.server/reports/pdf.ts'
import type { Route } from './+types/report-pdf'

/**
 * The Reports overview as a PDF (docs/product.md, Reports › Report Export): the same range as the
 * page (its URL's parameters), drawn by the one report renderer in the viewer's language and
 * number formats. Only with the Report Export upgrade: without it, a translated 403 page that
 * links to the upgrade's module in the marketplace. A malformed range is a 400 with its reason.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const t = getInstance(context).getFixedT(null, 'reports')
	const language = getLocale(context)
	if (!(await ownsReportUpgrade(user.userId, organization.id, EXPORT_UPGRADE_ID))) {
		const page = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(t('pdf.forbiddenTitle'))}</title></head><body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">
<h1>${escapeHtml(t('pdf.forbiddenTitle'))}</h1><p>${escapeHtml(t('pdf.forbiddenBody'))}</p>
<p><a href="${REPORTS_MODULE_PAGE}">${escapeHtml(t('pdf.forbiddenLink'))}</a></p></body></html>`
		return new Response(page, { status: 403, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } })
	}
	const report = await getReport(user.userId, organization.id, new URL(request.url).searchParams, { timezone: organization.timezone })
	if (!report.ok) {
		const message = `${t(`errors.${report.error}.title`)}: ${t(`errors.${report.error}.description`)}`
		return new Response(message, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } })
	}
	const bytes = await renderReportPdf(overviewDocument(report, organization.name, language, report.today))
	const name = report.range.from && report.range.to ? `report-${report.range.from}-${report.range.to}.pdf` : 'report-all.pdf'
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
