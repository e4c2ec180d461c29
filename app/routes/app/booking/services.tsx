import { getInputProps } from '@conform-to/react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { requireBookingMember } from '#app/.server/booking/staff.ts'
import { listServices, saveServices } from '#app/.server/booking/tables.ts'
import { getPaymentHandles } from '#app/.server/payments/handles.ts'
import { DEPOSITS_UPGRADE, ownsDepositsUpgrade } from '#app/.server/booking/deposits.ts'
import { tableAction } from '#app/.server/data-table.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { ActiveBadge, BookingReadTable, BookingTableFrame } from '#app/components/booking/booking-table.tsx'
import { DepositNotice, depositOptions, useDepositText } from '#app/components/booking/service-deposit.tsx'
import { CellError } from '#app/components/data-table/data-table.tsx'
import { EditableTable, SelectCell, TextCell, type CellField, type ErrorText } from '#app/components/data-table/editable-table.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { TableCell, TableHead, TableRow } from '#app/components/ui/table.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { ACTIVE_STATES, newServiceRow, servicesSaveSchemaIn } from '#app/lib/schemas/booking-tables.ts'
import { hasHandle } from '#app/lib/schemas/payment-handles.ts'
import type { Route } from './+types/services'
import { keepDataAfterLostSave, keepEditsWhenSaveFails } from '#app/components/data-table/keep-edits.ts'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = await requireBookingMember(context)
	const editing = new URL(request.url).searchParams.get('edit') === '1'
	const [rows, handles, depositsActive] = await Promise.all([
		listServices(user.userId, organization.id),
		getPaymentHandles(user.userId, organization.id),
		ownsDepositsUpgrade(user.userId, organization.id),
	])
	const asked = rows.some((r) => r.depositKind !== 'none')
	return {
		editing,
		rows,
		// Deposits set without the upgrade are not asked; asked with nowhere to pay them, visitors are told to pay the
		// organization directly (docs/product.md, Deposits and prepayment).
		depositNotice: !depositsActive
			? asked || editing
				? { kind: 'inactive' as const, href: `/app/modules/${DEPOSITS_UPGRADE.moduleId}?upgrade=${DEPOSITS_UPGRADE.upgradeId}` }
				: null
			: asked && !hasHandle(handles)
				? { kind: 'noHandle' as const }
				: null,
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = await requireBookingMember(context)
	return tableAction(request, {
		schema: servicesSaveSchemaIn(getLocale(context)),
		save: (rows, how) => saveServices(user.userId, organization.id, rows, how),
	})
}

export const clientAction = (args: Route.ClientActionArgs) => keepEditsWhenSaveFails(args)
export const shouldRevalidate = keepDataAfterLostSave

type LoaderData = Route.ComponentProps['loaderData']

export default function ServicesTab({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<>
			{loaderData.depositNotice ? <DepositNotice notice={loaderData.depositNotice} /> : null}
			<BookingTableFrame
				tab="services"
				editing={loaderData.editing}
				rows={loaderData.rows}
				formError={actionData?.formError}
				readTable={<ReadTable rows={loaderData.rows} />}
				editTable={<EditServices loaderData={loaderData} actionData={actionData} />}
			/>
		</>
	)
}

/** The columns, in order: their names head the table and label the phone cards (the edit mode spells the deposit out in three). */
const COLUMNS = ['name', 'description', 'price', 'duration', 'color', 'status', 'deposit'] as const
const EDIT_COLUMNS = [
	'name',
	'description',
	'price',
	'duration',
	'color',
	'status',
	'deposit',
	'depositAmount',
	'depositAfterNoShows',
] as const

function HeadCells({ columns = COLUMNS }: { columns?: readonly (typeof EDIT_COLUMNS)[number][] }) {
	const { t } = useTranslation('booking')
	return (
		<>
			{columns.map((c) => (
				<TableHead key={c}>{t(`services.columns.${c}`)}</TableHead>
			))}
		</>
	)
}

