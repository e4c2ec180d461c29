/**
 * Whatever an attacker puts in a request to an action (an unknown intent, missing fields, a 10 MB
 * body, invalid UTF-8, SQL and HTML meta-characters in every text field) gets a 4xx with a
 * message or the form's own validation error, never a 5xx; what is refused changes nothing; and
 * text that was stored comes back escaped, never as live markup.
 */
import { expect, test } from '@playwright/test'
import { ORGANIZATION_FIELD } from '../../app/lib/organization-field.ts'
import { withDatabase } from '../e2e/db.ts'
import { formsOf } from './html.ts'
import { FORM, raw } from './http.ts'
import { baseURLOf, concretePath, HOSTILE, LIVE_MARKUP, routeSecurity } from './walk.ts'
import { fingerprint, makeOrg, openDatabase } from './world.ts'

let db: Awaited<ReturnType<typeof openDatabase>>
test.beforeAll(async () => {
	db = await openDatabase()
})
test.afterAll(async () => {
	await db.end()
})

// Signing out ends the walk's session: last.
const UPLOADS = ['routes/app/imports/upload', 'routes/app/settings/profile', 'routes/app/settings/organization', 'routes/app/clients']
const actions = routeSecurity
	.filter((e) => e.post !== null)
	.sort((x, y) => Number(x.id === 'routes/auth/sign-out') - Number(y.id === 'routes/auth/sign-out'))

test('an unknown intent and each intent without its fields: a 4xx or the form’s error, never a 5xx, and a refusal changes nothing', async () => {
	test.setTimeout(240_000)
	const base = baseURLOf()
	const org = await makeOrg(base, 'Fuzzed', 'FuzzedOwn')
	const wrong: string[] = []
	for (const entry of actions) {
		const path = concretePath(entry, org, { token: 'f'.repeat(64), post: true })
		const { intents, bare = [] } = entry.post!
		// The sign-in pages are posted to signed out, as they are used.
		const cookie = entry.access === 'guest' ? '' : org.cookie
		const bodies: Array<[string, string]> = [
			['unknown intent', 'intent=no-such-intent'],
			['no fields', ''],
			...intents.map((i): [string, string] => [`${i} alone`, `intent=${i}`]),
		]
		for (const [label, body] of bodies) {
			const before = await fingerprint(org.orgId, db)
			const response = await raw(base, 'POST', path, { headers: { ...FORM, cookie }, body })
			const what = `${label}: POST ${path} → ${response.status}`
			expect(response.status, what).toBeLessThan(500)
			if (response.status >= 400) expect(response.body.length, `${what} explains`).toBeGreaterThan(0)
			if (label === 'unknown intent' && intents.length > 0 && (response.status < 400 || response.status >= 500))
				wrong.push(`${what}: not a 4xx`)
			// What a bare intent does needs no field (deactivate the module the path names); anything else must change nothing.
			if (!bare.includes(label.replace(/ alone$/, '')) && (await fingerprint(org.orgId, db)) !== before) wrong.push(`${what}: changed data`)
		}
	}
	expect(wrong).toEqual([])
})

