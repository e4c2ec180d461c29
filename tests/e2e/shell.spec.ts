import { readdirSync, readFileSync } from 'node:fs'
import { withDatabase } from './db.ts'
import { expect, newAccount, signedInTest, signUpByRequest, signUpThroughUi, test } from './fixtures.ts'

signedInTest('the sidebar collapses with its button and stays collapsed after a reload @nojs', async ({ page }) => {
	await page.goto('/app/dashboard')
	const sidebar = page.locator('#app-sidebar')
	await expect(sidebar).toHaveAttribute('data-state', 'expanded')
	await page.getByRole('button', { name: 'Toggle sidebar' }).click()
	await expect(sidebar).toHaveAttribute('data-state', 'collapsed')
	await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === 'sidebar:state')?.value).toBe('false')
	await page.reload()
	await expect(sidebar).toHaveAttribute('data-state', 'collapsed')
	await page.getByRole('button', { name: 'Toggle sidebar' }).click()
	await expect(sidebar).toHaveAttribute('data-state', 'expanded')
	await page.reload()
	await expect(sidebar).toHaveAttribute('data-state', 'expanded')
})

signedInTest('Ctrl+B toggles the sidebar', async ({ page }) => {
	await page.goto('/app/dashboard')
	const sidebar = page.locator('#app-sidebar')
	await expect(sidebar).toHaveAttribute('data-state', 'expanded')
	await page.keyboard.press('Control+b')
	await expect(sidebar).toHaveAttribute('data-state', 'collapsed')
	await page.keyboard.press('Control+b')
	await expect(sidebar).toHaveAttribute('data-state', 'expanded')
})

signedInTest(
	'icons are drawn at their sizes: 16 px where a class or a button sizes them, never larger than lucide’s 24 px @nojs',
	async ({ page }) => {
		await page.goto('/app/transactions')
		const sizes = await page
			.locator('svg.lucide')
			.evaluateAll((icons) =>
				icons
					.filter((icon) => icon.getClientRects().length > 0)
					.map((icon) => ({ sidebar: !!icon.closest('#app-sidebar'), ...icon.getBoundingClientRect().toJSON() })),
			)
		expect(sizes.length).toBeGreaterThan(10)
		for (const { sidebar, width, height } of sizes) {
			expect(width).toBeGreaterThan(0)
			expect(width).toBeLessThanOrEqual(24)
			expect(height).toBe(width)
			if (sidebar) expect(width).toBe(16)
		}
	},
)

signedInTest('the current screen is marked in the sidebar, and the user card links to settings', async ({ page, account }) => {
	await page.goto('/app/reports')
	const nav = page.getByRole('navigation', { name: 'Main navigation' })
	await expect(nav.getByRole('link', { name: 'Reports' })).toHaveAttribute('aria-current', 'page')
	await expect(page.locator('#app-sidebar').getByText('No active modules yet')).toBeVisible()
	await page
		.locator('#app-sidebar')
		.getByRole('link', { name: new RegExp(account.fullName) })
		.click()
	await expect(page).toHaveURL(/\/app\/settings$/)
})

signedInTest('a link moves within the app without loading a new document; a link to the same page adds no history', async ({ page }) => {
	await page.goto('/app/dashboard')
	// A value on the window lasts only as long as the document: a full page load would drop it.
	await page.evaluate(() => Object.assign(window, { sameDocument: true }))
	const nav = page.getByRole('navigation', { name: 'Main navigation' })
	await nav.getByRole('link', { name: 'Transactions' }).click()
	await expect(page).toHaveURL(/\/app\/transactions$/)
	await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible()
	await expect(nav.getByRole('link', { name: 'Transactions' })).toHaveAttribute('aria-current', 'page')
	await expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current', 'page')
	// A link in a table (a column's sort) too.
	await page
		.getByRole('table')
		.getByRole('link', { name: /^Amount/ })
		.click()
	await expect(page).toHaveURL(/\/app\/transactions\?sort=amount&dir=asc$/)
	await expect(page.getByRole('columnheader', { name: /^Amount/ })).toHaveAttribute('aria-sort', 'ascending')
	expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true)

	const entries = await page.evaluate(() => history.length)
	await nav.getByRole('link', { name: 'Clients' }).click()
	await expect(page).toHaveURL(/\/app\/clients$/)
	await nav.getByRole('link', { name: 'Clients' }).click()
	await expect.poll(() => page.evaluate(() => history.length)).toBe(entries + 1)
	await page.goBack()
	await expect(page).toHaveURL(/\/app\/transactions\?sort=amount&dir=asc$/)
	await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible()
	expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true)
})

