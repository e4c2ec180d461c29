import { TZDate } from '@date-fns/tz'
import { format } from 'date-fns'
import { XIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useLocation } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { requireMember } from '#app/.server/auth/session.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { listClientChoices } from '#app/.server/payments/clients.ts'
import { readTableRequest, redirectPastLastPage, tableAction } from '#app/.server/data-table.ts'
import { DEFAULT_PAGE_SIZE, memberClock } from '#app/.server/query.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { mailboxSetup } from '#app/.server/payments/email-sync/setup.ts'
import { syncMailbox, syncToast } from '#app/.server/payments/email-sync/sync.ts'
import { deliverGuestNoticesSoon } from '#app/.server/booking/deposits.ts'
import { editableTransaction, getTransactionsScreen, saveTransactions, shownTransaction } from '#app/.server/payments/transactions.ts'
import { useCategoryLabel } from '#app/components/payments/category-badge.tsx'
import { NativeSelect, TableLoadError, TableSearch } from '#app/components/data-table/data-table.tsx'
import { EditableTable, SelectCell, TextCell } from '#app/components/data-table/editable-table.tsx'
import { TableScreen } from '#app/components/data-table/table-screen.tsx'
import { ClientCell, ClientOptions, TransactionHeadCells, TransactionsReadTable } from '#app/components/data-table/transaction-cells.tsx'
import { ImportLink, SyncButton, SyncStatus } from '#app/components/payments/transactions-sync.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import {
	isCategory,
	newTransactionRow,
	PAYMENT_METHODS,
	TRANSACTION_CATEGORIES,
	TRANSACTION_DEFAULT_SORT,
	TRANSACTION_SORTS,
	transactionsSaveSchemaIn,
} from '#app/lib/schemas/transactions.ts'
import { withParams } from '#app/lib/table-params.ts'
import type { Route } from './+types/transactions'
import { keepDataAfterLostSave, keepEditsWhenSaveFails } from '#app/components/data-table/keep-edits.ts'

export const meta = titleMeta('transactions')

/** The page of transactions, the sync status, and in edit mode the clients the client cell offers. */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization, url, state } = readTableRequest(request, context, TRANSACTION_SORTS, TRANSACTION_DEFAULT_SORT)
	const categoryParam = url.searchParams.get('category')
	const category = isCategory(categoryParam) ? categoryParam : null
	const clock = memberClock(organization)
	const [{ page, sync }, clients, setup] = await Promise.all([
		getTransactionsScreen(user.userId, organization.id, { ...state, category, language: getLocale(context), pageSize: DEFAULT_PAGE_SIZE }),
		state.edit ? listClientChoices(user.userId, organization.id) : [],
		state.edit ? null : mailboxSetup(user.userId, organization.id),
	])
	redirectPastLastPage(url, state.page, DEFAULT_PAGE_SIZE, page)
	const lastSynced = sync.lastSyncedAt ? new TZDate(sync.lastSyncedAt, clock.timezone) : null
	const screen = {
		state,
		category,
		pageSize: DEFAULT_PAGE_SIZE,
		total: page.total,
		totalCapped: page.totalCapped,
		today: clock.today,
		clients,
		sync: {
			status: sync.status,
			errorMessage: sync.errorMessage,
			lastSynced: lastSynced ? { date: format(lastSynced, 'yyyy-MM-dd'), time: format(lastSynced, 'HH:mm') } : null,
			timezone: clock.timezone,
			setup,
		},
	}
	// Only the edit form needs each row's version and fingerprint.
	return state.edit
		? { ...screen, editing: true as const, rows: page.rows.map(editableTransaction) }
		: { ...screen, editing: false as const, rows: page.rows.map(shownTransaction) }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	return tableAction(request, {
		schema: transactionsSaveSchemaIn(getLocale(context)),
		save: async (rows, how) => {
			const saved = await saveTransactions(user.userId, organization.id, rows, how)
			// A typed payment may settle a deposit (the matching engine runs on insert): its visitor is told.
			deliverGuestNoticesSoon(organization.id)
			return saved
		},
		intents: { sync: (url) => sync(url, user.userId, organization.id) },
	})
}

export const clientAction = (args: Route.ClientActionArgs) => keepEditsWhenSaveFails(args)
export const shouldRevalidate = keepDataAfterLostSave

/** Sync: reads the connected mailbox now (docs/product.md, Email sync); a toast says what came of it. */
async function sync(url: URL, userId: string, organizationId: string) {
	const result = await syncMailbox(organizationId, { trigger: 'button', userId })
	// No mailbox: the toast names the step still to take (activate, add the upgrade, or connect a mailbox).
	if (!result.ok && result.code === 'no_connection') {
		const { step } = await mailboxSetup(userId, organizationId)
		if (step !== 'connected') {
			return redirectWithToast(url.pathname + url.search, {
				type: 'info',
				title: 'transactions:sync.outcome.noSource.title',
				description: `transactions:sync.setup.${step}.toast`,
			})
		}
	}
	return redirectWithToast(url.pathname + url.search, syncToast(result))
}

