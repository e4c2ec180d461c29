import { getSelectProps } from '@conform-to/react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { requireBookingMember } from '#app/.server/booking/staff.ts'
import { listFreeMembers, listProviders, saveProviders } from '#app/.server/booking/tables.ts'
import { tableAction } from '#app/.server/data-table.ts'
import { ActiveBadge, BookingReadTable, BookingTableFrame } from '#app/components/booking/booking-table.tsx'
import { CellError, NativeSelect } from '#app/components/data-table/data-table.tsx'
import {
	EditableTable,
	SelectCell,
	setFieldValue,
	TextCell,
	type CellField,
	type ErrorText,
} from '#app/components/data-table/editable-table.tsx'
import { TableCell, TableHead, TableRow } from '#app/components/ui/table.tsx'
import { ACTIVE_STATES, newProviderRow, providersSaveSchema } from '#app/lib/schemas/booking-tables.ts'
import type { Route } from './+types/providers'
import { keepDataAfterLostSave, keepEditsWhenSaveFails } from '#app/components/data-table/keep-edits.ts'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = await requireBookingMember(context)
	const editing = new URL(request.url).searchParams.get('edit') === '1'
	const [rows, freeMembers] = await Promise.all([
		listProviders(user.userId, organization.id),
		listFreeMembers(user.userId, organization.id),
	])
	return { editing, rows, freeMembers }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = await requireBookingMember(context)
	return tableAction(request, {
		schema: providersSaveSchema,
		save: (rows, how) => saveProviders(user.userId, organization.id, rows, how),
	})
}

export const clientAction = (args: Route.ClientActionArgs) => keepEditsWhenSaveFails(args)
export const shouldRevalidate = keepDataAfterLostSave

type LoaderData = Route.ComponentProps['loaderData']

