/**
 * What an attacker's single request must never do: end or hang the server, get a 5xx, poison a
 * recovery link, redirect off-site, or slip bad bytes into the database. Each request has a
 * short timeout: a hang is a failure. These are requests, not screens: they run once, in the
 * security project (without JavaScript; the NUL-byte walk reads the forms as rendered then).
 * The rest of the attacker's walk is in the other files of this folder (docs/security.md).
 */
import http from 'node:http'
import { decodeQuotedPrintable, expect, latestMailTo, newAccount, signUpByRequest, test } from '../e2e/fixtures.ts'
import { withDatabase } from '../e2e/db.ts'
import { concretePath, routeSecurity } from './walk.ts'
import type { Org } from './world.ts'

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: string }

/** One request through node:http, which sends any method and any Host header as written. */
function raw(baseURL: string, method: string, path: string, options: { headers?: Record<string, string>; body?: string | Buffer } = {}) {
	const url = new URL(path, baseURL)
	// A declared length: node:http sends a DELETE's body unframed otherwise.
	const length = options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }
	return new Promise<Raw>((resolve, reject) => {
		const req = http.request(
			{
				host: url.hostname,
				port: url.port,
				method,
				path: url.pathname + url.search,
				headers: { ...length, ...options.headers },
				timeout: 5_000,
			},
			(res) => {
				const chunks: Buffer[] = []
				res.on('data', (c: Buffer) => chunks.push(c))
				res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
			},
		)
		req.on('timeout', () => req.destroy(new Error(`${method} ${path} took more than 5 s`)))
		req.on('error', reject)
		if (options.body !== undefined) req.write(options.body)
		req.end()
	})
}

const baseURLOf = () => test.info().project.use.baseURL!
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/** Signs up and returns the session cookie header for raw requests. */
async function sessionCookie(request: import('@playwright/test').APIRequestContext) {
	const account = newAccount('Attacker')
	await signUpByRequest(request, account)
	const state = await request.storageState()
	return { account, cookie: state.cookies.map((c) => `${c.name}=${c.value}`).join('; ') }
}

