import { useTranslation } from '#app/lib/use-translation.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import type { TransactionCategory } from '#app/lib/schemas/transactions.ts'

const variants = {
	matched: 'success',
	pending: 'warning',
	unmatched: 'secondary',
	review: 'default',
} as const satisfies Record<TransactionCategory, 'success' | 'warning' | 'secondary' | 'default'>

/** The colour of a category in charts (theme variables, light and dark). */
export const categoryColors: Record<TransactionCategory, string> = {
	matched: 'var(--chart-2)',
	pending: 'var(--chart-4)',
	unmatched: 'var(--chart-3)',
	review: 'var(--chart-1)',
}

/**
 * A category's name in the user's language. The one set of category labels is
 * reports:category.* (the reports, the categories screen and the transactions tables use it).
 */
export function useCategoryLabel() {
	const { t } = useTranslation('reports')
	return (category: TransactionCategory) => t(`reports:category.${category}`)
}

/**
 * A transaction category (docs/product.md, Rules) as a coloured badge, with its translated label
 * (useCategoryLabel, called once by the table for all its rows).
 */
export function CategoryBadge({ category, label }: { category: TransactionCategory; label: string }) {
	return <Badge variant={variants[category]}>{label}</Badge>
}
