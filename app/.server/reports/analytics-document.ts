/**
 * The analytics as a document (docs/product.md, Reports: Advanced Analytics): the figures of the
 * analytics screen for a range — cohorts, rails per month, year over year, top clients — in the
 * words and number formats of one reader, for the one report renderer (./pdf.ts).
 */
import { formatDate, formatMoney, formatNumber, formatPercent } from '#app/lib/format.ts'
import type { Language } from '#app/lib/i18n.ts'
import { tIn } from '../i18n.ts'
import type { Analytics } from './analytics.ts'
import type { ReportDocument } from './document.ts'

/** The retention months a page has room for (the screen shows all twelve). */
const PDF_RETENTION_MONTHS = [1, 2, 3, 6, 12]

/** The analytics' document in `language`; the organization's date it was made on goes in the subtitle. */
export function analyticsDocument(analytics: Analytics, organizationName: string, language: Language): ReportDocument {
	const t = tIn(language, 'analytics')
	const r = tIn(language, 'reports')
	const methodName = tIn(language, 'transactions')
	const money = (amount: string | number) => formatMoney(amount, language)
	const number = (value: number) => formatNumber(value, language)
	const percent = (value: number | null) => (value === null ? '—' : formatPercent(value, language))
	const month = (iso: string, long = false) =>
		r(long ? 'monthLabelLong' : 'monthLabel', {
			month: r(`months.${long ? 'long' : 'short'}.${Number(iso.slice(5, 7))}`),
			year: iso.slice(0, 4),
		})
	const { range, totals } = analytics
	const shown =
		range.from && range.to
			? r('range.showing', { from: formatDate(range.from, language), to: formatDate(range.to, language) })
			: r('range.showingAll')
	const right = 'right' as const
	const cell = (month: string, method: string) =>
		analytics.methodMonths.find((m) => m.month === month && m.method === method)?.amount ?? '0'
	return {
		title: t('pdf.title'),
		organizationName,
		subtitle: `${shown} · ${r('pdf.generated', { date: formatDate(analytics.today, language) })}`,
		language,
		pageLabel: (page, pages) => r('pdf.page', { page, pages }),
		sections: [
			{
				heading: r('pdf.summary'),
				stats: [
					{ label: t('yoy.amount'), value: money(totals.amount) },
					{ label: t('yoy.count'), value: number(totals.count) },
				],
				paragraphs: totals.count === 0 ? [t('empty.title')] : [],
			},
			{
				heading: t('cohorts.title'),
				paragraphs: [t('cohorts.description'), ...(analytics.cohorts.length === 0 ? [t('cohorts.none')] : [])],
				tables:
					analytics.cohorts.length === 0
						? []
						: [
								{
									columns: [
										{ label: t('cohorts.cohort') },
										{ label: t('cohorts.clients'), align: right },
										...PDF_RETENTION_MONTHS.map((n) => ({ label: t('cohorts.month', { n }), align: right })),
									],
									rows: analytics.cohorts.map((c) => [
										month(c.month),
										number(c.clients),
										...PDF_RETENTION_MONTHS.map((n) => {
											const count = c.retained[n] ?? null
											return count === null ? '—' : `${number(count)} (${percent(c.clients > 0 ? count / c.clients : 0)})`
										}),
									]),
								},
							],
			},
			...(totals.count === 0
				? []
				: [
						{
							heading: t('methods.title'),
							tables: [
								{
									columns: [
										{ label: t('methods.month') },
										...analytics.methods.map((m) => ({ label: methodName(`methods.${m}`), align: right })),
									],
									rows: analytics.months.map((m) => [month(m), ...analytics.methods.map((method) => money(cell(m, method)))]),
								},
							],
						},
						{
							heading: t('yoy.title'),
							tables: [
								{
									columns: [
										{ label: t('yoy.month') },
										{ label: t('yoy.amount'), align: right },
										{ label: t('yoy.previousAmount'), align: right },
										{ label: t('yoy.amountChange'), align: right },
										{ label: t('yoy.count'), align: right },
										{ label: t('yoy.countChange'), align: right },
									],
									rows: analytics.yearOverYear.map((y) => [
										month(y.month, true),
										money(y.amount),
										money(y.previousAmount),
										percent(y.amountChange),
										number(y.count),
										percent(y.countChange),
									]),
								},
							],
						},
						{
							heading: t('top.title'),
							paragraphs: analytics.topClients.length === 0 ? [t('top.none')] : [],
							tables:
								analytics.topClients.length === 0
									? []
									: [
											{
												columns: [
													{ label: t('top.client') },
													{ label: t('top.count'), align: right },
													{ label: t('top.amount'), align: right },
													{ label: t('top.share'), align: right },
													{ label: t('top.lastPayment'), align: right },
												],
												rows: analytics.topClients.map((c) => [
													c.name || t('top.unnamed'),
													number(c.count),
													money(c.amount),
													percent(c.share),
													c.lastPayment ? formatDate(c.lastPayment, language) : '—',
												]),
											},
										],
						},
					]),
		],
	}
}
