import { getInputProps } from '@conform-to/react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { CategoryBadge, useCategoryLabel } from '#app/components/payments/category-badge.tsx'
import { TransactionMarks } from '#app/components/rules/transaction-marks.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import type { ClientChoice } from '#app/lib/schemas/clients.ts'
import type { TransactionRow, TransactionSort } from '#app/lib/schemas/transactions.ts'
import { CellError, SortableHead } from './data-table.tsx'
import type { CellField, ErrorText } from './editable-table.tsx'
import type { TableState } from '#app/lib/table-params.ts'

/** The sortable header cells; `editing` leaves the amount left-aligned over its input. */
export function TransactionHeadCells({
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
		<>
			<SortableHead column="date_received" label={t('columns.date')} state={state} />
			{hideClient ? null : <SortableHead column="client" label={t('columns.client')} state={state} />}
			<SortableHead column="external_id" label={t('columns.externalId')} state={state} />
			<SortableHead column="amount" label={t('columns.amount')} state={state} className={editing ? undefined : 'text-right'} />
			{/* The tip has a column of its own in the edit mode; the read mode shows it under the amount. */}
			{editing ? <TableHead>{t('columns.tip')}</TableHead> : null}
			<SortableHead column="category" label={t('columns.category')} state={state} />
			<SortableHead column="payment_method" label={t('columns.method')} state={state} />
			<SortableHead column="description" label={t('columns.description')} state={state} />
		</>
	)
}

function TransactionHeaders(props: { state: TableState<TransactionSort>; hideClient?: boolean }) {
	return (
		<TableHeader>
			<TableRow>
				<TransactionHeadCells {...props} />
			</TableRow>
		</TableHeader>
	)
}

/**
 * The client cell of the edit mode: a text box with the organization's clients as suggestions
 * (a native datalist, so it works without JavaScript; the email tells namesakes apart), and,
 * when the typed name is no client's, a box to create that client with the save.
 */
export function ClientCell({
	field,
	clientId,
	newClient,
	choices,
	listId,
	errorText,
}: {
	field: CellField
	/** The row's own client, which wins when several clients share the typed name. */
	clientId: CellField
	newClient: CellField
	choices: ClientChoice[]
	listId: string
	errorText: ErrorText
}) {
	const { t } = useTranslation('transactions')
	const typed = (field.value ?? '').trim().toLowerCase()
	const known = !typed || choices.some((c) => c.value.toLowerCase() === typed || c.name.toLowerCase() === typed)
	return (
		<TableCell className="align-top card-subtitle">
			<input {...getInputProps(clientId, { type: 'hidden' })} />
			<Input
				{...getInputProps(field, { type: 'text' })}
				list={listId}
				autoComplete="off"
				aria-label={t('columns.client')}
				placeholder={t('noClient')}
				className="field-sizing-content w-full min-w-36"
			/>
			<CellError id={field.errorId} message={errorText(field.errors?.[0])} />
			{known ? null : (
				<label className="mt-1 flex items-start gap-1.5 text-xs whitespace-normal">
					<input {...getInputProps(newClient, { type: 'checkbox' })} className="mt-0.5 size-3.5" />
					{t('clientCell.create', { name: (field.value ?? '').trim() })}
				</label>
			)}
		</TableCell>
	)
}

/** The suggestions of the client cells: a client's name (or "Name <email>"), labelled by email. */
export function ClientOptions({ id, choices }: { id: string; choices: ClientChoice[] }) {
	return (
		<datalist id={id}>
			{choices.map((c) => (
				<option key={c.id} value={c.value}>
					{c.email ?? ''}
				</option>
			))}
		</datalist>
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
	const fmt = useFormat()
	const { t } = useTranslation('transactions')
	const categoryLabel = useCategoryLabel()
	// The columns' names: the header's and the phone cards' labels, translated once.
	const label = {
		date: t('columns.date'),
		client: t('columns.client'),
		externalId: t('columns.externalId'),
		amount: t('columns.amount'),
		category: t('columns.category'),
		method: t('columns.method'),
		description: t('columns.description'),
	}
	const noClient = t('noClient')
	return (
		<div className="rounded-md border">
			<Table
				cards={[
					label.date,
					...(hideClient ? [] : [label.client]),
					label.externalId,
					label.amount,
					label.category,
					label.method,
					label.description,
				]}
			>
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
								<TableCell className="tabular-nums card-meta">{fmt.date(row.dateReceived)}</TableCell>
								{hideClient ? null : (
									<TableCell className="max-w-64 min-w-40 whitespace-normal wrap-anywhere card-subtitle">
										{row.clientId && row.clientName ? (
											<Link to={`/app/clients/${row.clientId}`} className="text-primary underline-offset-4 hover:underline">
												{row.clientName}
											</Link>
										) : (
											<span className="text-muted-foreground">{noClient}</span>
										)}
									</TableCell>
								)}
								<TableCell className="font-mono text-xs">{row.externalId}</TableCell>
								<TableCell className="text-right tabular-nums card-title">
									{fmt.money(row.amount)}
									{row.tip ? <div className="text-xs text-muted-foreground">{t('tipIncluded', { tip: fmt.money(row.tip) })}</div> : null}
								</TableCell>
								<TableCell className="card-meta">
									<CategoryBadge category={row.category} label={categoryLabel(row.category)} />
								</TableCell>
								<TableCell>{t(`methods.${row.paymentMethod}`)}</TableCell>
								<TableCell title={row.description ?? undefined} className={row.description ? 'card-wide' : 'card-hidden'}>
									{/* Two lines at most. A table cell's own max-width does not hold back its column: the block inside does. */}
									<div className="line-clamp-2 max-w-80 min-w-40 whitespace-normal wrap-anywhere">{row.description}</div>
									<TransactionMarks id={row.id} tags={row.tags} held={row.heldForReview} />
								</TableCell>
							</TableRow>
						))
					)}
				</TableBody>
			</Table>
		</div>
	)
}
