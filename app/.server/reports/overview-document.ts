/**
 * The Reports overview as a document (docs/product.md, Reports › Report Export): the figures of
 * the reports page for a range — its totals, its category breakdown and its months — put in the
 * words and number formats of one reader, for the one renderer (./pdf.ts). The PDF route draws it
 * for the viewer; the scheduled reports (./automation-job.ts) draw it for each recipient.
 */
import { formatDate, formatMoney, formatNumber, formatPercent } from '#app/lib/format.ts'
import type { Language } from '#app/lib/i18n.ts'
import { MODULES } from '#app/lib/modules.ts'
import type { DateRange, RangeFigures } from '../payments/analytics.ts'
import { asUser } from '../db/index.ts'
import { tIn } from '../i18n.ts'
import type { ReportDocument } from './document.ts'

/** The Report Export upgrade: the reports' PDF (app/lib/modules.ts). */
export const EXPORT_UPGRADE_ID = MODULES.reports.upgrades.export.id
/** The Automation upgrade: scheduled reports and threshold alerts (app/lib/modules.ts). */
export const AUTOMATION_UPGRADE_ID = MODULES.reports.upgrades.automation.id
/** Where an owner buys the reports' upgrades: the Reports & Analytics module's page. */
export const REPORTS_MODULE_PAGE = `/app/modules/${MODULES.reports.id}`

/** Whether the member's organization owns the upgrade (read as the member, under RLS). */
export async function ownsReportUpgrade(userId: string, organizationId: string, upgradeId: string): Promise<boolean> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_module_upgrades')
			.select('id')
			.where('organization_id', '=', organizationId)
			.where('upgrade_id', '=', upgradeId)
			.executeTakeFirst(),
	)
	return row !== undefined
}

/**
 * The reports page's PDF button: the PDF of the range the page shows (`params`, its URL's range)
 * when the organization owns Report Export, otherwise the upgrade's page in the marketplace.
 */
export async function reportPdfLink(
	userId: string,
	organizationId: string,
	params: URLSearchParams,
): Promise<{ allowed: boolean; href: string }> {
	return (await ownsReportUpgrade(userId, organizationId, EXPORT_UPGRADE_ID))
		? { allowed: true, href: `/app/reports/report.pdf?${params}` }
		: { allowed: false, href: REPORTS_MODULE_PAGE }
}

/**
 * The overview's document for `range` in `language`: totals as figures, then the category and the
 * monthly tables with their totals row. `today` (the organization's date) goes in the subtitle.
 */
export function overviewDocument(
	report: RangeFigures & { range: DateRange },
	organizationName: string,
	language: Language,
	today: string,
	options: { title?: string } = {},
): ReportDocument {
	const t = tIn(language, 'reports')
	const money = (amount: string | number) => formatMoney(amount, language)
	const number = (value: number) => formatNumber(value, language)
	const { range, totals } = report
	const shown =
		range.from && range.to
			? t('range.showing', { from: formatDate(range.from, language), to: formatDate(range.to, language) })
			: t('range.showingAll')
	const month = (iso: string) => t('monthLabel', { month: t(`months.short.${Number(iso.slice(5, 7))}`), year: iso.slice(0, 4) })
	return {
		title: options.title ?? t('pdf.title'),
		organizationName,
		subtitle: `${shown} · ${t('pdf.generated', { date: formatDate(today, language) })}`,
		language,
		pageLabel: (page, pages) => t('pdf.page', { page, pages }),
		sections: [
			{
				heading: t('pdf.summary'),
				stats: [
					{ label: t('cards.totalRevenue'), value: money(totals.amount) },
					{ label: t('cards.average'), value: money(totals.average) },
					{ label: t('cards.volume'), value: number(totals.count) },
				],
				paragraphs: totals.count === 0 ? [t('empty.title')] : [],
			},
			...(totals.count === 0
				? []
				: [
						{
							heading: t('breakdown.title'),
							tables: [
								{
									columns: [
										{ label: t('columns.category') },
										{ label: t('columns.count'), align: 'right' as const },
										{ label: t('columns.amount'), align: 'right' as const },
										{ label: t('columns.share'), align: 'right' as const },
									],
									rows: report.categories.map((c) => [
										t(`category.${c.category}`),
										number(c.count),
										money(c.amount),
										formatPercent(c.share, language),
									]),
									footer: [t('columns.total'), number(totals.count), money(totals.amount), formatPercent(1, language)],
								},
							],
						},
						{
							heading: t('trends.title'),
							tables: [
								{
									columns: [
										{ label: t('columns.month') },
										{ label: t('columns.count'), align: 'right' as const },
										{ label: t('columns.amount'), align: 'right' as const },
									],
									rows: report.months.map((m) => [month(m.month), number(m.count), money(m.amount)]),
									footer: [t('columns.total'), number(totals.count), money(totals.amount)],
								},
							],
						},
					]),
		],
	}
}
