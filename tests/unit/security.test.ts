import { describe, expect, test } from 'vitest'
import { safeRedirect } from '#app/.server/security.ts'

describe('safeRedirect', () => {
	test.each([
		['/app/clients?page=2', '/app/clients?page=2'],
		['/app/settings#profile', '/app/settings#profile'],
		['/', '/'],
	])('keeps the same-site path %s', (target, expected) => {
		expect(safeRedirect(target)).toBe(expected)
	})

	test.each([
		'//evil.example',
		'/\\evil.example',
		'\\\\evil.example',
		'https://evil.example/app',
		'http:evil.example',
		'javascript:alert(1)',
		'/\t/evil.example',
		'app/dashboard',
		'',
		null,
		undefined,
	])('refuses %s and falls back to the dashboard', (target) => {
		expect(safeRedirect(target)).toBe('/app/dashboard')
	})
})
