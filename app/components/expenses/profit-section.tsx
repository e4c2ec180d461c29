import { Link } from '#app/components/link.tsx'
import { useMonthLabel } from '#app/components/payments/month-label.ts'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { cn } from '#app/lib/utils.ts'

/** The figures app/.server/expenses/profit.ts gives (amounts as numeric strings). */
export type ProfitData = {
	months: Array<{ month: string; received: string; expenses: string; refunds: string; profit: string }>
	totals: { received: string; expenses: string; refunds: string; profit: string }
}

/**
 * Monthly profit (docs/product.md, Expense Tracking): per month, received, expenses, refunds
 * (apart, counted in neither) and profit (received − expenses), newest month first, with totals.
 * A table, so it reads the same with or without JavaScript and on a phone (its cards).
 * Rendered by the Reports overview and the dashboard only while the module is active.
 */
export function ProfitSection({ profit, compact = false }: { profit: ProfitData; compact?: boolean }) {
	const { t } = useTranslation('expenses')
	const fmt = useFormat()
	const monthLabel = useMonthLabel()
	const months = [...profit.months].reverse()
	const shown = compact ? months.slice(0, 3) : months
	const label = {
		month: t('profit.month'),
		received: t('profit.received'),
		expenses: t('profit.expenses'),
		refunds: t('profit.refunds'),
		profit: t('profit.profit'),
	}
	const signed = (value: string) => <span className={cn(Number(value) < 0 && 'text-destructive')}>{fmt.money(value)}</span>
	return (
		<Card aria-labelledby="profit-title">
			<CardHeader>
				<CardTitle>
					<h2 id="profit-title">{t('profit.title')}</h2>
				</CardTitle>
				<CardDescription>{t('profit.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-3">
				<div className="rounded-md border">
					<Table cards={[label.month, label.received, label.expenses, label.refunds, label.profit]}>
						<caption className="sr-only">{t('profit.caption')}</caption>
						<TableHeader>
							<TableRow>
								<TableHead>{label.month}</TableHead>
								<TableHead className="text-right">{label.received}</TableHead>
								<TableHead className="text-right">{label.expenses}</TableHead>
								<TableHead className="text-right">{label.refunds}</TableHead>
								<TableHead className="text-right">{label.profit}</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{shown.map((m) => (
								<TableRow key={m.month}>
									<TableCell className="card-subtitle">{monthLabel(m.month)}</TableCell>
									<TableCell className="text-right tabular-nums card-meta">{fmt.money(m.received)}</TableCell>
									<TableCell className="text-right tabular-nums card-meta">{fmt.money(m.expenses)}</TableCell>
									<TableCell className="text-right tabular-nums text-muted-foreground card-meta">{fmt.money(m.refunds)}</TableCell>
									<TableCell className="text-right font-medium tabular-nums card-title" data-testid={`profit-${m.month}`}>
										{signed(m.profit)}
									</TableCell>
								</TableRow>
							))}
						</TableBody>
						{compact ? null : (
							<TableFooter>
								<TableRow>
									<TableCell className="font-semibold">{t('profit.total')}</TableCell>
									<TableCell className="text-right tabular-nums">{fmt.money(profit.totals.received)}</TableCell>
									<TableCell className="text-right tabular-nums">{fmt.money(profit.totals.expenses)}</TableCell>
									<TableCell className="text-right tabular-nums">{fmt.money(profit.totals.refunds)}</TableCell>
									<TableCell className="text-right font-semibold tabular-nums">{signed(profit.totals.profit)}</TableCell>
								</TableRow>
							</TableFooter>
						)}
					</Table>
				</div>
				<Link to="/app/expenses" className="w-fit text-sm text-primary underline-offset-4 hover:underline">
					{t('profit.link')}
				</Link>
			</CardContent>
		</Card>
	)
}
