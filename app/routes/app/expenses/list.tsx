import { expensesMember } from '#app/.server/expenses/access.ts'
import { listExpenses } from '#app/.server/expenses/expenses.ts'
import { TablePagination } from '#app/components/data-table/data-table.tsx'
import { ExpenseFilters, ExpensesEmpty, ExpenseTable, KindTabs } from '#app/components/expenses/expense-list.tsx'
import { PlusIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { readPage } from '#app/lib/table-params.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/list'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('expenses')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization, active } = await expensesMember(context)
	if (!active) return { active: false as const }
	const params = new URL(request.url).searchParams
	const list = await listExpenses(user.userId, organization.id, {
		month: params.get('month'),
		q: params.get('q'),
		kind: params.get('kind'),
		page: readPage(params),
	})
	return { active: true as const, ...list }
}

export default function ExpensesScreen({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('expenses')
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<div className="flex flex-wrap items-start justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
					<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
				</div>
				{loaderData.active ? (
					<Button asChild>
						<Link to="/app/expenses/new">
							<PlusIcon aria-hidden="true" />
							{t('add')}
						</Link>
					</Button>
				) : null}
			</div>
			{loaderData.active ? <ExpenseList data={loaderData} /> : <ModuleOffer ns="expenses" moduleId={MODULES.expenses.id} />}
		</div>
	)
}

function ExpenseList({ data }: { data: Extract<Route.ComponentProps['loaderData'], { active: true }> }) {
	const { t } = useTranslation('expenses')
	const fmt = useFormat()
	const filtered = data.month !== null || data.q !== null
	if (!filtered && data.total === 0 && data.kind === 'expense') return <ExpensesEmpty />
	return (
		<>
			<KindTabs kind={data.kind} month={data.month} q={data.q} />
			{data.kind === 'refund' ? <p className="text-sm text-muted-foreground">{t('refundsHint')}</p> : null}
			<ExpenseFilters q={data.q ?? ''} month={data.month ?? ''} />
			<p className="text-sm text-muted-foreground" data-testid="expense-summary">
				{data.sum === null
					? t('count', { count: data.total, total: data.totalCapped ? `${fmt.number(data.total)}+` : fmt.number(data.total) })
					: t('summary', { count: data.total, sum: fmt.money(data.sum) })}
			</p>
			<ExpenseTable rows={data.rows} kind={data.kind} filtered={filtered} />
			<TablePagination
				page={data.page}
				pageSize={data.pageSize}
				total={data.total}
				totalCapped={data.totalCapped}
				rowCount={data.rows.length}
			/>
		</>
	)
}
