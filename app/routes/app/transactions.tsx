import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata, type FormMetadata } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { TZDate } from '@date-fns/tz'
import { format } from 'date-fns'
import { PencilIcon, PlusIcon, Trash2Icon, XIcon } from 'lucide-react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link, useLocation, useNavigation } from 'react-router'
import { toast } from 'sonner'
import type { z } from 'zod'
import { requireMember } from '#app/.server/auth/session.ts'
import { tableAction } from '#app/.server/data-table.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { DEFAULT_PAGE_SIZE, organizationToday } from '#app/.server/query.ts'
import {
	getSyncStatus,
	listClientNames,
	listTransactions,
	requestSync,
	saveTransactions,
	type TransactionRow,
	type TransactionValues,
} from '#app/.server/transactions.ts'
import { CellError, NativeSelect, TableLoadError, TablePagination, TableSearch } from '#app/components/data-table/data-table.tsx'
import { DefaultSaveButton, EditToolbar, UnsavedChangesDialog, useUnsavedChangesGuard } from '#app/components/data-table/edit-guard.tsx'
import { readTableState, withoutEditMode, withParams } from '#app/lib/table-params.ts'
import { TransactionHeaders, TransactionsReadTable } from '#app/components/data-table/transaction-cells.tsx'
import { FormAlert } from '#app/components/form-alert.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Table, TableBody, TableCell, TableRow } from '#app/components/ui/table.tsx'
import { formatDate, formatMoney } from '#app/lib/format.ts'
import {
	isCategory,
	newTransactionRow,
	PAYMENT_METHODS,
	SYNC_NO_SOURCE,
	TRANSACTION_CATEGORIES,
	TRANSACTION_DEFAULT_SORT,
	TRANSACTION_SORTS,
	transactionsSaveSchema,
} from '#app/lib/schemas/transactions.ts'
import { cn } from '#app/lib/utils.ts'
import { SyncButton, SyncStatus } from '#app/components/transactions-sync.tsx'
import type { Route } from './+types/transactions'

export const handle = { i18n: ['transactions', 'table'] }

export const meta: Route.MetaFunction = () => [{ title: 'P2P Transaction Tracker' }]

/** SPEC §9: the syncing label stays for 5 seconds. */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const url = new URL(request.url)
	const state = readTableState(url.searchParams, TRANSACTION_SORTS, TRANSACTION_DEFAULT_SORT)
	const categoryParam = url.searchParams.get('category')
	const category = isCategory(categoryParam) ? categoryParam : null
	const [page, sync, clock] = await Promise.all([
		listTransactions(user.userId, organization.id, { ...state, category, pageSize: DEFAULT_PAGE_SIZE }),
		getSyncStatus(user.userId, organization.id),
		organizationToday(user.userId, organization.id),
	])
	const clientNames = state.edit ? await listClientNames(user.userId, organization.id) : []
	const lastSynced = sync.lastSyncedAt ? new TZDate(sync.lastSyncedAt, clock.timezone) : null
	return {
		state,
		category,
		pageSize: DEFAULT_PAGE_SIZE,
		...page,
		today: clock.today,
		clientNames,
		sync: {
			status: sync.status,
			errorMessage: sync.errorMessage,
			lastSynced: lastSynced ? { date: format(lastSynced, 'yyyy-MM-dd'), time: format(lastSynced, 'HH:mm') } : null,
			timezone: clock.timezone,
		},
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	return tableAction(request, {
		schema: transactionsSaveSchema,
		save: (rows) => saveTransactions(user.userId, organization.id, rows),
		intents: { sync: (url) => sync(url, user.userId, organization.id) },
	})
}

async function sync(url: URL, userId: string, organizationId: string) {
	const result = await requestSync(userId, organizationId)
	const back = url.pathname + url.search
	if (!result.ok) {
		const title = result.code === 'sync_in_progress' ? 'transactions:sync.toast.inProgress' : 'table:toast.syncFailed'
		return redirectWithToast(back, { type: 'error', title })
	}
	return redirectWithToast(back, {
		type: 'info',
		title: `transactions:sync.outcome.${result.outcome === SYNC_NO_SOURCE ? 'noSource' : 'unavailable'}.title`,
		description: `transactions:sync.outcome.${result.outcome === SYNC_NO_SOURCE ? 'noSource' : 'unavailable'}.description`,
	})
}

