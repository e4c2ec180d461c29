import { ExportTally, exportTransactions, resolveReportRange, csvLine, type DateRange } from '#app/.server/payments/analytics.ts'
import { requireMember } from '#app/.server/auth/session.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { formatPercent } from '#app/lib/format.ts'
import type { Route } from './+types/reports-export'

/**
 * Export Report: the range's transactions as CSV, oldest first, then a summary
 * computed from the very rows above it. Streamed in batches, each read in its own short
 * transaction, so a large export neither holds the database nor the memory.
 *
 * Headers and words (categories, payment methods) are in the interface language; dates and
 * numbers are machine-readable in every language: ISO dates (YYYY-MM-DD) and dot-decimal
 * amounts without a currency sign, so a spreadsheet or a script reads the same file whoever
 * exported it (docs/decisions/022-formats-follow-the-language.md).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const t = getInstance(context).getFixedT(null, 'reports')
	const methodLabel = getInstance(context).getFixedT(null, 'transactions')
	const resolved = resolveReportRange(organization, new URL(request.url).searchParams)
	if (!resolved.ok) {
		const message = `${t(`errors.${resolved.error}.title`)}: ${t(`errors.${resolved.error}.description`)}`
		return new Response(message, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } })
	}
	const { range } = resolved
	const encoder = new TextEncoder()
	const batches = exportTransactions(user.userId, organization.id, range)
	const tally = new ExportTally()
	const header = csvLine(['date', 'client', 'externalId', 'amount', 'category', 'method', 'description'].map((c) => t(`columns.${c}`)))
	const stream = new ReadableStream<Uint8Array>({
		start(controller) {
			// The byte order mark makes spreadsheet programs read the file as UTF-8.
			controller.enqueue(encoder.encode(`\uFEFF${header}`))
		},
		async pull(controller) {
			try {
				const next = await batches.next()
				if (!next.done) {
					let chunk = ''
					for (const row of next.value) {
						tally.add(row)
						chunk += csvLine([
							row.dateReceived,
							row.clientName,
							row.externalId,
							row.amount,
							t(`category.${row.category}`),
							methodLabel(`methods.${row.paymentMethod}`),
							row.description,
						])
					}
					controller.enqueue(encoder.encode(chunk))
					return
				}
				controller.enqueue(encoder.encode(summary(t, organization.name, range, tally)))
				controller.close()
			} catch (error) {
				controller.error(error)
			}
		},
		async cancel() {
			await batches.return(undefined)
		},
	})
	return new Response(stream, {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="${fileName(range)}"`,
			'cache-control': 'no-store',
		},
	})
}

/** The CSV's percentages use dot decimals in every language, like its amounts. */
const CSV_NUMBERS = 'en'

type T = (key: string, options?: Record<string, unknown>) => string

function summary(t: T, organizationName: string, range: DateRange, tally: ExportTally) {
	const lines = [
		'\r\n',
		csvLine([t('csv.summary')]),
		csvLine([t('csv.organization'), organizationName]),
		range.from && range.to ? csvLine([t('csv.range'), range.from, range.to]) : csvLine([t('csv.range'), t('csv.allTime')]),
		csvLine([t('csv.totalRevenue'), tally.total()]),
		csvLine([t('csv.transactions'), tally.count]),
		csvLine([t('csv.average'), tally.average()]),
		'\r\n',
		csvLine([t('csv.byCategory'), t('columns.count'), t('columns.amount'), t('columns.share')]),
		...tally.categories().map((c) => csvLine([t(`category.${c.category}`), c.count, c.amount, formatPercent(c.share, CSV_NUMBERS)])),
	]
	return lines.join('')
}

function fileName(range: DateRange) {
	return range.from && range.to ? `p2p-report-${range.from}_${range.to}.csv` : 'p2p-report-all.csv'
}
