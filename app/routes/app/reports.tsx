import { CalculatorIcon, DollarSignIcon, DownloadIcon, ReceiptIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { getReport, RANGE_PRESETS, rangeSearchParams, type RangeFigures } from '#app/.server/payments/analytics.ts'
import { requireMember } from '#app/.server/auth/session.ts'
import { reportPdfLink } from '#app/.server/reports/overview-document.ts'
import { categoryColors } from '#app/components/payments/category-badge.tsx'
import { MonthlyChartSlot, ShareChartSlot } from '#app/components/payments/chart-slot.tsx'
import { FormAlert } from '#app/components/forms/form-alert.tsx'
import { useMonthLabel } from '#app/components/payments/month-label.ts'
import { StatCard } from '#app/components/stat-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCaption, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { MonthlyFiguresTable } from '#app/components/payments/monthly-figures-table.tsx'
import { RangePicker } from '#app/components/reports/range-picker.tsx'
import { ReportsTabs } from '#app/components/reports/reports-tabs.tsx'
import { ReportPdfButton, ReportPrintStyle } from '#app/components/reports/report-export.tsx'
import { profitForScreen } from '#app/.server/expenses/profit.ts'
import { ProfitSection } from '#app/components/expenses/profit-section.tsx'
import { cn } from '#app/lib/utils.ts'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/reports'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('reports')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const report = await getReport(user.userId, organization.id, new URL(request.url).searchParams, { timezone: organization.timezone })
	if (!report.ok) {
		// A malformed custom range: the form again, with what was typed and why it was refused.
		return data({ ...report, presets: RANGE_PRESETS, exportHref: null, pdf: null }, { status: 400 })
	}
	// Monthly profit, while Expense Tracking is usable by the member (null otherwise).
	const profit = await profitForScreen(user.userId, organization)
	// The PDF of the same range, or the way to the Report Export upgrade (docs/product.md, Report Export).
	const pdf = await reportPdfLink(user.userId, organization.id, rangeSearchParams(report.range))
	return { ...report, presets: RANGE_PRESETS, exportHref: `/app/reports/export.csv?${rangeSearchParams(report.range)}`, profit, pdf }
}