test('a 10 MB body, invalid UTF-8 in the body, the query or a multipart field: a 4xx with a message or the form’s error, never a 5xx', async () => {
	test.setTimeout(240_000)
	const base = baseURLOf()
	const org = await makeOrg(base, 'Flooded', 'FloodedOwn')
	const before = await fingerprint(org.orgId, db)
	const big = Buffer.alloc(10 * 1024 * 1024, 'a')
	const bigForm = Buffer.concat([Buffer.from('intent=save&name='), big])
	const boundary = 'sec-walk-boundary'
	const multipart = (name: string, value: Buffer, filename?: string) =>
		Buffer.concat([
			Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nno-such-intent\r\n`),
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: image/png` : ''}\r\n\r\n`,
			),
			value,
			Buffer.from(`\r\n--${boundary}--\r\n`),
		])
	const MULTIPART = { 'content-type': `multipart/form-data; boundary=${boundary}` }
	const badUtf8 = Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0xc3, 0x28, 0xff, 0xfe])
	for (const entry of actions) {
		const path = concretePath(entry, org, { token: 'f'.repeat(64), post: true })
		const cookie = entry.access === 'guest' ? '' : org.cookie
		const sends: Array<[string, Record<string, string>, Buffer, boolean, number | null]> = [
			['a declared 10 MB form', FORM, bigForm, false, 413],
			['a streamed 10 MB form', FORM, bigForm, true, 413],
			// Parsed in full (it is under the upload cap), so sent where uploads are read and to one route that takes none.
			...(UPLOADS.includes(entry.id)
				? [
						['a 10 MB file in a multipart form', MULTIPART, multipart('file', big, 'big.png'), false, null] as [
							string,
							Record<string, string>,
							Buffer,
							boolean,
							null,
						],
					]
				: []),
			['invalid UTF-8 in a form', FORM, Buffer.concat([Buffer.from('intent=x&name='), badUtf8]), false, 400],
			['invalid UTF-8 in a multipart field', MULTIPART, multipart('name', badUtf8), false, null],
		]
		for (const [label, headers, body, chunked, status] of sends) {
			const response = await raw(base, 'POST', path, { headers: { ...headers, cookie }, body, chunked }).catch((error: Error) => {
				// A server that answers before reading a large body closes the connection; the peer's
				// reset may reach the client before the answer does. That is a refusal, not a failure:
				// the server is asked to serve again just below.
				if (/ECONNRESET|EPIPE/.test(String(error))) return null
				throw error
			})
			if (response === null) {
				expect((await raw(base, 'GET', '/healthz')).status, `after ${label}: POST ${path}`).toBe(200)
				continue
			}
			if (status !== null) expect(response.status, `${label}: POST ${path}`).toBe(status)
			expect(response.status, `${label}: POST ${path}`).toBeLessThan(500)
			expect(response.status, `${label}: POST ${path}`).toBeGreaterThanOrEqual(300)
			if (response.status >= 400)
				expect(response.body, `${label}: POST ${path}`).toMatch(
					/could not be processed|too large|not valid|invalid|not sent by one of this site|\w{4,}/i,
				)
		}
	}
	for (const entry of routeSecurity.filter((e) => e.html)) {
		const path = concretePath(entry, org)
		const response = await raw(base, 'GET', `${path}${path.includes('?') ? '&' : '?'}q=%C3%28%FF&page=%FE`, {
			headers: { cookie: org.cookie },
		})
		expect(response.status, `invalid UTF-8 in the query of ${path}`).toBeLessThan(500)
	}
	expect(await fingerprint(org.orgId, db)).toBe(before)
	// The server is still serving at once.
	expect((await raw(base, 'GET', '/healthz')).status).toBe(200)
})

/** `rows[3].name` → `rows[].name`, `hours.monday.start` → `hours.{day}.start`: the list names such fields once. */
const fieldName = (name: string) =>
	name.replace(/\[\d+\]/g, '[]').replace(/\.(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\./, '.{day}.')

test('SQL and HTML meta-characters in every text field of every form: never a 5xx, and what is stored is shown escaped', async () => {
	test.setTimeout(240_000)
	const base = baseURLOf()
	const org = await makeOrg(base, 'Hostile', 'HostileOwn')
	const unlisted: string[] = []
	let sent = 0
	for (const entry of actions) {
		for (const page of entry.post!.pages ?? []) {
			const html = (await raw(base, 'GET', page, { headers: { cookie: org.cookie } })).body
			const forms = formsOf(html, new URL(page, base).toString()).filter(
				(f) =>
					(f.method === 'post' && new URL(f.action).pathname === new URL(page, base).pathname.replace(/\/$/, '')) ||
					(f.method === 'post' && new URL(f.action).pathname === entry.path),
			)
			expect(forms.length, `${page} renders a form that posts to ${entry.path}`).toBeGreaterThan(0)
			for (const form of forms) {
				for (const field of form.textFields) {
					if (!entry.post!.fields.includes(fieldName(field)) && !['__intent__', 'intent', ORGANIZATION_FIELD].includes(field))
						unlisted.push(`${entry.id}: ${fieldName(field)}`)
				}
				// Each hostile string in every text field at once, then all of them together in each
				// field a user types in alone (so that one field's refusal does not hide another's crash).
				const typed = form.textFields.filter((f) => !form.hiddenFields.includes(f))
				const sends: Array<[string | null, string]> = [
					...HOSTILE.map((h): [null, string] => [null, h]),
					...typed.map((f): [string, string] => [f, HOSTILE.join(' ')]),
				]
				for (const [target, hostile] of sends) {
					// The form's organization stays (a hostile one is refused before any action, tests/unit/request-guard.test.ts).
					const values = form.fields.map(([name, value]): [string, string] => [
						name,
						(target === null ? form.textFields.includes(name) && name !== 'intent' && name !== ORGANIZATION_FIELD : name === target)
							? hostile
							: value,
					])
					const action = new URL(form.action)
					const response = await raw(base, 'POST', action.pathname + action.search, {
						headers: { ...FORM, cookie: org.cookie },
						body: new URLSearchParams(values).toString(),
					})
					expect(response.status, `${hostile} in ${target ?? 'every text field'} of ${form.action}`).toBeLessThan(500)
					sent++
				}
			}
		}
	}
	expect([...new Set(unlisted)], 'text fields rendered but missing from the list in app/route-security.ts').toEqual([])
	expect(sent).toBeGreaterThan(40)

	// Store each hostile string where every screen shows it: a client, a payment, the profile's
	// name, the organization's name and description, a provider and a service.
	const [script, , img] = HOSTILE as [string, string, string]
	await withDatabase(async (client) => {
		await client.query(`insert into public.clients (organization_id, name, company) values ($1, $2, $3)`, [org.orgId, script, img])
		await client.query(`insert into public.transactions (organization_id, amount, description, external_id) values ($1, 1, $2, $3)`, [
			org.orgId,
			img,
			script,
		])
		await client.query(`update public.profiles set full_name = $2 where user_id = $1`, [org.userId, img])
		await client.query(`update public.organizations set name = $2, description = $3 where id = $1`, [org.orgId, script, img])
		await client.query(`update public.booking_providers set display_name = $2, bio = $3 where id = $1`, [org.providerId, img, script])
		await client.query(`update public.booking_services set name = $2, description = $3 where id = $1`, [org.serviceId, script, img])
		await client.query(`update public.booking_appointments set guest_name = $2, notes = $3 where id = $1`, [org.appointmentId, script, img])
	})
	let pages = 0
	for (const entry of routeSecurity.filter((e) => e.html)) {
		const path = concretePath(entry, org, { token: org.appointmentToken })
		const response = await raw(base, 'GET', path, { headers: { cookie: entry.access === 'guest' ? '' : org.cookie } })
		expect(response.status, path).toBeLessThan(500)
		for (const live of LIVE_MARKUP) expect(response.body, `${path} shows ${live} as markup`).not.toContain(live)
		pages++
	}
	expect(pages).toBeGreaterThan(30)
	const clients = await raw(base, 'GET', '/app/clients', { headers: { cookie: org.cookie } })
	expect(clients.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
	const booked = await raw(
		base,
		'GET',
		concretePath(
			routeSecurity.find((e) => e.id === 'routes/book/booked')!,
			org,
			{ token: org.appointmentToken },
		),
	)
	expect(booked.status).toBe(200)
	expect(booked.body).toContain('&lt;img src=x onerror=alert(1)&gt;')
})