export default function TransactionsScreen({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('transactions')
	const categoryLabel = useCategoryLabel()
	const location = useLocation()
	const { state } = loaderData
	return (
		<TableScreen
			ns="transactions"
			data={loaderData}
			actions={
				<div className="flex flex-wrap gap-2">
					<ImportLink />
					<SyncButton />
				</div>
			}
			formError={actionData?.formError}
			readTable={<TransactionsReadTable rows={loaderData.rows} state={state} />}
			editTable={loaderData.editing ? <EditTransactions loaderData={loaderData} actionData={actionData} /> : null}
		>
			{state.edit ? null : <SyncStatus sync={loaderData.sync} />}
			<div className="flex flex-wrap items-center justify-between gap-3">
				<TableSearch q={state.q} placeholder={t('searchPlaceholder')} keep={['sort', 'dir', 'edit']}>
					<NativeSelect
						name="category"
						defaultValue={loaderData.category ?? ''}
						key={loaderData.category ?? ''}
						aria-label={t('filter.category')}
						// With JavaScript a choice filters at once; without it the Search button sends it.
						onChange={(event) => event.currentTarget.form?.requestSubmit()}
					>
						<option value="">{t('filter.allCategories')}</option>
						{TRANSACTION_CATEGORIES.map((c) => (
							<option key={c} value={c}>
								{categoryLabel(c)}
							</option>
						))}
					</NativeSelect>
				</TableSearch>
				{loaderData.category ? (
					<Link
						to={location.pathname + withParams(location.search, { category: null, page: null })}
						className="inline-flex items-center gap-1 rounded-md border px-2 py-1 text-sm hover:bg-accent"
					>
						{t('filter.active', { category: categoryLabel(loaderData.category) })}
						<XIcon className="size-3.5" aria-hidden="true" />
						<span className="sr-only">{t('filter.clear')}</span>
					</Link>
				) : null}
			</div>
		</TableScreen>
	)
}

const CLIENT_LIST = 'transaction-client-names'

function EditTransactions({
	loaderData,
	actionData,
}: {
	loaderData: Extract<Route.ComponentProps['loaderData'], { editing: true }>
	actionData: Route.ComponentProps['actionData']
}) {
	const fmt = useFormat()
	const { t, i18n } = useTranslation('transactions')
	const categoryLabel = useCategoryLabel()
	const categories = TRANSACTION_CATEGORIES.map((c) => [c, categoryLabel(c)] as const)
	const methods = PAYMENT_METHODS.map((m) => [m, t(`methods.${m}`)] as const)
	return (
		<EditableTable
			ns="transactions"
			schema={transactionsSaveSchemaIn(i18n.language)}
			rows={loaderData.rows}
			values={(row) => ({
				clientId: row.clientId ?? '',
				client: row.clientName ?? '',
				externalId: row.externalId ?? '',
				amount: fmt.editableAmount(row.amount),
				tip: row.tip ? fmt.editableAmount(row.tip) : '',
				dateReceived: row.dateReceived,
				category: row.category,
				paymentMethod: row.paymentMethod,
				description: row.description ?? '',
			})}
			blank={{ ...newTransactionRow(loaderData.today), clientId: '', newClient: '' }}
			actionData={actionData}
			header={<TransactionHeadCells state={loaderData.state} editing />}
			labels={[
				t('columns.date'),
				t('columns.client'),
				t('columns.externalId'),
				t('columns.amount'),
				t('columns.tip'),
				t('columns.category'),
				t('columns.method'),
				t('columns.description'),
			]}
			// The client, category and method take the width of what they show (field-sizing), never
			// less than their minimum: the table scrolls sideways rather than cut a name.
			cells={(f, { errorText }) => (
				<>
					<TextCell field={f.dateReceived} type="date" label={t('columns.date')} errorText={errorText} card="meta" className="min-w-32" />
					<ClientCell
						field={f.client}
						clientId={f.clientId}
						newClient={f.newClient}
						choices={loaderData.clients}
						listId={CLIENT_LIST}
						errorText={errorText}
					/>
					<TextCell field={f.externalId} label={t('columns.externalId')} errorText={errorText} className="min-w-20" />
					<TextCell
						field={f.amount}
						label={t('columns.amount')}
						errorText={errorText}
						inputMode="decimal"
						card="title"
						className="min-w-20 text-right"
					/>
					<TextCell field={f.tip} label={t('columns.tip')} errorText={errorText} inputMode="decimal" className="min-w-16 text-right" />
					<SelectCell
						field={f.category}
						label={t('columns.category')}
						errorText={errorText}
						options={categories}
						card="meta"
						className="field-sizing-content min-w-32"
					/>
					<SelectCell
						field={f.paymentMethod}
						label={t('columns.method')}
						errorText={errorText}
						options={methods}
						className="field-sizing-content min-w-32"
					/>
					<TextCell field={f.description} label={t('columns.description')} errorText={errorText} card="wide" className="min-w-28" />
				</>
			)}
			conflictItems={(values) => [
				[t('columns.date'), fmt.date(values.dateReceived)],
				[t('columns.client'), values.clientName ?? t('noClient')],
				[t('columns.externalId'), values.externalId ?? ''],
				[t('columns.amount'), fmt.money(values.amount)],
				[t('columns.tip'), values.tip ? fmt.money(values.tip) : ''],
				[t('columns.category'), categoryLabel(values.category)],
				[t('columns.method'), t(`methods.${values.paymentMethod}`)],
				[t('columns.description'), values.description ?? ''],
			]}
		>
			<ClientOptions id={CLIENT_LIST} choices={loaderData.clients} />
		</EditableTable>
	)
}

/** A 403 or 404 says what happened; a failed load keeps the screen's own message and retry link. */
export function ErrorBoundary() {
	const { t } = useTranslation('table')
	return <GeneralErrorBoundary unexpectedErrorHandler={() => <TableLoadError title={t('toast.loadTransactionsFailed')} />} />
}
