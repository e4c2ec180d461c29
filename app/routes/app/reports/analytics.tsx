import { data } from 'react-router'
import { analyticsMember, getAnalytics } from '#app/.server/reports/analytics.ts'
import { RANGE_PRESETS, rangeSearchParams } from '#app/.server/payments/analytics.ts'
import { EXPORT_UPGRADE_ID, ownsReportUpgrade, REPORTS_MODULE_PAGE } from '#app/.server/reports/overview-document.ts'
import { FormAlert } from '#app/components/forms/form-alert.tsx'
import { DownloadIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { RangePicker } from '#app/components/reports/range-picker.tsx'
import { CohortsSection, MethodTrendsSection, TopClientsSection, YearOverYearSection } from '#app/components/reports/analytics-sections.tsx'
import { ReportsTabs } from '#app/components/reports/reports-tabs.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/analytics'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('analyticsReport')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization, active } = await analyticsMember(context)
	if (!active) return { active: false as const }
	const [result, pdf] = await Promise.all([
		getAnalytics(user.userId, organization.id, new URL(request.url).searchParams, { timezone: organization.timezone }),
		ownsReportUpgrade(user.userId, organization.id, EXPORT_UPGRADE_ID),
	])
	// A malformed custom range: the form again, with what was typed and why it was refused.
	if (!result.ok) return data({ active: true as const, presets: RANGE_PRESETS, pdf: null, ...result }, { status: 400 })
	// The PDF comes with Report Export; without it the button leads to the upgrade.
	const href = pdf ? `/app/reports/analytics.pdf?${rangeSearchParams(result.range)}` : REPORTS_MODULE_PAGE
	return { active: true as const, presets: RANGE_PRESETS, pdf: { allowed: pdf, href }, ...result }
}

export default function AnalyticsScreen({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation(['analytics', 'common'])
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<div className="flex flex-wrap items-end justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="text-2xl font-semibold tracking-tight">{t('common:titles.analyticsReport')}</h1>
					<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
				</div>
				{loaderData.active && loaderData.pdf ? (
					<Button asChild variant="outline">
						{loaderData.pdf.allowed ? (
							<a href={loaderData.pdf.href} download>
								<DownloadIcon aria-hidden="true" />
								{t('pdf.button')}
							</a>
						) : (
							<Link to={loaderData.pdf.href} title={t('pdf.locked')}>
								<DownloadIcon aria-hidden="true" />
								{t('pdf.button')}
							</Link>
						)}
					</Button>
				) : null}
			</div>
			<ReportsTabs />
			{!loaderData.active ? (
				<ModuleOffer ns="analytics" moduleId={MODULES.reports.id} testId="analytics-inactive" />
			) : (
				<>
					<RangePicker data={loaderData} presets={loaderData.presets} />
					{loaderData.ok ? <AnalyticsBody analytics={loaderData} /> : <FormAlert ns="reports" code={loaderData.error} id="range-error" />}
				</>
			)}
		</div>
	)
}

function AnalyticsBody({ analytics }: { analytics: Parameters<typeof CohortsSection>[0]['analytics'] }) {
	const { t } = useTranslation('analytics')
	const fmt = useFormat()
	return (
		<>
			{analytics.totals.count === 0 ? (
				<Card>
					<CardHeader>
						<CardTitle>
							<h2>{t('empty.title')}</h2>
						</CardTitle>
						<CardDescription>{t('empty.description')}</CardDescription>
					</CardHeader>
				</Card>
			) : (
				<p className="text-sm" data-testid="analytics-totals">
					{t('totals', { amount: fmt.money(analytics.totals.amount), count: fmt.number(analytics.totals.count) })}
				</p>
			)}
			<CohortsSection analytics={analytics} />
			{analytics.totals.count > 0 ? (
				<>
					<div className="grid min-w-0 grid-cols-1 gap-6 xl:grid-cols-2">
						<MethodTrendsSection analytics={analytics} />
						<YearOverYearSection analytics={analytics} />
					</div>
					<TopClientsSection analytics={analytics} />
				</>
			) : null}
		</>
	)
}
