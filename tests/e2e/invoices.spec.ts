import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { closeToast, decodeQuotedPrintable, expect, latestMailTo, newAccount, signUpByRequest, test } from './fixtures.ts'
import { useLanguage } from './reports-data.ts'

// docs/product.md, Invoicing: a member writes a draft (client, dates, lines in the table, discount,
// tax, notes), sees its totals, saves it with JavaScript on or off; a wrong field keeps what was
// typed; "Save and send" numbers it and mails the client; the list filters by state; a payment is
// linked and unlinked by hand; without the module the screens say how to get it.

const INVOICING = 'b0000000-0000-4000-8000-000000000005'

type World = { orgId: string; userId: string; clientId: string; clientEmail: string }

/** An owner signed in on `page`, whose organization has Invoicing (unless `invoicing` is false) and a client with an e-mail. */
async function invoiceWorld(page: Page, { invoicing = true, client = 'Marta Díaz' } = {}): Promise<World> {
	const owner = newAccount('Invoice Owner')
	await signUpByRequest(page.request, owner)
	const clientEmail = `marta-${Date.now()}-${Math.random().toString(36).slice(2)}@client.example`
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ orgId: string; userId: string }>(
			`select m.organization_id as "orgId", u.id as "userId" from public.organization_members m join auth.users u on u.id = m.user_id
			 where u.email = $1`,
			[owner.email],
		)
		const { orgId, userId } = rows[0]!
		if (invoicing)
			await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [orgId, INVOICING])
		const inserted = await db.query<{ id: string }>(
			`insert into public.clients (organization_id, name, email, status) values ($1, $2, $3, 'active') returning id`,
			[orgId, client, clientEmail],
		)
		return { orgId, userId, clientId: inserted.rows[0]!.id, clientEmail }
	})
}

/** A draft of two lines ($900 and $100, 10 % tax: $1,100) arranged in the database; its page's address. */
async function arrangeDraft(w: World) {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ id: string }>(
			`insert into public.invoices (organization_id, client_id, created_by, tax_rate) values ($1, $2, $3, 10) returning id`,
			[w.orgId, w.clientId, w.userId],
		)
		const id = rows[0]!.id
		await db.query(
			`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price)
			 values ($1, $2, 0, 'Logo design', 2, 450), ($1, $2, 1, 'Business cards', 1, 100)`,
			[w.orgId, id],
		)
		return `/app/invoices/${id}`
	})
}

/** The arranged draft, sent from its page ("Save and send"). */
async function sendArranged(page: Page, w: World) {
	const here = await arrangeDraft(w)
	await page.goto(here)
	await page.getByRole('button', { name: 'Save and send' }).click()
	await expect(page.getByRole('heading', { name: 'Invoice #1' })).toBeVisible()
	return here
}

/** Fills line `n` (1-based) of the draft form. */
async function fillLine(page: Page, n: number, description: string, quantity: string, unitPrice: string) {
	await page.getByLabel(`Description, line ${n}`).fill(description)
	await page.getByLabel(`Quantity, line ${n}`).fill(quantity)
	await page.getByLabel(`Unit price, line ${n}`).fill(unitPrice)
}

test('a draft of two lines is written and saved, with its totals, with or without JavaScript @nojs', async ({
	page,
	javaScriptEnabled,
}) => {
	await invoiceWorld(page)
	await page.goto('/app/invoices')
	await expect(page.getByRole('heading', { name: 'No invoices yet' })).toBeVisible()
	await page.getByRole('main').getByRole('link', { name: 'New invoice' }).first().click()
	await expect(page).toHaveURL(/\/app\/invoices\/new$/)
	await page.getByLabel('Client').fill('Marta Díaz')
	await fillLine(page, 1, 'Logo design', '2', '450')
	await page.getByRole('button', { name: 'Add a line' }).click()
	// Without JavaScript the server answered with the form: what was typed is still there.
	await expect(page.getByLabel('Description, line 1')).toHaveValue('Logo design')
	await fillLine(page, 2, 'Business cards', '1', '100')
	await page.getByLabel('Discount (amount)').fill('50')
	await page.getByLabel('Tax rate (%)').fill('10')
	// With JavaScript the totals follow the typing: 900 + 100 − 50 = 950, plus 10 % = 1,045.
	if (javaScriptEnabled) await expect(page.getByTestId('invoice-total')).toHaveText('$1,045.00')
	await page.getByRole('button', { name: 'Save draft' }).click()
	await expect(page).toHaveURL(/\/app\/invoices\/[0-9a-f-]{36}$/)
	await expect(page.getByRole('heading', { name: 'Draft invoice' })).toBeVisible()
	await expect(page.getByText('Draft saved').first()).toBeVisible()
	await expect(page.getByLabel('Description, line 2')).toHaveValue('Business cards')
	await expect(page.getByLabel('Amount, line 1')).toHaveText('$900.00')
	await expect(page.getByTestId('invoice-total')).toHaveText('$1,045.00')
})

