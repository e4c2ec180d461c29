import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * What an import does with its outgoing rows while Expense Tracking is active (docs/product.md,
 * Expense Tracking): on the preview, how many expenses and refunds were found; in the history, how
 * many of them were added (those an earlier file already brought are left out). Nothing when none.
 */
export function ImportExpensesNote({
	counts,
	when,
}: {
	counts: { found: number; added: number } | null | undefined
	when: 'preview' | 'history'
}) {
	const { t } = useTranslation('expenses')
	const fmt = useFormat()
	if (!counts || counts.found === 0) return null
	const values = { count: counts.found, found: fmt.number(counts.found), added: fmt.number(counts.added) }
	return when === 'preview' ? (
		<p role="note" className="text-sm" data-testid="import-expenses">
			{t('imports.preview', values)}
		</p>
	) : (
		<div className="text-xs text-muted-foreground" data-testid="history-expenses">
			{t('imports.history', values)}
		</div>
	)
}
