import { describe, expect, test } from 'vitest'
import { hrefOf, isCurrentPath } from '#app/components/link.tsx'

describe('isCurrentPath: when a NavLink is the current one', () => {
	test('its own path, blind to case and to a query or a trailing slash', () => {
		expect(isCurrentPath('/app/reports', '/app/reports', false)).toBe(true)
		expect(isCurrentPath('/App/Reports', '/app/reports', false)).toBe(true)
		expect(isCurrentPath('/app/reports', '/app/reports?range=30d', false)).toBe(true)
		expect(isCurrentPath('/app/reports', '/app/reports/', false)).toBe(true)
	})

	test('a path below it, unless `end`', () => {
		expect(isCurrentPath('/app/settings/members', '/app/settings', false)).toBe(true)
		expect(isCurrentPath('/app/settings/members', '/app/settings', true)).toBe(false)
		expect(isCurrentPath('/app/settings', '/app/settings', true)).toBe(true)
	})

	test('never a path that only begins with the same letters, nor another one', () => {
		expect(isCurrentPath('/app/clients-archive', '/app/clients', false)).toBe(false)
		expect(isCurrentPath('/app/clients', '/app/clients/42', false)).toBe(false)
		expect(isCurrentPath('/app/dashboard', '/app/reports', false)).toBe(false)
	})

	test('the root path is current only on itself with `end`', () => {
		expect(isCurrentPath('/', '/', true)).toBe(true)
		expect(isCurrentPath('/app', '/', true)).toBe(false)
	})
})

describe('hrefOf: where a Link goes', () => {
	test('a path as it is; a query on the current path; an empty query left off', () => {
		expect(hrefOf('/app/clients/42', '/app/transactions')).toBe('/app/clients/42')
		expect(hrefOf('?page=2&sort=amount', '/app/transactions')).toBe('/app/transactions?page=2&sort=amount')
		expect(hrefOf('?', '/app/module-marketplace')).toBe('/app/module-marketplace')
		expect(hrefOf('/app/module-marketplace?', '/')).toBe('/app/module-marketplace')
	})
})
