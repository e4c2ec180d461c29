import { PencilIcon, PlusIcon } from '#app/components/icons.tsx'
import { Fragment } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useLocation } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { FormAlert } from '#app/components/forms/form-alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { withParams, type TableState } from '#app/lib/table-params.ts'
import { TablePagination } from './data-table.tsx'

/**
 * The frame of a table screen: title, the Add and Edit links (state in the URL: edit=1,
 * add=1), what sits above the table (search, filters, a status), the read table or the edit
 * table, and the pages. The edit table is mounted afresh when the URL or the loaded rows
 * change, so it never keeps the form state of other rows.
 */
export function TableScreen({
	ns,
	data,
	formError,
	actions,
	children,
	readTable,
	editTable,
}: {
	/** The screen's namespace: its title, subtitle, add and edit texts. */
	ns: string
	/**
	 * The loader's table: its URL state, the page of rows and the total. The edit mode's rows
	 * carry their version (a row saved elsewhere starts the form afresh); the read mode's need not.
	 */
	data: {
		state: TableState<string>
		rows: { id: string; version?: string }[]
		pageSize: number
		total: number
		totalCapped: boolean
	}
	/** A form-level error of the last post (read mode: e.g. an unknown intent). */
	formError: string | undefined
	/** More buttons next to Add and Edit (out of edit mode). */
	actions?: React.ReactNode
	/** What sits between the title and the table. */
	children?: React.ReactNode
	readTable: React.ReactNode
	editTable: React.ReactNode
}) {
	const { t } = useTranslation(ns)
	const location = useLocation()
	const { state, rows } = data
	const editing = state.edit
	return (
		<div className="grid min-w-0 grid-cols-1 gap-6">
			<div className="flex flex-wrap items-start justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="text-2xl font-semibold tracking-tight">{t(`${ns}:title`)}</h1>
					<p className="text-sm text-muted-foreground">{t(`${ns}:subtitle`)}</p>
				</div>
				{editing ? null : (
					<div className="flex flex-wrap items-center gap-2">
						{actions}
						<Button variant="outline" asChild>
							<Link to={location.pathname + withParams(location.search, { edit: 1, add: 1 })}>
								<PlusIcon aria-hidden="true" />
								{t(`${ns}:add`)}
							</Link>
						</Button>
						<Button asChild>
							<Link to={location.pathname + withParams(location.search, { edit: 1, add: null })}>
								<PencilIcon aria-hidden="true" />
								{t(`${ns}:edit`)}
							</Link>
						</Button>
					</div>
				)}
			</div>
			{children}
			{editing ? (
				<Fragment key={`${location.search}|${rows.map((r) => r.id + r.version).join(',')}`}>{editTable}</Fragment>
			) : (
				<>
					{formError ? <FormAlert ns="table" code={formError} /> : null}
					{readTable}
				</>
			)}
			{/* Nothing saved yet: in the edit mode "No rows to show" would contradict the rows being added. */}
			{editing && data.total === 0 ? null : (
				<TablePagination
					page={state.page}
					pageSize={data.pageSize}
					total={data.total}
					totalCapped={data.totalCapped}
					rowCount={rows.length}
				/>
			)}
		</div>
	)
}
