/**
 * The activity audit log (docs/product.md, Audit log), with CRM Enterprise: an owner edits a
 * client and a payment in their tables, opens Settings › Audit log and reads each edit with their
 * name and the old and new values, in English, Spanish and Portuguese, with or without
 * JavaScript; a member who is not an owner cannot open it. The triggers are checked in depth by
 * tests/db/audit-log.test.ts.
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

const CRM = 'b0000000-0000-4000-8000-000000000002'
const CRM_ENTERPRISE = 'c0000000-0000-4000-8000-000000000006'

/** CRM Enterprise for the account's organization, a client John Doe and his $120 payment AU-1. */
async function arrange(email: string) {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string; user_id: string }>(
			`select m.organization_id, m.user_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[email],
		)
		const { organization_id: orgId, user_id: userId } = rows[0]!
		await db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select m.organization_id, m.id, $2 from public.organization_modules m where m.organization_id = $1 and m.module_id = $3`,
			[orgId, CRM_ENTERPRISE, CRM],
		)
		const client = await db.query<{ id: string }>(
			`insert into public.clients (organization_id, user_id, name) values ($1, $2, 'John Doe') returning id`,
			[orgId, userId],
		)
		await db.query(
			`insert into public.transactions (organization_id, user_id, client_id, amount, date_received, category, payment_method, external_id)
			 values ($1, $2, $3, 120, '2026-05-04', 'matched', 'Venmo', 'AU-1')`,
			[orgId, userId, client.rows[0]!.id],
		)
		return { orgId, userId }
	})
}

const rowWith = (page: Page, value: string) => page.getByRole('row').filter({ has: page.locator(`input[value="${value}"]`) })

async function renameClient(page: Page) {
	await page.goto('/app/clients?edit=1')
	await rowWith(page, 'John Doe').getByRole('textbox', { name: 'Name' }).fill('John Smith')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('Changes saved successfully')).toBeVisible()
}

test('an owner’s edits of a client and a payment are in the audit log, with their name and both values @nojs', async ({
	page,
	request,
}) => {
	const account = await signUpFresh(page, request, 'Audit Owner')
	await arrange(account.email)
	await renameClient(page)
	await page.goto('/app/transactions?edit=1')
	await rowWith(page, 'AU-1').getByRole('textbox', { name: 'Amount' }).fill('125')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('Changes saved successfully')).toBeVisible()

	await page.goto('/app/settings')
	await page.getByRole('link', { name: 'Audit log' }).click()
	await expect(page).toHaveURL(/\/app\/settings\/audit-log$/)
	await expect(page.getByText(/Recording since/)).toBeVisible()
	const events = page.getByTestId('audit-event')
	const clientEdit = events.filter({ hasText: 'Audit Owner changed client John Smith' })
	await expect(clientEdit).toContainText('Name from John Doe to John Smith')
	const paymentEdit = events.filter({ hasText: 'Audit Owner changed payment $125.00 from John Smith' })
	await expect(paymentEdit).toContainText('Amount from $120.00 to $125.00')

	// Filtered by a plain GET form: payments only.
	await page.getByRole('combobox', { name: 'Record' }).selectOption('payment')
	await page.getByRole('button', { name: 'Filter' }).click()
	await expect(page).toHaveURL(/kind=payment/)
	await expect(events.filter({ hasText: 'changed payment' })).toHaveCount(1)
	await expect(events.filter({ hasText: 'client John' })).toHaveCount(0)
})

const WORDS = {
	es: { headline: 'Audit Owner cambió el cliente John Smith', change: 'Nombre de John Doe a John Smith', tab: 'Registro de actividad' },
	'pt-BR': {
		headline: 'Audit Owner alterou o cliente John Smith',
		change: 'Nome de John Doe para John Smith',
		tab: 'Registro de atividades',
	},
}

for (const lng of ['es', 'pt-BR'] as const) {
	test(`the audit log reads in ${lng} @nojs`, async ({ page, request }) => {
		const account = await signUpFresh(page, request, 'Audit Owner')
		await arrange(account.email)
		await renameClient(page)
		await useLanguage(page, lng)
		await page.goto('/app/settings')
		await page.getByRole('link', { name: WORDS[lng].tab }).click()
		await expect(page.locator('html')).toHaveAttribute('lang', lng)
		await expect(page.getByTestId('audit-event').filter({ hasText: WORDS[lng].headline })).toContainText(WORDS[lng].change)
	})
}

async function secondAccount(request: APIRequestContext) {
	const account = newAccount('Other Owner')
	await signUpByRequest(request, account)
	return account
}

test('a member who is not an owner has no audit log tab and is refused the page @nojs', async ({ page, request, playwright }) => {
	const admin = await signUpFresh(page, request, 'Admin Not Owner')
	const { orgId, userId } = await arrange(admin.email)
	const other = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL })
	const owner = await secondAccount(other)
	await other.dispose()
	await withDatabase(async (db) => {
		await db.query(
			`insert into public.organization_members (organization_id, user_id, role) select $1, u.id, 'owner' from auth.users u where u.email = $2`,
			[orgId, owner.email],
		)
		await db.query(`update public.organization_members set role = 'administrator' where organization_id = $1 and user_id = $2`, [
			orgId,
			userId,
		])
	})
	await page.goto('/app/settings')
	await expect(page.getByRole('link', { name: 'API tokens' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Audit log' })).toHaveCount(0)
	const response = await page.goto('/app/settings/audit-log')
	expect(response?.status()).toBe(403)
	await expect(page.getByTestId('audit-events')).toHaveCount(0)
})
