import { useTranslation } from 'react-i18next'
import { Badge } from '#app/components/ui/badge.tsx'

type Category = 'matched' | 'pending' | 'unmatched' | 'review'

const variants = {
	matched: 'success',
	pending: 'warning',
	unmatched: 'secondary',
	review: 'default',
} as const satisfies Record<Category, 'success' | 'warning' | 'secondary' | 'default'>

/** The colour of a category in charts (theme variables, light and dark). */
export const categoryColors: Record<Category, string> = {
	matched: 'var(--chart-2)',
	pending: 'var(--chart-4)',
	unmatched: 'var(--chart-3)',
	review: 'var(--chart-1)',
}

/** A transaction category (docs/product.md, Rules) as a coloured, translated badge. */
export function CategoryBadge({ category }: { category: Category }) {
	const { t } = useTranslation('reports')
	return <Badge variant={variants[category]}>{t(`category.${category}`)}</Badge>
}