type LoaderData = Route.ComponentProps['loaderData']
type ActionData = Route.ComponentProps['actionData']

export default function TransactionsScreen({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('transactions')
	const location = useLocation()
	const { state } = loaderData
	const editHref = location.pathname + withParams(location.search, { edit: 1, add: null })
	const addHref = location.pathname + withParams(location.search, { edit: 1, add: 1 })
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<div className="flex flex-wrap items-start justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
					<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
				</div>
				{state.edit ? null : (
					<div className="flex flex-wrap items-center gap-2">
						<SyncButton />
						<Button variant="outline" asChild>
							<Link to={addHref}>
								<PlusIcon aria-hidden="true" />
								{t('add')}
							</Link>
						</Button>
						<Button asChild>
							<Link to={editHref}>
								<PencilIcon aria-hidden="true" />
								{t('edit')}
							</Link>
						</Button>
					</div>
				)}
			</div>
			{state.edit ? null : <SyncStatus sync={loaderData.sync} />}
			<div className="flex flex-wrap items-center justify-between gap-3">
				<TableSearch q={state.q} placeholder={t('searchPlaceholder')} keep={['sort', 'dir', 'edit']}>
					<NativeSelect name="category" defaultValue={loaderData.category ?? ''} key={loaderData.category ?? ''} aria-label={t('filter.category')}>
						<option value="">{t('filter.allCategories')}</option>
						{TRANSACTION_CATEGORIES.map((c) => (
							<option key={c} value={c}>
								{t(`categories.${c}`)}
							</option>
						))}
					</NativeSelect>
				</TableSearch>
				{loaderData.category ? (
					<Link
						to={location.pathname + withParams(location.search, { category: null, page: null })}
						className="inline-flex items-center gap-1 rounded-md border px-2 py-1 text-sm hover:bg-accent"
					>
						{t('filter.active', { category: t(`categories.${loaderData.category}`) })}
						<XIcon className="size-3.5" aria-hidden="true" />
						<span className="sr-only">{t('filter.clear')}</span>
					</Link>
				) : null}
			</div>
			{state.edit ? (
				<EditTransactions
					key={`${location.search}|${loaderData.rows.map((r) => r.id + r.version).join(',')}`}
					loaderData={loaderData}
					actionData={actionData}
				/>
			) : (
				<>
					{actionData?.formError ? <FormAlert ns="table" code={actionData.formError} /> : null}
					<TransactionsReadTable rows={loaderData.rows} state={state} />
				</>
			)}
			<TablePagination
				page={state.page}
				pageSize={loaderData.pageSize}
				total={loaderData.total}
				totalCapped={loaderData.totalCapped}
				rowCount={loaderData.rows.length}
			/>
		</div>
	)
}

function toFormRow(row: TransactionRow) {
	return {
		id: row.id,
		version: row.version,
		fingerprint: row.fingerprint,
		clientId: row.clientId ?? '',
		client: row.clientName ?? '',
		externalId: row.externalId ?? '',
		amount: row.amount,
		dateReceived: row.dateReceived,
		category: row.category,
		paymentMethod: row.paymentMethod,
		description: row.description ?? '',
	}
}

