/**
 * A table's state lives in the URL (ARCHITECTURE §1): q, sort, dir, page, plus edit and add
 * for the edit mode. These helpers read it and build the links that change one part of it.
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

const MAX_PAGE = 1_000_000

export function readTableState<S extends string>(
	search: URLSearchParams,
	sorts: readonly S[],
	defaults: { sort: S; dir: SortDirection },
): TableState<S> {
	const sortParam = search.get('sort')
	const sort = sortParam && (sorts as readonly string[]).includes(sortParam) ? (sortParam as S) : defaults.sort
	const dirParam = search.get('dir')
	const dir: SortDirection =
		dirParam === 'asc' || dirParam === 'desc' ? dirParam : sort === defaults.sort ? defaults.dir : 'asc'
	const pageNumber = Number.parseInt(search.get('page') ?? '1', 10)
	const page = Number.isFinite(pageNumber) ? Math.min(Math.max(pageNumber, 1), MAX_PAGE) : 1
	return {
		q: (search.get('q') ?? '').trim().slice(0, 200),
		sort,
		dir,
		page,
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
