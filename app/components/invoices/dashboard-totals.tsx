import { AlertCircleIcon, ArrowRightIcon, FileTextIcon } from '#app/components/icons.tsx'
import type { IconComponent } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

type Figure = { amount: string; count: number }

/**
 * The dashboard's invoice figures (docs/product.md, Dashboard): what open invoices still owe and
 * what the overdue ones among them owe, each with its count and a link to those invoices.
 */
export function InvoiceTotalsCards({ totals }: { totals: { open: Figure; overdue: Figure } }) {
	const { t } = useTranslation('dashboard')
	return (
		<section className="grid gap-4 sm:grid-cols-2" aria-label={t('invoices.label')}>
			<FigureCard
				icon={FileTextIcon}
				title={t('invoices.open')}
				figure={totals.open}
				to="/app/invoices?state=open"
				linkLabel={t('invoices.viewOpen')}
			/>
			<FigureCard
				icon={AlertCircleIcon}
				title={t('invoices.overdue')}
				figure={totals.overdue}
				to="/app/invoices?state=overdue"
				linkLabel={t('invoices.viewOverdue')}
				urgent={totals.overdue.count > 0}
			/>
		</section>
	)
}

function FigureCard({
	icon: Icon,
	title,
	figure,
	to,
	linkLabel,
	urgent = false,
}: {
	icon: IconComponent
	title: string
	figure: Figure
	to: string
	linkLabel: string
	urgent?: boolean
}) {
	const { t } = useTranslation('dashboard')
	const fmt = useFormat()
	return (
		<Card className="gap-2" role="group" aria-label={title}>
			<CardHeader className="flex flex-row items-center justify-between gap-2">
				<CardTitle className="text-sm font-medium text-muted-foreground">
					<h2>{title}</h2>
				</CardTitle>
				<Icon className={urgent ? 'size-4 text-destructive' : 'size-4 text-muted-foreground'} aria-hidden="true" />
			</CardHeader>
			<CardContent className="grid gap-1">
				<p
					className={urgent ? 'text-2xl font-semibold text-destructive tabular-nums' : 'text-2xl font-semibold tabular-nums'}
					data-testid="stat-value"
				>
					{fmt.money(figure.amount)}
				</p>
				<CardDescription className="flex flex-wrap items-center justify-between gap-2 text-xs">
					<span>{t('invoices.count', { count: figure.count, formatted: fmt.number(figure.count) })}</span>
					<Link to={to} className="inline-flex min-h-11 items-center gap-1 text-primary underline-offset-4 hover:underline sm:min-h-0">
						{linkLabel}
						<ArrowRightIcon className="size-3" aria-hidden="true" />
					</Link>
				</CardDescription>
			</CardContent>
		</Card>
	)
}