test('a wrong field says why under it, keeps what was typed and saves nothing @nojs', async ({ page }) => {
	await invoiceWorld(page)
	await page.goto('/app/invoices/new')
	await page.getByLabel('Client').fill('Someone Unknown')
	await fillLine(page, 1, 'Consulting', '1,5', '80')
	await page.getByLabel('Issue date').fill('2030-03-10')
	await page.getByLabel('Due date').fill('2030-03-01')
	await page.getByRole('button', { name: 'Save draft' }).click()
	await expect(page.getByText('The due date cannot be before the issue date.')).toBeVisible()
	await expect(page.getByLabel('Description, line 1')).toHaveValue('Consulting')
	await expect(page.getByLabel('Due date')).toHaveValue('2030-03-01')
	// The dates right, the client still unknown: the server says so under the field.
	await page.getByLabel('Due date').fill('2030-03-24')
	await page.getByRole('button', { name: 'Save draft' }).click()
	await expect(page.getByText('No client has this name.', { exact: false }).first()).toBeVisible()
	await expect(page.getByLabel('Quantity, line 1')).toHaveValue('1,5')
	await page.goto('/app/invoices')
	await expect(page.getByRole('heading', { name: 'No invoices yet' })).toBeVisible()
})

test('save and send: the number, the state, the code, the link and the client’s mail; the list filters by state', async ({ page }) => {
	const w = await invoiceWorld(page)
	const here = await sendArranged(page, w)
	await expect(page).toHaveURL(new RegExp(`${here}$`))
	const { clientEmail } = w
	await expect(page.getByText(`It was mailed to ${clientEmail}.`).first()).toBeVisible()
	await expect(page.getByRole('main').getByText('Sent', { exact: true })).toBeVisible()
	const code = (await page.getByTestId('invoice-code').textContent())!.trim()
	expect(code).toMatch(/^[2-9A-HJKMNP-TW-Z]{6}$/)
	await expect(page.getByTestId('invoice-balance')).toHaveText('$1,100.00')
	const link = await page.getByLabel("Link to the invoice's page").inputValue()
	expect(link).toMatch(/\/i\/[0-9a-f]{64}$/)
	const mail = decodeQuotedPrintable(await latestMailTo(clientEmail))
	expect(mail).toContain(code)
	expect(mail).toContain(new URL(link).pathname)

	await page.goto('/app/invoices?state=sent')
	await expect(page.getByRole('link', { name: 'Invoice #1' })).toBeVisible()
	await page.getByLabel('State').selectOption('paid')
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(page).toHaveURL(/state=paid/)
	await expect(page.getByText('No invoice matches this search or state.')).toBeVisible()
	await page.getByLabel('Search').fill('marta')
	await page.getByLabel('State').selectOption('')
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(page.getByRole('link', { name: 'Invoice #1' })).toBeVisible()
})

test('a payment is linked by hand and unlinked, and the invoice’s state follows @nojs', async ({ page }) => {
	const w = await invoiceWorld(page)
	const { orgId } = w
	await sendArranged(page, w)
	await withDatabase((db) =>
		db.query(
			`insert into public.transactions (organization_id, amount, description, payment_method, date_received)
			 values ($1, 1100, 'Yard work thanks', 'Zelle', current_date), ($1, 35, 'Coffee beans', 'Venmo', current_date)`,
			[orgId],
		),
	)
	await page.reload()
	await page.getByLabel('Search payments').fill('yard')
	await page.getByRole('button', { name: 'Search', exact: true }).click()
	await expect(page).toHaveURL(/find=yard/)
	const choices = page.getByRole('group', { name: 'Payment to link' })
	await expect(choices.getByRole('radio')).toHaveCount(1)
	await page.getByRole('button', { name: 'Link payment' }).click()
	await closeToast(page)
	const payments = page.getByRole('list', { name: 'Payments' })
	await expect(payments).toContainText('Linked by hand')
	await expect(payments).toContainText('$1,100.00')
	await expect(page.getByRole('main').getByText('Paid', { exact: true }).first()).toBeVisible()
	await expect(page.getByTestId('invoice-balance')).toHaveText('$0.00')

	await payments.getByRole('button', { name: /^Unlink the payment of \$1,100\.00/ }).click()
	await expect(page.getByRole('main').getByText('Sent', { exact: true })).toBeVisible()
	await expect(page.getByTestId('invoice-balance')).toHaveText('$1,100.00')
	await expect(page.getByText('No payment is linked to this invoice yet.')).toBeVisible()
	// Free again: offered among the payments to link.
	await expect(page.getByRole('group', { name: 'Payment to link' })).toContainText('Yard work thanks')
})

