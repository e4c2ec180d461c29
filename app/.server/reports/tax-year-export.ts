/**
 * The tax year for an accountant (docs/product.md, Reports: Tax year): as CSV (one line per rail,
 * the expenses per category, the totals and the Form 1099-K checks) and as a ReportDocument that
 * ./pdf.ts draws. Both are in the viewer's language; the CSV keeps machine-readable numbers (dot
 * decimals, no currency sign) as the reports export does (docs/decisions/022-formats-follow-the-language.md),
 * the PDF the language's money and number formats.
 */
import { formatDate, formatMoney, formatNumber } from '#app/lib/format.ts'
import type { Language } from '#app/lib/i18n.ts'
import { csvLine } from '../payments/analytics.ts'
import type { ReportDocument } from './document.ts'
import { checkSentence } from '#app/lib/tax-year.ts'
import type { TaxYear } from './tax-year.ts'

type T = (key: string, options?: Record<string, unknown>) => string

/** The translators an export needs: its own namespace, the rails' names and the expense categories' names. */
export type ExportWords = { t: T; method: (method: string) => string; category: (category: string) => string; language: Language }

/** The CSV file: the rails, the expenses, the totals, the checks, the notes. */
export function taxYearCsv(report: TaxYear, organizationName: string, words: ExportWords) {
	const { t } = words
	const plain = (v: string) => `$${v}`
	const plainCount = (n: number) => String(n)
	const lines = [
		csvLine([t('title', { year: report.year }), organizationName]),
		csvLine([t('notAdvice')]),
		'\r\n',
		csvLine([
			t('rails.rail'),
			t('rails.count'),
			t('rails.received'),
			t('rails.fees'),
			t('rails.tips'),
			t('rails.refundCount'),
			t('rails.refunds'),
		]),
		...report.rails.map((r) => csvLine([words.method(r.method), r.count, r.received, r.fees, r.tips, r.refundCount, r.refunds])),
		csvLine([
			t('rails.total'),
			report.totals.count,
			report.totals.received,
			report.totals.fees,
			report.totals.tips,
			report.totals.refundCount,
			report.totals.refunds,
		]),
		'\r\n',
		csvLine([t('expenses.category'), t('expenses.count'), t('expenses.amount')]),
		...report.expenses.map((e) => csvLine([words.category(e.category), e.count, e.amount])),
		csvLine([t('expenses.total'), report.expenses.reduce((s, e) => s + e.count, 0), report.expenseTotal]),
		'\r\n',
		csvLine([t('rails.received'), report.totals.received]),
		csvLine([t('expenses.total'), report.expenseTotal]),
		csvLine([t('profit'), report.profit]),
		'\r\n',
		csvLine([t('thresholds.title'), t('rails.received'), t('rails.count'), t('csv.check')]),
		...report.appChecks.flatMap((a) =>
			a.checks.map((c) => csvLine([words.method(a.method), a.received, a.count, checkSentence(c, t, plain, plainCount)])),
		),
		csvLine([t('thresholds.appsOnly')]),
		csvLine([t('thresholds.notReported')]),
		...report.thresholds.map((th) => csvLine([t('thresholds.source'), t(`states.${th.jurisdiction}`), th.sourceName, th.sourceUrl])),
	]
	return `\uFEFF${lines.join('')}`
}

/** The PDF's document: the same figures in the language's formats, for ./pdf.ts to draw. */
export function taxYearDocument(report: TaxYear, organizationName: string, words: ExportWords, today: string): ReportDocument {
	const { t, language } = words
	const money = (v: string) => formatMoney(v, language)
	const count = (n: number) => formatNumber(n, language)
	const state = report.state ? t(`states.${report.state}`) : t('stateUnset')
	return {
		title: t('title', { year: report.year }),
		organizationName,
		subtitle: t('pdf.subtitle', { state, date: formatDate(today, language) }),
		language,
		pageLabel: (page, pages) => t('pdf.page', { page, pages }),
		disclaimer: t('notAdvice'),
		sections: [
			{
				heading: t('summary.title'),
				stats: [
					{ label: t('rails.received'), value: money(report.totals.received) },
					{ label: t('expenses.total'), value: money(report.expenseTotal) },
					{ label: t('profit'), value: money(report.profit) },
				],
			},
			{
				heading: t('rails.title'),
				paragraphs: [t('rails.feesNote')],
				tables: [
					{
						columns: [
							{ label: t('rails.rail') },
							{ label: t('rails.count'), align: 'right' },
							{ label: t('rails.received'), align: 'right' },
							{ label: t('rails.fees'), align: 'right' },
							{ label: t('rails.tips'), align: 'right' },
							{ label: t('rails.refunds'), align: 'right' },
						],
						rows: report.rails.map((r) => [
							words.method(r.method),
							count(r.count),
							money(r.received),
							money(r.fees),
							money(r.tips),
							`${money(r.refunds)} (${count(r.refundCount)})`,
						]),
						footer: [
							t('rails.total'),
							count(report.totals.count),
							money(report.totals.received),
							money(report.totals.fees),
							money(report.totals.tips),
							`${money(report.totals.refunds)} (${count(report.totals.refundCount)})`,
						],
					},
				],
			},
			{
				heading: t('expenses.title'),
				paragraphs: report.expenses.length === 0 ? [t('expenses.none', { year: report.year })] : [],
				tables:
					report.expenses.length === 0
						? []
						: [
								{
									columns: [
										{ label: t('expenses.category') },
										{ label: t('expenses.count'), align: 'right' },
										{ label: t('expenses.amount'), align: 'right' },
									],
									rows: report.expenses.map((e) => [words.category(e.category), count(e.count), money(e.amount)]),
									footer: [t('expenses.total'), count(report.expenses.reduce((s, e) => s + e.count, 0)), money(report.expenseTotal)],
								},
							],
			},
			{
				heading: t('thresholds.title'),
				paragraphs: [
					...report.appChecks.flatMap((a) =>
						a.checks.map(
							(c) =>
								`${words.method(a.method)}: ${checkSentence(c, t, money, count)} — ${t('thresholds.figures', { received: money(a.received), count: count(a.count) })}`,
						),
					),
					t('thresholds.appsOnly'),
					t('thresholds.notReported'),
					...report.thresholds.map(
						(th) => `${t('thresholds.source')} (${t(`states.${th.jurisdiction}`)}): ${th.sourceName}, ${th.sourceUrl}`,
					),
				],
			},
		],
	}
}
