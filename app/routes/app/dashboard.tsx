import { ArrowRightIcon, CheckCircle2Icon, DollarSignIcon, PlusIcon, ReceiptIcon, UsersIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { getDashboard } from '#app/.server/payments/analytics.ts'
import { dashboardInvoiceTotals } from '#app/.server/invoices/overview.ts'
import { InvoiceTotalsCards } from '#app/components/invoices/dashboard-totals.tsx'
import { profitForScreen } from '#app/.server/expenses/profit.ts'
import { ProfitSection } from '#app/components/expenses/profit-section.tsx'
import { requireMember } from '#app/.server/auth/session.ts'
import { CategoryBadge, useCategoryLabel } from '#app/components/payments/category-badge.tsx'
import { SmallMonthlyChartSlot } from '#app/components/payments/chart-slot.tsx'
import { useMonthLabel } from '#app/components/payments/month-label.ts'
import { MonthlyFiguresTable } from '#app/components/payments/monthly-figures-table.tsx'
import { StatCard } from '#app/components/stat-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { followUpsForScreen } from '#app/.server/crm/pipelines.ts'
import { FollowUpsToday } from '#app/components/crm/pipelines.tsx'
import type { Route } from './+types/dashboard'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('dashboard')

export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const [dashboard, invoices, profit, followUps] = await Promise.all([
		getDashboard(user.userId, organization.id, { latest: 8, timezone: organization.timezone }),
		// Open and overdue invoices, for a member who may use Invoicing (null otherwise).
		dashboardInvoiceTotals(user.userId, organization.id, organization.role),
		// Monthly profit, while Expense Tracking is usable by the member (null otherwise).
		profitForScreen(user.userId, organization),
		// Follow-ups due today, with CRM Pipelines (null otherwise).
		followUpsForScreen(user.userId, organization),
	])
	return { ...dashboard, invoices, profit, followUps }
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation(['dashboard', 'common'])
	const { totals } = loaderData
	const empty = totals.transactionCount === 0
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('common:nav.dashboard')}</h1>
				<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
			</div>
			<section className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label={t('subtitle')}>
				<StatCard
					icon={DollarSignIcon}
					title={t('cards.totalReceived')}
					value={fmt.money(totals.totalReceived)}
					hint={t('cards.totalReceivedHint')}
				/>
				<StatCard
					icon={ReceiptIcon}
					title={t('cards.totalTransactions')}
					value={fmt.number(totals.transactionCount)}
					hint={t('cards.totalTransactionsHint')}
				/>
				<StatCard
					icon={UsersIcon}
					title={t('cards.uniqueClients')}
					value={fmt.number(totals.uniqueClients)}
					hint={t('cards.uniqueClientsHint')}
				/>
				<StatCard
					icon={CheckCircle2Icon}
					title={t('cards.matched')}
					value={fmt.number(totals.matchedCount)}
					hint={t('cards.matchedHint', { percent: fmt.percent(totals.matchedShare) })}
				/>
			</section>
			{loaderData.invoices ? <InvoiceTotalsCards totals={loaderData.invoices} /> : null}
			{loaderData.profit ? <ProfitSection profit={loaderData.profit} compact /> : null}
			{loaderData.followUps ? <FollowUpsToday {...loaderData.followUps} /> : null}
			{empty ? <EmptyState /> : null}
			<div className="grid grid-cols-1 gap-6 xl:grid-cols-5">
				<LatestTransactions latest={loaderData.latest} className="xl:col-span-3" />
				<MonthlyAmounts months={loaderData.months} className="xl:col-span-2" />
			</div>
		</div>
	)
}

function EmptyState() {
	const { t } = useTranslation('dashboard')
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('empty.title')}</h2>
				</CardTitle>
				<CardDescription>{t('empty.description')}</CardDescription>
				<CardAction>
					<Button asChild>
						<Link to="/app/transactions?edit=1&add=1">
							<PlusIcon aria-hidden="true" />
							{t('empty.action')}
						</Link>
					</Button>
				</CardAction>
			</CardHeader>
		</Card>
	)
}

