/**
 * A table's state lives in the URL (so it can be bookmarked and shared): q, sort, dir, page,
 * plus edit and add for the edit mode. These helpers read it and build the links that change
 * one part of it. Pure: used by the route modules, the components and the list services.
 */
export type SortDirection = 'asc' | 'desc'

export type TableState<S extends string> = {
	q: string
	sort: S
	dir: SortDirection
	page: number
	edit: boolean
	add: boolean
}

export const MAX_PAGE = 1_000_000

/**
 * The one reading of sort, direction and page, whatever they came from (the URL or a
 * service's caller): an unknown sort falls back to the default; a missing direction to the
 * default's for the default sort, ascending for another; a page to 1…MAX_PAGE.
 */
export function checkSortAndPage<S extends string>(
	values: { sort?: string | null; dir?: string | null; page?: number | null },
	sorts: readonly S[],
	defaults: { readonly sort: S; readonly dir: SortDirection },
): { sort: S; dir: SortDirection; page: number } {
	const sort = values.sort && (sorts as readonly string[]).includes(values.sort) ? (values.sort as S) : defaults.sort
	const dir: SortDirection = values.dir === 'asc' || values.dir === 'desc' ? values.dir : sort === defaults.sort ? defaults.dir : 'asc'
	return { sort, dir, page: checkPage(values.page) }
}

/** A page number: 1…MAX_PAGE, and 1 for anything that is not a number. */
function checkPage(page: number | null | undefined) {
	return typeof page === 'number' && Number.isFinite(page) ? Math.min(Math.max(Math.trunc(page), 1), MAX_PAGE) : 1
}

/** The `page` of a list that has nothing else to read from the URL (the gear history). */
export function readPage(search: URLSearchParams) {
	return checkPage(Number.parseInt(search.get('page') ?? '1', 10))
}

export function readTableState<S extends string>(
	search: URLSearchParams,
	sorts: readonly S[],
	defaults: { readonly sort: S; readonly dir: SortDirection },
): TableState<S> {
	const checked = checkSortAndPage(
		{ sort: search.get('sort'), dir: search.get('dir'), page: Number.parseInt(search.get('page') ?? '1', 10) },
		sorts,
		defaults,
	)
	return {
		q: (search.get('q') ?? '').trim().slice(0, 200),
		...checked,
		edit: search.get('edit') === '1',
		add: search.get('add') === '1',
	}
}

/** The current search with some parameters set (a value) or removed (null), as '?…'. */
export function withParams(search: URLSearchParams | string, changes: Record<string, string | number | null | undefined>) {
	const next = new URLSearchParams(search)
	for (const [key, value] of Object.entries(changes)) {
		if (value === null || value === undefined || value === '') next.delete(key)
		else next.set(key, String(value))
	}
	const text = next.toString()
	return text ? `?${text}` : '?'
}

/** A column header's link: a new column sorts ascending first, the current one toggles. */
export function sortChanges<S extends string>(state: TableState<S>, column: S) {
	const dir: SortDirection = state.sort === column ? (state.dir === 'asc' ? 'desc' : 'asc') : 'asc'
	return { sort: column, dir, page: null }
}

/** The URL of the table after leaving the edit mode (what Cancel and a successful save go to). */
export function withoutEditMode(url: URL) {
	const next = new URLSearchParams(url.search)
	next.delete('edit')
	next.delete('add')
	const text = next.toString()
	return url.pathname + (text ? `?${text}` : '')
}