signedInTest('a link clicked with Ctrl (or ⌘) opens in a new tab and leaves the page where it is', async ({ page, context }) => {
	await page.goto('/app/dashboard')
	const opened = context.waitForEvent('page')
	await page
		.getByRole('navigation', { name: 'Main navigation' })
		.getByRole('link', { name: 'Reports' })
		.click({ modifiers: ['ControlOrMeta'] })
	const tab = await opened
	await tab.waitForLoadState()
	expect(new URL(tab.url()).pathname).toBe('/app/reports')
	await expect(page).toHaveURL(/\/app\/dashboard$/)
	await tab.close()
})

signedInTest('the language choice survives a reload and follows the user @nojs', async ({ page }) => {
	await page.goto('/app/dashboard')
	await page.getByLabel('Language').click()
	await page.getByRole('button', { name: 'Español' }).click()
	await expect(page.locator('html')).toHaveAttribute('lang', 'es')
	await expect(page.getByRole('heading', { name: 'Panel', level: 1 })).toBeVisible()
	await page.reload()
	await expect(page.locator('html')).toHaveAttribute('lang', 'es')
	await expect(page.locator('#app-sidebar').getByRole('link', { name: 'Transacciones' })).toBeVisible()
	await page.getByLabel('Idioma').click()
	await page.getByRole('button', { name: 'Português (Brasil)' }).click()
	await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR')
	await expect(page.getByRole('heading', { name: 'Painel', level: 1 })).toBeVisible()
	await page.getByLabel('Idioma').click()
	await page.getByRole('button', { name: 'English' }).click()
	await expect(page.locator('html')).toHaveAttribute('lang', 'en')
})

const topLevelKeys = readdirSync('public/locales/en').flatMap((file) =>
	Object.keys(JSON.parse(readFileSync(`public/locales/en/${file}`, 'utf8')) as Record<string, unknown>),
)
const missingKey = new RegExp(`\\b(${topLevelKeys.join('|')})\\.[a-zA-Z]+|\\b(common|auth|notFound|table):`)

test('each screen of the shell renders in es and pt-BR without a missing key', async ({ page, request }) => {
	const account = newAccount('Polyglot')
	await signUpByRequest(request, account)
	await page.context().addCookies((await request.storageState()).cookies)
	for (const lng of ['es', 'pt-BR']) {
		await page
			.context()
			.addCookies([{ name: 'lng', value: Buffer.from(JSON.stringify(lng)).toString('base64'), url: test.info().project.use.baseURL! }])
		for (const path of ['/', '/auth', '/app/dashboard', '/app/transactions', '/app/plans', '/no-such-page']) {
			await page.goto(path)
			await expect(page.locator('html')).toHaveAttribute('lang', lng)
			const text = await page.locator('body').innerText()
			// A missing key renders as its dotted path, e.g. "nav.dashboard" or "auth:errors.x.title".
			expect(text, `${lng} ${path}`).not.toMatch(missingKey)
		}
	}
})

test('a cross-site POST is refused and changes nothing @nojs', async ({ request }) => {
	const account = newAccount()
	const response = await request.post('/auth?mode=signup', {
		headers: { Origin: 'https://evil.example' },
		form: { intent: 'signup', fullName: 'Evil', email: account.email, password: 'abcdef', confirmPassword: 'abcdef' },
		maxRedirects: 0,
	})
	expect(response.status()).toBeGreaterThanOrEqual(400)
	expect(response.status()).toBeLessThan(500)
	const signIn = await request.post('/auth', { form: { intent: 'login', email: account.email, password: 'abcdef' }, maxRedirects: 0 })
	expect(signIn.status()).toBe(400) // the account was never created

	const preferences = await request.post('/preferences', {
		headers: { 'Sec-Fetch-Site': 'cross-site' },
		form: { intent: 'language', language: 'es' },
		maxRedirects: 0,
	})
	expect(preferences.status()).toBe(403)
})

test('HTML responses carry the security headers with a nonce on every script', async ({ page }) => {
	const response = await page.goto('/auth')
	const headers = response!.headers()
	const csp = headers['content-security-policy']!
	expect(csp).toContain("frame-ancestors 'none'")
	const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
	expect(nonce).toBeTruthy()
	expect(headers['x-content-type-options']).toBe('nosniff')
	expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
	const html = await response!.text()
	const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
	expect(scripts.length).toBeGreaterThan(0)
	for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)
})