export default function Reports({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation(['reports', 'common'])
	return (
		<div className="grid grid-cols-1 gap-6">
			<ReportPrintStyle />
			<div className="flex flex-wrap items-end justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="text-2xl font-semibold tracking-tight">{t('common:nav.reports')}</h1>
					<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
				</div>
				<div className="flex flex-wrap gap-2 print:hidden">
					{loaderData.pdf ? <ReportPdfButton pdf={loaderData.pdf} /> : null}
					{loaderData.exportHref ? (
						<Button asChild variant="outline">
							<a href={loaderData.exportHref} download title={t('export.hint')}>
								<DownloadIcon aria-hidden="true" />
								{t('export.button')}
							</a>
						</Button>
					) : null}
				</div>
			</div>
			<div className="print:hidden">
				<ReportsTabs />
			</div>
			<RangePicker data={loaderData} presets={loaderData.presets} />
			{loaderData.ok ? <ReportBody report={loaderData} /> : <FormAlert ns="reports" code={loaderData.error} id="range-error" />}
			{loaderData.ok && loaderData.profit ? <ProfitSection profit={loaderData.profit} /> : null}
		</div>
	)
}

function ReportBody({ report }: { report: RangeFigures }) {
	const fmt = useFormat()
	const { t } = useTranslation('reports')
	const { totals } = report
	return (
		<>
			<section className="grid gap-4 md:grid-cols-3" aria-label={t('subtitle')}>
				<StatCard
					icon={DollarSignIcon}
					title={t('cards.totalRevenue')}
					value={fmt.money(totals.amount)}
					hint={t('cards.totalRevenueHint')}
				/>
				<StatCard icon={CalculatorIcon} title={t('cards.average')} value={fmt.money(totals.average)} hint={t('cards.averageHint')} />
				<StatCard icon={ReceiptIcon} title={t('cards.volume')} value={fmt.number(totals.count)} hint={t('cards.volumeHint')} />
			</section>
			{totals.count === 0 ? (
				<Card>
					<CardHeader>
						<CardTitle>
							<h2>{t('empty.title')}</h2>
						</CardTitle>
						<CardDescription>{t('empty.description')}</CardDescription>
					</CardHeader>
				</Card>
			) : (
				<div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
					<CategoryBreakdown report={report} />
					<MonthlyTrends report={report} />
				</div>
			)}
		</>
	)
}

function CategoryBreakdown({ report }: { report: RangeFigures }) {
	const fmt = useFormat()
	const { t } = useTranslation('reports')
	const points = report.categories.map((c) => ({
		label: t(`category.${c.category}`),
		amount: Number(c.amount),
		share: c.share,
		fill: categoryColors[c.category],
	}))
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('breakdown.title')}</h2>
				</CardTitle>
				<CardDescription>{t('breakdown.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid grid-cols-1 gap-4">
				<ShareChartSlot label={t('breakdown.chartLabel')} data={points} height={220} />
				<Table
					data-testid="category-table"
					cards={[null, t('columns.count'), t('columns.amount'), t('columns.share')]}
					scrollLabel={t('breakdown.title')}
					className="[&_th]:whitespace-normal"
					// Count, amount and share side by side, each as wide as its value needs.
					style={{ '--card-template': 'auto auto auto' } as React.CSSProperties}
				>
					<TableCaption className="sr-only">{t('breakdown.title')}</TableCaption>
					<TableHeader>
						<TableRow>
							<TableHead scope="col">{t('columns.category')}</TableHead>
							<TableHead scope="col" className="text-right">
								{t('columns.count')}
							</TableHead>
							<TableHead scope="col" className="text-right">
								{t('columns.amount')}
							</TableHead>
							<TableHead scope="col" className="text-right">
								{t('columns.share')}
							</TableHead>
						</TableRow>
					</TableHeader>
					<TableBody>
						{report.categories.map((c) => (
							<TableRow key={c.category}>
								<TableHead scope="row" className="font-normal card-title">
									<span className="flex items-center gap-2">
										<span className="size-2.5 rounded-full" style={{ background: categoryColors[c.category] }} aria-hidden="true" />
										{t(`category.${c.category}`)}
									</span>
								</TableHead>
								<TableCell className="text-right tabular-nums">{fmt.number(c.count)}</TableCell>
								<TableCell className="text-right tabular-nums">{fmt.money(c.amount)}</TableCell>
								<TableCell className="text-right tabular-nums">{fmt.percent(c.share)}</TableCell>
							</TableRow>
						))}
					</TableBody>
					<TotalsFooter totals={report.totals} columns={4} />
				</Table>
			</CardContent>
		</Card>
	)
}

function MonthlyTrends({ report }: { report: RangeFigures }) {
	const { t } = useTranslation('reports')
	const monthLabel = useMonthLabel()
	const points = report.months.map((m) => ({ label: monthLabel(m.month), amount: Number(m.amount), count: m.count }))
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('trends.title')}</h2>
				</CardTitle>
				<CardDescription>{t('trends.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid grid-cols-1 gap-4">
				<MonthlyChartSlot
					label={t('trends.chartLabel')}
					data={points}
					height={220}
					amountLabel={t('columns.amount')}
					countLabel={t('columns.count')}
				/>
				<div
					className={cn(
						report.months.length > 12 &&
							'max-h-96 overflow-y-auto focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none print:max-h-none print:overflow-visible',
					)}
					{...(report.months.length > 12 ? { role: 'region', 'aria-label': t('trends.title'), tabIndex: 0 } : {})}
				>
					<MonthlyFiguresTable months={report.months} caption={t('trends.title')} testId="month-table">
						<TotalsFooter totals={report.totals} columns={3} />
					</MonthlyFiguresTable>
				</div>
			</CardContent>
		</Card>
	)
}

function TotalsFooter({ totals, columns }: { totals: RangeFigures['totals']; columns: 3 | 4 }) {
	const fmt = useFormat()
	const { t } = useTranslation('reports')
	return (
		<TableFooter>
			<TableRow>
				<TableHead scope="row" className="card-title">
					{t('columns.total')}
				</TableHead>
				<TableCell className="text-right tabular-nums">{fmt.number(totals.count)}</TableCell>
				<TableCell className="text-right tabular-nums">{fmt.money(totals.amount)}</TableCell>
				{columns === 4 ? <TableCell className="text-right tabular-nums">{fmt.percent(1)}</TableCell> : null}
			</TableRow>
		</TableFooter>
	)
}
