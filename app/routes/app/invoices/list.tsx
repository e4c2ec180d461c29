import { invoicingMember, listInvoices } from '#app/.server/invoices/list.ts'
import { TablePagination } from '#app/components/data-table/data-table.tsx'
import { PlusIcon } from '#app/components/icons.tsx'
import { InvoiceFilters, InvoicesEmpty, InvoiceTable } from '#app/components/invoices/invoice-list.tsx'
import { Link } from '#app/components/link.tsx'
import { ModuleOffer } from '#app/components/module-offer.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { MODULES } from '#app/lib/modules.ts'
import { readPage } from '#app/lib/table-params.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/list'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('invoices')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization, active } = await invoicingMember(context)
	if (!active) return { active: false as const }
	const params = new URL(request.url).searchParams
	const list = await listInvoices(user.userId, organization.id, {
		state: params.get('state'),
		q: params.get('q'),
		page: readPage(params),
	})
	return { active: true as const, ...list }
}

export default function InvoicesScreen({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('invoices')
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<div className="flex flex-wrap items-start justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
					<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
				</div>
				{loaderData.active ? (
					<Button asChild>
						<Link to="/app/invoices/new">
							<PlusIcon aria-hidden="true" />
							{t('new')}
						</Link>
					</Button>
				) : null}
			</div>
			{loaderData.active ? <InvoiceList data={loaderData} /> : <ModuleOffer ns="invoices" moduleId={MODULES.invoicing.id} />}
		</div>
	)
}

function InvoiceList({ data }: { data: Extract<Route.ComponentProps['loaderData'], { active: true }> }) {
	const filtered = data.state !== null || data.q !== null
	if (!filtered && data.total === 0) return <InvoicesEmpty />
	return (
		<>
			<InvoiceFilters q={data.q ?? ''} state={data.state} />
			<InvoiceTable rows={data.rows} filtered={filtered} />
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