function ReadTable({ rows }: { rows: LoaderData['rows'] }) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	const depositText = useDepositText()
	return (
		<BookingReadTable tab="services" head={<HeadCells />} labels={COLUMNS.map((c) => t(`services.columns.${c}`))} rowCount={rows.length}>
			{rows.map((row) => (
				<TableRow key={row.id}>
					<TableCell className="max-w-64 min-w-40 font-medium whitespace-normal wrap-anywhere card-title">{row.name}</TableCell>
					<TableCell className={`max-w-64 truncate text-muted-foreground ${row.description ? 'card-wide' : 'card-hidden'}`}>
						{row.description}
					</TableCell>
					<TableCell className="tabular-nums card-meta">{fmt.money(row.price)}</TableCell>
					<TableCell className="tabular-nums card-meta">{t('services.minutes', { count: row.durationMinutes })}</TableCell>
					<TableCell>
						<span className="inline-flex items-center gap-2 font-mono text-xs">
							<span className="size-4 rounded-full border" style={{ backgroundColor: row.color }} aria-hidden="true" />
							{row.color}
						</span>
					</TableCell>
					<TableCell className="card-subtitle">
						<ActiveBadge active={row.isActive} />
					</TableCell>
					<TableCell className="card-wide">{depositText(row)}</TableCell>
				</TableRow>
			))}
		</BookingReadTable>
	)
}

/** A colour cell: the browser's colour picker (a hex value), with its error. */
function ColorCell({ field, label, errorText }: { field: CellField; label: string; errorText: ErrorText }) {
	return (
		<TableCell className="align-top">
			<Input {...getInputProps(field, { type: 'color' })} aria-label={label} className="h-9 w-14 p-1" />
			<CellError id={field.errorId} message={errorText(field.errors?.[0])} />
		</TableCell>
	)
}

function EditServices({ loaderData, actionData }: Pick<Route.ComponentProps, 'loaderData' | 'actionData'>) {
	const fmt = useFormat()
	const { t, i18n } = useTranslation('booking')
	const depositText = useDepositText()
	const states = ACTIVE_STATES.map((s) => [s, t(`active.${s}`)] as const)
	return (
		<EditableTable
			ns="booking"
			schema={servicesSaveSchemaIn(i18n.language)}
			rows={loaderData.rows}
			values={(row) => ({
				name: row.name,
				description: row.description ?? '',
				price: fmt.editableAmount(row.price),
				duration: String(row.durationMinutes),
				color: row.color.toLowerCase(),
				active: row.isActive ? 'active' : 'inactive',
				deposit: row.depositKind,
				depositAmount: row.depositAmount ? fmt.editableAmount(row.depositAmount) : '',
				depositAfterNoShows: row.depositAfterNoShows === null ? '' : String(row.depositAfterNoShows),
			})}
			blank={newServiceRow()}
			actionData={actionData}
			header={<HeadCells columns={EDIT_COLUMNS} />}
			labels={EDIT_COLUMNS.map((c) => t(`services.columns.${c}`))}
			cells={(f, { errorText }) => (
				<>
					<TextCell field={f.name} label={t('services.columns.name')} errorText={errorText} card="title" className="min-w-36" />
					<TextCell
						field={f.description}
						label={t('services.columns.description')}
						errorText={errorText}
						card="wide"
						className="min-w-40"
					/>
					<TextCell
						field={f.price}
						label={t('services.columns.price')}
						errorText={errorText}
						inputMode="decimal"
						card="meta"
						className="w-24"
					/>
					<TextCell
						field={f.duration}
						label={t('services.columns.duration')}
						errorText={errorText}
						inputMode="numeric"
						card="meta"
						className="w-20"
					/>
					<ColorCell field={f.color} label={t('services.columns.color')} errorText={errorText} />
					<SelectCell field={f.active} label={t('services.columns.status')} errorText={errorText} options={states} card="subtitle" />
					<SelectCell field={f.deposit} label={t('services.columns.deposit')} errorText={errorText} options={depositOptions(t)} />
					<TextCell
						field={f.depositAmount}
						label={t('services.columns.depositAmount')}
						errorText={errorText}
						inputMode="decimal"
						className="w-24"
					/>
					<TextCell
						field={f.depositAfterNoShows}
						label={t('services.columns.depositAfterNoShows')}
						errorText={errorText}
						inputMode="numeric"
						placeholder={t('services.depositEveryone')}
						className="w-28"
					/>
				</>
			)}
			conflictItems={(values) => [
				[t('services.columns.name'), values.name],
				[t('services.columns.description'), values.description ?? ''],
				[t('services.columns.price'), fmt.money(values.price)],
				[t('services.columns.duration'), t('services.minutes', { count: values.durationMinutes })],
				[t('services.columns.color'), values.color],
				[t('services.columns.status'), values.isActive ? t('active.active') : t('active.inactive')],
				[t('services.columns.deposit'), depositText(values)],
			]}
		/>
	)
}
