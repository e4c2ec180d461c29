import type { TaxYear } from '#app/.server/reports/tax-year.ts'
import { AlertCircleIcon, CalculatorIcon, DollarSignIcon, ReceiptIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { StatCard } from '#app/components/stat-card.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCaption, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { MODULES } from '#app/lib/modules.ts'
import { checkSentence } from '#app/lib/tax-year.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { cn } from '#app/lib/utils.ts'

/** "This is not tax advice", near the top of the screen. */
export function NotTaxAdvice() {
	const { t } = useTranslation('tax-year')
	return (
		<Alert role="note">
			<AlertCircleIcon />
			<AlertTitle>{t('notAdviceTitle')}</AlertTitle>
			<AlertDescription>{t('notAdvice')}</AlertDescription>
		</Alert>
	)
}

/** The year's figures: the totals, each rail, the Form 1099-K checks and the expenses. */
export function TaxYearBody({ report }: { report: TaxYear }) {
	const fmt = useFormat()
	const { t } = useTranslation('tax-year')
	return (
		<>
			<section className="grid gap-4 md:grid-cols-3" aria-label={t('summary.title')}>
				<StatCard
					icon={DollarSignIcon}
					title={t('rails.received')}
					value={fmt.money(report.totals.received)}
					hint={t('summary.receivedHint')}
				/>
				<StatCard icon={ReceiptIcon} title={t('expenses.total')} value={fmt.money(report.expenseTotal)} hint={t('summary.expensesHint')} />
				<StatCard icon={CalculatorIcon} title={t('profit')} value={fmt.money(report.profit)} hint={t('summary.profitHint')} />
			</section>
			<RailsTable report={report} />
			<ThresholdChecks report={report} />
			<ExpensesCard report={report} />
		</>
	)
}

function RailsTable({ report }: { report: TaxYear }) {
	const fmt = useFormat()
	const { t } = useTranslation(['tax-year', 'transactions'])
	const columns = [t('rails.count'), t('rails.received'), t('rails.fees'), t('rails.tips'), t('rails.refunds')]
	return (
		<Card className="min-w-0">
			<CardHeader>
				<CardTitle>
					<h2>{t('rails.title')}</h2>
				</CardTitle>
				<CardDescription>{t('rails.feesNote')}</CardDescription>
			</CardHeader>
			<CardContent className="min-w-0">
				<Table data-testid="rails-table" cards={[null, ...columns]} scrollLabel={t('rails.title')} className="[&_th]:whitespace-normal">
					<TableCaption className="sr-only">{t('rails.title')}</TableCaption>
					<TableHeader>
						<TableRow>
							<TableHead scope="col">{t('rails.rail')}</TableHead>
							{columns.map((c) => (
								<TableHead key={c} scope="col" className="text-right">
									{c}
								</TableHead>
							))}
						</TableRow>
					</TableHeader>
					<TableBody>
						{report.rails.map((r) => (
							<TableRow key={r.method} data-rail={r.method}>
								<TableHead scope="row" className="card-title font-normal">
									{t(`transactions:methods.${r.method}`)}
								</TableHead>
								<TableCell className="text-right tabular-nums">{fmt.number(r.count)}</TableCell>
								<TableCell className="text-right tabular-nums">{fmt.money(r.received)}</TableCell>
								<TableCell className="text-right tabular-nums">{fmt.money(r.fees)}</TableCell>
								<TableCell className="text-right tabular-nums">{fmt.money(r.tips)}</TableCell>
								<TableCell className="text-right tabular-nums">
									{t('rails.refundsCell', { amount: fmt.money(r.refunds), count: r.refundCount })}
								</TableCell>
							</TableRow>
						))}
					</TableBody>
					<TableFooter>
						<TableRow data-rail="total">
							<TableHead scope="row" className="card-title">
								{t('rails.total')}
							</TableHead>
							<TableCell className="text-right tabular-nums">{fmt.number(report.totals.count)}</TableCell>
							<TableCell className="text-right tabular-nums">{fmt.money(report.totals.received)}</TableCell>
							<TableCell className="text-right tabular-nums">{fmt.money(report.totals.fees)}</TableCell>
							<TableCell className="text-right tabular-nums">{fmt.money(report.totals.tips)}</TableCell>
							<TableCell className="text-right tabular-nums">
								{t('rails.refundsCell', { amount: fmt.money(report.totals.refunds), count: report.totals.refundCount })}
							</TableCell>
						</TableRow>
					</TableFooter>
				</Table>
			</CardContent>
		</Card>
	)
}

function ThresholdChecks({ report }: { report: TaxYear }) {
	const fmt = useFormat()
	const { t } = useTranslation(['tax-year', 'transactions'])
	const stateRow = report.state ? report.thresholds.find((th) => th.jurisdiction === report.state) : undefined
	return (
		<Card className="min-w-0">
			<CardHeader>
				<CardTitle>
					<h2>{t('thresholds.title')}</h2>
				</CardTitle>
				<CardDescription>{t('thresholds.appsOnly')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				<ul className="grid gap-3" aria-label={t('thresholds.title')}>
					{report.appChecks.map((a) => (
						<li key={a.method} className="grid gap-1 rounded-md border p-3" data-testid={`check-${a.method}`}>
							<p className="font-medium">
								{t(`transactions:methods.${a.method}`)}:{' '}
								<span className="font-normal text-muted-foreground">
									{t('thresholds.figures', { received: fmt.money(a.received), count: fmt.number(a.count) })}
								</span>
							</p>
							{a.checks.map((c) => (
								<p key={c.threshold.jurisdiction} className={cn('text-sm', c.passes && 'font-medium text-amber-700 dark:text-amber-400')}>
									{checkSentence(c, t, fmt.money, fmt.number)}
								</p>
							))}
						</li>
					))}
				</ul>
				<p className="text-sm">
					{report.state
						? stateRow
							? null
							: t('thresholds.stateNoRow', { state: t(`states.${report.state}`), year: report.year })
						: t('thresholds.noState')}
				</p>
				<p className="text-sm">{t('thresholds.notReported')}</p>
				<div className="grid gap-1 text-xs text-muted-foreground">
					<p>{t('thresholds.sources')}</p>
					<ul className="grid gap-1">
						{report.thresholds.map((th) => (
							<li key={th.jurisdiction} className="break-words">
								{t(`states.${th.jurisdiction}`)}:{' '}
								<a href={th.sourceUrl} rel="noreferrer noopener" target="_blank" className="underline">
									{th.sourceName}
								</a>{' '}
								{t('thresholds.verified', { date: fmt.date(th.verifiedOn) })}
							</li>
						))}
					</ul>
				</div>
			</CardContent>
		</Card>
	)
}

function ExpensesCard({ report }: { report: TaxYear }) {
	const fmt = useFormat()
	const { t } = useTranslation(['tax-year', 'expenses'])
	return (
		<Card className="min-w-0">
			<CardHeader>
				<CardTitle>
					<h2>{t('expenses.title')}</h2>
				</CardTitle>
				{report.expensesActive ? null : (
					<CardDescription>
						{t('expenses.inactive')}{' '}
						<Link to={`/app/modules/${MODULES.expenses.id}`} className="underline">
							{t('expenses.marketplace')}
						</Link>
					</CardDescription>
				)}
			</CardHeader>
			<CardContent className="min-w-0">
				{report.expenses.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('expenses.none', { year: report.year })}</p>
				) : (
					<Table data-testid="expenses-table" cards={[null, t('expenses.count'), t('expenses.amount')]} scrollLabel={t('expenses.title')}>
						<TableCaption className="sr-only">{t('expenses.title')}</TableCaption>
						<TableHeader>
							<TableRow>
								<TableHead scope="col">{t('expenses.category')}</TableHead>
								<TableHead scope="col" className="text-right">
									{t('expenses.count')}
								</TableHead>
								<TableHead scope="col" className="text-right">
									{t('expenses.amount')}
								</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{report.expenses.map((e) => (
								<TableRow key={e.category}>
									<TableHead scope="row" className="card-title font-normal">
										{t(`expenses:categories.${e.category}`, { defaultValue: e.category })}
									</TableHead>
									<TableCell className="text-right tabular-nums">{fmt.number(e.count)}</TableCell>
									<TableCell className="text-right tabular-nums">{fmt.money(e.amount)}</TableCell>
								</TableRow>
							))}
						</TableBody>
						<TableFooter>
							<TableRow>
								<TableHead scope="row" className="card-title">
									{t('expenses.total')}
								</TableHead>
								<TableCell className="text-right tabular-nums">{fmt.number(report.expenses.reduce((s, e) => s + e.count, 0))}</TableCell>
								<TableCell className="text-right tabular-nums">{fmt.money(report.expenseTotal)}</TableCell>
							</TableRow>
						</TableFooter>
					</Table>
				)}
				<p className="mt-4 flex flex-wrap justify-between gap-2 border-t pt-3 font-medium" data-testid="profit-line">
					<span>{t('profit')}</span>
					<span className="tabular-nums">{fmt.money(report.profit)}</span>
				</p>
			</CardContent>
		</Card>
	)
}
