/**
 * A member of organization A, and someone signed out, ask for organization B's rows by id on
 * every route of the list: they get a 403/404 (or their own organization's page), and no byte
 * of B's private data (every private row of B carries MARKER).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { createCookie } from 'react-router'
import { ORGANIZATION_FIELD } from '../../app/lib/organization-field.ts'
import { withDatabase } from '../e2e/db.ts'
import { FORM, raw } from './http.ts'
import { baseURLOf, concretePath, routeSecurity, type RouteSecurity } from './walk.ts'
import { fingerprint, makeOrg, MARKER, type Org } from './world.ts'

let a: Org
let b: Org

test.beforeAll(async () => {
	const base = baseURLOf()
	;[a, b] = await Promise.all([makeOrg(base, 'Attacker', 'AttackerOwn'), makeOrg(base, 'Victim', MARKER)])
})

/**
 * What a response may be when it names another organization's row: refused (403/404), sent to
 * sign in, or, for a POST, sent back with an error message (an action's answer for a row it
 * cannot see, as without JavaScript); that B's rows did not change is checked after the walk.
 */
function refused(method: string, status: number, location: string | undefined) {
	if (status === 403 || status === 404) return true
	if ((status === 302 || status === 303) && location?.startsWith('/auth')) return true
	if (method === 'POST' && (status === 302 || status === 303) && location?.startsWith('/app/')) return true
	return false
}

const hasOrgIds = (entry: RouteSecurity) => (entry.ids ?? []).some((id) => id !== 'moduleId')

test('every route, asked for organization B’s rows by a member of A or by anyone, shows none of B’s data', async () => {
	test.setTimeout(120_000)
	const base = baseURLOf()
	const before = await fingerprint(b.orgId)
	let checked = 0
	for (const entry of routeSecurity) {
		for (const [who, cookie] of [
			['member of A', a.cookie],
			['signed out', ''],
		] as const) {
			// B's ids; for the manage link: no token, A's token, and a made-up one.
			const tokens = entry.id.startsWith('routes/book/booked') ? [undefined, a.appointmentToken, 'x'.repeat(32)] : [undefined]
			for (const token of tokens) {
				const path = concretePath(entry, b, { token })
				const requests: Array<[string, string | undefined]> = [['GET', undefined]]
				// (Signing out would end A's session, which the other tests of this file use.)
				if (entry.post && !(entry.id === 'routes/auth/sign-out' && cookie))
					for (const intent of entry.post.intents.length ? entry.post.intents : [''])
						requests.push([
							'POST',
							new URLSearchParams({
								intent,
								id: b.appointmentId,
								clientId: b.clientId,
								batchId: b.batchId,
								organizationId: b.orgId,
							}).toString(),
						])
				for (const [method, body] of requests) {
					const response = await raw(base, method, method === 'POST' ? concretePath(entry, b, { token, post: true }) : path, {
						headers: { ...FORM, cookie },
						body,
					})
					const label = `${who}: ${method} ${path} ${body ?? ''}`
					expect(response.status, label).toBeLessThan(500)
					expect(response.body, label).not.toContain(MARKER)
					expect(response.headers.location ?? '', label).not.toContain(MARKER)
					if (hasOrgIds(entry))
						expect(refused(method, response.status, response.headers.location), `${label} answered ${response.status}`).toBe(true)
					checked++
				}
			}
		}
	}
	expect(checked).toBeGreaterThan(routeSecurity.length * 2)
	expect(await fingerprint(b.orgId)).toBe(before)
})

