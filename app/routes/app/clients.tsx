import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { requireMember } from '#app/.server/auth/session.ts'
import { editableClient, listClients, saveClients, shownClient, type LoadedClient } from '#app/.server/payments/clients.ts'
import { readTableRequest, redirectPastLastPage, tableAction } from '#app/.server/data-table.ts'
import { DEFAULT_PAGE_SIZE, memberClock } from '#app/.server/query.ts'
import { ClientStatusBadge } from '#app/components/data-table/client-cells.tsx'
import { SortableHead, TableLoadError, TableSearch } from '#app/components/data-table/data-table.tsx'
import { EditableTable, SelectCell, TextCell } from '#app/components/data-table/editable-table.tsx'
import { TableScreen } from '#app/components/data-table/table-screen.tsx'
import { Table, TableBody, TableCell, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { dateIn } from '#app/lib/dates.ts'
import { useFormat } from '#app/lib/use-format.ts'
import {
	CLIENT_DEFAULT_SORT,
	CLIENT_SORTS,
	CLIENT_STATUSES,
	clientsSaveSchema,
	newClientRow,
	type ClientSort,
} from '#app/lib/schemas/clients.ts'
import { type TableState } from '#app/lib/table-params.ts'
import type { Route } from './+types/clients'
import { keepDataAfterLostSave, keepEditsWhenSaveFails } from '#app/components/data-table/keep-edits.ts'
import { crmAccess } from '#app/.server/crm/access.ts'
import { ClientsCrmActions, TagFilterField, TagFilterNotice } from '#app/components/crm/clients-list.tsx'
import { CrmOffer, TagList } from '#app/components/crm/client-crm.tsx'

export const meta = titleMeta('clients')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization, url, state } = readTableRequest(request, context, CLIENT_SORTS, CLIENT_DEFAULT_SORT)
	// The tag filter (docs/product.md, Clients › Tags and notes): only CRM Basic Fields writes tags, so
	// it is read from the URL alongside the upgrade rather than after it (one round trip).
	const tag = (url.searchParams.get('tag') ?? '').trim().toLowerCase().slice(0, 40)
	const [page, clock, crm] = await Promise.all([
		listClients(user.userId, organization.id, { ...state, tag, pageSize: DEFAULT_PAGE_SIZE }),
		memberClock(organization),
		crmAccess(user.userId, organization.id),
	])
	redirectPastLastPage(url, state.page, DEFAULT_PAGE_SIZE, page)
	const exportParams = new URLSearchParams(Object.entries({ q: state.q, tag, sort: state.sort, dir: state.dir }).filter(([, v]) => v))
	const screen = {
		state,
		pageSize: DEFAULT_PAGE_SIZE,
		total: page.total,
		totalCapped: page.totalCapped,
		crm: { ...crm, tag, exportHref: `/app/clients/export.csv?${exportParams}` },
	}
	// The day a client was added, in the organization's timezone.
	const createdDate = (row: LoadedClient) => dateIn(clock.timezone, new Date(row.createdAt))
	// Only the edit form needs each row's version and fingerprint.
	return state.edit
		? { ...screen, editing: true as const, rows: page.rows.map((row) => ({ ...editableClient(row), createdDate: createdDate(row) })) }
		: { ...screen, editing: false as const, rows: page.rows.map((row) => ({ ...shownClient(row), createdDate: createdDate(row) })) }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	return tableAction(request, {
		schema: clientsSaveSchema,
		save: (rows, how) => saveClients(user.userId, organization.id, rows, how),
	})
}

export const clientAction = (args: Route.ClientActionArgs) => keepEditsWhenSaveFails(args)
export const shouldRevalidate = keepDataAfterLostSave

type LoaderData = Route.ComponentProps['loaderData']

