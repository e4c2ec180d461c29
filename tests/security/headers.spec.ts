/**
 * Every HTML page of the list (signed in, signed out, public, error pages) carries a CSP whose
 * scripts need a nonce that is new on every response and that every <script> carries, forbids
 * framing, and sends nosniff and a referrer policy.
 */
import http from 'node:http'
import { gunzipSync, gzipSync } from 'node:zlib'
import { expect, test } from '@playwright/test'
import { nonceOf, scriptTags } from './html.ts'
import { raw, type Raw } from './http.ts'
import { baseURLOf, concretePath, routeSecurity } from './walk.ts'
import { makeOrg } from './world.ts'

function expectHeaders(response: Raw, label: string) {
	expect(String(response.headers['content-type']), label).toMatch(/^text\/html/)
	const csp = String(response.headers['content-security-policy'] ?? '')
	const nonce = /script-src[^;]*'nonce-([^']+)'/.exec(csp)?.[1]
	expect(nonce, `${label}: CSP ${csp}`).toBeTruthy()
	expect(nonce!.length, label).toBeGreaterThanOrEqual(16)
	const scriptSrc = /script-src([^;]*)/.exec(csp)![1]!
	expect(scriptSrc, label).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*/)
	expect(csp, label).toMatch(/frame-ancestors 'none'/)
	expect(csp, label).toMatch(/object-src 'none'/)
	expect(csp, label).toMatch(/base-uri 'self'/)
	expect(csp, label).toMatch(/form-action 'self'/)
	expect(response.headers['x-content-type-options'], label).toBe('nosniff')
	expect(response.headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin')
	expect(response.headers['x-frame-options'], label).toBe('DENY')
	const scripts = scriptTags(response.body)
	expect(scripts.length, `${label} has scripts`).toBeGreaterThan(0)
	for (const tag of scripts) expect(nonceOf(tag), `${label}: ${tag}`).toBe(nonce)
	return nonce!
}

test('every HTML page: a fresh nonce on every script, frame-ancestors, nosniff and a referrer policy', async () => {
	test.setTimeout(180_000)
	const base = baseURLOf()
	const org = await makeOrg(base, 'Headers', 'HeadersOwn')
	const pages = routeSecurity.filter((e) => e.html)
	let checked = 0
	for (const entry of pages) {
		const path = concretePath(entry, org, { token: org.appointmentToken })
		const cookie = entry.access === 'guest' || entry.access === 'token' ? '' : org.cookie
		const first = await raw(base, 'GET', path, { headers: { cookie } })
		const second = await raw(base, 'GET', path, { headers: { cookie } })
		expect(first.status, path).toBeLessThan(500)
		if (first.status >= 300 && first.status < 400) continue
		const a = expectHeaders(first, path)
		const b = expectHeaders(second, path)
		expect(a, `${path}: two responses, two nonces`).not.toBe(b)
		checked++
	}
	expect(checked).toBeGreaterThan(pages.length - 5)
	// Error pages too: a 404, a 403 of a module the organization lacks, a 400 of the request guard.
	const other = await makeOrg(base, 'Bare', 'BareOwn')
	for (const [path, status, cookie] of [
		['/no/such/page', 404, ''],
		['/app/no-such-page', 404, org.cookie],
		['/app/transactions/import/00000000-0000-4000-8000-000000000000', 404, org.cookie],
		['/app/reports?range=custom&from=9999-01-01&to=9999-02-01', 400, org.cookie],
		['/book/no-such-organization/service', 404, ''],
	] as const) {
		const response = await raw(base, 'GET', path, { headers: { cookie } })
		expect(response.status, path).toBe(status)
		expectHeaders(response, path)
	}
	void other
})

/** A page as a browser that accepts gzip gets it: the bytes on the wire and the page they make. */
function gzipped(baseURL: string, path: string, cookie: string) {
	return new Promise<{ encoding: string | undefined; wire: Buffer }>((resolve, reject) => {
		http
			.get(new URL(path, baseURL), { headers: { cookie, 'accept-encoding': 'gzip' } }, (res) => {
				const chunks: Buffer[] = []
				res.on('data', (chunk: Buffer) => chunks.push(chunk))
				res.on('end', () => resolve({ encoding: res.headers['content-encoding'], wire: Buffer.concat(chunks) }))
			})
			.on('error', reject)
	})
}

test('HTML pages reach a browser gzipped in one piece: no bigger on the wire than the whole page gzipped at once', async () => {
	// React writes a page in 4 KB pieces; each used to be flushed through gzip on its own, which
	// sent the transactions page as 24 KB instead of 15 KB to phones on slow connections.
	const base = baseURLOf()
	const org = await makeOrg(base, 'Gzip', 'GzipOwn')
	for (const [path, cookie] of [
		['/', ''],
		['/app/dashboard', org.cookie],
		['/app/transactions', org.cookie],
		[`/book/${org.slug}/service`, ''],
	] as const) {
		const { encoding, wire } = await gzipped(base, path, cookie)
		expect(encoding, path).toBe('gzip')
		const page = gunzipSync(wire)
		expect(page.toString('utf8'), path).toMatch(/<\/html>\s*$/)
		expect(wire.length, `${path}: ${wire.length} bytes on the wire for ${page.length} of HTML`).toBeLessThanOrEqual(
			gzipSync(page).length * 1.1,
		)
	}
})
