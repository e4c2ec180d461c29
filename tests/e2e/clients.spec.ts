import { readdirSync, readFileSync } from 'node:fs'
import type { APIRequestContext, Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'

type Client = { name: string; email?: string; phone?: string; company?: string; status?: string }

/** A new user with their own organization, signed in on `page` and on `request`. */
async function signUp(page: Page, request: APIRequestContext, name: string) {
	const account = newAccount(name)
	await signUpByRequest(request, account)
	await page.context().addCookies((await request.storageState()).cookies)
	return account
}

/** Clients inserted straight into the account's organization; their ids by name. */
async function seed(email: string, clients: Client[]) {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string; user_id: string }>(
			`select m.organization_id, m.user_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[email],
		)
		const { organization_id: orgId, user_id: userId } = rows[0]!
		const ids: Record<string, string> = {}
		for (const c of clients) {
			const r = await db.query<{ id: string }>(
				`insert into public.clients (organization_id, user_id, name, email, phone, company, status)
				 values ($1, $2, $3, $4, $5, $6, $7) returning id`,
				[orgId, userId, c.name, c.email ?? null, c.phone ?? null, c.company ?? null, c.status ?? 'active'],
			)
			ids[c.name] = r.rows[0]!.id
		}
		return { orgId, userId, ids }
	})
}

async function dbClients(orgId: string) {
	return withDatabase(
		async (db) =>
			(
				await db.query<{ name: string; email: string | null; phone: string | null; company: string | null; status: string }>(
					`select name, email, phone, company, status::text from public.clients where organization_id = $1 order by name`,
					[orgId],
				)
			).rows,
	)
}

const clients: Client[] = [
	{ name: 'Ana Silva', email: 'ana@example.com', phone: '555-0100', company: 'Silva Studio' },
	{ name: 'Bruno Costa', email: 'bruno@example.com', status: 'pending' },
	{ name: 'Carla Dias', company: 'Dias & Co', status: 'inactive' },
]

/** The edit-mode row whose Name field holds `name`. */
const editRow = (page: Page, name: string) => page.getByRole('row').filter({ has: page.locator(`input[value="${name}"]`) })

test('add, edit and delete clients, then save them in one batch @nojs', async ({ page, request }) => {
	const account = await signUp(page, request, 'Client Keeper')
	const { orgId } = await seed(account.email, clients)
	await page.goto('/app/clients')
	await expect(page.getByRole('row').nth(1)).toContainText('Ana Silva')
	await page.getByRole('link', { name: 'Edit table' }).click()
	// Without JavaScript "Add row" posts only the rows parsed so far: wait for the whole table.
	for (const c of clients) await expect(editRow(page, c.name)).toBeVisible()
	await page.getByRole('button', { name: 'Add row' }).click()
	const added = page.getByRole('row').nth(1)
	await expect(added.getByRole('textbox', { name: 'Name' })).toHaveValue('')
	await expect(added.getByRole('combobox', { name: 'Status' })).toHaveValue('active')
	await added.getByRole('textbox', { name: 'Name' }).fill('Dora Lima')
	await added.getByRole('textbox', { name: 'Phone' }).fill('555-0199')
	await editRow(page, 'Ana Silva').getByRole('textbox', { name: 'Company' }).fill('')
	await editRow(page, 'Ana Silva').getByRole('textbox', { name: 'Email' }).fill('ana.silva@example.com')
	await editRow(page, 'Bruno Costa').getByRole('combobox', { name: 'Status' }).selectOption('active')
	await editRow(page, 'Carla Dias').getByRole('checkbox', { name: 'Delete row' }).check()
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByRole('alertdialog', { name: 'Delete the row and save?' })).toContainText('1 added, 2 updated, 1 deleted.')
	await page.getByRole('button', { name: 'Confirm and save' }).click()
	await expect(page.getByText('Changes saved successfully')).toBeVisible()
	await expect(page).not.toHaveURL(/edit=1/)
	await expect(page.getByRole('row').filter({ hasText: 'Dora Lima' })).toContainText('555-0199')
	await expect(page.getByRole('row').filter({ hasText: 'Carla Dias' })).toHaveCount(0)
	expect(await dbClients(orgId)).toEqual([
		{ name: 'Ana Silva', email: 'ana.silva@example.com', phone: '555-0100', company: null, status: 'active' },
		{ name: 'Bruno Costa', email: 'bruno@example.com', phone: null, company: null, status: 'active' },
		{ name: 'Dora Lima', email: null, phone: '555-0199', company: null, status: 'active' },
	])
})

test('only the edit mode’s page carries each client’s version and fingerprint; the client’s own page never does @nojs', async ({
	page,
	request,
}) => {
	const account = await signUp(page, request, 'Client Payload Owner')
	const data = await seed(account.email, [{ name: 'Ana Silva' }, { name: 'Bruno Costa' }])
	const version = await withDatabase(async (db) => {
		const { rows } = await db.query<{ version: string }>(
			`select (extract(epoch from updated_at) * 1000000)::int8::text as version from public.clients where id = $1`,
			[data.ids['Ana Silva']],
		)
		return rows[0]!.version
	})
	for (const path of ['/app/clients', `/app/clients/${data.ids['Ana Silva']}`]) {
		const read = await (await request.get(path)).text()
		expect(read, path).toContain('Ana Silva')
		expect(read, path).not.toContain(version)
		expect(read, path).not.toContain('fingerprint')
	}
	const edit = await (await request.get('/app/clients?edit=1')).text()
	expect(edit).toContain(`value="${version}"`)
	expect(edit.match(/name="rows\[\d+\]\.fingerprint" value="[\w-]{22}"/g)).toHaveLength(2)
})

test('a first client added in the edit mode: no "No rows to show" under the row being added @nojs', async ({ page, request }) => {
	await signUp(page, request, 'First Client')
	await page.goto('/app/clients?edit=1&add=1')
	await expect(page.getByRole('row').nth(1).getByRole('textbox', { name: 'Name' })).toBeVisible()
	await expect(page.getByText(/No rows to show/)).toHaveCount(0)
	await page.getByRole('row').nth(1).getByRole('textbox', { name: 'Name' }).fill('Dora Lima')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByRole('link', { name: 'Dora Lima' })).toBeVisible()
	await expect(page.getByText('Showing 1–1 of 1')).toBeVisible()
})

test('the same save posted twice (a double click, a retried request) adds its rows once and says it was already saved @nojs', async ({
	page,
	request,
	baseURL,
}) => {
	const account = await signUp(page, request, 'Double Saver')
	const { orgId } = await seed(account.email, clients)
	await page.goto('/app/clients?edit=1&add=1')
	for (const c of clients) await expect(editRow(page, c.name)).toBeVisible()
	await page.getByRole('row').nth(1).getByRole('textbox', { name: 'Name' }).fill('Dora Lima')
	let posted: { body: string; type: string } | null = null
	await page.route('**/app/clients**', async (route) => {
		if (route.request().method() === 'POST')
			posted ??= { body: route.request().postData()!, type: route.request().headers()['content-type']! }
		await route.continue()
	})
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('Changes saved successfully')).toBeVisible()
	// The same form's body posted again: what a second click sends before the first answer shows.
	const again = await page.request.post('/app/clients?edit=1&add=1', {
		data: posted!.body,
		headers: { 'content-type': posted!.type, origin: baseURL! },
		maxRedirects: 0,
	})
	expect(again.status()).toBe(302)
	await page.goto(again.headers()['location']!)
	await expect(page.getByText('These changes were already saved')).toBeVisible()
	expect((await dbClients(orgId)).map((c) => c.name)).toEqual(['Ana Silva', 'Bruno Costa', 'Carla Dias', 'Dora Lima'])
	// A new page load has a new key: the same row added again is a second save, as asked.
	await page.goto('/app/clients?edit=1&add=1')
	for (const c of clients) await expect(editRow(page, c.name)).toBeVisible()
	await page.getByRole('row').nth(1).getByRole('textbox', { name: 'Name' }).fill('Eva Luz')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('Changes saved successfully')).toBeVisible()
	expect((await dbClients(orgId)).map((c) => c.name)).toContain('Eva Luz')
})

test('a client needs a name and a well-formed email; a bad row saves nothing @nojs', async ({ page, request }) => {
	const account = await signUp(page, request, 'Strict Keeper')
	const { orgId } = await seed(account.email, clients)
	const before = await dbClients(orgId)
	await page.goto('/app/clients?edit=1&add=1')
	const added = page.getByRole('row').nth(1)
	await added.getByRole('textbox', { name: 'Email' }).fill('not-an-email')
	await editRow(page, 'Bruno Costa').getByRole('textbox', { name: 'Email' }).fill('bruno@')
	await editRow(page, 'Ana Silva').getByRole('textbox', { name: 'Phone' }).fill('555-0000')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('Failed to save changes').first()).toBeVisible()
	await expect(page.getByRole('row').nth(1)).toContainText("Enter the client's name.")
	await expect(page.getByRole('row').nth(1)).toContainText('Enter a valid email address')
	await expect(editRow(page, 'Bruno Costa')).toContainText('Enter a valid email address')
	await expect(editRow(page, 'Ana Silva')).not.toContainText('Enter')
	expect(await dbClients(orgId)).toEqual(before)
})

test('cancelling client edits with unsaved changes asks first, with or without JavaScript @nojs', async ({
	page,
	request,
	javaScriptEnabled,
}) => {
	const account = await signUp(page, request, 'Hesitant Keeper')
	const { orgId } = await seed(account.email, clients)
	// No change: Cancel leaves at once.
	await page.goto('/app/clients?edit=1')
	for (const c of clients) await expect(editRow(page, c.name)).toBeVisible()
	await page.getByRole('button', { name: 'Cancel', exact: true }).click()
	await expect(page).toHaveURL(/\/app\/clients$/)

	await page.goto('/app/clients?edit=1')
	for (const c of clients) await expect(editRow(page, c.name)).toBeVisible()
	await editRow(page, 'Ana Silva').getByRole('textbox', { name: 'Name' }).fill('Ana Changed')
	await page.getByRole('button', { name: 'Cancel', exact: true }).click()
	const question = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' })
	await expect(question).toBeVisible()
	if (!javaScriptEnabled) {
		// The server asked: the table below still holds what was typed, and nothing was saved.
		await expect(question).toContainText('The changes in the table below are not saved.')
		await expect(editRow(page, 'Ana Changed').getByRole('textbox', { name: 'Name' })).toHaveValue('Ana Changed')
		expect((await dbClients(orgId))[0]?.name).toBe('Ana Silva')
	}
	await question.getByRole(javaScriptEnabled ? 'button' : 'link', { name: 'Discard changes' }).click()
	await expect(page).toHaveURL(/\/app\/clients$/)
	await expect(page.getByRole('row').nth(1)).toContainText('Ana Silva')
	expect((await dbClients(orgId))[0]?.name).toBe('Ana Silva')
})

test('client search, sort and pages live in the URL @nojs', async ({ page, request }) => {
	const account = await signUp(page, request, 'Crowd Keeper')
	await seed(
		account.email,
		Array.from({ length: 30 }, (_, i) => ({
			name: `Client ${String(i + 1).padStart(2, '0')}`,
			email: `c${i + 1}@example.com`,
			company: i % 5 === 0 ? 'Acme Corp' : undefined,
		})),
	)
	await page.goto('/app/clients')
	await expect(page.getByText('Showing 1–25 of 30')).toBeVisible()
	await expect(page.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending')
	await expect(page.getByRole('row').nth(1)).toContainText('Client 01')
	await page.getByRole('link', { name: 'Next' }).click()
	await expect(page).toHaveURL(/page=2/)
	await expect(page.getByRole('row').nth(1)).toContainText('Client 26')
	// Past the last page: the last page.
	await page.goto('/app/clients?page=50')
	await expect(page).toHaveURL(/\/app\/clients\?page=2$/)
	await expect(page.getByRole('row').nth(1)).toContainText('Client 26')
	// The current column toggles: name descending.
	await page.getByRole('link', { name: /^Name/ }).click()
	await expect(page).toHaveURL(/sort=name&dir=desc/)
	await expect(page.getByRole('row').nth(1)).toContainText('Client 30')
	// A new column sorts ascending first.
	await page.getByRole('link', { name: /^Company/ }).click()
	await expect(page).toHaveURL(/sort=company&dir=asc/)
	await expect(page.getByRole('row').nth(1)).toContainText('Acme Corp')
	await page.getByRole('searchbox', { name: 'Search' }).fill('acme')
	await page.getByRole('button', { name: 'Search', exact: true }).click()
	await expect(page).toHaveURL(/q=acme/)
	await expect(page.getByText('Showing 1–6 of 6')).toBeVisible()
	await page.goto('/app/clients?q=c17%40')
	await expect(page.getByRole('row')).toHaveCount(2)
	await expect(page.getByRole('row').nth(1)).toContainText('Client 17')
	await page.goto('/app/clients?q=nobody')
	await expect(page.getByText('No clients match your search.')).toBeVisible()
})

test('a client someone else changed since it was loaded is not overwritten @nojs', async ({ page, request }) => {
	const account = await signUp(page, request, 'Racing Keeper')
	const { orgId, ids } = await seed(account.email, clients)
	await page.goto('/app/clients?edit=1')
	await editRow(page, 'Bruno Costa').getByRole('textbox', { name: 'Company' }).fill('Mine')
	await withDatabase((db) => db.query(`update public.clients set company = 'Colleague Co' where id = $1`, [ids['Bruno Costa']]))
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('Someone else changed these rows')).toBeVisible()
	const notice = page.getByRole('alert').filter({ hasText: 'Someone else changed this client' })
	await expect(notice).toContainText('Colleague Co')
	expect((await dbClients(orgId)).find((c) => c.name === 'Bruno Costa')?.company).toBe('Colleague Co')
})

test("a client's page shows their payments and totals; unknown and other organizations' clients are not found @nojs", async ({
	page,
	request,
	playwright,
}) => {
	const account = await signUp(page, request, 'Detail Keeper')
	const { orgId, ids } = await seed(account.email, clients)
	await withDatabase((db) =>
		db.query(
			`insert into public.transactions (organization_id, client_id, external_id, amount, date_received, category) values
			 ($1, $2, 'A-1', 100.10, '2026-01-05', 'matched'), ($1, $2, 'A-2', 20.00, '2026-03-07', 'pending'), ($1, $3, 'B-1', 999, '2026-02-01', 'matched')`,
			[orgId, ids['Ana Silva'], ids['Bruno Costa']],
		),
	)
	await page.goto('/app/clients')
	await page.getByRole('link', { name: 'Ana Silva' }).click()
	await expect(page).toHaveURL(new RegExp(`/app/clients/${ids['Ana Silva']}$`))
	await expect(page.getByRole('heading', { name: 'Ana Silva', level: 1 })).toBeVisible()
	await expect(page.getByText('$120.10')).toBeVisible()
	await expect(page.getByText('01/05/2026').first()).toBeVisible()
	await expect(page.getByText('03/07/2026').first()).toBeVisible()
	await expect(page.getByRole('row').filter({ hasText: 'A-1' })).toContainText('$100.10')
	await expect(page.getByRole('row').filter({ hasText: 'B-1' })).toHaveCount(0)
	await expect(page.getByText('Showing 1–2 of 2')).toBeVisible()

	const other = newAccount('Other Keeper')
	const otherRequest = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL })
	await signUpByRequest(otherRequest, other)
	await otherRequest.dispose()
	const theirs = await seed(other.email, [{ name: 'Secret Client' }])
	for (const id of [theirs.ids['Secret Client'], '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
		const response = await page.goto(`/app/clients/${id}`)
		expect(response?.status()).toBe(404)
		await expect(page.getByRole('heading', { name: 'Client not found' })).toBeVisible()
		await expect(page.getByText('Secret Client')).toHaveCount(0)
	}
	// Saving over another organization's client is refused and writes nothing.
	const forged = await request.post('/app/clients?edit=1', {
		form: {
			intent: 'save',
			'rows[0].id': theirs.ids['Secret Client']!,
			'rows[0].version': '1',
			'rows[0].name': 'Hijacked',
			'rows[0].status': 'active',
			formEnd: '1',
		},
		maxRedirects: 0,
	})
	expect(forged.status()).toBe(400)
	expect(await forged.text()).toContain('This client no longer exists in your organization.')
	expect(await dbClients(theirs.orgId)).toEqual([{ name: 'Secret Client', email: null, phone: null, company: null, status: 'active' }])
	const unknown = await request.post('/app/clients', { form: { intent: 'nope' }, maxRedirects: 0 })
	expect(unknown.status()).toBe(400)
})

const topLevelKeys = readdirSync('public/locales/en').flatMap((file) =>
	Object.keys(JSON.parse(readFileSync(`public/locales/en/${file}`, 'utf8')) as Record<string, unknown>),
)
const missingKey = new RegExp(`\\b(${topLevelKeys.join('|')})\\.[a-zA-Z]+|\\b(common|auth|notFound|table|transactions|clients):`)

for (const lng of ['es', 'pt-BR'] as const) {
	test(`the clients screens render in ${lng} with no missing key @nojs`, async ({ page, request }) => {
		const account = await signUp(page, request, 'Polyglot Keeper')
		const { ids } = await seed(account.email, clients)
		await page
			.context()
			.addCookies([{ name: 'lng', value: Buffer.from(JSON.stringify(lng)).toString('base64'), url: test.info().project.use.baseURL! }])
		for (const path of [
			'/app/clients',
			'/app/clients?edit=1&add=1',
			'/app/clients?q=nobody',
			`/app/clients/${ids['Ana Silva']}`,
			'/app/clients/not-a-uuid',
		]) {
			await page.goto(path)
			await expect(page.locator('html')).toHaveAttribute('lang', lng)
			if (path === '/app/clients') await expect(page.getByRole('heading', { name: 'Clientes', level: 1 })).toBeVisible()
			const text = await page.locator('main').innerText()
			expect(text, `${lng} ${path}`).not.toMatch(missingKey)
		}
		await page.goto('/app/clients?edit=1&add=1')
		await page.getByRole('row').nth(1).getByRole('textbox').nth(1).fill('bad')
		await page.getByRole('button', { name: lng === 'es' ? 'Guardar' : 'Salvar' }).click()
		await expect(page.getByRole('row').nth(1).locator('.text-destructive').first()).toBeVisible()
		expect(await page.locator('main').innerText()).not.toMatch(missingKey)
	})
}

test('saving a name another client already has asks first @nojs', async ({ page, request }) => {
	const account = await signUp(page, request, 'Twin Keeper')
	const { orgId } = await seed(account.email, clients.slice(0, 2))
	await page.goto('/app/clients?edit=1&add=1')
	await page.getByRole('row').nth(1).getByRole('textbox', { name: 'Name' }).fill('ana silva')
	await page.getByRole('button', { name: 'Save' }).click()
	const question = page.getByRole('alertdialog', { name: 'Save these changes?' })
	await expect(question).toContainText('A client named “ana silva” already exists.')
	await expect(question).toContainText('1 added, 0 updated, 0 deleted.')
	expect(await dbClients(orgId)).toHaveLength(2)
	await page.getByRole('button', { name: 'Confirm and save' }).click()
	await expect(page.getByText('Changes saved successfully')).toBeVisible()
	expect((await dbClients(orgId)).map((c) => c.name).sort()).toEqual(['Ana Silva', 'Bruno Costa', 'ana silva'])
})

test('the question before a deletion is asked in es and pt-BR, for one row or several @nojs', async ({ page, request }) => {
	const account = await signUp(page, request, 'Polyglot Keeper')
	const { orgId } = await seed(account.email, clients.slice(0, 2))
	for (const [lng, save, title, confirm, rows] of [
		['es', 'Guardar', '¿Eliminar la fila y guardar?', 'Confirmar y guardar', 1],
		['pt-BR', 'Salvar', 'Excluir 2 linhas e salvar?', 'Confirmar e salvar', 2],
	] as const) {
		await page
			.context()
			.addCookies([{ name: 'lng', value: Buffer.from(JSON.stringify(lng)).toString('base64'), url: test.info().project.use.baseURL! }])
		await page.goto('/app/clients?edit=1')
		for (let row = 1; row <= rows; row++) await page.getByRole('row').nth(row).getByRole('checkbox').check()
		await page.getByRole('button', { name: save, exact: true }).click()
		await expect(page.getByRole('alertdialog', { name: title })).toBeVisible()
		await expect(page.getByRole('button', { name: confirm })).toBeVisible()
	}
	expect(await dbClients(orgId)).toHaveLength(2)
})
