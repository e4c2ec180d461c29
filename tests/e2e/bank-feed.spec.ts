import type { APIRequestContext, Page } from '@playwright/test'
import { ofxSgml, ofxXml, venmoCsv } from '../fixtures/bank-feed.ts'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'
import { useLanguage } from './reports-data.ts'

/**
 * Bank Feed Reconciliation (docs/product.md, Bank feed), with and without JavaScript, in the
 * three languages: an OFX file reconciles a Venmo cash-out (the deposit is not income, the
 * payments show as deposited), a wrong file is refused, a statement is removed, and without the
 * upgrade the screen explains it.
 */

const P2P = 'b0000000-0000-4000-8000-000000000001'
const BANK_FEED = 'c0000000-0000-4000-8000-000000000003'

async function signUp(page: Page, request: APIRequestContext, name: string, { upgrade = true } = {}) {
	const account = newAccount(name)
	await signUpByRequest(request, account)
	await page.context().addCookies((await request.storageState()).cookies)
	if (upgrade) {
		const response = await page.request.post(`/app/modules/${P2P}`, { form: { intent: 'purchaseUpgrade', upgradeId: BANK_FEED } })
		expect(response.ok()).toBe(true)
	}
	const orgId = await withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string }>(
			'select m.organization_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1',
			[account.email],
		)
		return rows[0]!.organization_id
	})
	return { account, orgId }
}

async function income(orgId: string) {
	return withDatabase(
		async (db) =>
			(
				await db.query<{ n: number; total: string }>(
					'select count(*)::int as n, coalesce(sum(amount), 0)::text as total from public.transactions where organization_id = $1',
					[orgId],
				)
			).rows[0]!,
	)
}

const VENMO = venmoCsv(
	[
		['5001000000000000001', '2026-03-02', 'Ana Silva', '50.00', '1.50'],
		['5001000000000000002', '2026-03-03', 'Bruno Costa', '80.00'],
	],
	['5001000000000000003', '2026-03-03', '128.50'],
)

const STATEMENT = ofxSgml([
	{ id: 'E1', date: '2026-03-05', amount: '128.50', name: 'VENMO', memo: 'CASHOUT PPD ID: 5264681992' },
	{ id: 'E2', date: '2026-03-06', amount: '500.00', type: 'XFER', name: 'Online Transfer from SAV ...4321' },
])

async function uploadStatement(page: Page, label: string, submit: string, name: string, text: string) {
	await page.getByLabel(label).setInputFiles({ name, mimeType: 'application/x-ofx', buffer: Buffer.from(text) })
	await page.getByRole('button', { name: submit }).click()
}

test.describe('bank feed @nojs', () => {
	test('an OFX file reconciles a Venmo cash-out: not income, the payments show as deposited', async ({ page, request }) => {
		const { orgId } = await signUp(page, request, 'Bank Feed Owner')
		// The Venmo statement, through the import screen.
		await page.goto('/app/transactions/import')
		await page.getByLabel('CSV file').setInputFiles({ name: 'venmo.csv', mimeType: 'text/csv', buffer: Buffer.from(VENMO) })
		await page.getByRole('button', { name: 'Upload and preview' }).click()
		await page.getByRole('button', { name: 'Import 2 payments' }).click()
		await expect(page).toHaveURL(/\/app\/transactions\/import\/history$/)
		expect(await income(orgId)).toEqual({ n: 2, total: '130.00' })

		// The bank's statement, with the transfer's deposit.
		await page.goto('/app/transactions/reconciliation')
		await expect(page.getByRole('heading', { name: 'Bank reconciliation', level: 1 })).toBeVisible()
		await uploadStatement(page, 'OFX or QFX file', 'Upload and reconcile', 'march.ofx', STATEMENT)
		await expect(page.getByText('Statement uploaded')).toBeVisible()
		await expect(page.getByText('2 new lines, 0 already uploaded; 1 of 1 cash-outs matched to app payments.')).toBeVisible()

		const cashout = page.getByTestId('bank-feed-lines').locator('tr[data-kind="cashout"]')
		await expect(cashout).toContainText('Venmo cash-out')
		await expect(cashout).toContainText('Matched')
		await expect(cashout).toContainText('Deposited: Ana Silva, $50.00')
		await expect(cashout).toContainText('Deposited: Bruno Costa, $80.00')
		await expect(page.getByTestId('bank-feed-lines').locator('tr[data-kind="ownTransfer"]')).toContainText('Transfer between your accounts')
		await expect(page.getByTestId('total-cashouts')).toHaveText('$128.50')
		await expect(page.getByTestId('total-ownTransfers')).toHaveText('$500.00')
		await expect(page.getByTestId('bank-feed-discrepancies')).toContainText('Everything reconciles')
		// The deposit and the transfer are not income: the payments are still the two the app file had.
		expect(await income(orgId)).toEqual({ n: 2, total: '130.00' })
	})

	test('in Spanish: a CSV is refused with its reason; a statement is removed', async ({ page, request }) => {
		await signUp(page, request, 'Dueña Conciliación')
		await useLanguage(page, 'es')
		await page.goto('/app/transactions/reconciliation')
		await expect(page.getByRole('heading', { name: 'Conciliación bancaria', level: 1 })).toBeVisible()
		await uploadStatement(page, 'Archivo OFX o QFX', 'Subir y conciliar', 'pagos.csv', 'Date,Amount\n2026-03-01,10.00\n')
		await expect(page.getByText('Este archivo no es un extracto bancario OFX o QFX.')).toBeVisible()

		await uploadStatement(
			page,
			'Archivo OFX o QFX',
			'Subir y conciliar',
			'marzo.ofx',
			ofxXml([{ id: 'S1', date: '2026-03-05', amount: '40.00', name: 'CASH APP*CASH OUT' }]),
		)
		await expect(page.getByText('Extracto subido')).toBeVisible()
		await expect(page.getByTestId('bank-feed-discrepancies')).toContainText('Retiro de Cash App de')
		await expect(page.getByTestId('bank-feed-discrepancies')).toContainText('ningún pago de la app lo cubre')
		await page.getByRole('button', { name: 'Eliminar el extracto marzo.ofx' }).click()
		await expect(page.getByText('Extracto eliminado')).toBeVisible()
		await expect(page.getByText('Todavía no has subido ningún extracto.')).toBeVisible()
	})

	test('in Portuguese: without the upgrade the screen explains it and links to the marketplace', async ({ page, request }) => {
		await signUp(page, request, 'Dona Sem Upgrade', { upgrade: false })
		await useLanguage(page, 'pt-BR')
		await page.goto('/app/transactions/reconciliation')
		await expect(page.getByRole('heading', { name: 'Conciliação bancária', level: 1 })).toBeVisible()
		await expect(page.getByTestId('bank-feed-inactive')).toContainText('é um upgrade do Registro de transações P2P')
		await page.getByRole('link', { name: 'Ver Conciliação com extratos bancários na loja de módulos' }).click()
		await expect(page).toHaveURL(new RegExp(`/app/modules/${P2P}`))
		// A post without the upgrade is refused.
		const refused = await page.request.post('/app/transactions/reconciliation', { form: { intent: 'reconcile' } })
		expect(refused.status()).toBe(403)
	})
})
