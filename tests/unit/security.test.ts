import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { clientAddress, isSameSitePath, publicOrigin, safeRedirect } from '#app/.server/security.ts'

/** How a browser would read a Location header on this site: the host it would go to. */
function hostABrowserWouldVisit(location: string) {
	return new URL(location, 'https://app.example').host
}

describe('safeRedirect', () => {
	test.each([
		['/app/clients?page=2', '/app/clients?page=2'],
		['/app/settings#profile', '/app/settings#profile'],
		['/', '/'],
		['/app/./dashboard', '/app/dashboard'],
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
		// Dot segments that normalise to a protocol-relative path.
		'/.//evil.example/phish',
		'/./\\evil.example',
		'/a/..//evil.example',
		'/%2e//evil.example',
		'/%2E%2E//evil.example',
		'/.%2f/evil.example',
		'/%2F%2Fevil.example',
		'/%5c%5cevil.example',
		'',
		null,
		undefined,
	])('refuses %s and falls back to the dashboard', (target) => {
		expect(safeRedirect(target)).toBe('/app/dashboard')
	})

	test('whatever it is given, what it returns stays on this site in a browser', () => {
		const piece = fc.constantFrom(
			'/',
			'//',
			'.',
			'..',
			'\\',
			'%2f',
			'%2F',
			'%5c',
			'%2e',
			'evil.example',
			'app',
			'?',
			'#',
			'@',
			':',
			'http:',
			'\t',
			' ',
		)
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
				const result = safeRedirect(pieces.join(''))
				expect(isSameSitePath(result)).toBe(true)
				expect(hostABrowserWouldVisit(result)).toBe('app.example')
			}),
			{ numRuns: 2000 },
		)
	})
})

beforeEach(() => {
	// env() would otherwise generate a session secret under DATA_DIR.
	vi.stubEnv('SESSION_SECRET', 'unit-test-session-secret-of-32-characters')
})

describe('clientAddress behind proxies', () => {
	afterEach(() => {
		vi.unstubAllEnvs()
	})

	async function addressWith(trustProxy: string, forwardedFor: string | null) {
		vi.resetModules()
		vi.stubEnv('TRUST_PROXY', trustProxy)
		const { clientAddress: fresh } = await import('#app/.server/security.ts')
		const headers = new Headers(forwardedFor === null ? {} : { 'x-forwarded-for': forwardedFor })
		return fresh(new Request('http://x/', { headers }), '10.0.0.1')
	}

	test('without a trusted proxy the socket address counts, whatever the header says', async () => {
		expect(await addressWith('false', '1.2.3.4')).toBe('10.0.0.1')
	})

	test('one trusted proxy: the hop it appended (right-most), never what the client wrote', async () => {
		expect(await addressWith('true', 'spoofed-by-client, 203.0.113.9')).toBe('203.0.113.9')
		expect(await addressWith('1', '203.0.113.9')).toBe('203.0.113.9')
	})

	test('two trusted proxies: the second hop from the right', async () => {
		expect(await addressWith('2', 'spoofed, 198.51.100.7, 10.1.1.1')).toBe('198.51.100.7')
	})

	test('a trusted proxy with no header: the socket', async () => {
		expect(await addressWith('true', null)).toBe('10.0.0.1')
	})

	test('the exported function is the same one', () => {
		expect(clientAddress(new Request('http://x/'), undefined)).toBe('unknown')
	})
})

describe('publicOrigin', () => {
	afterEach(() => {
		vi.unstubAllEnvs()
	})

	test('is PUBLIC_URL when set, else the address the server listens on; never a request header', async () => {
		vi.resetModules()
		vi.stubEnv('PUBLIC_URL', 'https://tracker.example/some/path')
		expect((await import('#app/.server/security.ts')).publicOrigin()).toBe('https://tracker.example')
		vi.resetModules()
		vi.stubEnv('PUBLIC_URL', undefined)
		vi.stubEnv('PORT', '4321')
		vi.stubEnv('HOST', '0.0.0.0')
		expect((await import('#app/.server/security.ts')).publicOrigin()).toBe('http://localhost:4321')
		expect(typeof publicOrigin).toBe('function')
	})
})

describe('the sidebar cookie', () => {
	afterEach(() => {
		vi.unstubAllEnvs()
	})

	test('carries Secure under an https PUBLIC_URL, and not under http', async () => {
		vi.resetModules()
		vi.stubEnv('PUBLIC_URL', 'https://tracker.example')
		expect((await import('#app/.server/account/sidebar.ts')).serializeSidebarCookie(true)).toMatch(/; Secure$/)
		vi.resetModules()
		vi.stubEnv('PUBLIC_URL', 'http://localhost:3000')
		expect((await import('#app/.server/account/sidebar.ts')).serializeSidebarCookie(true)).not.toContain('Secure')
	})
})