test.describe('any method on any path', () => {
	const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO']
	const paths = [
		'/',
		'/auth',
		'/auth/forgot-password',
		'/app/dashboard',
		'/app/transactions?edit=1',
		'/app/reports/export.csv',
		'/app/module-marketplace',
		'/app/modules/b0000000-0000-4000-8000-000000000001/settings.json',
		'/app/gears?page=x',
		'/app/booking/calendar?day=9999-12-31',
		'/app/booking/analytics?from=9999-01-01&to=10000-01-01',
		'/app/booking/events',
		'/app/booking/providers/9999999999/hours',
		'/app/transactions/import/9999999999',
		'/storage/avatars/..%2F..%2Fetc%2Fpasswd',
		'/book/x/slot?date=9999-12-31&service=1',
		'/book/x/booked/1?token=%00',
		'/unsubscribe?token=%00',
		'/healthz',
		'/no/such/page',
		'/locales/en/common.json',
		'/assets/none.js',
	]

	test('gets a proper answer (never a 5xx), other methods a 405 with Allow, and the server keeps serving', async ({ request }) => {
		test.setTimeout(60_000)
		const { cookie } = await sessionCookie(request)
		for (const signedIn of [false, true]) {
			for (const method of methods) {
				for (const path of paths) {
					const headers: Record<string, string> = { ...FORM, ...(signedIn ? { cookie } : {}) }
					const response = await raw(baseURLOf(), method, path, {
						headers,
						body: ['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method) ? undefined : 'intent=nothing',
					})
					expect(response.status, `${method} ${path}`).toBeLessThan(500)
					if (method === 'FOO') {
						// Not an HTTP method at all: Node's parser answers 400 before any of our code.
						expect(response.status, `${method} ${path}`).toBe(400)
					} else if (!['GET', 'HEAD', 'POST'].includes(method)) {
						expect(response.status, `${method} ${path}`).toBe(405)
						expect(response.headers.allow).toBe('GET, HEAD, POST')
					}
				}
			}
		}
		// The process is still there after all of it (the old OPTIONS crash took ~6 s to end it).
		await new Promise((resolve) => setTimeout(resolve, 6_500))
		expect((await raw(baseURLOf(), 'GET', '/healthz')).status).toBe(200)
	})
})

test.describe('requests that used to hang or crash', () => {
	test('a report range in year 9999 answers at once with a translated 400, and the export too', async ({ request }) => {
		await signUpByRequest(request, newAccount('Far Future'))
		for (const [from, to] of [
			['9999-12-01', '9999-12-31'],
			['2026-01-01', '9999-12-31'],
			['10000-01-01', '10000-02-01'],
			['0001-01-01', '2026-01-01'],
		]) {
			const page = await request.get(`/app/reports?range=custom&from=${from}&to=${to}`, { timeout: 5_000 })
			expect(page.status(), `${from}..${to}`).toBe(400)
			expect(await page.text()).toContain('Invalid')
			const csv = await request.get(`/app/reports/export.csv?range=custom&from=${from}&to=${to}`, { timeout: 5_000 })
			expect(csv.status()).toBe(400)
		}
	})

	test('a 10-digit row index on the transactions and clients saves is refused at once and saves nothing', async ({ request }) => {
		const { account } = await sessionCookie(request)
		for (const screen of ['transactions', 'clients']) {
			for (const name of [
				'rows[4294967294].amount',
				'rows[0004294967294].name',
				'rows[99999999999999999999].name',
				'rows[ 4294967294 ].name',
			]) {
				const response = await request.post(`/app/${screen}?edit=1`, {
					form: { intent: 'save', [name]: '1' },
					maxRedirects: 0,
					timeout: 5_000,
				})
				expect(response.status(), `${screen} ${name}`).toBe(413)
			}
			const intent = JSON.stringify({ type: 'insert', payload: { name: 'rows', index: 4294967294 } })
			const viaIntent = await request.post(`/app/${screen}?edit=1`, { form: { __intent__: intent }, maxRedirects: 0, timeout: 5_000 })
			expect(viaIntent.status()).toBe(413)
		}
		const counts = await withDatabase(async (db) => {
			const { rows } = await db.query<{ t: string; c: string }>(
				`select (select count(*) from transactions t where t.organization_id = m.organization_id) as t,
				        (select count(*) from clients c where c.organization_id = m.organization_id) as c
				 from organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
				[account.email],
			)
			return rows[0]
		})
		expect(counts).toEqual({ t: '0', c: '0' })
	})
})

test.describe('links and redirects', () => {
	test('a recovery link points at this server whatever Host the request names', async ({ request }) => {
		const account = newAccount('Poison Target')
		await signUpByRequest(request, account)
		const response = await raw(baseURLOf(), 'POST', '/auth/forgot-password', {
			headers: { ...FORM, host: 'evil.example', 'x-forwarded-host': 'evil.example' },
			body: new URLSearchParams({ email: account.email }).toString(),
		})
		expect(response.status).toBeLessThan(500)
		const mail = decodeQuotedPrintable(await latestMailTo(account.email, 5_000, '/auth/reset-password'))
		const link = /https?:\/\/[^\s/]+\/auth\/reset-password\?token=[\w-]+/.exec(mail)?.[0]
		expect(link).toBeTruthy()
		expect(new URL(link!).host).toBe(new URL(baseURLOf()).host)
		expect(mail).not.toContain('evil.example')
	})

	for (const target of [
		'/.//evil.example/phish',
		'/./\\evil.example',
		'/a/..//evil.example',
		'/%2F%2Fevil.example',
		'//evil.example',
		'/\\evil.example',
		'https://evil.example',
		'javascript:alert(1)',
	]) {
		test(`sign-in and the language switch never send the browser off-site for redirectTo=${target}`, async ({ request }) => {
			const account = newAccount('Redirected')
			await signUpByRequest(request, account)
			const signIn = await request.post('/auth', {
				form: { intent: 'login', email: account.email, password: account.password, redirectTo: target },
				maxRedirects: 0,
			})
			expect(signIn.status()).toBe(302)
			const base = new URL(baseURLOf())
			expect(new URL(signIn.headers().location!, base).host).toBe(base.host)
			const language = await request.post('/preferences', {
				form: { intent: 'language', language: 'en', redirectTo: target },
				maxRedirects: 0,
			})
			expect(new URL(language.headers().location!, base).host).toBe(base.host)
		})
	}
})

test.describe('bad bodies get a 4xx with a message', () => {
	// Every action of the list (app/route-security.ts), with ids that name no row.
	const nobody = '00000000-0000-4000-8000-000000000000'
	const placeholder: Org = {
		email: '',
		password: '',
		cookie: '',
		userId: nobody,
		orgId: nobody,
		slug: 'no-such-organization',
		clientId: nobody,
		providerId: nobody,
		serviceId: nobody,
		appointmentId: nobody,
		appointmentToken: '',
		batchId: nobody,
		invoiceId: nobody,
		scheduleId: nobody,
		expenseId: nobody,
		pipelineId: nobody,
	}
	const actions = routeSecurity.filter((e) => e.post !== null).map((e) => concretePath(e, placeholder, { post: true }))

	test('JSON, text, no body, malformed multipart and invalid UTF-8 on every action', async ({ request }) => {
		test.setTimeout(120_000)
		const { cookie } = await sessionCookie(request)
		const bodies: Array<[string, Record<string, string>, string | Buffer | undefined, number]> = [
			['JSON', { 'content-type': 'application/json' }, '{"intent":"save"}', 415],
			['text', { 'content-type': 'text/plain' }, 'intent=save', 415],
			['nothing', {}, undefined, 415],
			['malformed multipart', { 'content-type': 'multipart/form-data; boundary=zz' }, '--yy\r\ngarbage', 400],
			['invalid UTF-8', FORM, Buffer.from([0x69, 0x3d, 0xc3, 0x28]), 400],
			['a conform intent that is not JSON', FORM, 'intent=save&__intent__=%7Bbad', 400],
			['a conform intent of no known kind', FORM, `__intent__=${encodeURIComponent('{"type":"insert"}')}`, 400],
			['a conform state that is not JSON', FORM, 'intent=save&__state__=%7Bbad', 400],
		]
		for (const path of actions) {
			for (const [label, headers, body, status] of bodies) {
				const response = await raw(baseURLOf(), 'POST', path, { headers: { ...headers, cookie }, body })
				expect(response.status, `${label} to ${path}`).toBe(status)
				expect(response.body, `${label} to ${path}`).toMatch(/could not be processed|not sent by one of this site/)
			}
		}
	})

	test('intents named after Object.prototype members are unknown intents, never a 500 or a 200', async ({ request }) => {
		await sessionCookie(request)
		for (const path of actions) {
			for (const intent of ['__proto__', 'toString', 'constructor', 'hasOwnProperty', 'valueOf']) {
				const response = await request.post(path, { form: { intent }, maxRedirects: 0 })
				expect(response.status(), `${intent} to ${path}`).toBeGreaterThanOrEqual(300)
				expect(response.status(), `${intent} to ${path}`).toBeLessThan(500)
				expect(response.status(), `${intent} to ${path}`).not.toBe(200)
			}
		}
	})

	// The forms as the server renders them (without JavaScript), once.
	test('a NUL byte in any text field of any form is refused and saves nothing @nojs', async ({ page, request, javaScriptEnabled }) => {
		test.skip(javaScriptEnabled, 'the forms are read as the server renders them, without JavaScript')
		const { account } = await sessionCookie(request)
		await page.context().addCookies((await request.storageState()).cookies)
		const screens = [
			'/auth',
			'/auth?mode=signup',
			'/auth/forgot-password',
			'/app/transactions?edit=1&add=1',
			'/app/clients?edit=1&add=1',
			'/app/transactions',
			'/app/clients',
			'/app/categories',
			'/app/reports',
			'/app/dashboard',
			'/app/module-marketplace?module=b0000000-0000-4000-8000-000000000001',
			'/app/modules/b0000000-0000-4000-8000-000000000004?upgrade=c0000000-0000-4000-8000-000000000010',
			'/app/plans',
		]
		let checked = 0
		for (const screen of screens) {
			await page.goto(screen)
			for (const form of await formsOf(page)) {
				for (const field of form.textFields) {
					const values = form.fields.map(([name, value]): [string, string] => [name, name === field ? `a\u0000b` : value])
					const body = new URLSearchParams(values).toString()
					const response =
						form.method === 'get'
							? await request.get(`${form.action.split('?')[0]}?${body}`, { maxRedirects: 0 })
							: await request.post(form.action, { data: body, headers: FORM, maxRedirects: 0 })
					expect(response.status(), `${screen} ${form.action} ${field}`).toBe(400)
					checked++
				}
			}
		}
		expect(checked).toBeGreaterThan(10)
		const names = await withDatabase(async (db) => {
			const { rows } = await db.query<{ n: string }>(
				`select count(*) as n from clients c join organization_members m on m.organization_id = c.organization_id
				 join auth.users u on u.id = m.user_id where u.email = $1`,
				[account.email],
			)
			return rows[0]!.n
		})
		expect(names).toBe('0')
	})
})

test('CSV exports and data requests carry nosniff', async ({ request }) => {
	await signUpByRequest(request, newAccount('Sniffer'))
	for (const path of ['/app/reports/export.csv', '/app/dashboard.data', '/healthz', '/locales/en/common.json']) {
		const response = await request.get(path)
		expect(response.status(), path).toBeLessThan(400)
		expect(response.headers()['x-content-type-options'], path).toBe('nosniff')
	}
})

test('a member who posts the onboarding form again gets no second organization', async ({ request }) => {
	const account = newAccount('Greedy')
	await signUpByRequest(request, account)
	for (let i = 0; i < 3; i++) {
		const response = await request.post('/onboarding', { form: { name: `Free Gears ${i}` }, maxRedirects: 0 })
		expect(response.status()).toBe(302)
		expect(response.headers().location).toBe('/app/dashboard')
	}
	const organizations = await withDatabase(async (db) => {
		const { rows } = await db.query<{ n: string }>(
			'select count(*) as n from organization_members m join auth.users u on u.id = m.user_id where u.email = $1',
			[account.email],
		)
		return rows[0]!.n
	})
	expect(organizations).toBe('1')
})

/** Every form on the page: its method, action, all named fields with their values, and which are text. */
async function formsOf(page: import('@playwright/test').Page) {
	return page.locator('form').evaluateAll((forms) =>
		forms.map((form) => {
			const f = form as HTMLFormElement
			const fields: Array<[string, string]> = []
			const textFields: string[] = []
			for (const element of Array.from(f.elements) as Array<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) {
				if (!element.name || element.disabled) continue
				if (element instanceof HTMLInputElement && ['checkbox', 'radio'].includes(element.type) && !element.checked) continue
				if (element instanceof HTMLButtonElement) continue
				fields.push([element.name, element.value])
				const text =
					element instanceof HTMLTextAreaElement ||
					(element instanceof HTMLInputElement &&
						['text', 'email', 'search', 'password', 'tel', 'url', 'hidden', 'number', 'date'].includes(element.type))
				if (text) textFields.push(element.name)
			}
			const submitter = f.querySelector<HTMLButtonElement>('button[type=submit][name], button:not([type])[name]')
			if (submitter) fields.push([submitter.name, submitter.value])
			return { method: (f.getAttribute('method') ?? 'get').toLowerCase(), action: f.action, fields, textFields }
		}),
	)
}