export default function ClientsScreen({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('clients')
	const { state, crm } = loaderData
	return (
		<TableScreen
			ns="clients"
			data={loaderData}
			formError={actionData?.formError}
			actions={<ClientsCrmActions {...crm} />}
			readTable={<ReadTable rows={loaderData.rows} state={state} tags={crm.basicFields} filtered={Boolean(state.q || crm.tag)} />}
			editTable={loaderData.editing ? <EditClients loaderData={loaderData} actionData={actionData} /> : null}
		>
			<TableSearch q={state.q} placeholder={t('searchPlaceholder')} keep={['sort', 'dir', 'edit']}>
				{crm.basicFields ? <TagFilterField tag={crm.tag} /> : null}
			</TableSearch>
			<TagFilterNotice tag={crm.tag} />
			<CrmOffer {...crm} />
		</TableScreen>
	)
}

function HeadCells({ state }: { state: TableState<ClientSort> }) {
	const { t } = useTranslation('clients')
	return (
		<>
			<SortableHead column="name" label={t('columns.name')} state={state} />
			<SortableHead column="email" label={t('columns.email')} state={state} />
			<SortableHead column="phone" label={t('columns.phone')} state={state} />
			<SortableHead column="company" label={t('columns.company')} state={state} />
			<SortableHead column="status" label={t('columns.status')} state={state} />
			<SortableHead column="created_at" label={t('columns.created')} state={state} />
		</>
	)
}

/** The columns, in order: their names are the phone cards' labels. */
const COLUMNS = ['name', 'email', 'phone', 'company', 'status', 'created'] as const

function ReadTable({
	rows,
	state,
	tags,
	filtered,
}: {
	rows: LoaderData['rows']
	state: TableState<ClientSort>
	tags: boolean
	filtered: boolean
}) {
	const fmt = useFormat()
	const { t } = useTranslation('clients')
	const labels = COLUMNS.map((c) => t(`columns.${c}`))
	return (
		<div className="rounded-md border">
			<Table cards={labels}>
				<caption className="sr-only">{t('title')}</caption>
				<TableHeader>
					<TableRow>
						<HeadCells state={state} />
					</TableRow>
				</TableHeader>
				<TableBody>
					{rows.length === 0 ? (
						<TableRow>
							<TableCell colSpan={COLUMNS.length} className="h-24 text-center text-muted-foreground">
								{filtered ? t('empty.search') : t('empty.none')}
							</TableCell>
						</TableRow>
					) : (
						rows.map((row) => (
							<TableRow key={row.id}>
								<TableCell className="max-w-64 min-w-40 whitespace-normal wrap-anywhere card-title">
									<Link to={`/app/clients/${row.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
										{row.name || t('unnamed')}
									</Link>
									{tags ? <TagList tags={row.tags} /> : null}
								</TableCell>
								<TableCell className={`max-w-64 whitespace-normal wrap-anywhere ${row.email ? 'card-wide' : 'card-hidden'}`}>
									{row.email}
								</TableCell>
								<TableCell className={row.phone ? undefined : 'card-hidden'}>{row.phone}</TableCell>
								<TableCell className={row.company ? 'max-w-64 whitespace-normal wrap-anywhere' : 'card-hidden'}>{row.company}</TableCell>
								<TableCell className="card-subtitle">
									<ClientStatusBadge status={row.status} />
								</TableCell>
								<TableCell className="tabular-nums card-meta">{fmt.date(row.createdDate)}</TableCell>
							</TableRow>
						))
					)}
				</TableBody>
			</Table>
		</div>
	)
}

function EditClients({
	loaderData,
	actionData,
}: {
	loaderData: Extract<LoaderData, { editing: true }>
	actionData: Route.ComponentProps['actionData']
}) {
	const fmt = useFormat()
	const { t } = useTranslation('clients')
	const statuses = CLIENT_STATUSES.map((s) => [s, t(`statuses.${s}`)] as const)
	const createdOf = new Map(loaderData.rows.map((r) => [r.id, r.createdDate]))
	const labels = COLUMNS.map((c) => t(`columns.${c}`))
	return (
		<EditableTable
			ns="clients"
			schema={clientsSaveSchema}
			rows={loaderData.rows}
			values={(row) => ({ name: row.name, email: row.email ?? '', phone: row.phone ?? '', company: row.company ?? '', status: row.status })}
			blank={newClientRow()}
			actionData={actionData}
			header={<HeadCells state={loaderData.state} />}
			labels={labels}
			cells={(f, { errorText }) => {
				const created = createdOf.get(f.id.initialValue ?? '')
				return (
					<>
						<TextCell field={f.name} label={t('columns.name')} errorText={errorText} card="title" className="min-w-32" />
						<TextCell field={f.email} type="email" label={t('columns.email')} errorText={errorText} card="wide" className="min-w-40" />
						<TextCell field={f.phone} type="tel" label={t('columns.phone')} errorText={errorText} className="min-w-28" />
						<TextCell field={f.company} label={t('columns.company')} errorText={errorText} className="min-w-32" />
						<SelectCell field={f.status} label={t('columns.status')} errorText={errorText} options={statuses} card="subtitle" />
						<TableCell className="align-top leading-9 tabular-nums">{created ? fmt.date(created) : t('new')}</TableCell>
					</>
				)
			}}
			conflictItems={(values) => [
				[t('columns.name'), values.name],
				[t('columns.email'), values.email ?? ''],
				[t('columns.phone'), values.phone ?? ''],
				[t('columns.company'), values.company ?? ''],
				[t('columns.status'), t(`statuses.${values.status}`)],
			]}
		/>
	)
}

/** A 403 or 404 says what happened; a failed load keeps the screen's own message and retry link. */
export function ErrorBoundary() {
	const { t } = useTranslation('table')
	return <GeneralErrorBoundary unexpectedErrorHandler={() => <TableLoadError title={t('toast.loadClientsFailed')} />} />
}
