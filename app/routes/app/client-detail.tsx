import { ArrowLeftIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { requireMember } from '#app/.server/auth/session.ts'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { errorResponse, invariantResponse } from '#app/lib/errors.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { getClient, listMergeCandidates, mergeClients, shownClient } from '#app/.server/payments/clients.ts'
import { listClientAppointments } from '#app/.server/booking/appointments.ts'
import { bookingAccess } from '#app/.server/booking/staff.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { ClientAppointmentList } from '#app/components/booking/appointment-client-list.tsx'
import { listClientInvoices } from '#app/.server/invoices/overview.ts'
import { ClientInvoiceList } from '#app/components/invoices/client-invoices.tsx'
import { ClientMerge, MergeLink, type MergeStep } from '#app/components/payments/client-merge.tsx'
import { DEFAULT_PAGE_SIZE, memberClock } from '#app/.server/query.ts'
import { listTransactions, shownTransaction } from '#app/.server/payments/transactions.ts'
import { ClientStatusBadge } from '#app/components/data-table/client-cells.tsx'
import { TablePagination } from '#app/components/data-table/data-table.tsx'
import { readTableState } from '#app/lib/table-params.ts'
import { TransactionsReadTable } from '#app/components/data-table/transaction-cells.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { dateIn } from '#app/lib/dates.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { TRANSACTION_DEFAULT_SORT, TRANSACTION_SORTS } from '#app/lib/schemas/transactions.ts'
import type { Route } from './+types/client-detail'
import { isUuid } from '#app/lib/uuid.ts'
import { clientCrm, clientCrmAction } from '#app/.server/crm/client-page.ts'
import { ClientNotes, ClientPipelines, ClientTags, CrmOffer } from '#app/components/crm/client-crm.tsx'
import { dateTimeIn } from '#app/lib/dates.ts'

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'clientDetail', args.loaderData?.client.name)

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	// An id that is not a uuid, or a client of another organization, is simply not found here.
	invariantResponse(isUuid(params.clientId), 404)
	const found = await getClient(user.userId, organization.id, params.clientId)
	invariantResponse(found, 404)
	const url = new URL(request.url)
	// The client's column is the same on every row, so it is not a sort here.
	const state = readTableState(
		url.searchParams,
		TRANSACTION_SORTS.filter((s) => s !== 'client'),
		TRANSACTION_DEFAULT_SORT,
	)
	const [page, clock, appointments, invoices, merge, crm] = await Promise.all([
		listTransactions(user.userId, organization.id, { ...state, q: null, clientId: found.client.id, pageSize: DEFAULT_PAGE_SIZE }),
		memberClock(organization),
		// Their appointments, for a member who may open the booking module (its data stays there otherwise).
		bookingAccess(user.userId, organization.id, organization.role).then((access) =>
			access === 'usable' ? listClientAppointments(user.userId, organization.id, found.client.id) : null,
		),
		// Their invoices, for a member who may use Invoicing.
		listClientInvoices(user.userId, organization.id, organization.role, found.client.id),
		mergeStep(user.userId, organization.id, found.client.id, url.searchParams),
		// Tags, notes and pipelines, with the CRM upgrades (docs/product.md, Clients).
		clientCrm({ user, organization }, found.client.id),
	])
	const client = shownClient(found.client)
	return {
		crm: {
			...crm,
			notes: crm.notes?.map((n) => ({ ...n, when: dateTimeIn(clock.timezone, new Date(n.createdAt)) })) ?? null,
		},
		merge,
		appointments,
		invoices,
		client: { ...client, createdDate: dateIn(clock.timezone, new Date(client.createdAt)) },
		totals: found.totals,
		state: { ...state, q: '' },
		pageSize: DEFAULT_PAGE_SIZE,
		total: page.total,
		totalCapped: page.totalCapped,
		rows: page.rows.map(shownTransaction),
	}
}

/** "Merge into…" (`?merge=1`): the clients found by `q`, and the one chosen (`into`) when it is one of the organization's. */
async function mergeStep(userId: string, organizationId: string, clientId: string, params: URLSearchParams): Promise<MergeStep | null> {
	if (params.get('merge') !== '1') return null
	const into = params.get('into')
	const chosen = isUuid(into) && into !== clientId ? await getClient(userId, organizationId, into) : null
	const q = (params.get('q') ?? '').slice(0, 200)
	return {
		q,
		candidates: chosen ? [] : await listMergeCandidates(userId, organizationId, clientId, q),
		into: chosen && { id: chosen.client.id, name: chosen.client.name, email: chosen.client.email, phone: chosen.client.phone },
	}
}

