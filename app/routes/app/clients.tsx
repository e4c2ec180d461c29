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
import { listClients, saveClients, type ClientRow, type ClientValues } from '#app/.server/clients.ts'
import { tableAction } from '#app/.server/data-table.ts'
import { DEFAULT_PAGE_SIZE, organizationToday } from '#app/.server/query.ts'
import { ClientStatusBadge } from '#app/components/data-table/client-cells.tsx'
import { CellError, NativeSelect, SortableHead, TableLoadError, TablePagination, TableSearch } from '#app/components/data-table/data-table.tsx'
import { DefaultSaveButton, EditToolbar, UnsavedChangesDialog, useUnsavedChangesGuard } from '#app/components/data-table/edit-guard.tsx'
import { readTableState, withoutEditMode, withParams, type TableState } from '#app/lib/table-params.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { formatDate } from '#app/lib/format.ts'
import {
	CLIENT_DEFAULT_SORT,
	CLIENT_SORTS,
	CLIENT_STATUSES,
	clientsSaveSchema,
	newClientRow,
	type ClientSort,
} from '#app/lib/schemas/clients.ts'
import { cn } from '#app/lib/utils.ts'
import type { Route } from './+types/clients'

export const handle = { i18n: ['clients', 'table'] }

export const meta: Route.MetaFunction = () => [{ title: 'P2P Transaction Tracker' }]

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const url = new URL(request.url)
	const state = readTableState(url.searchParams, CLIENT_SORTS, CLIENT_DEFAULT_SORT)
	const [page, clock] = await Promise.all([
		listClients(user.userId, organization.id, { ...state, pageSize: DEFAULT_PAGE_SIZE }),
		organizationToday(user.userId, organization.id),
	])
	return {
		state,
		pageSize: DEFAULT_PAGE_SIZE,
		total: page.total,
		totalCapped: page.totalCapped,
		// The day a client was added, in the organization's timezone.
		rows: page.rows.map((row) => ({ ...row, createdDate: format(new TZDate(row.createdAt, clock.timezone), 'yyyy-MM-dd') })),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	return tableAction(request, { schema: clientsSaveSchema, save: (rows) => saveClients(user.userId, organization.id, rows) })
}

type LoaderData = Route.ComponentProps['loaderData']
type ActionData = Route.ComponentProps['actionData']

