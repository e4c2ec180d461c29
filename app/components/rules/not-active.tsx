import { StoreIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { MODULES } from '#app/lib/modules.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** What the rules screen shows while the organization has not activated Workflow Automation, with a link to its module page. */
export function RulesNotActive() {
	const { t } = useTranslation('rules')
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('inactive.title')}</h2>
				</CardTitle>
				<CardDescription>{t('inactive.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				<Button asChild>
					<Link to={`/app/modules/${MODULES.automation.id}`}>
						<StoreIcon aria-hidden="true" />
						{t('inactive.action')}
					</Link>
				</Button>
			</CardContent>
		</Card>
	)
}