test('/healthz answers 200 after checking the database', async ({ request }) => {
	const response = await request.get('/healthz')
	expect(response.status()).toBe(200)
	expect(await response.json()).toEqual({ status: 'ok' })
})

test('a user with no organization reaches onboarding and creates one @nojs', async ({ page, request }) => {
	const account = newAccount('Orphan User')
	await signUpByRequest(request, account)
	await withDatabase((db) =>
		db.query(
			`delete from public.organizations where id in (
				select organization_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1)`,
			[account.email],
		),
	)
	await page.context().addCookies((await request.storageState()).cookies)
	await page.goto('/app/dashboard')
	await expect(page).toHaveURL(/\/onboarding$/)
	await page.getByRole('button', { name: 'Create organization' }).click()
	await expect(page.getByText('Please enter a name for your organization.')).toBeVisible()
	await page.getByLabel('Organization name').fill('Fresh Start LLC')
	await page.getByRole('button', { name: 'Create organization' }).click()
	await expect(page).toHaveURL(/\/app\/dashboard$/)
	await expect(page.getByTestId('current-organization')).toHaveText('Fresh Start LLC')
})

test('a member of several organizations switches between them, and the choice sticks @nojs', async ({ page, request }) => {
	const account = newAccount('Two Orgs')
	const other = newAccount('Other Owner')
	await signUpByRequest(request, account)
	const otherRequest = await (await import('@playwright/test')).request.newContext({ baseURL: test.info().project.use.baseURL })
	await signUpByRequest(otherRequest, other)
	await otherRequest.dispose()
	await withDatabase((db) =>
		db.query(
			`insert into public.organization_members (organization_id, user_id, role, joined_at)
			 select m.organization_id, me.id, 'member', now()
			 from public.organization_members m join auth.users o on o.id = m.user_id, auth.users me
			 where o.email = $1 and me.email = $2`,
			[other.email, account.email],
		),
	)
	await page.context().addCookies((await request.storageState()).cookies)
	await page.goto('/app/dashboard')
	await expect(page.getByTestId('current-organization')).toHaveText('Two Orgs')
	await page.locator('#app-sidebar').getByLabel('Switch organization').click()
	await page.locator('#app-sidebar').getByRole('button', { name: 'Other Owner' }).click()
	await expect(page.getByTestId('current-organization')).toHaveText('Other Owner')
	await page.reload()
	await expect(page.getByTestId('current-organization')).toHaveText('Other Owner')
})

test('the embedded install starts with a demo owner whose credentials it printed @embedded', async ({ page }) => {
	const { readFileSync } = await import('node:fs')
	const demo = JSON.parse(readFileSync(`${process.env.E2E_EMBEDDED_DATA_DIR}/demo-credentials.json`, 'utf8')) as {
		email: string
		password: string
	}
	await page.goto('/auth')
	await page.getByLabel('Email').fill(demo.email)
	await page.getByLabel('Password', { exact: true }).fill(demo.password)
	await page.getByRole('button', { name: 'Sign In' }).click()
	await expect(page).toHaveURL(/\/app\/dashboard$/)
	await expect(page.getByTestId('current-organization')).toHaveText('Demo Studio')
	// The demo organization has Appointment Booking activated: the sidebar shows what only it brings (Who owes me).
	await expect(page.locator('#app-sidebar').getByRole('link', { name: 'Who owes me' })).toHaveAttribute('href', '/app/owed')
	await page.getByRole('button', { name: 'Sign out' }).click()
	await expect(page).toHaveURL(/\/$/)
	await signUpThroughUiOnEmbedded(page)
})

async function signUpThroughUiOnEmbedded(page: import('@playwright/test').Page) {
	await signUpThroughUi(page, newAccount('Embedded User'))
	await expect(page.getByTestId('current-organization')).toHaveText('Embedded User')
}

