import { requireMember } from '#app/.server/auth/session.ts'
import { getTaxYear } from '#app/.server/reports/tax-year.ts'
import { taxYearCsv } from '#app/.server/reports/tax-year-export.ts'
import { exportWords } from '#app/.server/reports/tax-year-words.ts'
import type { Route } from './+types/tax-year-export'

/**
 * The tax year as CSV for an accountant (docs/product.md, Reports: Tax year): one line per rail,
 * the expenses per category, the totals and the Form 1099-K checks, in the viewer's language with
 * machine-readable numbers. A bad year is a 400 with the translated reason.
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
	return new Response(taxYearCsv(result.report, organization.name, words), {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="tax-year-${result.report.year}.csv"`,
			'cache-control': 'no-store',
		},
	})
}