export default function ProvidersTab({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('booking')
	return (
		<BookingTableFrame
			tab="providers"
			editing={loaderData.editing}
			rows={loaderData.rows}
			formError={actionData?.formError}
			addDisabledReason={loaderData.freeMembers.length === 0 ? t('providers.noFreeMember') : undefined}
			readTable={<ReadTable rows={loaderData.rows} />}
			editTable={<EditProviders loaderData={loaderData} actionData={actionData} />}
		/>
	)
}

/** The columns, in order (the read table adds the hours): their names head the table and label the phone cards. */
const COLUMNS = ['member', 'displayName', 'bio', 'avatarUrl', 'status'] as const

function HeadCells({ withHours = false }: { withHours?: boolean }) {
	const { t } = useTranslation('booking')
	return (
		<>
			{COLUMNS.map((c) => (
				<TableHead key={c}>{t(`providers.columns.${c}`)}</TableHead>
			))}
			{withHours ? <TableHead>{t('providers.columns.hours')}</TableHead> : null}
		</>
	)
}

function ReadTable({ rows }: { rows: LoaderData['rows'] }) {
	const { t } = useTranslation('booking')
	return (
		<BookingReadTable
			tab="providers"
			head={<HeadCells withHours />}
			labels={[...COLUMNS, 'hours'].map((c) => t(`providers.columns.${c}`))}
			rowCount={rows.length}
		>
			{rows.map((row) => (
				<TableRow key={row.id}>
					<TableCell className="text-muted-foreground card-wide">{row.member}</TableCell>
					<TableCell className="max-w-64 min-w-40 font-medium whitespace-normal wrap-anywhere card-title">{row.displayName}</TableCell>
					<TableCell className={`max-w-64 truncate text-muted-foreground ${row.bio ? 'card-wide' : 'card-hidden'}`}>{row.bio}</TableCell>
					<TableCell className={`max-w-48 truncate font-mono text-xs ${row.avatarUrl ? 'card-wide' : 'card-hidden'}`}>
						{row.avatarUrl}
					</TableCell>
					<TableCell className="card-subtitle">
						<ActiveBadge active={row.isActive} />
					</TableCell>
					<TableCell>
						<Link to={`/app/booking/providers/${row.id}/hours`} className="text-sm underline-offset-4 hover:underline">
							{t(row.ownHours ? 'providers.hours.own' : 'providers.hours.organization')}
							{/* The name says whose hours the link edits, after the words it shows (WCAG 2.5.3). */}
							<span className="sr-only">{t('providers.hours.editSuffix', { name: row.displayName })}</span>
						</Link>
					</TableCell>
				</TableRow>
			))}
		</BookingReadTable>
	)
}

/**
 * A new provider's member: the members who are not providers yet. Picking one fills an empty
 * display name with their name (with JavaScript; without it, the save does the same).
 */
function MemberCell({
	field,
	label,
	errorText,
	members,
}: {
	field: CellField
	label: string
	errorText: ErrorText
	members: LoaderData['freeMembers']
}) {
	const { t } = useTranslation('booking')
	return (
		<TableCell className="align-top card-wide">
			<NativeSelect
				{...getSelectProps(field)}
				aria-label={label}
				className="w-full min-w-40"
				onChange={(event) => {
					const name = members.find((m) => m.userId === event.currentTarget.value)?.name
					const input = event.currentTarget.closest('tr')?.querySelector<HTMLInputElement>('input[name$=".displayName"]')
					if (!name || !input || input.value.trim() !== '') return
					setFieldValue(input, name)
				}}
			>
				<option value="">{t('providers.chooseMember')}</option>
				{members.map((m) => (
					<option key={m.userId} value={m.userId}>
						{m.email && m.email !== m.name ? `${m.name} (${m.email})` : m.name}
					</option>
				))}
			</NativeSelect>
			<CellError id={field.errorId} message={errorText(field.errors?.[0])} />
		</TableCell>
	)
}

function EditProviders({ loaderData, actionData }: Pick<Route.ComponentProps, 'loaderData' | 'actionData'>) {
	const { t } = useTranslation('booking')
	const states = ACTIVE_STATES.map((s) => [s, t(`active.${s}`)] as const)
	const memberOf = new Map(loaderData.rows.map((r) => [r.id, r.member]))
	return (
		<EditableTable
			ns="booking"
			schema={providersSaveSchema}
			rows={loaderData.rows}
			values={(row) => ({
				member: '',
				displayName: row.displayName,
				bio: row.bio ?? '',
				avatarUrl: row.avatarUrl ?? '',
				active: row.isActive ? 'active' : 'inactive',
			})}
			blank={newProviderRow()}
			actionData={actionData}
			deletable={false}
			addDisabledReason={loaderData.freeMembers.length === 0 ? t('providers.noFreeMember') : undefined}
			header={<HeadCells />}
			labels={COLUMNS.map((c) => t(`providers.columns.${c}`))}
			cells={(f, { isNew, errorText }) => (
				<>
					{isNew ? (
						<MemberCell field={f.member} label={t('providers.columns.member')} errorText={errorText} members={loaderData.freeMembers} />
					) : (
						<TableCell className="align-top leading-9 text-muted-foreground card-wide">{memberOf.get(f.id.initialValue ?? '')}</TableCell>
					)}
					<TextCell
						field={f.displayName}
						label={t('providers.columns.displayName')}
						errorText={errorText}
						placeholder={isNew ? t('providers.displayNameHint') : undefined}
						card="title"
						className="min-w-36"
					/>
					<TextCell field={f.bio} label={t('providers.columns.bio')} errorText={errorText} card="wide" className="min-w-40" />
					<TextCell
						field={f.avatarUrl}
						label={t('providers.columns.avatarUrl')}
						errorText={errorText}
						inputMode="url"
						card="wide"
						className="min-w-40"
					/>
					<SelectCell field={f.active} label={t('providers.columns.status')} errorText={errorText} options={states} card="subtitle" />
				</>
			)}
			conflictItems={(values) => [
				[t('providers.columns.displayName'), values.displayName],
				[t('providers.columns.bio'), values.bio ?? ''],
				[t('providers.columns.avatarUrl'), values.avatarUrl ?? ''],
				[t('providers.columns.status'), values.isActive ? t('active.active') : t('active.inactive')],
			]}
		/>
	)
}