signedInTest.describe('on a phone', () => {
	signedInTest.use({ viewport: { width: 390, height: 844 } })

	signedInTest('the menu opens as a sheet and navigates @nojs', async ({ page }) => {
		await page.goto('/app/dashboard')
		await expect(page.getByRole('link', { name: 'Clients', exact: true })).toHaveCount(0)
		await page.getByLabel('Open menu').click()
		const clients = page.getByRole('link', { name: 'Clients', exact: true })
		await expect(clients).toBeVisible()
		const box = await clients.boundingBox()
		expect(box?.width ?? 0).toBeGreaterThan(100)
		await clients.click()
		await expect(page).toHaveURL(/\/app\/clients$/)
	})

	signedInTest(
		'with the sidebar collapsed on a laptop, the phone menu still shows its labels, and closes again @nojs',
		async ({ page, context, baseURL, javaScriptEnabled }) => {
			await context.addCookies([{ name: 'sidebar:state', value: 'false', url: baseURL! }])
			await page.goto('/app/dashboard')
			await page.getByLabel('Open menu').click()
			const label = page.getByRole('link', { name: 'Clients', exact: true }).getByText('Clients')
			await expect(label).toBeVisible()
			expect((await label.boundingBox())?.width ?? 0).toBeGreaterThan(30)
			if (javaScriptEnabled) await page.keyboard.press('Escape')
			else await page.getByLabel('Open menu').click()
			await expect(page.getByRole('link', { name: 'Clients', exact: true })).toHaveCount(0)
		},
	)

	for (const lng of ['en', 'es', 'pt-BR']) {
		signedInTest(`no screen is wider than the phone, signed in or out, in ${lng}`, async ({ page, browser, request }) => {
			signedInTest.setTimeout(240_000)
			// An organization of its own, with long values, a client, and the booking module on.
			const account = newAccount(`Phone Owner ${lng}`)
			await signUpByRequest(request, account)
			await page.context().clearCookies()
			await page.context().addCookies((await request.storageState()).cookies)
			const clientId = await withDatabase(async (db) => {
				const { rows } = await db.query<{ organization_id: string; user_id: string }>(
					'select m.organization_id, u.id as user_id from auth.users u join public.organization_members m on m.user_id = u.id where u.email = $1',
					[account.email],
				)
				const { organization_id: orgId, user_id: userId } = rows[0]!
				const client = await db.query<{ id: string }>(
					`insert into public.clients (organization_id, user_id, name, email, company) values ($1, $2, 'Ana Beatriz Silva Nascimento', 'ana.beatriz.silva.nascimento@example.com', 'Estúdio de Design Nascimento e Filhos') returning id`,
					[orgId, userId],
				)
				await db.query(
					`insert into public.transactions (organization_id, user_id, client_id, external_id, amount, description, date_received)
					 select $1, $2, $3, 'EXT-LONG-IDENTIFIER-' || g, 123456.78 * g, 'A long description of what this payment was for, ' || g, current_date - g
					 from generate_series(1, 5) g`,
					[orgId, userId, client.rows[0]!.id],
				)
				await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [orgId, BOOKING_MODULE_ID])
				return client.rows[0]!.id
			})
			await chooseLanguage(page, lng)
			const overflowOf = async (target: import('@playwright/test').Page, path: string) => {
				await target.goto(path)
				return target.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
			}
			for (const path of [...PHONE_SCREENS, `/app/clients/${clientId}`, `/app/clients/${clientId}?edit=1`]) {
				expect(await overflowOf(page, path), `${lng} ${path}`).toBeLessThanOrEqual(0)
			}
			const anonymous = await browser.newPage({ viewport: { width: 390, height: 844 } })
			await chooseLanguage(anonymous, lng)
			for (const path of ['/', '/auth', '/auth?mode=signup', '/auth/forgot-password']) {
				expect(await overflowOf(anonymous, path), `${lng} signed out ${path}`).toBeLessThanOrEqual(0)
			}
			await anonymous.close()
		})
	}
})

const P2P_MODULE_ID = 'b0000000-0000-4000-8000-000000000001'
const BOOKING_MODULE_ID = 'b0000000-0000-4000-8000-000000000003'

/**
 * Every signed-in screen a phone user reaches from the menu and the tabs, and the landing page
 * signed in (the client's own page is added with the client the test creates).
 */
