import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { CategoryBadge } from '#app/components/category-badge.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { formatDate, formatMoney } from '#app/lib/format.ts'
import type { TransactionRow, TransactionSort } from '#app/lib/schemas/transactions.ts'
import { SortableHead } from './data-table.tsx'
import type { TableState } from '#app/lib/table-params.ts'


export function TransactionHeaders({
	state,
	editing,
	hideClient,
}: {
	state: TableState<TransactionSort>
	editing?: boolean
	hideClient?: boolean
}) {
	const { t } = useTranslation('transactions')
	return (
		<TableHeader>
			<TableRow>
				<SortableHead column="date_received" label={t('columns.date')} state={state} />
				{hideClient ? null : <SortableHead column="client" label={t('columns.client')} state={state} />}
				<SortableHead column="external_id" label={t('columns.externalId')} state={state} />
				<SortableHead column="amount" label={t('columns.amount')} state={state} className={editing ? undefined : 'text-right'} />
				<SortableHead column="category" label={t('columns.category')} state={state} />
				<SortableHead column="payment_method" label={t('columns.method')} state={state} />
				<SortableHead column="description" label={t('columns.description')} state={state} />
				{editing ? (
					<TableHead>
						<span className="sr-only">{t('columns.actions')}</span>
					</TableHead>
				) : null}
			</TableRow>
		</TableHeader>
	)
}

/** The transactions as a read-only table (the transactions screen, a client's page). */
export function TransactionsReadTable({
	rows,
	state,
	hideClient,
}: {
	rows: TransactionRow[]
	state: TableState<TransactionSort>
	hideClient?: boolean
}) {
	const { t } = useTranslation('transactions')
	return (
		<div className="rounded-md border">
			<Table>
				<caption className="sr-only">{t('title')}</caption>
				<TransactionHeaders state={state} hideClient={hideClient} />
				<TableBody>
					{rows.length === 0 ? (
						<TableRow>
							<TableCell colSpan={hideClient ? 6 : 7} className="h-24 text-center text-muted-foreground">
								{state.q ? t('empty.search') : t('empty.none')}
							</TableCell>
						</TableRow>
					) : (
						rows.map((row) => (
							<TableRow key={row.id}>
								<TableCell className="tabular-nums">{formatDate(row.dateReceived)}</TableCell>
								{hideClient ? null : (
									<TableCell>
										{row.clientId && row.clientName ? (
											<Link to={`/app/clients/${row.clientId}`} className="text-primary underline-offset-4 hover:underline">
												{row.clientName}
											</Link>
										) : (
											<span className="text-muted-foreground">{t('noClient')}</span>
										)}
									</TableCell>
								)}
								<TableCell className="font-mono text-xs">{row.externalId}</TableCell>
								<TableCell className="text-right tabular-nums">{formatMoney(row.amount)}</TableCell>
								<TableCell>
									<CategoryBadge category={row.category} />
								</TableCell>
								<TableCell>{t(`methods.${row.paymentMethod}`)}</TableCell>
								<TableCell className="max-w-80 truncate" title={row.description ?? undefined}>
									{row.description}
								</TableCell>
							</TableRow>
						))
					)}
				</TableBody>
			</Table>
		</div>
	)
}

