/**
 * A page on another site that posts a form to any route of this one, with the victim's cookie:
 * refused with a 4xx before any action runs, and nothing changes.
 */
import { expect, test } from '@playwright/test'
import { FORM, raw } from './http.ts'
import { baseURLOf, concretePath, firstIntent, routeSecurity } from './walk.ts'
import { fingerprint, makeOrg } from './world.ts'

const CROSS_SITE: Array<[string, Record<string, string>]> = [
	['Origin of another site and Sec-Fetch-Site cross-site', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
	['Origin of another site only', { origin: 'https://evil.example' }],
	['Sec-Fetch-Site cross-site only', { 'sec-fetch-site': 'cross-site' }],
	['an opaque Origin (a sandboxed frame)', { origin: 'null' }],
	['the same host on another scheme', { origin: `https://${new URL('http://localhost').host}` }],
]

test('a cross-site POST to every route is refused with a 4xx and changes nothing', async () => {
	test.setTimeout(120_000)
	const base = baseURLOf()
	const victim = await makeOrg(base, 'Victim', 'VictimOwn')
	const before = await fingerprint(victim.orgId)
	let checked = 0
	for (const entry of routeSecurity) {
		const path = concretePath(entry, victim, { token: victim.appointmentToken, post: true })
		const intent = firstIntent(entry)
		const body = new URLSearchParams({ ...(intent ? { intent } : {}), name: 'Cross Site', email: 'cross@evil.example' }).toString()
		for (const [label, headers] of CROSS_SITE) {
			const response = await raw(base, 'POST', path, { headers: { ...FORM, ...headers, cookie: victim.cookie }, body })
			expect(response.status, `${label}: POST ${path}`).toBe(403)
			checked++
		}
	}
	expect(checked).toBe(routeSecurity.length * CROSS_SITE.length)
	expect(await fingerprint(victim.orgId)).toBe(before)
	// The victim is still signed in (a cross-site POST to the sign-out route did not end the session).
	const dashboard = await raw(base, 'GET', '/app/dashboard', { headers: { cookie: victim.cookie } })
	expect(dashboard.status).toBe(200)
})

test('the same POST from this site itself goes through (the refusal is about the origin, not the method)', async () => {
	const base = baseURLOf()
	const org = await makeOrg(base, 'Same Site', 'SameOwn')
	const response = await raw(base, 'POST', '/preferences', {
		headers: { ...FORM, origin: base, 'sec-fetch-site': 'same-origin', cookie: org.cookie },
		body: 'intent=sidebar&state=collapsed&redirectTo=/app/dashboard',
	})
	expect(response.status).toBe(302)
	expect(response.headers.location).toBe('/app/dashboard')
})