const PHONE_SCREENS = [
	'/',
	'/app/dashboard',
	'/app/transactions',
	'/app/transactions?edit=1&add=1',
	'/app/clients',
	'/app/clients?edit=1',
	'/app/categories',
	'/app/reports',
	'/app/module-marketplace',
	`/app/modules/${P2P_MODULE_ID}`,
	`/app/modules/${BOOKING_MODULE_ID}`,
	'/app/plans',
	'/app/gears',
	'/app/booking/calendar',
	'/app/booking/services',
	'/app/booking/services?edit=1&add=1',
	'/app/booking/providers',
	'/app/booking/providers?edit=1',
	'/app/booking/analytics',
	'/app/booking/settings',
	'/app/settings',
	'/app/settings/organization',
	'/app/settings/members',
	'/app/settings/notifications',
	'/app/transactions/import',
	'/app/transactions/import/history',
	'/app/transactions/import/review',
]

async function chooseLanguage(page: import('@playwright/test').Page, lng: string) {
	await page
		.context()
		.addCookies([{ name: 'lng', value: Buffer.from(JSON.stringify(lng)).toString('base64'), url: test.info().project.use.baseURL! }])
}

signedInTest('screens under /app are titled in the user language, and the title follows a navigation @nojs', async ({ page }) => {
	await page.goto('/app/reports')
	await expect(page).toHaveTitle('Reports · P2P Transaction Tracker')
	await page.goto('/app/plans')
	await expect(page).toHaveTitle('Plans · P2P Transaction Tracker')
	await page.locator('#app-sidebar').getByRole('link', { name: 'Dashboard' }).click()
	await expect(page).toHaveURL(/\/app\/dashboard$/)
	await expect(page).toHaveTitle('Dashboard · P2P Transaction Tracker')

	await chooseLanguage(page, 'es')
	await page.goto('/app/reports')
	await expect(page).toHaveTitle('Informes · P2P Transaction Tracker')
	await page.locator('#app-sidebar').getByRole('link', { name: 'Categorías' }).click()
	await expect(page).toHaveURL(/\/app\/categories$/)
	await expect(page).toHaveTitle('Categorías · P2P Transaction Tracker')
	await page.goto('/no-such-page')
	await expect(page).toHaveTitle('Página no encontrada · P2P Transaction Tracker')
})

test('the signed-out screens are titled in the visitor language @nojs', async ({ page }) => {
	await page.goto('/auth')
	await expect(page).toHaveTitle('Sign in · P2P Transaction Tracker')
	await page.goto('/auth/forgot-password')
	await expect(page).toHaveTitle('Reset your password · P2P Transaction Tracker')
	await chooseLanguage(page, 'es')
	await page.goto('/auth')
	await expect(page).toHaveTitle('Iniciar sesión · P2P Transaction Tracker')
	await page.getByRole('link', { name: 'Regístrate' }).click()
	await expect(page).toHaveTitle('Crear cuenta · P2P Transaction Tracker')
	await page.goto('/')
	await expect(page).toHaveTitle('P2P Transaction Tracker')
})

signedInTest('an unknown screen under /app answers 404 inside the shell, in the user language @nojs', async ({ page }) => {
	const response = await page.goto('/app/no-such-screen')
	expect(response?.status()).toBe(404)
	await expect(page.getByRole('heading', { name: 'Not found', level: 1 })).toBeVisible()
	await expect(page.getByText('We could not find what you were looking for.')).toBeVisible()
	await expect(page).toHaveTitle('Page not found · P2P Transaction Tracker')
	// The shell stays: the sidebar still leads to every screen.
	const nav = page.getByRole('navigation', { name: 'Main navigation' })
	await expect(nav.getByRole('link', { name: 'Transactions' })).toBeVisible()
	await page.getByRole('link', { name: 'Back to the dashboard' }).click()
	await expect(page).toHaveURL(/\/app\/dashboard$/)

	await chooseLanguage(page, 'es')
	await page.goto('/app/no-such-screen')
	await expect(page.getByRole('heading', { name: 'No encontrado', level: 1 })).toBeVisible()
	await expect(page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Transacciones' })).toBeVisible()
})

signedInTest('the first Tab stop skips to the content; the language menu names what it shows @nojs', async ({ page }) => {
	await page.goto('/app/transactions')
	await page.keyboard.press('Tab')
	const skip = page.getByRole('link', { name: 'Skip to content' })
	await expect(skip).toBeFocused()
	await expect(skip).toBeVisible()
	await page.keyboard.press('Enter')
	await expect(page.locator('main')).toBeFocused()
	// The next Tab lands inside the content, not back in the sidebar.
	await page.keyboard.press('Tab')
	expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true)
	// "Language: English": the visible name is part of the accessible name.
	await expect(
		page
			.getByRole('group')
			.filter({ has: page.locator('summary') })
			.first()
			.locator('summary'),
	).toHaveAccessibleName('Language: English')
})

