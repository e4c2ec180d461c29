import type { APIRequestContext, Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { closeToast, expect, newAccount, signUpByRequest, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

const REPORTS = 'b0000000-0000-4000-8000-000000000004'
const CRM = 'b0000000-0000-4000-8000-000000000002'
const ANALYTICS = 'c0000000-0000-4000-8000-000000000010'
const AUTOMATION = 'c0000000-0000-4000-8000-000000000011'

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
		modules: (
			await db.query<{ module_id: string }>(`select module_id from public.organization_modules where organization_id = $1`, [orgId])
		).rows.map((r) => r.module_id),
	}))
}

test('buying an upgrade of a module not yet active charges the module and the upgrade once; Gears to Maintain adds them up @nojs', async ({
	page,
	request,
}) => {
	const { orgId } = await owner(page, request, 'Upgrade Buyer')
	await page.goto(`/app/modules/${REPORTS}`)
	await expect(page.getByRole('heading', { name: 'Reports & Analytics', level: 1 })).toBeVisible()
	await expect(page.getByText('This module is not active')).toBeVisible()
	await page.getByRole('link', { name: 'View Advanced Analytics' }).click()
	const dialog = page.getByRole('dialog', { name: /Advanced Analytics/ })
	await expect(dialog).toContainText('Module: Reports & Analytics')
	await dialog.getByRole('button', { name: 'Activate Reports & Analytics and buy Advanced Analytics: 2,750 gears' }).click()
	await expect(page.getByText('Upgrade activated successfully').first()).toBeVisible()
	expect(await state(orgId)).toEqual({
		remaining: 12250,
		spends: [
			{ delta: -750, reason: 'module_activation' },
			{ delta: -2000, reason: 'upgrade_purchase' },
		],
		upgrades: [ANALYTICS],
		modules: [REPORTS],
	})
	await expect(page.getByTestId('gears-total')).toHaveText('2,750 gears')
	const active = page.getByRole('region', { name: 'Active Upgrades' })
	await expect(active).toContainText('Advanced Analytics')
	await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Reports & Analytics' })).toBeVisible()
})

test('an upgrade whose dependency is not active is refused; with it, bought; deactivating asks with the warnings @nojs', async ({
	page,
	request,
}) => {
	const { orgId } = await owner(page, request, 'Dependency Buyer')
	await page.goto(`/app/modules/${REPORTS}?upgrade=${AUTOMATION}`)
	const dialog = page.getByRole('dialog', { name: /Automation/ })
	await expect(dialog).toContainText('Requires an active upgrade first: Advanced Analytics')
	await expect(dialog.getByRole('button', { name: /Activate Reports & Analytics and buy/ })).toBeDisabled()
	// The same post sent anyway (an old tab, a forged form) is refused by the server.
	const forced = await page.request.post(`/app/modules/${REPORTS}?upgrade=${AUTOMATION}`, {
		form: { intent: 'purchaseUpgrade', upgradeId: AUTOMATION },
		headers: { origin: test.info().project.use.baseURL! },
		maxRedirects: 0,
	})
	expect(forced.status()).toBe(302)
	await page.goto(`/app/modules/${REPORTS}`)
	await expect(page.getByText('Failed to activate upgrade').first()).toBeVisible()
	await expect(page.getByText('An upgrade it depends on is not active yet. Buy that one first.').first()).toBeVisible()
	expect(await state(orgId)).toMatchObject({ remaining: 15000, upgrades: [], modules: [] })

	await page.goto(`/app/modules/${REPORTS}?upgrade=${ANALYTICS}`)
	await page
		.getByRole('dialog')
		.getByRole('button', { name: /Activate Reports & Analytics and buy/ })
		.click()
	await expect(page.getByText('Upgrade activated successfully').first()).toBeVisible()
	await closeToast(page)
	await page.getByRole('link', { name: 'View Automation' }).click()
	await page.getByRole('dialog').getByRole('button', { name: 'Upgrade for 1,500 gears' }).click()
	await expect(page.getByText('Upgrade activated successfully').first()).toBeVisible()
	await closeToast(page)
	await expect(page.getByRole('region', { name: 'Active Upgrades' })).toContainText('Automation')
	expect(await state(orgId)).toMatchObject({ remaining: 15000 - 750 - 2000 - 1500, upgrades: [ANALYTICS, AUTOMATION] })

	await page.getByRole('link', { name: 'Deactivate Automation' }).click()
	const confirm = page.getByRole('alertdialog', { name: 'Confirm Upgrade Deactivation' })
	await expect(confirm).toContainText('All data of this upgrade is permanently deleted.')
	await expect(confirm).toContainText('This cannot be undone.')
	await confirm.getByRole('button', { name: 'Deactivate Upgrade' }).click()
	await expect(page.getByText('Upgrade deactivated successfully').first()).toBeVisible()
	await expect(page.getByRole('region', { name: 'Active Upgrades' })).not.toContainText('Automation')
	expect(await state(orgId)).toMatchObject({ remaining: 10750, upgrades: [ANALYTICS] })
})

test('configuration is saved, exported as JSON and reset; a member does not see a manager-only module and its screen answers 403 @nojs', async ({
	page,
	request,
	browser,
}) => {
	const { orgId } = await owner(page, request, 'Config Owner')
	await withDatabase((db) => db.query(`insert into public.organization_modules (organization_id, module_id) values ($1, $2)`, [orgId, CRM]))
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
	await page.goto(`/app/modules/${REPORTS}?upgrade=${ANALYTICS}`)
	await expect(page.getByRole('heading', { name: 'Mejoras y dependencias' })).toBeVisible()
	await expect(
		page.getByRole('button', { name: 'Activar Informes y análisis y comprar Análisis avanzado: 2.750 engranajes' }),
	).toBeVisible()
	await useLanguage(page, 'pt-BR')
	await page.goto(`/app/modules/${REPORTS}`)
	await expect(page.getByRole('heading', { name: 'Engrenagens de manutenção' })).toBeVisible()
	await page.goto('/app/gears')
	await expect(page.getByRole('heading', { name: 'Histórico de engrenagens', level: 1 })).toBeVisible()
})

test('two purchases posted at once that together exceed the balance: one is charged, the other refused', async ({ page, request }) => {
	const { orgId } = await owner(page, request, 'Racing Buyer')
	await withDatabase((db) => db.query(`select private.spend_gears($1, 12000, 'adjustment')`, [orgId])) // 3,000 left
	const CRM_BASIC = 'c0000000-0000-4000-8000-000000000004' // with Clients CRM: 900; Advanced Analytics with Reports: 2,750
	const post = (moduleId: string, upgradeId: string) =>
		page.request.post(`/app/modules/${moduleId}`, { form: { intent: 'purchaseUpgrade', upgradeId }, maxRedirects: 0 })
	const responses = await Promise.all([post(REPORTS, ANALYTICS), post(CRM, CRM_BASIC)])
	expect(responses.map((r) => r.status())).toEqual([302, 302])
	// The refused one goes back to its dialog (with the "Insufficient Gears" toast), the other to the module.
	expect(responses.filter((r) => r.headers().location?.includes('?upgrade='))).toHaveLength(1)
	const after = await state(orgId)
	expect(after.upgrades).toHaveLength(1)
	expect([3000 - 2750, 3000 - 900]).toContain(after.remaining)
	expect(after.spends.filter((s) => s.reason !== 'adjustment')).toHaveLength(2) // the winner's module and upgrade, once each
})
