import { Badge } from '#app/components/ui/badge.tsx'
import type { InvoiceState } from '#app/lib/invoices.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

const variants = {
	draft: 'outline',
	sent: 'secondary',
	partly_paid: 'warning',
	overdue: 'destructive',
	paid: 'success',
	void: 'outline',
} as const satisfies Record<InvoiceState, string>

/** An invoice's state as a coloured, translated badge (docs/product.md, Invoicing). */
export function InvoiceStateBadge({ state }: { state: InvoiceState }) {
	const { t } = useTranslation('invoices')
	return <Badge variant={variants[state]}>{t(`states.${state}`)}</Badge>
}
