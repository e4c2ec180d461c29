import type { APIRequestContext, Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, tabTo, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

const BOOKING = 'b0000000-0000-4000-8000-000000000003'
const INVENTORY = 'b0000000-0000-4000-8000-000000000007'

async function orgOf(email: string) {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string; user_id: string }>(
			`select m.organization_id, m.user_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[email],
		)
		return { orgId: rows[0]!.organization_id, userId: rows[0]!.user_id }
	})
}

async function gears(orgId: string) {
	return withDatabase(async (db) => {
		const balance = (await db.query<{ gears_remaining: number }>(`select gears_remaining from public.organizations where id = $1`, [orgId]))
			.rows[0]!
		const ledger = (
			await db.query<{ delta: number; reason: string; module_id: string | null }>(
				`select delta, reason::text, module_id from public.gear_ledger where organization_id = $1 and reason <> 'initial_grant' order by id`,
				[orgId],
			)
		).rows
		// The modules the organization chose: the included ones (every organization has them) are left out.
		const modules = (
			await db.query<{ module_id: string }>(
				`select om.module_id from public.organization_modules om join public.modules m on m.id = om.module_id
				 where om.organization_id = $1 and not m.included`,
				[orgId],
			)
		).rows
		return { remaining: balance.gears_remaining, ledger, modules: modules.map((m) => m.module_id) }
	})
}

async function owner(page: Page, request: APIRequestContext, name: string) {
	const account = await signUpFresh(page, request, name)
	return { account, ...(await orgOf(account.email)) }
}

function card(page: Page, name: string) {
	return page.getByRole('article', { name, exact: true })
}

test('an owner activates a paid module: balance, ledger and sidebar change; deactivation asks first and refunds nothing @nojs', async ({
	page,
	request,
}) => {
	const { orgId } = await owner(page, request, 'Market Owner')
	await page.goto('/app/module-marketplace')
	await expect(page.getByRole('heading', { name: 'Module Marketplace', level: 1 })).toBeVisible()
	await expect(page.getByText('Available gears')).toBeVisible()
	const reports = card(page, 'Appointment Booking')
	await expect(reports.getByText('1,000 gears, once', { exact: true })).toBeVisible()
	await expect(reports.getByText('Available', { exact: true })).toBeVisible()
	await expect(card(page, 'P2P Transaction Tracking').getByText('Included', { exact: true })).toHaveCount(2) // status and price
	await expect(page.getByText(/gears per use/)).toHaveCount(0)
	// Two industry tags, then +N
	await expect(card(page, 'P2P Transaction Tracking').getByText('+3')).toBeVisible()
	const sidebar = page.getByRole('navigation', { name: 'Main navigation' })
	await expect(sidebar.getByRole('link', { name: 'Appointment Booking' })).toHaveCount(0)

	await reports.getByRole('button', { name: /^Activate .* — Appointment Booking$/ }).click()
	await expect(page.getByText('Module Activated').first()).toBeVisible()
	await expect(reports.getByText('Activated', { exact: true })).toBeVisible()
	// Its screens are under Booking: no second link to it under Active modules (one link per destination).
	await expect(sidebar.getByRole('link', { name: 'Who owes me' })).toBeVisible()
	await expect(sidebar.getByRole('link', { name: 'Appointment Booking' })).toHaveCount(0)
	expect(await gears(orgId)).toEqual({
		remaining: 14000,
		ledger: [{ delta: -1000, reason: 'module_activation', module_id: BOOKING }],
		modules: [BOOKING],
	})
	await expect(page.getByText('14,000').first()).toBeVisible()
	// The same activation posted again (a resubmission, an old tab) says why, and charges nothing.
	const again = await page.request.post('/app/module-marketplace', {
		form: { intent: 'activate', moduleId: BOOKING },
		headers: { origin: test.info().project.use.baseURL! },
		maxRedirects: 0,
	})
	expect(again.status()).toBe(302)
	await page.goto('/app/module-marketplace')
	await expect(page.getByText('It is already active.').first()).toBeVisible()
	expect((await gears(orgId)).remaining).toBe(14000)

	// Deactivation: a confirmation step (a link), which says gears are not refunded.
	await reports.getByRole('link', { name: 'Deactivate — Appointment Booking' }).click()
	const confirm = page.getByRole('alertdialog', { name: 'Deactivate Appointment Booking?' })
	await expect(confirm).toContainText('Spent gears are not refunded.')
	await confirm.getByRole('link', { name: 'Cancel' }).click()
	await expect(page.getByRole('alertdialog')).toHaveCount(0)
	expect((await gears(orgId)).modules).toEqual([BOOKING])
	await reports.getByRole('link', { name: 'Deactivate — Appointment Booking' }).click()
	await page.getByRole('alertdialog').getByRole('button', { name: 'Deactivate module' }).click()
	await expect(page.getByText('Module Deactivated').first()).toBeVisible()
	await expect(sidebar.getByRole('link', { name: 'Appointment Booking' })).toHaveCount(0)
	expect(await gears(orgId)).toMatchObject({ remaining: 14000, modules: [] })

	// The gear history shows the spend, by whom, with the balance after it.
	await page.goto('/app/gears')
	const row = page.getByRole('row').filter({ hasText: 'Module activated: Appointment Booking' })
	await expect(row).toContainText('Market Owner')
	await expect(row).toContainText('-1,000')
	await expect(row).toContainText('14,000')
	// Its date is the day in the organization's timezone: 23:30 UTC on 1 March is 2 March in Tokyo.
	await withDatabase(async (db) => {
		await db.query(`update public.booking_settings set timezone = 'Asia/Tokyo' where organization_id = $1`, [orgId])
		// The ledger is append-only: its trigger is set aside for this backdating alone.
		await db.query('begin')
		await db.query('set local session_replication_role = replica')
		await db.query(`update public.gear_ledger set created_at = '2026-03-01T23:30:00Z' where organization_id = $1`, [orgId])
		await db.query('commit')
	})
	await page.reload()
	await expect(row).toContainText('03/02/2026')
	// A page past the end goes to the first one, which has the movements.
	await page.goto('/app/gears?page=2')
	await expect(page).toHaveURL(/\/app\/gears$/)
	await expect(page.getByRole('row').filter({ hasText: 'Module activated: Appointment Booking' })).toBeVisible()
})

test('insufficient gears: the activation is refused with the amounts and nothing is spent @nojs', async ({ page, request }) => {
	const { orgId } = await owner(page, request, 'Poor Owner')
	await withDatabase((db) => db.query(`select private.spend_gears($1, 14500, 'adjustment')`, [orgId]))
	await page.goto('/app/module-marketplace')
	await card(page, 'Appointment Booking')
		.getByRole('button', { name: /^Activate .* — Appointment Booking$/ })
		.click()
	await expect(page.getByText('Insufficient Gears').first()).toBeVisible()
	await expect(page.getByText('You need 1,000 gears to activate this module. You have 500 gears remaining.').first()).toBeVisible()
	expect(await gears(orgId)).toMatchObject({ remaining: 500, modules: [] })
})

test('a non-owner sees no activate or deactivate buttons, and a forged post is refused and changes nothing @nojs', async ({
	page,
	request,
}) => {
	const { orgId, userId } = await owner(page, request, 'Not Owner')
	await withDatabase(async (db) => {
		await db.query(`insert into public.organization_modules (organization_id, module_id) values ($1, $2)`, [orgId, BOOKING])
		await db.query(`update public.organization_members set role = 'member' where user_id = $1`, [userId])
	})
	await page.goto('/app/module-marketplace')
	await expect(card(page, 'Appointment Booking')).toBeVisible()
	await expect(page.getByRole('button', { name: /^Activate / })).toHaveCount(0)
	await expect(page.getByRole('link', { name: /^Deactivate / })).toHaveCount(0)
	const before = await gears(orgId)
	const forged = await request.post('/app/module-marketplace', {
		form: { intent: 'activate', moduleId: INVENTORY },
		headers: { origin: test.info().project.use.baseURL! },
		maxRedirects: 0,
	})
	expect(forged.status()).toBe(403)
	expect(await forged.text()).toContain('Only organization owners can activate modules.')
	const forgedOff = await request.post('/app/module-marketplace', {
		form: { intent: 'deactivate', moduleId: BOOKING },
		headers: { origin: test.info().project.use.baseURL! },
		maxRedirects: 0,
	})
	expect(forgedOff.status()).toBe(403)
	expect(await gears(orgId)).toEqual(before)
	expect(before.modules).toEqual([BOOKING])
})

test('search lives in the URL, finds by industry tag, and says when nothing matches @nojs', async ({ page, request }) => {
	await owner(page, request, 'Searcher')
	await page.goto('/app/module-marketplace')
	await page.getByLabel('Search modules').fill('Healthcare')
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(page).toHaveURL(/q=Healthcare/)
	await expect(card(page, 'Appointment Booking')).toBeVisible()
	await expect(card(page, 'Invoicing')).toHaveCount(0)
	await page.goto('/app/module-marketplace?q=zzz-nothing')
	await expect(page.getByRole('heading', { name: 'No modules found' })).toBeVisible()
	await expect(page.getByRole('article')).toHaveCount(3) // only the three industry templates
})

test('the detail panel opens from the URL with the upgrade tree, and favourites are saved and filtered @nojs', async ({
	page,
	request,
}) => {
	await owner(page, request, 'Favourite Fan')
	await page.goto(`/app/module-marketplace?module=b0000000-0000-4000-8000-000000000001`)
	const panel = page.getByRole('complementary', { name: 'P2P Transaction Tracking' })
	await expect(panel.getByRole('heading', { name: 'Upgrades and dependencies' })).toBeVisible()
	await expect(panel).toContainText('Email Pro')
	await expect(panel).toContainText('Requires: P2P Tracking - Email')
	await expect(panel).toContainText('+1 more') // Bank Feed Reconciliation has 4 features: 3 shown
	await panel.getByRole('link', { name: 'Close details' }).click()
	await expect(page.getByRole('complementary', { name: 'P2P Transaction Tracking' })).toHaveCount(0)

	await card(page, 'Invoicing').getByRole('button', { name: 'Add Invoicing to favorites' }).click()
	await expect(card(page, 'Invoicing').getByRole('button', { name: 'Remove Invoicing from favorites' })).toHaveAttribute(
		'aria-pressed',
		'true',
	)
	await page.getByRole('link', { name: 'Favorites' }).click()
	await expect(page).toHaveURL(/favorites=1/)
	await expect(card(page, 'Invoicing')).toBeVisible()
	await expect(card(page, 'Reports & Analytics')).toHaveCount(0)
	await page.reload()
	await card(page, 'Invoicing').getByRole('button', { name: 'Remove Invoicing from favorites' }).click()
	await expect(page.getByText('Mark modules with the heart to find them here.')).toBeVisible()
})

test.describe('on a phone', () => {
	test.use({ viewport: { width: 390, height: 844 } })
	test('a module chosen far down the list shows its details and its deactivation on screen @nojs', async ({ page, request }) => {
		await owner(page, request, 'Phone Browser')
		await page.goto('/app/module-marketplace')
		const last = page.getByRole('article').last()
		const name = (await last.getByRole('heading').first().textContent())!.trim()
		await last.getByRole('link', { name: `Details — ${name}` }).click()
		await expect(page).toHaveURL(/module=/)
		const panel = page.getByRole('complementary', { name })
		await expect(panel.getByRole('heading', { name })).toBeInViewport()
		await panel.getByRole('link', { name: 'Close details' }).click()
		await expect(panel).toHaveCount(0)

		// An active module's deactivation asks in the same place.
		await card(page, 'Appointment Booking')
			.getByRole('button', { name: /^Activate .* — Appointment Booking$/ })
			.click()
		await expect(page.getByText('Module Activated').first()).toBeVisible()
		await card(page, 'Appointment Booking').getByRole('link', { name: 'Deactivate — Appointment Booking' }).click()
		await expect(page.getByRole('alertdialog').getByRole('button', { name: 'Deactivate module' })).toBeInViewport()
	})
})

test('in Portuguese the modules are in the order of their Portuguese names, and the open panel leaves every card whole @nojs', async ({
	page,
	request,
}) => {
	await page.setViewportSize({ width: 1280, height: 800 })
	await owner(page, request, 'Ordem')
	await useLanguage(page, 'pt-BR')
	await page.goto('/app/module-marketplace?module=b0000000-0000-4000-8000-000000000002')
	await expect(page.locator('aside[aria-labelledby="panel-title"]')).toBeVisible()
	const names = await page.locator('section[aria-labelledby="modules-heading"] h3').allTextContents()
	expect(names.length).toBeGreaterThan(5)
	expect(names).toEqual([...names].sort(new Intl.Collator('pt-BR').compare))
	// Beside the panel the cards are narrower: their buttons and prices wrap inside them.
	for (const article of await page.locator('section[aria-labelledby="modules-heading"] [role="article"]').all()) {
		const box = (await article.boundingBox())!
		for (const control of await article.locator('button, a, .tabular-nums').all()) {
			const inner = (await control.boundingBox())!
			expect(inner.x).toBeGreaterThanOrEqual(box.x - 1)
			expect(inner.x + inner.width).toBeLessThanOrEqual(box.x + box.width + 1)
		}
	}
})

test('a details panel opened from the keyboard takes focus and closes with Escape, back to what opened it', async ({ page, request }) => {
	await owner(page, request, 'Keyboard User')
	await page.goto('/app/module-marketplace')
	const details = card(page, 'Invoicing').getByRole('link', { name: 'Details — Invoicing' })
	await details.focus()
	await page.keyboard.press('Enter')
	const panel = page.getByRole('complementary', { name: 'Invoicing' })
	await expect(panel).toBeFocused()
	// The next Tab is inside the panel, not 69 stops away.
	await page.keyboard.press('Tab')
	await expect(panel.getByRole('link', { name: 'Close details' })).toBeFocused()
	await page.keyboard.press('Escape')
	await expect(panel).toHaveCount(0)
	await expect(page).not.toHaveURL(/module=/)
	await expect(details).toBeFocused()
})

test('in a panel, Escape closes a menu or a question first, then the panel, each back to what opened it', async ({ page, request }) => {
	const { orgId } = await owner(page, request, 'Keyboard User')
	// A question inside the panel: Escape closes the question, back to its button, then the panel,
	// back to "Details". Escape in the search box is the search box's.
	await withDatabase((db) =>
		db.query(`insert into public.organization_modules (organization_id, module_id) values ($1, $2)`, [orgId, BOOKING]),
	)
	await page.goto('/app/module-marketplace')
	const reportsDetails = card(page, 'Appointment Booking').getByRole('link', { name: 'Details — Appointment Booking' })
	await reportsDetails.focus()
	await page.keyboard.press('Enter')
	const reportsPanel = page.getByRole('complementary', { name: 'Appointment Booking' })
	await expect(reportsPanel).toBeFocused()
	// Escape in an open menu closes the menu, not the panel behind it.
	const language = page.locator('summary[aria-label="Language: English"]')
	await language.click()
	await expect(page.locator('details:has(summary[aria-label="Language: English"])')).toHaveAttribute('open', '')
	await page.keyboard.press('Escape')
	await expect(page.locator('details:has(summary[aria-label="Language: English"])')).not.toHaveAttribute('open')
	await expect(reportsPanel).toBeVisible()
	const deactivate = reportsPanel.getByRole('link', { name: 'Deactivate — Appointment Booking' })
	await tabTo(page, deactivate)
	await page.keyboard.press('Enter')
	await expect(page.getByRole('alertdialog')).toBeFocused()
	await page.keyboard.press('Escape')
	await expect(page.getByRole('alertdialog')).toHaveCount(0)
	await expect(deactivate).toBeFocused()
	await page.getByLabel('Search modules').fill('crm')
	await page.keyboard.press('Escape')
	await expect(reportsPanel).toBeVisible()
	await deactivate.focus()
	await page.keyboard.press('Escape')
	await expect(reportsPanel).toHaveCount(0)
	await expect(reportsDetails).toBeFocused()
})

test('the upgrade dialog opened from the keyboard takes focus and closes with Escape, back to what opened it', async ({
	page,
	request,
}) => {
	const { orgId } = await owner(page, request, 'Keyboard User')
	await withDatabase((db) =>
		db.query(`insert into public.organization_modules (organization_id, module_id) values ($1, $2)`, [orgId, BOOKING]),
	)
	await page.goto('/app/modules/b0000000-0000-4000-8000-000000000002')
	const view = page.getByRole('link', { name: /^View / }).first()
	await view.focus()
	await page.keyboard.press('Enter')
	const dialog = page.getByRole('dialog')
	await expect(dialog).toBeFocused()
	await page.keyboard.press('Escape')
	await expect(dialog).toHaveCount(0)
	await expect(view).toBeFocused()
})

test('the marketplace renders in Spanish and Brazilian Portuguese @nojs', async ({ page, request }) => {
	await owner(page, request, 'Polyglot')
	await useLanguage(page, 'es')
	await page.goto('/app/module-marketplace?q=zzz')
	await expect(page.getByRole('heading', { name: 'No se encontraron módulos' })).toBeVisible()
	await expect(page.getByText('Engranajes disponibles')).toBeVisible()
	await useLanguage(page, 'pt-BR')
	await page.goto('/app/module-marketplace')
	await expect(page.getByText('Engrenagens disponíveis')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Modelos por setor' })).toBeVisible()
})
