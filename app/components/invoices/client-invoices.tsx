import { PlusIcon } from '#app/components/icons.tsx'
import { InvoiceStateBadge } from '#app/components/invoices/state-badge.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import type { InvoiceState } from '#app/lib/invoices.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

export type ClientInvoiceRow = {
	id: string
	number: number | null
	state: InvoiceState
	dueDate: string
	total: string
	balance: string
}

/**
 * A client's invoices on the client's page (docs/product.md, Clients), beside their appointments
 * and payments: number (or draft), due date, total, balance and state, latest first, each opening
 * the invoice; the invoice list, searched by the client's name, has them all.
 */
export function ClientInvoiceList({
	invoices,
	clientName,
}: {
	/** The latest of the client's invoices, and how many they have in all. */
	invoices: { rows: ClientInvoiceRow[]; total: number }
	clientName: string
}) {
	const { t } = useTranslation('clients')
	const fmt = useFormat()
	const label = {
		number: t('invoices.number'),
		due: t('invoices.due'),
		total: t('invoices.total'),
		balance: t('invoices.balance'),
		state: t('invoices.state'),
	}
	return (
		<section aria-labelledby="client-invoices" className="grid min-w-0 grid-cols-1 gap-3">
			<div className="flex flex-wrap items-center justify-between gap-2">
				<h2 id="client-invoices" className="text-lg font-semibold">
					{t('invoices.title')}
				</h2>
				<Button asChild variant="outline" size="sm">
					<Link to="/app/invoices/new">
						<PlusIcon aria-hidden="true" />
						{t('invoices.new')}
					</Link>
				</Button>
			</div>
			{invoices.rows.length === 0 ? (
				<p className="text-sm text-muted-foreground">{t('invoices.empty')}</p>
			) : (
				<div className="rounded-md border">
					<Table cards={[label.number, label.due, label.total, label.balance, label.state]}>
						<caption className="sr-only">{t('invoices.caption')}</caption>
						<TableHeader>
							<TableRow>
								<TableHead scope="col">{label.number}</TableHead>
								<TableHead scope="col">{label.due}</TableHead>
								<TableHead scope="col" className="text-right">
									{label.total}
								</TableHead>
								<TableHead scope="col" className="text-right">
									{label.balance}
								</TableHead>
								<TableHead scope="col">{label.state}</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{invoices.rows.map((invoice) => (
								<TableRow key={invoice.id}>
									<TableCell className="font-medium card-title">
										<Link
											to={`/app/invoices/${invoice.id}`}
											className="inline-flex min-h-11 items-center underline underline-offset-4 hover:no-underline sm:min-h-0"
										>
											{invoice.number === null ? t('invoices.draft') : t('invoices.numbered', { number: invoice.number })}
										</Link>
									</TableCell>
									<TableCell className="tabular-nums card-meta">{fmt.date(invoice.dueDate)}</TableCell>
									<TableCell className="text-right tabular-nums card-meta">{fmt.money(invoice.total)}</TableCell>
									<TableCell className="text-right tabular-nums card-meta">{fmt.money(invoice.balance)}</TableCell>
									<TableCell className="card-subtitle">
										<InvoiceStateBadge state={invoice.state} />
									</TableCell>
								</TableRow>
							))}
						</TableBody>
					</Table>
				</div>
			)}
			{invoices.total > invoices.rows.length ? (
				<Link
					to={`/app/invoices?q=${encodeURIComponent(clientName)}`}
					className="w-fit text-sm text-primary underline-offset-4 hover:underline"
				>
					{t('invoices.all', { count: invoices.total })}
				</Link>
			) : null}
		</section>
	)
}
