import { PencilIcon, PlusIcon } from '#app/components/icons.tsx'
import { Fragment } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useLocation } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { FormAlert } from '#app/components/forms/form-alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Table, TableBody, TableCell, TableHeader, TableRow, type CardLabels } from '#app/components/ui/table.tsx'
import { withParams } from '#app/lib/table-params.ts'

/**
 * The frame of the services and providers tabs (the booking layout has the page's title): the
 * tab's heading, the Add and Edit links (edit=1, add=1 in the URL, as TableScreen), and the read
 * table or the editable table, mounted afresh when the URL or the loaded rows change.
 */
export function BookingTableFrame({
	tab,
	editing,
	rows,
	formError,
	addDisabledReason,
	readTable,
	editTable,
}: {
	tab: 'services' | 'providers'
	editing: boolean
	rows: { id: string; version: string }[]
	formError: string | undefined
	/** Why nothing can be added (the Add link is then a disabled button with this reason). */
	addDisabledReason?: string
	readTable: React.ReactNode
	editTable: React.ReactNode
}) {
	const { t } = useTranslation('booking')
	const location = useLocation()
	return (
		<section className="grid min-w-0 grid-cols-1 gap-4" aria-labelledby={`booking-${tab}-title`}>
			<div className="flex flex-wrap items-start justify-between gap-4">
				<div className="grid gap-1">
					<h2 id={`booking-${tab}-title`} className="text-lg font-semibold">
						{t(`${tab}.title`)}
					</h2>
					<p className="text-sm text-muted-foreground">{t(`${tab}.subtitle`)}</p>
				</div>
				{editing ? null : (
					<div className="flex flex-wrap items-center gap-2">
						{addDisabledReason ? (
							<Button variant="outline" disabled aria-describedby={`booking-${tab}-add-reason`}>
								<PlusIcon aria-hidden="true" />
								{t(`${tab}.add`)}
							</Button>
						) : (
							<Button variant="outline" asChild>
								<Link to={location.pathname + withParams(location.search, { edit: 1, add: 1 })}>
									<PlusIcon aria-hidden="true" />
									{t(`${tab}.add`)}
								</Link>
							</Button>
						)}
						<Button asChild>
							<Link to={location.pathname + withParams(location.search, { edit: 1, add: null })}>
								<PencilIcon aria-hidden="true" />
								{t(`${tab}.edit`)}
							</Link>
						</Button>
					</div>
				)}
			</div>
			{addDisabledReason && !editing ? (
				<p id={`booking-${tab}-add-reason`} className="text-sm text-muted-foreground">
					{addDisabledReason}
				</p>
			) : null}
			{editing ? (
				<Fragment key={`${location.search}|${rows.map((r) => r.id + r.version).join(',')}`}>{editTable}</Fragment>
			) : (
				<>
					{formError ? <FormAlert ns="table" code={formError} /> : null}
					{readTable}
				</>
			)}
		</section>
	)
}

/** Active or Inactive, as a badge. */
export function ActiveBadge({ active }: { active: boolean }) {
	const { t } = useTranslation('booking')
	return <Badge variant={active ? 'success' : 'secondary'}>{active ? t('active.active') : t('active.inactive')}</Badge>
}

/** The read-only table of a tab: caption, header, the rows, or the tab's empty text. */
export function BookingReadTable({
	tab,
	head,
	labels,
	rowCount,
	children,
}: {
	tab: 'services' | 'providers'
	head: React.ReactNode
	/** The columns' names, in order: the phone cards' labels. */
	labels: CardLabels
	rowCount: number
	children: React.ReactNode
}) {
	const { t } = useTranslation('booking')
	return (
		<div className="rounded-md border">
			<Table cards={labels}>
				<caption className="sr-only">{t(`${tab}.title`)}</caption>
				<TableHeader>
					<TableRow>{head}</TableRow>
				</TableHeader>
				<TableBody>
					{rowCount === 0 ? (
						<TableRow>
							<TableCell colSpan={labels.length} className="h-24 text-center text-muted-foreground">
								{t(`${tab}.empty`)}
							</TableCell>
						</TableRow>
					) : (
						children
					)}
				</TableBody>
			</Table>
		</div>
	)
}
