/**
 * Personal API tokens (docs/product.md, API tokens; docs/api.md): a member with CRM Enterprise
 * makes a token in Settings, with or without JavaScript, reads the organization's payments with
 * it, and after revoking it is refused. The token logic is checked in depth by
 * tests/db/api-tokens.test.ts.
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

const CRM = 'b0000000-0000-4000-8000-000000000002'
const CRM_ENTERPRISE = 'c0000000-0000-4000-8000-000000000006'

/** Gives the account's organization CRM Enterprise and one payment; returns the organization's id. */
async function withEnterprise(email: string) {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string }>(
			`select m.organization_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[email],
		)
		const orgId = rows[0]!.organization_id
		await db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select m.organization_id, m.id, $2 from public.organization_modules m where m.organization_id = $1 and m.module_id = $3`,
			[orgId, CRM_ENTERPRISE, CRM],
		)
		await db.query(
			`insert into public.transactions (organization_id, amount, tip, date_received, payment_method, description)
			 values ($1, 84.50, 4.50, '2026-05-04', 'Venmo', 'Color and cut')`,
			[orgId],
		)
		return orgId
	})
}

async function makeToken(page: Page, name: string) {
	await page.goto('/app/settings')
	await page.getByRole('link', { name: 'API tokens' }).click()
	await expect(page).toHaveURL(/\/app\/settings\/api-tokens$/)
	await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
	await page.getByRole('button', { name: 'Make token' }).click()
	await expect(page.getByRole('status').filter({ hasText: `Token "${name}" made` })).toBeVisible()
	return page.getByTestId('new-token').inputValue()
}

const api = (request: APIRequestContext, path: string, token?: string) =>
	request.get(path, { headers: token ? { authorization: `Bearer ${token}` } : {} })

test('a token made in Settings reads the payments; revoked, it is refused @nojs', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Api Owner')
	await withEnterprise(account.email)
	const token = await makeToken(page, 'Bookkeeping')
	expect(token).toMatch(/^p2p_/)

	const payments = await api(request, '/api/v1/payments', token)
	expect(payments.status()).toBe(200)
	expect(payments.headers()['cache-control']).toBe('no-store')
	expect(await payments.json()).toEqual({
		data: [
			expect.objectContaining({
				amount: '84.50',
				tip: '4.50',
				payment_method: 'Venmo',
				description: 'Color and cut',
				date_received: '2026-05-04',
			}),
		],
		next_cursor: null,
	})
	// The session cookie the request context holds is no token.
	expect((await api(request, '/api/v1/payments')).status()).toBe(401)
	expect((await api(request, '/api/v1/payments?limit=500', token)).status()).toBe(400)

	// Shown once: a reload no longer shows it, the list shows its prefix only.
	await page.goto('/app/settings/api-tokens')
	await expect(page.getByTestId('new-token')).toHaveCount(0)
	await expect(page.getByText(`${token.slice(0, 12)}…`)).toBeVisible()
	await page.getByRole('button', { name: 'Revoke the token Bookkeeping' }).click()
	await expect(page.getByText('Token revoked')).toBeVisible()
	const refused = await api(request, '/api/v1/payments', token)
	expect(refused.status()).toBe(401)
	expect(await refused.json()).toMatchObject({ error: 'invalid_token' })
})

test('a token without the payments scope is refused there and reads clients; a nameless token is refused with the reason in Spanish @nojs', async ({
	page,
	request,
}) => {
	const account = await signUpFresh(page, request, 'Scoped Owner')
	await withEnterprise(account.email)
	await page.goto('/app/settings/api-tokens')
	await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Clients only')
	await page.getByRole('checkbox', { name: 'Payments' }).uncheck()
	await page.getByRole('button', { name: 'Make token' }).click()
	const token = await page.getByTestId('new-token').inputValue()
	const payments = await api(request, '/api/v1/payments', token)
	expect(payments.status()).toBe(403)
	expect(await payments.json()).toMatchObject({ error: 'insufficient_scope' })
	expect((await api(request, '/api/v1/clients', token)).status()).toBe(200)

	await useLanguage(page, 'es')
	await page.goto('/app/settings/api-tokens')
	await expect(page.getByRole('heading', { name: 'Crear un token de API' })).toBeVisible()
	await page.getByRole('button', { name: 'Crear token' }).click()
	await expect(page.getByText('Ponle un nombre al token, p. ej. el del programa que lo usa.')).toBeVisible()
	await expect(page.getByTestId('new-token')).toHaveCount(0)
})

test('without CRM Enterprise there is no tab, and the page says where the tokens come from (in Portuguese)', async ({ page, request }) => {
	await signUpFresh(page, request, 'Sem Upgrade')
	await useLanguage(page, 'pt-BR')
	await page.goto('/app/settings')
	await expect(page.getByRole('link', { name: 'Notificações' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Tokens de API' })).toHaveCount(0)
	await page.goto('/app/settings/api-tokens')
	await expect(page.getByTestId('api-tokens-inactive')).toContainText('Os tokens de API vêm com o CRM Enterprise')
	await expect(page.getByRole('button', { name: 'Criar token' })).toHaveCount(0)
})
