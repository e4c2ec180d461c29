import { ZapIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * The review queue's offer after a payer was assigned to a client (docs/product.md, Rules
 * (Workflow Automation), learned aliases): a link to the rules screen with the form filled in.
 */
export function RuleOffer({ offer }: { offer: { payer: string; clientId: string; clientName: string } }) {
	const { t } = useTranslation('rules')
	const to = `/app/rules?${new URLSearchParams({ payer: offer.payer, client: offer.clientId })}`
	return (
		<Alert data-testid="rule-offer">
			<ZapIcon />
			<AlertTitle>{t('offer.title', { payer: offer.payer, client: offer.clientName })}</AlertTitle>
			<AlertDescription>
				<p>{t('offer.description')}</p>
				<Button asChild size="sm" variant="outline" className="mt-2">
					<Link to={to}>{t('offer.action')}</Link>
				</Button>
			</AlertDescription>
		</Alert>
	)
}