/** Merges this client into the one chosen (`into`), then shows the kept client, who now holds both histories. */
export async function action({ request, params, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	invariantResponse(isUuid(params.clientId) && (await getClient(user.userId, organization.id, params.clientId)), 404)
	const form = await request.formData()
	const crm = await clientCrmAction({ user, organization }, params.clientId, form)
	if (crm) return crm
	if (form.get('intent') !== 'merge') return errorResponse(400, 'badRequest')
	const into = form.get('into')
	invariantResponse(isUuid(into), 400)
	const merged = await mergeClients(user.userId, organization.id, into, params.clientId)
	if (!merged.ok)
		return redirectWithToast(`/app/clients/${params.clientId}`, { type: 'error', title: `clients:merge.refusals.${merged.code}` })
	return redirectWithToast(`/app/clients/${into}`, { type: 'success', title: 'clients:merge.done' })
}

export default function ClientDetailScreen({ loaderData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation('clients')
	const { client, totals } = loaderData
	const details: [string, string][] = [
		[t('columns.email'), client.email ?? '—'],
		[t('columns.phone'), client.phone ?? '—'],
		[t('columns.company'), client.company ?? '—'],
		[t('columns.created'), fmt.date(client.createdDate)],
	]
	const stats: [string, string][] = [
		[t('detail.totalReceived'), fmt.money(totals.amount)],
		[t('detail.payments'), fmt.number(totals.count)],
		[t('detail.firstPayment'), totals.first ? fmt.date(totals.first) : '—'],
		[t('detail.lastPayment'), totals.last ? fmt.date(totals.last) : '—'],
	]
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<Link to="/app/clients" className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
				<ArrowLeftIcon className="size-4" aria-hidden="true" />
				{t('detail.back')}
			</Link>
			<div className="flex flex-wrap items-center gap-3">
				<h1 className="text-2xl font-semibold tracking-tight">{client.name || t('unnamed')}</h1>
				<ClientStatusBadge status={client.status} />
				{loaderData.merge ? null : <MergeLink />}
			</div>
			{loaderData.merge ? <ClientMerge name={client.name || t('unnamed')} step={loaderData.merge} /> : null}
			<dl className="grid gap-x-8 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
				{details.map(([label, value]) => (
					<div key={label} className="grid gap-0.5">
						<dt className="text-muted-foreground">{label}</dt>
						<dd className="font-medium break-words">{value}</dd>
					</div>
				))}
			</dl>
			<section aria-labelledby="client-totals" className="grid gap-3">
				<h2 id="client-totals" className="sr-only">
					{t('detail.totals')}
				</h2>
				<div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
					{stats.map(([label, value]) => (
						<Card key={label}>
							<CardHeader>
								<CardDescription>{label}</CardDescription>
								<CardTitle className="text-2xl tabular-nums">{value}</CardTitle>
							</CardHeader>
							<CardContent />
						</Card>
					))}
				</div>
			</section>
			{loaderData.crm.access.basicFields ? <ClientTags tags={client.tags} /> : null}
			{loaderData.crm.cards && loaderData.crm.pipelines ? (
				<ClientPipelines cards={loaderData.crm.cards} pipelines={loaderData.crm.pipelines} />
			) : null}
			{loaderData.crm.notes ? <ClientNotes notes={loaderData.crm.notes} /> : null}
			<CrmOffer {...loaderData.crm.access} />
			{loaderData.appointments ? <ClientAppointmentList appointments={loaderData.appointments} /> : null}
			{loaderData.invoices ? <ClientInvoiceList invoices={loaderData.invoices} clientName={client.name} /> : null}
			<section aria-labelledby="client-transactions" className="grid min-w-0 grid-cols-1 gap-3">
				<h2 id="client-transactions" className="text-lg font-semibold">
					{t('detail.transactions')}
				</h2>
				<TransactionsReadTable rows={loaderData.rows} state={loaderData.state} hideClient />
				<TablePagination
					page={loaderData.state.page}
					pageSize={loaderData.pageSize}
					total={loaderData.total}
					totalCapped={loaderData.totalCapped}
					rowCount={loaderData.rows.length}
				/>
			</section>
		</div>
	)
}

export function ErrorBoundary() {
	return <GeneralErrorBoundary statusHandlers={{ 404: () => <ClientNotFound /> }} />
}

function ClientNotFound() {
	const { t } = useTranslation('clients')
	return (
		<div className="grid gap-4">
			<p className="text-5xl font-bold">{'404'}</p>
			<h1 className="text-xl font-semibold">{t('detail.notFound.title')}</h1>
			<p className="text-muted-foreground">{t('detail.notFound.description')}</p>
			<Link to="/app/clients" className="w-fit text-primary underline-offset-4 hover:underline">
				{t('detail.back')}
			</Link>
		</div>
	)
}
