import { FileTextIcon, PlusIcon } from '#app/components/icons.tsx'
import { NativeSelect, TableSearch } from '#app/components/data-table/data-table.tsx'
import { InvoiceStateBadge } from '#app/components/invoices/state-badge.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { INVOICE_STATES, type InvoiceFilter, type InvoiceState } from '#app/lib/invoices.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

export type InvoiceRow = {
	id: string
	number: number | null
	state: InvoiceState
	clientName: string | null
	issueDate: string
	dueDate: string
	total: string
	balance: string
	overpaid: string
}

/** The search box and the state filter: a GET form, so both live in the address and work without JavaScript. */
export function InvoiceFilters({ q, state }: { q: string; state: InvoiceFilter | null }) {
	const { t } = useTranslation('invoices')
	return (
		<TableSearch q={q} placeholder={t('list.searchPlaceholder')} keep={[]}>
			<label className="sr-only" htmlFor="invoice-state">
				{t('list.filter')}
			</label>
			<NativeSelect id="invoice-state" name="state" defaultValue={state ?? ''} key={state ?? ''}>
				<option value="">{t('list.allStates')}</option>
				<option value="open">{t('list.open')}</option>
				{INVOICE_STATES.map((s) => (
					<option key={s} value={s}>
						{t(`states.${s}`)}
					</option>
				))}
			</NativeSelect>
		</TableSearch>
	)
}

/** The invoices of a page: number (or "Draft"), client, dates, total, balance and state; each opens its page. */
export function InvoiceTable({ rows, filtered }: { rows: InvoiceRow[]; filtered: boolean }) {
	const { t } = useTranslation('invoices')
	const fmt = useFormat()
	const label = {
		number: t('columns.number'),
		client: t('columns.client'),
		issued: t('columns.issued'),
		due: t('columns.due'),
		total: t('columns.total'),
		balance: t('columns.balance'),
		state: t('columns.state'),
	}
	return (
		<div className="rounded-md border">
			<Table cards={[label.number, label.client, label.issued, label.due, label.total, label.balance, label.state]}>
				<caption className="sr-only">{t('title')}</caption>
				<TableHeader>
					<TableRow>
						<TableHead>{label.number}</TableHead>
						<TableHead>{label.client}</TableHead>
						<TableHead>{label.issued}</TableHead>
						<TableHead>{label.due}</TableHead>
						<TableHead className="text-right">{label.total}</TableHead>
						<TableHead className="text-right">{label.balance}</TableHead>
						<TableHead>{label.state}</TableHead>
					</TableRow>
				</TableHeader>
				<TableBody>
					{rows.length === 0 ? (
						<TableRow>
							<TableCell colSpan={7} className="h-24 text-center text-muted-foreground">
								{filtered ? t('list.noneFound') : t('empty.title')}
							</TableCell>
						</TableRow>
					) : (
						rows.map((row) => {
							const name = row.number === null ? t('list.draft') : t('numbered', { number: row.number })
							return (
								<TableRow key={row.id}>
									<TableCell className="card-subtitle">
										<Link to={`/app/invoices/${row.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
											{name}
										</Link>
									</TableCell>
									<TableCell className="max-w-64 whitespace-normal wrap-anywhere card-meta">
										{row.clientName ?? <span className="text-muted-foreground">{t('list.noClient')}</span>}
									</TableCell>
									<TableCell className="tabular-nums card-meta">{fmt.date(row.issueDate)}</TableCell>
									<TableCell className="tabular-nums">{fmt.date(row.dueDate)}</TableCell>
									<TableCell className="text-right tabular-nums card-title">{fmt.money(row.total)}</TableCell>
									<TableCell className="text-right tabular-nums">
										{row.state === 'draft' || row.state === 'void' ? '—' : fmt.money(row.balance)}
										{Number(row.overpaid) > 0 ? (
											<span className="block text-xs text-amber-800 dark:text-warning">
												{t('list.overpaid', { amount: fmt.money(row.overpaid) })}
											</span>
										) : null}
									</TableCell>
									<TableCell>
										<InvoiceStateBadge state={row.state} />
									</TableCell>
								</TableRow>
							)
						})
					)}
				</TableBody>
			</Table>
		</div>
	)
}

/** No invoice yet: what invoices do, and the way to the first. */
export function InvoicesEmpty() {
	const { t } = useTranslation('invoices')
	return (
		<div className="grid justify-items-center gap-3 rounded-md border border-dashed p-10 text-center">
			<FileTextIcon className="size-8 text-muted-foreground" aria-hidden="true" />
			<h2 className="text-lg font-semibold">{t('empty.title')}</h2>
			<p className="max-w-md text-sm text-muted-foreground">{t('empty.description')}</p>
			<Button asChild>
				<Link to="/app/invoices/new">
					<PlusIcon aria-hidden="true" />
					{t('new')}
				</Link>
			</Button>
		</div>
	)
}
