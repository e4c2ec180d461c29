import { TabNav } from '#app/components/tab-nav.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

/** Where each part of Reports lives: one address per tab, so each works without JavaScript and can be bookmarked. */
const TABS = [
	{ key: 'overview', to: '/app/reports', end: true },
	{ key: 'taxYear', to: '/app/reports/tax-year' },
	{ key: 'analytics', to: '/app/reports/analytics' },
	{ key: 'automation', to: '/app/reports/automation' },
] as const

/** The tabs over every Reports screen; an upgrade's tab shows what it would do when the upgrade is not active. */
export function ReportsTabs() {
	const { t } = useTranslation('reports')
	return (
		<TabNav
			label={t('tabs.label')}
			tabs={TABS.map((tab) => ({ to: tab.to, end: 'end' in tab ? tab.end : undefined, label: t(`tabs.${tab.key}`) }))}
		/>
	)
}