function EditTransactions({ loaderData, actionData }: { loaderData: LoaderData; actionData: ActionData }) {
	const { t } = useTranslation('transactions')
	const location = useLocation()
	const navigation = useNavigation()
	const { state } = loaderData
	const blank = newTransactionRow(loaderData.today)
	const existing = loaderData.rows.map(toFormRow)
	const [form, fields] = useForm({
		id: 'transactions-edit',
		lastResult: actionData?.result,
		defaultValue: { rows: state.add ? [blank, ...existing] : existing },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: transactionsSaveSchema }),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
	})
	const rows = fields.rows.getFieldList()
	const hasNewRows = rows.some((row) => !row.getFieldset().id.initialValue)
	const dirty = form.dirty || hasNewRows
	const { blocker, markSaving } = useUnsavedChangesGuard(dirty)
	const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'save'
	const formError = actionData?.formError ?? (form.status === 'error' ? 'saveFailed' : undefined)
	const listError = fields.rows.errors?.[0]

	useEffect(() => {
		if (actionData?.formError) toast.error(t('table:toast.saveFailed'), { id: 'flash' })
	}, [actionData, t])

	const cancelHref = withoutEditMode(new URL(location.pathname + location.search, 'http://localhost'))
	return (
		<Form
			method="post"
			action={location.pathname + location.search}
			{...getFormProps(form)}
			onSubmit={(event) => {
				form.onSubmit(event)
				if (!event.defaultPrevented) markSaving()
			}}
			className="grid min-w-0 grid-cols-1 gap-4"
		>
			<DefaultSaveButton />
			<EditToolbar
				addButtonProps={form.insert.getButtonProps({ name: fields.rows.name, index: 0, defaultValue: blank })}
				saving={saving}
				cancelHref={cancelHref}
				dirty={dirty}
			/>
			{formError || listError ? <FormAlert ns="table" code={listError ?? formError} id="transactions-edit-error" /> : null}
			<datalist id="transaction-client-names">
				{loaderData.clientNames.map((name) => (
					<option key={name} value={name} />
				))}
			</datalist>
			<div className="rounded-md border">
				<Table>
					<caption className="sr-only">{t('editCaption')}</caption>
					<TransactionHeaders state={state} editing />
					<TableBody>
						{rows.length === 0 ? (
							<TableRow>
								<TableCell colSpan={8} className="h-24 text-center text-muted-foreground">
									{t('empty.none')}
								</TableCell>
							</TableRow>
						) : (
							rows.map((row, index) => (
								<EditRow
									key={row.key ?? row.id}
									form={form}
									row={row}
									index={index}
									listName={fields.rows.name}
									conflict={actionData?.conflicts?.[index]}
								/>
							))
						)}
					</TableBody>
				</Table>
			</div>
			<UnsavedChangesDialog blocker={blocker} />
		</Form>
	)
}

type SaveForm = z.input<typeof transactionsSaveSchema>
type RowField = FieldMetadata<NonNullable<SaveForm['rows']>[number], SaveForm>

function useErrorText() {
	const { t, i18n } = useTranslation('transactions')
	return (code: string | undefined) => {
		if (!code) return undefined
		return i18n.exists(`transactions:errors.${code}`) ? t(`errors.${code}`) : t('table:errors.invalidValue')
	}
}