test('on a phone (390 px) the new-invoice form fits the screen and saves', async ({ page }) => {
	await page.setViewportSize({ width: 390, height: 844 })
	await invoiceWorld(page)
	await page.goto('/app/invoices/new')
	await page.getByLabel('Client').fill('Marta Díaz')
	await fillLine(page, 1, 'Piano lesson', '4', '60')
	for (const label of ['Description, line 1', 'Quantity, line 1', 'Unit price, line 1']) {
		const box = (await page.getByLabel(label).boundingBox())!
		expect(box.x, label).toBeGreaterThanOrEqual(0)
		expect(box.x + box.width, label).toBeLessThanOrEqual(390)
	}
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
	await page.getByRole('button', { name: 'Save draft' }).scrollIntoViewIfNeeded()
	await page.getByRole('button', { name: 'Save draft' }).click()
	await expect(page.getByRole('heading', { name: 'Draft invoice' })).toBeVisible()
	await expect(page.getByTestId('invoice-total')).toHaveText('$240.00')
})

test('in Spanish: the screens, the amounts as Spanish writes them, and the saved total @nojs', async ({ page }) => {
	await invoiceWorld(page, { client: 'Lucía Gómez' })
	await useLanguage(page, 'es')
	await page.goto('/app/invoices/new')
	await expect(page.getByRole('heading', { name: 'Nueva factura' })).toBeVisible()
	await page.getByLabel('Cliente').fill('Lucía Gómez')
	await page.getByLabel('Descripción, línea 1').fill('Traducción')
	await page.getByLabel('Cantidad, línea 1').fill('2,5')
	await page.getByLabel('Precio unitario, línea 1').fill('1.200,50')
	await page.getByRole('button', { name: 'Guardar borrador' }).click()
	await expect(page.getByRole('heading', { name: 'Borrador de factura' })).toBeVisible()
	// 2.5 × 1,200.50 = 3,001.25, written as Spanish writes it.
	await expect(page.getByTestId('invoice-total')).toHaveText(/3\.001,25\sUS\$/)
	await expect(page.getByLabel('Precio unitario, línea 1')).toHaveValue('1200,50')
	await page.goto('/app/invoices?state=draft')
	const row = page.getByRole('row').filter({ hasText: 'Lucía Gómez' })
	await expect(row).toContainText('Borrador')
	await expect(row).toContainText(/3\.001,25\sUS\$/)
})

test('without the module the screens say so and lead to it; the sidebar shows Invoices once it is active @nojs', async ({ page }) => {
	const { orgId } = await invoiceWorld(page, { invoicing: false })
	for (const path of ['/app/invoices', '/app/invoices/new']) {
		const response = await page.goto(path)
		expect(response?.status(), path).toBe(200)
		await expect(page.getByRole('heading', { name: 'Invoicing is not active' })).toBeVisible()
	}
	await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Invoices' })).toHaveCount(0)
	// A post is refused and changes nothing.
	const posted = await page.request.post('/app/invoices/new', {
		form: { intent: 'save', client: 'Marta Díaz', language: 'en', issueDate: '2030-01-01', dueDate: '2030-01-15' },
		headers: { origin: test.info().project.use.baseURL! },
		maxRedirects: 0,
	})
	expect(posted.status()).toBe(403)
	await page.getByRole('link', { name: 'See Invoicing in the marketplace' }).click()
	await expect(page).toHaveURL(new RegExp(`/app/modules/${INVOICING}$`))
	await withDatabase((db) =>
		db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [orgId, INVOICING]),
	)
	await page.goto('/app/dashboard')
	await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Invoices' }).click()
	await expect(page.getByRole('heading', { name: 'No invoices yet' })).toBeVisible()
	expect(
		await withDatabase(async (db) => (await db.query('select 1 from public.invoices where organization_id = $1', [orgId])).rowCount),
	).toBe(0)
})

/** axe's serious and critical violations on the page as it is (the WCAG 2.0/2.1 A and AA rules, as tests/e2e/a11y.spec.ts runs them). */
async function serious(page: Page, label: string) {
	const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
	return { label, rules: violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id) }
}

test('the new form with its errors has no serious or critical accessibility violation', async ({ page }) => {
	await invoiceWorld(page)
	await page.goto('/app/invoices/new')
	await page.getByRole('button', { name: 'Save draft' }).click()
	await expect(page.getByText('Add at least one line with a description and a unit price.')).toBeVisible()
	expect((await serious(page, 'new invoice with an error')).rules).toEqual([])
})

test('a sent invoice and the list have no serious or critical accessibility violation', async ({ page }) => {
	const w = await invoiceWorld(page)
	await sendArranged(page, w)
	await closeToast(page)
	const results = [await serious(page, 'sent invoice')]
	await page.goto('/app/invoices')
	results.push(await serious(page, 'list'))
	expect(results.filter((r) => r.rules.length > 0)).toEqual([])
})

test('on a phone (390 px) a draft and the list have no serious or critical accessibility violation', async ({ page }) => {
	await page.setViewportSize({ width: 390, height: 844 })
	const w = await invoiceWorld(page)
	await page.goto(await arrangeDraft(w))
	const results = [await serious(page, 'draft at 390 px')]
	await page.goto('/app/invoices')
	results.push(await serious(page, 'list at 390 px'))
	expect(results.filter((r) => r.rules.length > 0)).toEqual([])
})
