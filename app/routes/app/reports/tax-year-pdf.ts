import { requireMember } from '#app/.server/auth/session.ts'
import { renderReportPdf } from '#app/.server/reports/pdf.ts'
import { getTaxYear } from '#app/.server/reports/tax-year.ts'
import { taxYearDocument } from '#app/.server/reports/tax-year-export.ts'
import { exportWords } from '#app/.server/reports/tax-year-words.ts'
import { memberClock } from '#app/.server/query.ts'
import type { Route } from './+types/tax-year-pdf'

/**
 * The tax year as a PDF for an accountant (docs/product.md, Reports: Tax year), drawn by the one
 * report renderer from the tax year's ReportDocument, in the viewer's language and formats. A bad
 * year is a 400 with the translated reason.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const words = exportWords(context)
	const result = await getTaxYear(user.userId, organization.id, new URL(request.url).searchParams.get('year'), {
		timezone: organization.timezone,
	})
	if (!result.ok) {
		const message = `${words.t(`errors.${result.error}.title`)}: ${words.t(`errors.${result.error}.description`)}`
		return new Response(message, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } })
	}
	const today = memberClock(organization).today
	const bytes = await renderReportPdf(taxYearDocument(result.report, organization.name, words, today))
	return new Response(new Uint8Array(bytes), {
		headers: {
			'content-type': 'application/pdf',
			'content-length': String(bytes.byteLength),
			'content-disposition': `attachment; filename="tax-year-${result.report.year}.pdf"`,
			'cache-control': 'no-store',
		},
	})
}