signedInTest('Escape closes the language menu and gives the focus back to its button', async ({ page }) => {
	await page.goto('/app/dashboard')
	const summary = page.getByRole('banner').locator('summary', { hasText: 'English' })
	await summary.click()
	const spanish = page.getByRole('button', { name: 'Español' })
	await expect(spanish).toBeVisible()
	await spanish.focus()
	await page.keyboard.press('Escape')
	await expect(spanish).toBeHidden()
	await expect(summary).toBeFocused()
	// Opened again and closed from its own button.
	await page.keyboard.press('Enter')
	await expect(spanish).toBeVisible()
	await page.keyboard.press('Escape')
	await expect(spanish).toBeHidden()
})

signedInTest('an open language menu closes on a click outside it: on the page, or on a link to another page', async ({ page }) => {
	await page.goto('/app/dashboard')
	const summary = page.getByRole('banner').locator('summary', { hasText: 'English' })
	const spanish = page.getByRole('button', { name: 'Español' })
	await summary.click()
	await expect(spanish).toBeVisible()
	await page.getByRole('heading', { name: 'Dashboard', level: 1 }).click()
	await expect(spanish).toBeHidden()
	await summary.click()
	await expect(spanish).toBeVisible()
	await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Clients' }).click()
	await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible()
	await expect(spanish).toBeHidden()
})

signedInTest('a slow navigation shows a progress bar until the next page is there', async ({ page }) => {
	await page.goto('/app/dashboard')
	let release = () => {}
	const held = new Promise<void>((resolve) => (release = resolve))
	await page.route('**/app/categories.data*', async (route) => {
		await held
		await route.continue()
	})
	await page.locator('#app-sidebar').getByRole('link', { name: 'Categories' }).click()
	await expect(page.getByRole('progressbar', { name: 'Loading the page' })).toBeVisible()
	release()
	await expect(page.getByRole('heading', { name: 'Categories', level: 1 })).toBeVisible()
	await expect(page.getByRole('progressbar', { name: 'Loading the page' })).toHaveCount(0)
})

signedInTest(
	'the landing page greets a signed-in user and leads into the app instead of offering a sign-up @nojs',
	async ({ page, account }) => {
		await page.goto('/')
		await expect(page.getByText(`Welcome back, ${account.fullName}.`)).toBeVisible()
		await expect(page.getByRole('link', { name: 'Get started free' })).toHaveCount(0)
		await expect(page.getByRole('link', { name: 'Sign in' })).toHaveCount(0)
		await expect(page.getByRole('link', { name: 'See plans in the app' }).first()).toHaveAttribute('href', '/app/plans')
		await page.getByRole('main').getByRole('link', { name: 'Open the app' }).click()
		await expect(page).toHaveURL(/\/app\/dashboard$/)
	},
)

test('every page has the skip link’s target, the public ones too @nojs', async ({ page }) => {
	for (const path of ['/', '/auth', '/auth/forgot-password', '/book', '/book/no-such-organization', '/no-such-page']) {
		await page.goto(path)
		await expect(page.locator('main#main-content'), path).toHaveCount(1)
	}
})

test('one sidebar link per destination: with Appointment Booking active, Booking is its link and no second one is listed @nojs', async ({
	page,
}) => {
	const account = newAccount('Module Links')
	await signUpByRequest(page.request, account)
	await withDatabase((db) =>
		db.query(
			`insert into public.organization_modules (organization_id, module_id)
			 select m.organization_id, 'b0000000-0000-4000-8000-000000000003' from public.organization_members m
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		),
	)
	await page.goto('/app/dashboard')
	const nav = page.getByRole('navigation', { name: 'Main navigation' })
	await expect(nav.getByRole('link', { name: 'Who owes me' })).toBeVisible()
	const hrefs = await nav.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')))
	expect(hrefs.filter((h) => h?.startsWith('/app/booking'))).toEqual(['/app/booking'])
	expect(hrefs.filter((h) => h?.includes('/modules/'))).toEqual([])
	await expect(nav.getByRole('link', { name: 'Appointment Booking' })).toHaveCount(0)
	// Nor an "Active modules" heading over nothing, or saying there are none.
	await expect(nav.getByRole('heading', { name: 'Active modules' })).toHaveCount(0)
	await expect(nav.getByText('No active modules yet')).toHaveCount(0)
})
