import type { Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'
import { useLanguage } from './reports-data.ts'

// docs/product.md, Expense Tracking: a member types several expenses at once (with or without
// JavaScript; a wrong field keeps what was typed), attaches a receipt photo, and the expense counts
// in the monthly profit of the Reports overview; the screens speak Spanish; a phone shows them
// without sideways scrolling; without the module the screen says how to get it.

const EXPENSES = 'b0000000-0000-4000-8000-000000000009'

/** An owner signed in on `page`, whose organization has Expense Tracking (unless `module` is false). */
async function expenseWorld(page: Page, { module = true } = {}) {
	const owner = newAccount('Expense Owner')
	await signUpByRequest(page.request, owner)
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ orgId: string }>(
			`select m.organization_id as "orgId" from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[owner.email],
		)
		const { orgId } = rows[0]!
		if (module) await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [orgId, EXPENSES])
		return { orgId }
	})
}

/** A small JPEG made in the page (a canvas), as a phone's camera would hand it over. */
async function photo(page: Page) {
	const base64 = await page.evaluate(() => {
		const canvas = document.createElement('canvas')
		canvas.width = 120
		canvas.height = 80
		const ctx = canvas.getContext('2d')!
		ctx.fillStyle = '#2a7'
		ctx.fillRect(0, 0, 120, 80)
		return canvas.toDataURL('image/jpeg').split(',')[1]!
	})
	return { name: 'receipt.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(base64, 'base64') }
}

test('expenses typed in rows, one with a receipt photo, count in the monthly profit @nojs', async ({ page }) => {
	await expenseWorld(page)
	await page.goto('/app/expenses')
	await expect(page.getByRole('heading', { name: 'No expenses yet' })).toBeVisible()
	await page.getByRole('main').getByRole('link', { name: 'Add expenses' }).first().click()
	await page.getByLabel('Vendor, row 1').fill('Office Depot')
	await page.getByLabel('Amount, row 1').fill('40')
	await page.getByLabel('Category, row 1').selectOption('supplies')
	await page.getByLabel('Vendor, row 2').fill('Hosting')
	// A wrong amount: said under its cell, what was typed kept, nothing saved.
	await page.getByLabel('Amount, row 2').fill('abc')
	await page.getByRole('button', { name: 'Save expenses' }).click()
	await expect(page.getByText('Enter an amount such as 12.50.')).toBeVisible()
	await expect(page.getByLabel('Vendor, row 1')).toHaveValue('Office Depot')
	await page.getByLabel('Amount, row 2').fill('10.50')
	await page.getByRole('button', { name: 'Save expenses' }).click()
	await expect(page).toHaveURL(/\/app\/expenses$/)
	await expect(page.getByTestId('expense-summary')).toHaveText('2 rows')

	await page.getByRole('link', { name: /^Edit Office Depot/ }).click()
	await page.locator('#expense-receipt').setInputFiles(await photo(page))
	await page.getByRole('button', { name: 'Save', exact: true }).click()
	await expect(page).toHaveURL(/\/app\/expenses$/)
	const receipt = page.getByRole('link', { name: 'View receipt' })
	await expect(receipt).toHaveCount(1)
	const served = await page.request.get((await receipt.getAttribute('href'))!)
	expect([served.status(), served.headers()['content-type'], served.headers()['x-content-type-options']]).toEqual([
		200,
		'image/jpeg',
		'nosniff',
	])

	await page.goto('/app/reports')
	await expect(page.getByRole('heading', { name: 'Monthly profit' })).toBeVisible()
	// Typed today, so in this month (the table's first row): nothing received, a loss of what was spent.
	const thisMonth = page.getByRole('table', { name: 'Profit of the last 12 months' }).getByRole('row').nth(1)
	await expect(thisMonth.getByRole('cell').last()).toHaveText('-$50.50')
})

test('in Spanish on a phone (390 px): the list and the rows form, amounts as Spanish writes them, nothing scrolls sideways', async ({
	page,
}) => {
	await page.setViewportSize({ width: 390, height: 844 })
	await useLanguage(page, 'es')
	await expenseWorld(page)
	await page.goto('/app/expenses/new')
	await expect(page.getByRole('heading', { name: 'Añadir gastos' })).toBeVisible()
	await page.getByLabel('Comercio, fila 1').fill('Papelería Sol')
	await page.getByLabel('Monto, fila 1').fill('1.234,50')
	await page.getByRole('button', { name: 'Guardar gastos' }).click()
	await expect(page).toHaveURL(/\/app\/expenses$/)
	await expect(page.getByRole('cell', { name: /1\.?234,50/ })).toBeVisible()
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
	expect(overflow).toBeLessThanOrEqual(0)
	await page.getByRole('link', { name: 'Reembolsos' }).click()
	await expect(page.getByText('Los reembolsos son dinero que devolviste')).toBeVisible()
})

test('without the module the screen says what it does and leads to the marketplace @nojs', async ({ page }) => {
	await expenseWorld(page, { module: false })
	await page.goto('/app/expenses')
	await expect(page.getByRole('heading', { name: 'Expense Tracking is not active' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'See Expense Tracking in the marketplace' })).toHaveAttribute(
		'href',
		`/app/modules/${EXPENSES}`,
	)
	await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Expenses' })).toHaveCount(0)
})
