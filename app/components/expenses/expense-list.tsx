import { TableSearch } from '#app/components/data-table/data-table.tsx'
import { FileTextIcon, PlusIcon, ReceiptIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import type { ExpenseCategory, ExpenseKind } from '#app/lib/schemas/expenses.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** A row of the list as the loader gives it. */
export type ExpenseListRow = {
	id: string
	kind: ExpenseKind
	spentOn: string
	vendor: string
	category: ExpenseCategory
	amount: string
	fee: string | null
	paymentMethod: string | null
	hasReceipt: boolean
	imported: boolean
}

/**
 * Expenses and refunds, one tab each: refunds (money sent back to payers) are listed apart,
 * labelled, and counted in no expense total. Links, so the tabs work without JavaScript.
 */
export function KindTabs({ kind, month, q }: { kind: ExpenseKind; month: string | null; q: string | null }) {
	const { t } = useTranslation('expenses')
	const href = (k: ExpenseKind) => {
		const params = new URLSearchParams()
		if (k === 'refund') params.set('kind', 'refund')
		if (month) params.set('month', month)
		if (q) params.set('q', q)
		const search = params.toString()
		return search ? `/app/expenses?${search}` : '/app/expenses'
	}
	return (
		<nav aria-label={t('kinds.label')} className="flex flex-wrap gap-2">
			{(['expense', 'refund'] as const).map((k) => (
				<Button key={k} asChild size="sm" variant={kind === k ? 'default' : 'outline'}>
					<Link to={href(k)} aria-current={kind === k ? 'page' : undefined}>
						{t(`kinds.${k}`)}
					</Link>
				</Button>
			))}
		</nav>
	)
}

/** The search box and the month: a GET form, so both live in the address and work without JavaScript. */
export function ExpenseFilters({ q, month }: { q: string; month: string }) {
	const { t } = useTranslation('expenses')
	return (
		<TableSearch q={q} placeholder={t('filters.searchPlaceholder')} keep={['kind']}>
			<label className="sr-only" htmlFor="expense-month">
				{t('filters.month')}
			</label>
			<Input id="expense-month" type="month" name="month" defaultValue={month} key={month} className="w-44" />
		</TableSearch>
	)
}

/** The rows of a page: date, vendor, category, amount (and fee), rail, receipt; each opens its edit page. */
export function ExpenseTable({ rows, kind, filtered }: { rows: ExpenseListRow[]; kind: ExpenseKind; filtered: boolean }) {
	const { t } = useTranslation(['expenses', 'transactions'])
	const fmt = useFormat()
	const label = {
		date: t('columns.date'),
		vendor: kind === 'refund' ? t('columns.payee') : t('columns.vendor'),
		category: t('columns.category'),
		amount: t('columns.amount'),
		rail: t('columns.rail'),
		receipt: t('columns.receipt'),
	}
	return (
		<div className="rounded-md border">
			<Table cards={[label.date, label.vendor, label.category, label.amount, label.rail, label.receipt]}>
				<caption className="sr-only">{kind === 'refund' ? t('refundsCaption') : t('caption')}</caption>
				<TableHeader>
					<TableRow>
						<TableHead>{label.date}</TableHead>
						<TableHead>{label.vendor}</TableHead>
						<TableHead>{label.category}</TableHead>
						<TableHead className="text-right">{label.amount}</TableHead>
						<TableHead>{label.rail}</TableHead>
						<TableHead>{label.receipt}</TableHead>
					</TableRow>
				</TableHeader>
				<TableBody>
					{rows.length === 0 ? (
						<TableRow>
							<TableCell colSpan={6} className="h-24 text-center whitespace-normal text-muted-foreground">
								{kind === 'refund' ? t('empty.refunds') : filtered ? t('empty.filtered') : t('empty.title')}
							</TableCell>
						</TableRow>
					) : (
						rows.map((row) => (
							<TableRow key={row.id}>
								<TableCell className="tabular-nums card-meta">{fmt.date(row.spentOn)}</TableCell>
								<TableCell className="max-w-64 whitespace-normal wrap-anywhere card-subtitle">
									<Link
										to={`/app/expenses/${row.id}`}
										className="font-medium text-primary underline-offset-4 hover:underline"
										aria-label={t('editOf', { vendor: row.vendor, date: fmt.date(row.spentOn) })}
									>
										{row.vendor}
									</Link>
									{row.kind === 'refund' ? (
										<Badge variant="outline" className="ml-2">
											{t('refundBadge')}
										</Badge>
									) : null}
									{row.imported ? (
										<Badge variant="secondary" className="ml-2">
											{t('importedBadge')}
										</Badge>
									) : null}
								</TableCell>
								<TableCell className="card-meta">{t(`categories.${row.category}`)}</TableCell>
								<TableCell className="text-right tabular-nums card-title">
									{fmt.money(row.amount)}
									{row.fee && Number(row.fee) > 0 ? (
										<span className="block text-xs text-muted-foreground">
											{t('columns.fee')}: {fmt.money(row.fee)}
										</span>
									) : null}
								</TableCell>
								<TableCell>{row.paymentMethod ? t(`transactions:methods.${row.paymentMethod}`) : t('railNone')}</TableCell>
								<TableCell>
									{row.hasReceipt ? (
										<a
											href={`/app/expenses/${row.id}/receipt`}
											target="_blank"
											rel="noreferrer"
											className="inline-flex min-h-11 items-center gap-1 text-primary underline-offset-4 hover:underline sm:min-h-0"
										>
											<FileTextIcon className="size-4" aria-hidden="true" />
											{t('viewReceipt')}
										</a>
									) : (
										<span className="text-muted-foreground">{t('noReceipt')}</span>
									)}
								</TableCell>
							</TableRow>
						))
					)}
				</TableBody>
			</Table>
		</div>
	)
}

/** No expense yet: what the module does, and the way to the first. */
export function ExpensesEmpty() {
	const { t } = useTranslation('expenses')
	return (
		<div className="grid justify-items-center gap-3 rounded-md border border-dashed p-10 text-center">
			<ReceiptIcon className="size-8 text-muted-foreground" aria-hidden="true" />
			<h2 className="text-lg font-semibold">{t('empty.title')}</h2>
			<p className="max-w-md text-sm text-muted-foreground">{t('empty.description')}</p>
			<Button asChild>
				<Link to="/app/expenses/new">
					<PlusIcon aria-hidden="true" />
					{t('add')}
				</Link>
			</Button>
		</div>
	)
}
