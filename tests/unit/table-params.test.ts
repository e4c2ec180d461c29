import { describe, expect, test } from 'vitest'
import { checkSortAndPage, MAX_PAGE, readPage, readTableState, sortChanges, withoutEditMode, withParams } from '#app/lib/table-params.ts'

const sorts = ['date', 'name', 'amount'] as const
const defaults = { sort: 'date', dir: 'desc' } as const
const read = (search: string) => readTableState(new URLSearchParams(search), sorts, defaults)

describe('a table state read from the URL', () => {
	test('no parameters give the default sort and direction, page 1, out of edit mode', () => {
		expect(read('')).toEqual({ q: '', sort: 'date', dir: 'desc', page: 1, edit: false, add: false })
	})

	test('a known sort and direction are kept; another column without a direction sorts ascending', () => {
		expect(read('sort=name&dir=desc')).toMatchObject({ sort: 'name', dir: 'desc' })
		expect(read('sort=amount')).toMatchObject({ sort: 'amount', dir: 'asc' })
		expect(read('sort=date')).toMatchObject({ sort: 'date', dir: 'desc' })
	})

	test('an unknown sort, direction or page falls back instead of failing', () => {
		expect(read('sort=password&dir=sideways&page=abc')).toMatchObject({ sort: 'date', dir: 'desc', page: 1 })
		expect(read('sort=__proto__&page=-4')).toMatchObject({ sort: 'date', page: 1 })
		expect(read('page=99999999999')).toMatchObject({ page: MAX_PAGE })
		expect(read('page=3.7')).toMatchObject({ page: 3 })
	})

	test('the search is trimmed and capped at 200 characters; edit and add only when 1', () => {
		expect(read(`q=${encodeURIComponent('  ana  ')}`).q).toBe('ana')
		expect(read(`q=${'x'.repeat(300)}`).q).toHaveLength(200)
		expect(read('edit=1&add=1')).toMatchObject({ edit: true, add: true })
		expect(read('edit=true&add=yes')).toMatchObject({ edit: false, add: false })
	})

	test('a service reads sort, direction and page with the same rules', () => {
		expect(checkSortAndPage({ sort: 'name', dir: null, page: null }, sorts, defaults)).toEqual({ sort: 'name', dir: 'asc', page: 1 })
		expect(checkSortAndPage({ sort: 'nope', page: Number.NaN }, sorts, defaults)).toEqual({ sort: 'date', dir: 'desc', page: 1 })
	})
})

describe('a page alone read from the URL', () => {
	test('is 1…MAX_PAGE, 1 for anything else, as in a table', () => {
		const page = (q: string) => readPage(new URLSearchParams(q))
		expect(page('')).toBe(1)
		expect(page('page=3')).toBe(3)
		for (const q of ['page=-5', 'page=0', 'page=x', 'page=', 'page=%00']) expect(page(q)).toBe(1)
		expect(page('page=99999999999')).toBe(MAX_PAGE)
	})
})

describe('links that change one part of the state', () => {
	test('withParams sets values and removes null, undefined and empty ones, keeping the rest', () => {
		expect(withParams('?q=ana&page=3', { page: null })).toBe('?q=ana')
		expect(withParams('?q=ana', { sort: 'name', dir: 'asc' })).toBe('?q=ana&sort=name&dir=asc')
		expect(withParams(new URLSearchParams('page=2'), { page: 3, q: '' })).toBe('?page=3')
		expect(withParams('?page=2', { page: undefined })).toBe('?')
		expect(withParams('', { q: 'a&b=c' })).toBe('?q=a%26b%3Dc')
	})

	test('a new column sorts ascending first, the current one toggles, and either goes back to page 1', () => {
		const state = read('sort=name&dir=asc&page=4')
		expect(sortChanges(state, 'name')).toEqual({ sort: 'name', dir: 'desc', page: null })
		expect(sortChanges(state, 'amount')).toEqual({ sort: 'amount', dir: 'asc', page: null })
	})

	test('leaving the edit mode keeps search, sort and page', () => {
		expect(withoutEditMode(new URL('http://x/app/clients?q=a&edit=1&add=1&page=2'))).toBe('/app/clients?q=a&page=2')
		expect(withoutEditMode(new URL('http://x/app/clients?edit=1'))).toBe('/app/clients')
	})
})
