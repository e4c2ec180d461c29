import type { APIRequestContext, Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { closeToast, expect, newAccount, signUpByRequest, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

const P2P = 'b0000000-0000-4000-8000-000000000001'
const BOOKING = 'b0000000-0000-4000-8000-000000000003'
const CRM = 'b0000000-0000-4000-8000-000000000002'
const EMAIL = 'c0000000-0000-4000-8000-000000000001'

async function owner(page: Page, request: APIRequestContext, name: string) {
	const account = await signUpFresh(page, request, name)
	const ids = await withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string; user_id: string }>(
			`select m.organization_id, m.user_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		)
		return { orgId: rows[0]!.organization_id, userId: rows[0]!.user_id }
	})
	return { account, ...ids }
}

async function state(orgId: string) {
	return withDatabase(async (db) => ({
		remaining: (await db.query<{ g: number }>(`select gears_remaining as g from public.organizations where id = $1`, [orgId])).rows[0]!.g,
		spends: (
			await db.query<{ delta: number; reason: string }>(
				`select delta, reason::text from public.gear_ledger where organization_id = $1 and delta < 0 order by id`,
				[orgId],
			)
		).rows,
		upgrades: (
			await db.query<{ upgrade_id: string }>(
				`select upgrade_id from public.organization_module_upgrades where organization_id = $1 order by upgrade_id`,
				[orgId],
			)
		).rows.map((r) => r.upgrade_id),
		// The modules the organization chose: the included ones (every organization has them) are left out.
		modules: (
			await db.query<{ module_id: string }>(
				`select om.module_id from public.organization_modules om join public.modules m on m.id = om.module_id
				 where om.organization_id = $1 and not m.included`,
				[orgId],
			)
		).rows.map((r) => r.module_id),
	}))
}

test('buying the email upgrade charges its gears once, the price card adds it; deactivating it asks with the warnings @nojs', async ({
	page,
	request,
}) => {
	const { orgId } = await owner(page, request, 'Upgrade Buyer')
	await page.goto(`/app/modules/${P2P}`)
	await expect(page.getByRole('heading', { name: 'P2P Transaction Tracking', level: 1 })).toBeVisible()
	await expect(page.getByTestId('activation-price')).toHaveText('Included')
	await page.getByRole('link', { name: 'View — P2P Tracking - Email' }).click()
	const dialog = page.getByRole('dialog', { name: /P2P Tracking - Email/ })
	await expect(dialog).toContainText('Module: P2P Transaction Tracking')
	await expect(dialog).toContainText('1,000 gears, once')
	await dialog.getByRole('button', { name: 'Upgrade for 1,000 gears' }).click()
	await expect(page.getByText('Upgrade activated successfully').first()).toBeVisible()
	await closeToast(page)
	expect(await state(orgId)).toEqual({
		remaining: 14000,
		spends: [{ delta: -1000, reason: 'upgrade_purchase' }],
		upgrades: [EMAIL],
		modules: [],
	})
	await expect(page.getByTestId('upgrades-price')).toHaveText('1,000 gears, once')
	await expect(page.getByRole('region', { name: 'Active Upgrades' })).toContainText('P2P Tracking - Email')
	// Bought again from an old tab: refused, nothing charged.
	const again = await page.request.post(`/app/modules/${P2P}`, {
		form: { intent: 'purchaseUpgrade', upgradeId: EMAIL },
		headers: { origin: test.info().project.use.baseURL! },
		maxRedirects: 0,
	})
	expect(again.status()).toBe(302)
	expect(await state(orgId)).toMatchObject({ remaining: 14000, upgrades: [EMAIL] })

	await page.goto(`/app/modules/${P2P}`)
	await page.getByRole('link', { name: 'Deactivate — P2P Tracking - Email' }).click()
	const confirm = page.getByRole('alertdialog', { name: 'Confirm Upgrade Deactivation' })
	await expect(confirm).toContainText('All data of this upgrade is permanently deleted.')
	await expect(confirm).toContainText('This cannot be undone.')
	await confirm.getByRole('button', { name: 'Deactivate Upgrade' }).click()
	await expect(page.getByText('Upgrade deactivated successfully').first()).toBeVisible()
	await expect(page.getByRole('region', { name: 'Active Upgrades' })).not.toContainText('P2P Tracking - Email')
	expect(await state(orgId)).toMatchObject({ remaining: 14000, upgrades: [] })
})

test('configuration is saved, exported as JSON and reset; a member does not see a manager-only module and its screen answers 403 @nojs', async ({
	page,
	request,
	browser,
}) => {
	// Clients CRM is included: active from the start.
	const { orgId } = await owner(page, request, 'Config Owner')
	await page.goto(`/app/settings/modules/${CRM}`)
	await expect(page.getByLabel('Default Visibility')).toHaveValue('any')
	await expect(page.getByLabel('Email notifications')).toBeChecked()
	await page.getByLabel('Default Visibility').selectOption('manager')
	await page.getByLabel('Email notifications').uncheck()
	await page.getByRole('button', { name: 'Save configuration' }).click()
	await expect(page.getByText('Configuration saved').first()).toBeVisible()
	await page.reload()
	await expect(page.getByLabel('Default Visibility')).toHaveValue('manager')
	await expect(page.getByLabel('Email notifications')).not.toBeChecked()

	const exported = await page.request.get(`/app/modules/${CRM}/settings.json`)
	expect(exported.headers()['content-disposition']).toContain('attachment')
	expect(await exported.json()).toMatchObject({
		module: { id: CRM, name: 'Clients CRM' },
		settings: { defaultVisibility: 'manager', emailNotifications: false },
	})

	// A plain member of this organization.
	const member = newAccount('Plain Member')
	const context = await browser.newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled })
	await signUpByRequest(context.request, member)
	await withDatabase((db) =>
		db.query(
			`insert into public.organization_members (organization_id, user_id, role, joined_at)
		 select $1, id, 'member', '2000-01-01' from auth.users where email = $2`,
			[orgId, member.email],
		),
	)
	const memberPage = await context.newPage()
	await memberPage.goto('/app/dashboard')
	const sidebar = memberPage.getByRole('navigation', { name: 'Main navigation' })
	await expect(sidebar.getByText('No active modules yet')).toBeVisible()
	await expect(sidebar.getByRole('link', { name: 'Clients CRM' })).toHaveCount(0)
	const hidden = await context.request.get(`/app/settings/modules/${CRM}`)
	expect(hidden.status()).toBe(403)
	const forged = await context.request.post(`/app/settings/modules/${CRM}`, { form: { intent: 'resetSettings' }, maxRedirects: 0 })
	expect(forged.status()).toBe(403)
	await context.close()

	await page.getByRole('button', { name: 'Reset' }).click()
	await expect(page.getByText('Module reset to defaults').first()).toBeVisible()
	await expect(page.getByLabel('Default Visibility')).toHaveValue('any')
	await expect(page.getByLabel('Email notifications')).toBeChecked()
})

test('an unknown module id goes to the marketplace with a message @nojs', async ({ page, request }) => {
	await owner(page, request, 'Lost Owner')
	await page.goto('/app/modules/00000000-0000-4000-8000-000000000000')
	await expect(page).toHaveURL(/\/app\/module-marketplace$/)
	await expect(page.getByText('Module not found').first()).toBeVisible()
	await page.goto('/app/settings/modules/not-a-uuid')
	await expect(page).toHaveURL(/\/app\/module-marketplace$/)
})

test('the module screen and its upgrade dialog render in Spanish and Brazilian Portuguese @nojs', async ({ page, request }) => {
	await owner(page, request, 'Module Polyglot')
	await useLanguage(page, 'es')
	await page.goto(`/app/modules/${P2P}?upgrade=${EMAIL}`)
	await expect(page.getByRole('heading', { name: 'Mejoras y dependencias' })).toBeVisible()
	await expect(page.getByRole('button', { name: 'Mejorar por 1.000 engranajes' })).toBeVisible()
	await expect(page.getByRole('dialog').getByText('No se cobra nada por mes ni por uso.')).toBeVisible()
	await useLanguage(page, 'pt-BR')
	await page.goto(`/app/modules/${BOOKING}`)
	await expect(page.getByRole('heading', { name: 'Preço' })).toBeVisible()
	await expect(page.getByTestId('activation-price')).toHaveText('1.000 engrenagens, uma vez')
	await page.goto('/app/gears')
	await expect(page.getByRole('heading', { name: 'Histórico de engrenagens', level: 1 })).toBeVisible()
})

test('two purchases posted at once that together exceed the balance: one is charged, the other refused', async ({ page, request }) => {
	const { orgId } = await owner(page, request, 'Racing Buyer')
	await withDatabase((db) => db.query(`select private.spend_gears($1, 13500, 'adjustment')`, [orgId])) // 1,500 left
	// The email upgrade (1,000) and Appointment Booking (1,000): each fits, both do not.
	const responses = await Promise.all([
		page.request.post(`/app/modules/${P2P}`, { form: { intent: 'purchaseUpgrade', upgradeId: EMAIL }, maxRedirects: 0 }),
		page.request.post(`/app/modules/${BOOKING}`, { form: { intent: 'activate' }, maxRedirects: 0 }),
	])
	expect(responses.map((r) => r.status())).toEqual([302, 302])
	const after = await state(orgId)
	expect(after.remaining).toBe(500)
	expect(after.upgrades.length + after.modules.length).toBe(1)
	expect(after.spends.filter((s) => s.reason !== 'adjustment')).toHaveLength(1) // the winner's, once
})