test('every action of the signed-in app, posted by a member of A with organization B as the form’s organization, changes nothing', async () => {
	const base = baseURLOf()
	const before = await fingerprint(b.orgId)
	let checked = 0
	for (const entry of routeSecurity.filter((e) => e.post && e.path.startsWith('/app'))) {
		for (const intent of entry.post!.intents.length ? entry.post!.intents : ['']) {
			const body = new URLSearchParams({
				intent,
				[ORGANIZATION_FIELD]: b.orgId,
				id: b.appointmentId,
				name: 'Hijacked',
				clientId: b.clientId,
				batchId: b.batchId,
			})
			const response = await raw(base, 'POST', concretePath(entry, a, { post: true }), {
				headers: { ...FORM, cookie: a.cookie },
				body: body.toString(),
			})
			const label = `POST ${entry.path} intent=${intent}`
			// Sent back to the page it came from, with "Nothing was saved".
			expect(response.status, label).toBe(302)
			expect(response.headers.location ?? '', label).toMatch(/^\/app\//)
			expect(response.body, label).not.toContain(MARKER)
			checked++
		}
	}
	expect(checked).toBeGreaterThan(20)
	expect(await fingerprint(b.orgId)).toBe(before)
})

test('the data requests of every signed-in screen, with B’s ids, carry none of B’s data', async () => {
	const base = baseURLOf()
	for (const entry of routeSecurity.filter((e) => e.html && ['member', 'module', 'administrator', 'owner'].includes(e.access))) {
		const path = concretePath(entry, b)
		const response = await raw(base, 'GET', `${path.replace(/\/$/, '')}.data`, { headers: { cookie: a.cookie } })
		expect(response.status, path).toBeLessThan(500)
		expect(response.body, path).not.toContain(MARKER)
	}
})

test('a member of A who names organization B as the current one (form or forged cookie) stays in A', async () => {
	const base = baseURLOf()
	const switched = await raw(base, 'POST', '/preferences', {
		headers: { ...FORM, cookie: a.cookie },
		body: `intent=organization&organizationId=${b.orgId}&redirectTo=/app/clients`,
	})
	expect(switched.status).toBe(403)
	expect(switched.headers['set-cookie'] ?? []).toEqual([])

	const forged = await createCookie('p2p_org', { path: '/' }).serialize(b.orgId)
	const cookie = `${a.cookie}; ${forged.split(';')[0]}`
	for (const entry of routeSecurity.filter((e) => ['member', 'module', 'administrator', 'owner'].includes(e.access) && e.post === null)) {
		const path = concretePath(entry, a)
		const response = await raw(base, 'GET', path, { headers: { cookie } })
		expect(response.status, path).toBeLessThan(500)
		expect(response.body, path).not.toContain(MARKER)
	}
	const clients = await raw(base, 'GET', '/app/clients', { headers: { cookie } })
	expect(clients.body).toContain('AttackerOwnClient')
})

test('the manage link of B’s booking opens only with B’s own slug, id and token', async () => {
	const base = baseURLOf()
	const own = await raw(base, 'GET', `/book/${b.slug}/booked/${b.appointmentId}?token=${b.appointmentToken}`)
	expect(own.status).toBe(200)
	expect(own.body).toContain(`${MARKER.toLowerCase()}@guest.example`)
	for (const path of [
		`/book/${a.slug}/booked/${b.appointmentId}?token=${b.appointmentToken}`,
		`/book/${b.slug}/booked/${a.appointmentId}?token=${b.appointmentToken}`,
		`/book/${b.slug}/booked/${b.appointmentId}?token=${a.appointmentToken}`,
		`/book/${b.slug}/booked/${b.appointmentId}/calendar.ics?token=${a.appointmentToken}`,
		`/book/${b.slug}/booked/${b.appointmentId}?token=${b.appointmentToken.slice(0, -1)}`,
	]) {
		for (const method of ['GET', 'POST']) {
			const response = await raw(base, method, path, { headers: FORM, body: method === 'POST' ? 'intent=cancel' : undefined })
			// The .ics has no action: a POST to it is a 405.
			expect([404, 405], `${method} ${path}`).toContain(response.status)
			expect(response.body, path).not.toContain(MARKER)
		}
	}
	const status = await withDatabase((db) =>
		db.query<{ status: string }>('select status::text from public.booking_appointments where id = $1', [b.appointmentId]),
	)
	expect(status.rows[0]!.status).toBe('confirmed')
})

test('stored files: pictures are public by design (decision 014), anything else and any path out of storage is a 404', async () => {
	const base = baseURLOf()
	const dataDir = path.resolve(process.env.E2E_DATA_DIR!)
	const folder = path.join(dataDir, 'storage', 'logos', b.orgId)
	mkdirSync(folder, { recursive: true })
	writeFileSync(path.join(folder, 'logo.png'), Buffer.from('89504e470d0a1a0a', 'hex'))
	writeFileSync(path.join(folder, 'page.html'), `<script>alert('${MARKER}')</script>`)
	writeFileSync(path.join(dataDir, 'secret.txt'), MARKER)
	const picture = await raw(base, 'GET', `/storage/logos/${b.orgId}/logo.png`)
	expect(picture.status).toBe(200)
	expect(picture.headers['content-type']).toBe('image/png')
	expect(picture.headers['x-content-type-options']).toBe('nosniff')
	expect(picture.headers['content-security-policy']).toMatch(/sandbox/)
	for (const path of [
		`/storage/logos/${b.orgId}/page.html`,
		`/storage/logos/${b.orgId}/logo.png.tmp`,
		'/storage/logos/..%2F..%2Fsecret.txt',
		'/storage/logos/%2e%2e/%2e%2e/secret.txt',
		'/storage/logos/../../secret.txt',
		'/storage/..%2Fsecret.txt/x',
		'/storage/%2e%2e/secret.txt',
		`/storage/logos/${b.orgId}%2F..%2F..%2F..%2Fsecret.txt`,
		'/storage/logos/%2Fetc%2Fpasswd',
		'/storage/secret.txt/x',
	]) {
		const response = await raw(base, 'GET', path)
		expect(response.status, path).toBeGreaterThanOrEqual(400)
		expect(response.status, path).toBeLessThan(500)
		expect(response.body, path).not.toContain(MARKER)
		expect(response.body, path).not.toContain('root:')
	}
})
