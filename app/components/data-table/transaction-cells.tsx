import { useTranslation } from 'react-i18next'
import { Badge } from '#app/components/ui/badge.tsx'
import type { TransactionCategory } from '#app/lib/schemas/transactions.ts'

const variants = {
	matched: 'success',
	pending: 'warning',
	unmatched: 'secondary',
	review: 'default',
} as const satisfies Record<TransactionCategory, 'success' | 'warning' | 'secondary' | 'default'>

/** A transaction's category (SPEC §3) as a coloured, translated badge. */
export function TransactionCategoryBadge({ category }: { category: TransactionCategory }) {
	const { t } = useTranslation('transactions')
	return <Badge variant={variants[category]}>{t(`categories.${category}`)}</Badge>
}
