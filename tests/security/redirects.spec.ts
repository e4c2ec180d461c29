/**
 * Every parameter that decides a redirect (the `redirects` of app/route-security.ts), and paths
 * that look like another host, never send the browser off-site.
 */
import { expect, test } from '@playwright/test'
import { FORM, raw } from './http.ts'
import { baseURLOf, concretePath, routeSecurity } from './walk.ts'
import { makeOrg, signUp } from './world.ts'

const TARGETS = [
	'//evil.example',
	'/\\evil.example',
	'%2F%2Fevil.example',
	'/%2F%2Fevil.example',
	'https://evil.example',
	'javascript:alert(1)',
	'/.//evil.example/x',
	'/a/..//evil.example',
	'\\\\evil.example',
	' //evil.example',
	'/\t/evil.example',
	'http:evil.example',
]

/** The Location stays on this site (or goes to Google's sign-in, which the Google route is for). */
function expectOnSite(location: string | undefined, label: string) {
	if (!location) return
	const base = new URL(baseURLOf())
	const target = new URL(location, base)
	expect(['javascript:', 'data:', 'vbscript:'], `${label} → ${location}`).not.toContain(target.protocol)
	if (target.host === 'accounts.google.com') return
	expect(target.host, `${label} → ${location}`).toBe(base.host)
	// A relative Location must not be one a browser reads as another host.
	expect(location, `${label} → ${location}`).not.toMatch(/^\s*[/\\]{2}|^\s*\/\\|^[a-z]+:/i)
}

test('every redirect parameter of the list, in the query and in the form, never redirects off-site', async () => {
	test.setTimeout(180_000)
	const base = baseURLOf()
	const org = await makeOrg(base, 'Redirected', 'RedirectedOwn')
	const withRedirects = routeSecurity.filter((e) => e.redirects?.length)
	expect(withRedirects.length).toBeGreaterThan(2)
	for (const entry of withRedirects) {
		for (const param of entry.redirects!) {
			for (const target of TARGETS) {
				for (const cookie of [org.cookie, '']) {
					const path = concretePath(entry, org)
					const get = await raw(base, 'GET', `${path}?${new URLSearchParams({ [param]: target })}`, { headers: { cookie } })
					expect(get.status, `GET ${path} ${param}=${target}`).toBeLessThan(500)
					expectOnSite(get.headers.location, `GET ${path} ${param}=${target}`)
					if (!entry.post) continue
					for (const intent of entry.post.intents.length ? entry.post.intents : ['']) {
						const form = {
							intent,
							[param]: target,
							language: 'en',
							state: 'collapsed',
							organizationId: org.orgId,
							email: org.email,
							password: org.password,
						}
						const post = await raw(base, 'POST', concretePath(entry, org, { post: true }), {
							headers: { ...FORM, cookie },
							body: new URLSearchParams(form).toString(),
						})
						expect(post.status, `POST ${path} ${intent} ${param}=${target}`).toBeLessThan(500)
						expectOnSite(post.headers.location, `POST ${path} ${intent} ${param}=${target}`)
					}
				}
			}
		}
	}
})

test('a signed-out visit to a signed-in page comes back to that page after sign-in, and only to it', async () => {
	const base = baseURLOf()
	const account = await signUp(base, 'Returning')
	const away = await raw(base, 'GET', '/app/clients?status=active')
	expect(away.status).toBe(302)
	const location = away.headers.location!
	expect(location).toBe(`/auth?${new URLSearchParams({ redirectTo: '/app/clients?status=active' })}`)
	const back = await raw(base, 'POST', location, {
		headers: FORM,
		body: new URLSearchParams({
			intent: 'login',
			email: account.email,
			password: account.password,
			redirectTo: '/app/clients?status=active',
		}).toString(),
	})
	expect(back.headers.location).toBe('/app/clients?status=active')
})

test('paths that look like another host are answered here, never redirected off-site', async () => {
	const base = baseURLOf()
	for (const path of [
		'//evil.example',
		'//evil.example/',
		'//evil.example/%2e%2e',
		'/\\evil.example',
		'/%5Cevil.example',
		'/%2F%2Fevil.example',
		'/assets//evil.example/%2e%2e',
		'//assets',
		'/assets',
		'/locales',
		'/book/x//evil.example',
		'/dashboard//evil.example',
		'/book//evil.example',
		'/app//evil.example',
	]) {
		const response = await raw(base, 'GET', path)
		expect(response.status, path).toBeLessThan(500)
		expectOnSite(response.headers.location, path)
	}
})
