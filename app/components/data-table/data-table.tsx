import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon, ChevronLeftIcon, ChevronRightIcon, SearchIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Form, useLocation, useRouteError } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { TableHead } from '#app/components/ui/table.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { cn } from '#app/lib/utils.ts'
import { sortChanges, withParams, type TableState } from '#app/lib/table-params.ts'
import { logBoundaryError } from '#app/lib/errors.ts'

/**
 * The shared pieces of the app's data tables. Everything is a link or a GET form on the URL's
 * parameters, so sorting, searching and paging work the same with JavaScript off.
 */

/** A column header that sorts by its column: ascending first, then toggling. */
export function SortableHead<S extends string>({
	column,
	label,
	state,
	className,
}: {
	column: S
	label: string
	state: TableState<S>
	className?: string
}) {
	const { t } = useTranslation('table')
	const location = useLocation()
	const active = state.sort === column
	const Icon = !active ? ArrowUpDownIcon : state.dir === 'asc' ? ArrowUpIcon : ArrowDownIcon
	const href = location.pathname + withParams(location.search, sortChanges(state, column))
	return (
		<TableHead aria-sort={active ? (state.dir === 'asc' ? 'ascending' : 'descending') : undefined} className={className}>
			<Link
				to={href}
				className="inline-flex items-center gap-1 rounded-sm hover:text-foreground/80 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
				title={t('sortBy', { column: label })}
			>
				{label}
				<Icon className={cn('size-3.5', active ? 'text-foreground' : 'text-muted-foreground')} aria-hidden="true" />
				{active ? <span className="sr-only">{state.dir === 'asc' ? t('sortAscending') : t('sortDescending')}</span> : null}
			</Link>
		</TableHead>
	)
}

/**
 * Previous and next links with the range shown and the total. A capped total (a count that
 * stopped at its cap) shows as "10,000+", and the last page is then unknown.
 */
export function TablePagination({
	page,
	pageSize,
	total,
	totalCapped,
	rowCount,
}: {
	page: number
	pageSize: number
	total: number
	totalCapped: boolean
	rowCount: number
}) {
	const fmt = useFormat()
	const { t } = useTranslation('table')
	const location = useLocation()
	const first = rowCount > 0 ? (page - 1) * pageSize + 1 : 0
	const last = rowCount > 0 ? first + rowCount - 1 : 0
	const totalText = `${fmt.number(total)}${totalCapped ? '+' : ''}`
	const pages = Math.max(1, Math.ceil(total / pageSize))
	const hasNext = totalCapped ? rowCount === pageSize : page < pages
	const hasPrevious = page > 1
	const href = (target: number) => location.pathname + withParams(location.search, { page: target > 1 ? target : null })
	return (
		<nav aria-label={t('pagination')} className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
			<p aria-live="polite">
				{rowCount > 0
					? t('showing', { first: fmt.number(first), last: fmt.number(last), total: totalText })
					: t('showingNone', { total: totalText })}
			</p>
			<div className="flex items-center gap-2">
				<span>
					{totalCapped ? t('pageNumber', { page: fmt.number(page) }) : t('pageOf', { page: fmt.number(page), pages: fmt.number(pages) })}
				</span>
				<PageLink to={hasPrevious ? href(page - 1) : null} rel="prev">
					<ChevronLeftIcon aria-hidden="true" />
					{t('previous')}
				</PageLink>
				<PageLink to={hasNext ? href(page + 1) : null} rel="next">
					{t('next')}
					<ChevronRightIcon aria-hidden="true" />
				</PageLink>
			</div>
		</nav>
	)
}

function PageLink({ to, rel, children }: { to: string | null; rel: string; children: React.ReactNode }) {
	if (!to) {
		return (
			<Button variant="outline" size="sm" disabled aria-disabled="true">
				{children}
			</Button>
		)
	}
	return (
		<Button variant="outline" size="sm" asChild>
			<Link to={to} rel={rel}>
				{children}
			</Link>
		</Button>
	)
}

/**
 * The search box: a GET form that keeps the other parameters (sort, filters, edit mode) and
 * goes back to page 1. `children` adds filters (named controls) next to the box.
 */
export function TableSearch({
	q,
	placeholder,
	keep,
	children,
}: {
	q: string
	placeholder?: string
	/** Parameters to carry over, e.g. ['sort', 'dir', 'edit']. */
	keep: string[]
	children?: React.ReactNode
}) {
	const { t } = useTranslation('table')
	const location = useLocation()
	const params = new URLSearchParams(location.search)
	return (
		<Form method="get" role="search" className="flex flex-wrap items-center gap-2">
			{keep.map((name) => {
				const value = params.get(name)
				return value ? <input key={name} type="hidden" name={name} value={value} /> : null
			})}
			<div className="relative w-full sm:w-80">
				<SearchIcon
					className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
					aria-hidden="true"
				/>
				<Input
					type="search"
					name="q"
					defaultValue={q}
					key={q}
					maxLength={200}
					aria-label={t('search')}
					placeholder={placeholder ?? t('searchPlaceholder')}
					// A long hint ("Client, external ID, description or amount") stays readable on a phone:
					// smaller than the typed text, and whole in the title.
					title={placeholder ?? t('searchPlaceholder')}
					className="pl-8 placeholder:text-sm"
				/>
			</div>
			{children}
			<Button type="submit" variant="secondary">
				{t('search')}
			</Button>
		</Form>
	)
}

/** A native select (works without JavaScript) styled like the inputs. */
export function NativeSelect({ className, ...props }: React.ComponentProps<'select'>) {
	return (
		<select
			className={cn(
				'h-9 rounded-md border border-input bg-transparent px-2 py-1 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive dark:bg-input/30',
				className,
			)}
			{...props}
		/>
	)
}

/** An error under a cell's control, tied to it by `id` (conform's errorId). */
export function CellError({ id, message }: { id: string; message: string | undefined }) {
	if (!message) return null
	return (
		<p id={id} className="mt-1 text-xs whitespace-normal text-destructive">
			{message}
		</p>
	)
}

/**
 * A table screen that failed to load ('Failed to load transactions', 'Failed to load
 * clients'), shown inside the app shell with a way to try again.
 */
export function TableLoadError({ title }: { title: string }) {
	const { t } = useTranslation('table')
	const location = useLocation()
	const error = useRouteError()
	logBoundaryError(error)
	return (
		<div role="alert" className="grid gap-3">
			<h1 className="text-xl font-semibold">{title}</h1>
			<p className="text-muted-foreground">{t('loadFailed')}</p>
			<Link to={location.pathname} className="w-fit text-primary underline-offset-4 hover:underline" reloadDocument>
				{t('tryAgain')}
			</Link>
		</div>
	)
}