export default function ClientsScreen({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('clients')
	const location = useLocation()
	const { state } = loaderData
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<div className="flex flex-wrap items-start justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
					<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
				</div>
				{state.edit ? null : (
					<div className="flex flex-wrap items-center gap-2">
						<Button variant="outline" asChild>
							<Link to={location.pathname + withParams(location.search, { edit: 1, add: 1 })}>
								<PlusIcon aria-hidden="true" />
								{t('add')}
							</Link>
						</Button>
						<Button asChild>
							<Link to={location.pathname + withParams(location.search, { edit: 1, add: null })}>
								<PencilIcon aria-hidden="true" />
								{t('edit')}
							</Link>
						</Button>
					</div>
				)}
			</div>
			<TableSearch q={state.q} placeholder={t('searchPlaceholder')} keep={['sort', 'dir', 'edit']} />
			{state.edit ? (
				<EditClients
					key={`${location.search}|${loaderData.rows.map((r) => r.id + r.version).join(',')}`}
					loaderData={loaderData}
					actionData={actionData}
				/>
			) : (
				<>
					{actionData?.formError ? <FormAlert ns="table" code={actionData.formError} /> : null}
					<ReadTable rows={loaderData.rows} state={state} />
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

function Headers({ state, editing }: { state: TableState<ClientSort>; editing?: boolean }) {
	const { t } = useTranslation('clients')
	return (
		<TableHeader>
			<TableRow>
				<SortableHead column="name" label={t('columns.name')} state={state} />
				<SortableHead column="email" label={t('columns.email')} state={state} />
				<SortableHead column="phone" label={t('columns.phone')} state={state} />
				<SortableHead column="company" label={t('columns.company')} state={state} />
				<SortableHead column="status" label={t('columns.status')} state={state} />
				<SortableHead column="created_at" label={t('columns.created')} state={state} />
				{editing ? (
					<TableHead>
						<span className="sr-only">{t('columns.actions')}</span>
					</TableHead>
				) : null}
			</TableRow>
		</TableHeader>
	)
}

function ReadTable({ rows, state }: { rows: LoaderData['rows']; state: TableState<ClientSort> }) {
	const { t } = useTranslation('clients')
	return (
		<div className="rounded-md border">
			<Table>
				<caption className="sr-only">{t('title')}</caption>
				<Headers state={state} />
				<TableBody>
					{rows.length === 0 ? (
						<TableRow>
							<TableCell colSpan={6} className="h-24 text-center text-muted-foreground">
								{state.q ? t('empty.search') : t('empty.none')}
							</TableCell>
						</TableRow>
					) : (
						rows.map((row) => (
							<TableRow key={row.id}>
								<TableCell>
									<Link to={`/app/clients/${row.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
										{row.name || t('unnamed')}
									</Link>
								</TableCell>
								<TableCell>{row.email}</TableCell>
								<TableCell>{row.phone}</TableCell>
								<TableCell>{row.company}</TableCell>
								<TableCell>
									<ClientStatusBadge status={row.status} />
								</TableCell>
								<TableCell className="tabular-nums">{formatDate(row.createdDate)}</TableCell>
							</TableRow>
						))
					)}
				</TableBody>
			</Table>
		</div>
	)
}

function toFormRow(row: ClientRow) {
	return {
		id: row.id,
		version: row.version,
		fingerprint: row.fingerprint,
		name: row.name,
		email: row.email ?? '',
		phone: row.phone ?? '',
		company: row.company ?? '',
		status: row.status,
	}
}

type SaveForm = z.input<typeof clientsSaveSchema>
type RowField = FieldMetadata<NonNullable<SaveForm['rows']>[number], SaveForm>

function EditClients({ loaderData, actionData }: { loaderData: LoaderData; actionData: ActionData }) {
	const { t } = useTranslation('clients')
	const location = useLocation()
	const navigation = useNavigation()
	const { state } = loaderData
	const blank = newClientRow()
	const existing = loaderData.rows.map(toFormRow)
	const [form, fields] = useForm({
		id: 'clients-edit',
		lastResult: actionData?.result,
		defaultValue: { rows: state.add ? [blank, ...existing] : existing },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: clientsSaveSchema }),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
	})
	const rows = fields.rows.getFieldList()
	const dirty = form.dirty || rows.some((row) => !row.getFieldset().id.initialValue)
	const { blocker, markSaving } = useUnsavedChangesGuard(dirty)
	const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'save'
	const formError = actionData?.formError ?? (form.status === 'error' ? 'saveFailed' : undefined)
	const listError = fields.rows.errors?.[0]

	useEffect(() => {
		if (actionData?.formError) toast.error(t('table:toast.saveFailed'), { id: 'flash' })
	}, [actionData, t])

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
				cancelHref={withoutEditMode(new URL(location.pathname + location.search, 'http://localhost'))}
				dirty={dirty}
			/>
			{formError || listError ? <FormAlert ns="table" code={listError ?? formError} /> : null}
			<div className="rounded-md border">
				<Table>
					<caption className="sr-only">{t('editCaption')}</caption>
					<Headers state={state} editing />
					<TableBody>
						{rows.length === 0 ? (
							<TableRow>
								<TableCell colSpan={7} className="h-24 text-center text-muted-foreground">
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
									createdDate={loaderData.rows.find((r) => r.id === row.getFieldset().id.initialValue)?.createdDate}
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

function EditRow({
	form,
	row,
	index,
	listName,
	createdDate,
	conflict,
}: {
	form: FormMetadata<SaveForm>
	row: RowField
	index: number
	listName: string
	createdDate: string | undefined
	conflict: ClientValues | undefined
}) {
	const { t, i18n } = useTranslation('clients')
	const errorText = (code: string | undefined) =>
		!code ? undefined : i18n.exists(`clients:errors.${code}`) ? t(`errors.${code}`) : t('table:errors.invalidValue')
	const f = row.getFieldset()
	const isNew = !f.id.initialValue
	const deleted = f.deleted.value === 'on'
	const rowLevel = form.allErrors[`${row.name}.row`]?.[0] ?? f.id.errors?.[0] ?? f.version.errors?.[0]
	const text = (field: typeof f.name, label: string, type: 'text' | 'email' | 'tel', width: string) => (
		<TableCell className="align-top">
			<Input {...getInputProps(field, { type })} aria-label={label} className={width} />
			<CellError id={field.errorId} message={errorText(field.errors?.[0])} />
		</TableCell>
	)
	return (
		<>
			<TableRow data-deleted={deleted || undefined} className={cn(deleted && 'bg-destructive/5 line-through opacity-70')}>
				<TableCell className="align-top">
					<input {...getInputProps(f.id, { type: 'hidden' })} />
					<input {...getInputProps(f.version, { type: 'hidden' })} />
					<input {...getInputProps(f.fingerprint, { type: 'hidden' })} />
					<Input {...getInputProps(f.name, { type: 'text' })} aria-label={t('columns.name')} className="w-48" />
					<CellError id={f.name.errorId} message={errorText(f.name.errors?.[0])} />
				</TableCell>
				{text(f.email, t('columns.email'), 'email', 'w-56')}
				{text(f.phone, t('columns.phone'), 'tel', 'w-36')}
				{text(f.company, t('columns.company'), 'text', 'w-44')}
				<TableCell className="align-top">
					<NativeSelect {...getSelectProps(f.status)} aria-label={t('columns.status')}>
						{CLIENT_STATUSES.map((s) => (
							<option key={s} value={s}>
								{t(`statuses.${s}`)}
							</option>
						))}
					</NativeSelect>
					<CellError id={f.status.errorId} message={errorText(f.status.errors?.[0])} />
				</TableCell>
				<TableCell className="align-top leading-9 tabular-nums">{createdDate ? formatDate(createdDate) : t('new')}</TableCell>
				<TableCell className="align-top">
					{isNew ? (
						<Button type="submit" variant="ghost" size="sm" {...form.remove.getButtonProps({ name: listName, index })} aria-label={t('table:removeRow')}>
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
					<TableCell colSpan={7} className="pt-0 whitespace-normal">
						<Alert variant="destructive" className="py-2">
							<AlertTitle>{errorText(rowLevel)}</AlertTitle>
							{conflict ? (
								<AlertDescription>
									<p>{t('conflict.newer')}</p>
									<dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
										{(
											[
												[t('columns.name'), conflict.name],
												[t('columns.email'), conflict.email ?? ''],
												[t('columns.phone'), conflict.phone ?? ''],
												[t('columns.company'), conflict.company ?? ''],
												[t('columns.status'), t(`statuses.${conflict.status}`)],
											] as const
										).map(([label, value]) => (
											<div key={label} className="contents">
												<dt className="font-medium">{label}</dt>
												<dd>{value}</dd>
											</div>
										))}
									</dl>
									<p>{t('conflict.howTo')}</p>
								</AlertDescription>
							) : null}
						</Alert>
					</TableCell>
				</TableRow>
			) : null}
		</>
	)
}

export function ErrorBoundary() {
	const { t } = useTranslation('table')
	return <TableLoadError title={t('toast.loadClientsFailed')} />
}
