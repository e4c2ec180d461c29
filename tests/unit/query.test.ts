import { describe, expect, test } from 'vitest'
import { clamp, DEFAULT_PAGE_SIZE, likePattern, MAX_PAGE_SIZE, normalizeSearch, readPaging } from '#app/.server/query.ts'

describe('what every list service reads the same way', () => {
	test('a search is trimmed, its runs of spaces made one, capped at 200 characters, and null when empty', () => {
		expect(normalizeSearch('  ana ')).toBe('ana')
		expect(normalizeSearch('angela  \t nunez')).toBe('angela nunez')
		expect(normalizeSearch('   ')).toBeNull()
		expect(normalizeSearch(null)).toBeNull()
		expect(normalizeSearch('x'.repeat(300))).toHaveLength(200)
	})

	test('search text is taken literally by ilike', () => {
		expect(likePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%')
		expect(likePattern('ana')).toBe('%ana%')
	})

	test('numbers are clamped and truncated; anything else falls back', () => {
		expect(clamp(7.9, 1, 10, 3)).toBe(7)
		expect(clamp(-5, 1, 10, 3)).toBe(1)
		expect(clamp(50, 1, 10, 3)).toBe(10)
		expect(clamp(Number.NaN, 1, 10, 3)).toBe(3)
		expect(clamp(Number.POSITIVE_INFINITY, 1, 10, 3)).toBe(3)
		expect(clamp(null, 1, 10, 3)).toBe(3)
	})

	test('paging checks sort, direction, page and page size with the same rules as the URL', () => {
		const sorts = ['date', 'name'] as const
		const defaults = { sort: 'date', dir: 'desc' } as const
		expect(readPaging({}, sorts, defaults)).toEqual({ sort: 'date', dir: 'desc', page: 1, pageSize: DEFAULT_PAGE_SIZE, offset: 0 })
		expect(readPaging({ sort: 'name', page: 3, pageSize: 10 }, sorts, defaults)).toEqual({
			sort: 'name',
			dir: 'asc',
			page: 3,
			pageSize: 10,
			offset: 20,
		})
		expect(readPaging({ sort: 'nope' as 'name', dir: 'sideways' as 'asc', pageSize: 10_000 }, sorts, defaults)).toMatchObject({
			sort: 'date',
			dir: 'desc',
			pageSize: MAX_PAGE_SIZE,
		})
	})
})
