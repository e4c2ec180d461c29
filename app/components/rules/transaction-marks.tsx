import { AppForm } from '#app/components/forms/app-form.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * What rules left on a payment, under its description in the transactions table (docs/product.md,
 * Rules (Workflow Automation)): its tags, and "Held for review" with a button that clears the
 * hold (a form post to the rules screen, which says so and shows the history).
 */
export function TransactionMarks({ id, tags, held }: { id: string; tags?: string[]; held?: boolean }) {
	const { t } = useTranslation('rules')
	if (!held && !tags?.length) return null
	return (
		<div className="mt-1 flex flex-wrap items-center gap-1">
			{tags?.map((tag) => (
				<Badge key={tag} variant="outline" aria-label={t('marks.tag', { tag })}>
					{tag}
				</Badge>
			))}
			{held ? (
				<AppForm method="post" action="/app/rules" className="inline-flex items-center gap-1">
					<Badge variant="secondary">{t('marks.held')}</Badge>
					<input type="hidden" name="transactionId" value={id} />
					<Button type="submit" name="intent" value="clearHold" variant="link" size="sm" className="h-auto p-0">
						{t('history.clear')}
					</Button>
				</AppForm>
			) : null}
		</div>
	)
}