function EditRow({
	form,
	row,
	index,
	listName,
	conflict,
}: {
	form: FormMetadata<SaveForm>
	row: RowField
	index: number
	listName: string
	conflict: TransactionValues | undefined
}) {
	const { t } = useTranslation('transactions')
	const errorText = useErrorText()
	const f = row.getFieldset()
	const isNew = !f.id.initialValue
	const deleted = f.deleted.value === 'on'
	const rowLevel = form.allErrors[`${row.name}.row`]?.[0] ?? f.id.errors?.[0] ?? f.version.errors?.[0]
	const cell = 'align-top'
	return (
		<>
			<TableRow data-deleted={deleted || undefined} className={cn(deleted && 'bg-destructive/5 line-through opacity-70')}>
				<TableCell className={cell}>
					<input {...getInputProps(f.id, { type: 'hidden' })} />
					<input {...getInputProps(f.version, { type: 'hidden' })} />
					<input {...getInputProps(f.fingerprint, { type: 'hidden' })} />
					<input {...getInputProps(f.clientId, { type: 'hidden' })} />
					<Input {...getInputProps(f.dateReceived, { type: 'date' })} aria-label={t('columns.date')} className="w-36" />
					<CellError id={f.dateReceived.errorId} message={errorText(f.dateReceived.errors?.[0])} />
				</TableCell>
				<TableCell className={cell}>
					<Input
						{...getInputProps(f.client, { type: 'text' })}
						list="transaction-client-names"
						autoComplete="off"
						aria-label={t('columns.client')}
						placeholder={t('noClient')}
						className="w-40"
					/>
					<CellError id={f.client.errorId} message={errorText(f.client.errors?.[0])} />
				</TableCell>
				<TableCell className={cell}>
					<Input {...getInputProps(f.externalId, { type: 'text' })} aria-label={t('columns.externalId')} className="w-32" />
					<CellError id={f.externalId.errorId} message={errorText(f.externalId.errors?.[0])} />
				</TableCell>
				<TableCell className={cell}>
					<Input {...getInputProps(f.amount, { type: 'text' })} inputMode="decimal" aria-label={t('columns.amount')} className="w-28 text-right" />
					<CellError id={f.amount.errorId} message={errorText(f.amount.errors?.[0])} />
				</TableCell>
				<TableCell className={cell}>
					<NativeSelect {...getSelectProps(f.category)} aria-label={t('columns.category')}>
						{TRANSACTION_CATEGORIES.map((c) => (
							<option key={c} value={c}>
								{t(`categories.${c}`)}
							</option>
						))}
					</NativeSelect>
					<CellError id={f.category.errorId} message={errorText(f.category.errors?.[0])} />
				</TableCell>
				<TableCell className={cell}>
					<NativeSelect {...getSelectProps(f.paymentMethod)} aria-label={t('columns.method')}>
						{PAYMENT_METHODS.map((m) => (
							<option key={m} value={m}>
								{t(`methods.${m}`)}
							</option>
						))}
					</NativeSelect>
					<CellError id={f.paymentMethod.errorId} message={errorText(f.paymentMethod.errors?.[0])} />
				</TableCell>
				<TableCell className={cell}>
					<Input {...getInputProps(f.description, { type: 'text' })} aria-label={t('columns.description')} className="w-56" />
					<CellError id={f.description.errorId} message={errorText(f.description.errors?.[0])} />
				</TableCell>
				<TableCell className={cn(cell, 'no-underline')}>
					{isNew ? (
						<Button
							type="submit"
							variant="ghost"
							size="sm"
							{...form.remove.getButtonProps({ name: listName, index })}
							aria-label={t('table:removeRow')}
						>
							<XIcon aria-hidden="true" />
							<span className="sr-only">{t('table:remove')}</span>
						</Button>
					) : (
						<label className="inline-flex h-9 items-center gap-1.5 text-sm whitespace-nowrap" title={t('table:deleteRow')}>
							<input {...getInputProps(f.deleted, { type: 'checkbox' })} className="size-4 accent-destructive" />
							<Trash2Icon className="size-4 text-muted-foreground" aria-hidden="true" />
							<span className="sr-only">{t('table:deleteRow')}</span>
						</label>
					)}
				</TableCell>
			</TableRow>
			{rowLevel ? (
				<TableRow className="hover:bg-transparent">
					<TableCell colSpan={8} className="pt-0 whitespace-normal">
						<Alert variant="destructive" className="py-2">
							<AlertTitle>{errorText(rowLevel)}</AlertTitle>
							{conflict ? (
								<AlertDescription>
									<ConflictValues values={conflict} />
								</AlertDescription>
							) : null}
						</Alert>
					</TableCell>
				</TableRow>
			) : null}
		</>
	)
}

/** The newer values of a row someone else changed, shown with the refusal. */
function ConflictValues({ values }: { values: TransactionValues }) {
	const { t } = useTranslation('transactions')
	const items: [string, string][] = [
		[t('columns.date'), formatDate(values.dateReceived)],
		[t('columns.client'), values.clientName ?? t('noClient')],
		[t('columns.externalId'), values.externalId ?? ''],
		[t('columns.amount'), formatMoney(values.amount)],
		[t('columns.category'), t(`categories.${values.category}`)],
		[t('columns.method'), t(`methods.${values.paymentMethod}`)],
		[t('columns.description'), values.description ?? ''],
	]
	return (
		<div className="grid gap-1">
			<p>{t('conflict.newer')}</p>
			<dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
				{items.map(([label, value]) => (
					<div key={label} className="contents">
						<dt className="font-medium">{label}</dt>
						<dd>{value}</dd>
					</div>
				))}
			</dl>
			<p>{t('conflict.howTo')}</p>
		</div>
	)
}

export function ErrorBoundary() {
	const { t } = useTranslation('table')
	return <TableLoadError title={t('toast.loadTransactionsFailed')} />
}
