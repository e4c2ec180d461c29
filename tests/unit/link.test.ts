import { describe, expect, test } from 'vitest'
import { isCurrentPath } from '#app/components/link.tsx'

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
