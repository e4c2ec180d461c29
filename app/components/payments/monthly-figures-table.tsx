import { useTranslation } from '#app/lib/use-translation.ts'
import { useMonthLabel } from '#app/components/payments/month-label.ts'
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useFormat } from '#app/lib/use-format.ts'

/**
 * Month, count and amount: the figures behind a monthly chart, for screen readers and without
 * JavaScript (dashboard and reports). `children` may add a footer (e.g. the totals).
 */
export function MonthlyFiguresTable({
	months,
	caption,
	testId,
	children,
}: {
	months: Array<{ month: string; count: number; amount: string }>
	caption: string
	testId?: string
	children?: React.ReactNode
}) {
	const fmt = useFormat()
	const { t } = useTranslation('reports')
	const monthLabel = useMonthLabel()
	return (
		// Fits a phone in every language: headers and months wrap, the cells' padding narrows, and
		// the text is a size smaller there ("123.456,78 US$" does not break).
		<Table data-testid={testId} className="[&_th]:whitespace-normal max-md:text-xs max-md:[&_td]:px-1 max-md:[&_th]:px-1">
			<TableCaption className="sr-only">{caption}</TableCaption>
			<TableHeader>
				<TableRow>
					<TableHead scope="col">{t('columns.month')}</TableHead>
					<TableHead scope="col" className="text-right">
						{t('columns.count')}
					</TableHead>
					<TableHead scope="col" className="text-right">
						{t('columns.amount')}
					</TableHead>
				</TableRow>
			</TableHeader>
			<TableBody>
				{months.map((m) => (
					<TableRow key={m.month}>
						<TableHead scope="row" className="font-normal">
							{monthLabel(m.month, { long: true })}
						</TableHead>
						<TableCell className="text-right tabular-nums">{fmt.number(m.count)}</TableCell>
						<TableCell className="text-right tabular-nums">{fmt.money(m.amount)}</TableCell>
					</TableRow>
				))}
			</TableBody>
			{children}
		</Table>
	)
}
