import { StoreIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { MODULES } from '#app/lib/modules.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * What the analytics screen shows while the organization has not bought Advanced Analytics: what
 * the upgrade gives, and a link to the Reports module's page in the marketplace, where an owner
 * buys it (as Invoicing's screens do, app/components/invoices/not-active.tsx).
 */
export function AnalyticsNotActive() {
	const { t } = useTranslation('analytics')
	return (
		<Card data-testid="analytics-inactive">
			<CardHeader>
				<CardTitle>
					<h2>{t('inactive.title')}</h2>
				</CardTitle>
				<CardDescription>{t('inactive.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				<Button asChild>
					<Link to={`/app/modules/${MODULES.reports.id}`}>
						<StoreIcon aria-hidden="true" />
						{t('inactive.action')}
					</Link>
				</Button>
			</CardContent>
		</Card>
	)
}