function LatestTransactions({ latest, className }: { latest: Route.ComponentProps['loaderData']['latest']; className?: string }) {
	const fmt = useFormat()
	const { t } = useTranslation(['dashboard', 'reports'])
	const categoryLabel = useCategoryLabel()
	const label = {
		date: t('reports:columns.date'),
		client: t('reports:columns.client'),
		amount: t('reports:columns.amount'),
		category: t('reports:columns.category'),
		method: t('reports:columns.method'),
	}
	return (
		<Card className={className}>
			<CardHeader>
				<CardTitle>
					<h2>{t('latest.title')}</h2>
				</CardTitle>
				<CardDescription>{t('latest.description')}</CardDescription>
				<CardAction>
					<Button asChild variant="outline" size="sm">
						<Link to="/app/transactions">
							{t('latest.viewAll')}
							<ArrowRightIcon aria-hidden="true" />
						</Link>
					</Button>
				</CardAction>
			</CardHeader>
			<CardContent>
				<Table cards={[label.date, label.client, label.amount, label.category, label.method]} scrollLabel={t('latest.title')}>
					<TableHeader>
						<TableRow>
							<TableHead scope="col">{label.date}</TableHead>
							<TableHead scope="col">{label.client}</TableHead>
							<TableHead scope="col" className="text-right">
								{label.amount}
							</TableHead>
							<TableHead scope="col">{label.category}</TableHead>
							{/* Shown while the table has the width of the page; beside the chart (xl) only on a wide screen; in a phone's cards. */}
							<TableHead scope="col" className="hidden md:table-cell xl:hidden 2xl:table-cell">
								{label.method}
							</TableHead>
						</TableRow>
					</TableHeader>
					<TableBody>
						{latest.length === 0 ? (
							<TableRow>
								<TableCell colSpan={5} className="h-16 text-center text-muted-foreground">
									{t('empty.title')}
								</TableCell>
							</TableRow>
						) : (
							latest.map((row) => (
								<TableRow key={row.id}>
									<TableCell className="tabular-nums card-meta">{fmt.date(row.dateReceived)}</TableCell>
									<TableCell className="max-w-40 truncate card-subtitle" title={row.clientName || undefined}>
										{row.clientName || <span className="text-muted-foreground">{t('reports:noClient')}</span>}
									</TableCell>
									<TableCell className="text-right tabular-nums card-title">{fmt.money(row.amount)}</TableCell>
									<TableCell className="card-meta">
										<CategoryBadge category={row.category} label={categoryLabel(row.category)} />
									</TableCell>
									<TableCell className="hidden md:table-cell xl:hidden 2xl:table-cell card-meta">
										{t(`transactions:methods.${row.paymentMethod}`)}
									</TableCell>
								</TableRow>
							))
						)}
					</TableBody>
				</Table>
			</CardContent>
		</Card>
	)
}

function MonthlyAmounts({ months, className }: { months: Route.ComponentProps['loaderData']['months']; className?: string }) {
	const { t } = useTranslation(['dashboard', 'reports'])
	const monthLabel = useMonthLabel()
	const points = months.map((m) => ({ label: monthLabel(m.month), amount: Number(m.amount), count: m.count }))
	return (
		<Card className={className}>
			<CardHeader>
				<CardTitle>
					<h2>{t('chart.title')}</h2>
				</CardTitle>
				<CardDescription>{t('chart.description')}</CardDescription>
				<CardAction>
					<Button asChild variant="outline" size="sm">
						<Link to="/app/reports?range=last-12-months">
							{t('chart.viewReports')}
							<ArrowRightIcon aria-hidden="true" />
						</Link>
					</Button>
				</CardAction>
			</CardHeader>
			<CardContent className="grid gap-4">
				<SmallMonthlyChartSlot label={t('chart.label')} data={points} height={200} amountLabel={t('reports:columns.amount')} />
				<details className="text-sm">
					<summary className="cursor-pointer text-muted-foreground">{t('chart.showTable')}</summary>
					<MonthlyFiguresTable months={months} caption={t('chart.tableCaption')} />
				</details>
			</CardContent>
		</Card>
	)
}
