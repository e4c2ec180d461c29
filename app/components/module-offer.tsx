import { StoreIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * What a screen shows while the organization lacks the module or upgrade it needs: what it would
 * give (the texts `<prefix>.title`, `<prefix>.description` and `<prefix>.action` of the screen's
 * namespace) and a link to the module's page in the marketplace, where an owner gets it.
 */
export function ModuleOffer({
	ns,
	moduleId,
	prefix = 'inactive',
	testId,
}: {
	ns: string
	moduleId: string
	prefix?: string
	testId?: string
}) {
	const { t } = useTranslation(ns)
	return (
		<Card data-testid={testId} data-module-offer="">
			<CardHeader>
				<CardTitle>
					<h2>{t(`${prefix}.title`)}</h2>
				</CardTitle>
				<CardDescription>{t(`${prefix}.description`)}</CardDescription>
			</CardHeader>
			<CardContent>
				<Button asChild>
					<Link to={`/app/modules/${moduleId}`}>
						<StoreIcon aria-hidden="true" />
						{t(`${prefix}.action`)}
					</Link>
				</Button>
			</CardContent>
		</Card>
	)
}
