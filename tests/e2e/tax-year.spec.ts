/**
 * The tax-year view (docs/product.md, Reports: Tax year): the figures of the typed payments per
 * rail with their fees and tips, a flagged Form 1099-K threshold, the year picker and a bad year
 * without JavaScript; the CSV and PDF an accountant downloads; Spanish and Portuguese; a phone.
 * The figures and thresholds are checked in depth by tests/db/tax-year.test.ts.
 */
import { readFile } from 'node:fs/promises'
import type { Locator } from '@playwright/test'
import { readPdf } from '../support/pdf-text.ts'
import { withDatabase } from './db.ts'
import { expect, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

/** Last year: whole, and in the past whatever the day the tests run. */
const YEAR = new Date().getUTCFullYear() - 1

/**
 * The account's organization gets, in YEAR: 201 Venmo payments of $100 (over the federal
 * threshold), one with a $1.50 fee and a $12 tip; two Zelle payments; a $40 Venmo refund and a
 * $250 rent expense. One Zelle payment the year before, which YEAR must not show.
 */
async function seedYear(email: string) {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string; user_id: string }>(
			`select m.organization_id, u.id as user_id from auth.users u
			 join public.organization_members m on m.user_id = u.id where u.email = $1`,
			[email],
		)
		const { organization_id: orgId, user_id: userId } = rows[0]!
		await db.query(
			`insert into public.transactions (organization_id, user_id, amount, date_received, payment_method, fee, tip)
			 select $1::uuid, $2::uuid, x.amount, x.day, x.method::public.payment_method, x.fee, x.tip
			 from (
				select 100::numeric as amount, make_date($3::int, 1 + g % 12, 1 + g % 28) as day, 'Venmo' as method,
					case when g = 1 then 1.50 end::numeric as fee, case when g = 1 then 12 end::numeric as tip
				from generate_series(1, 201) g
				union all select 350.25, make_date($3::int, 4, 2), 'Zelle', null, null
				union all select 49.75, make_date($3::int, 9, 30), 'Zelle', null, null
				union all select 999, make_date($3::int - 1, 12, 31), 'Zelle', null, null
			 ) x`,
			[orgId, userId, YEAR],
		)
		await db.query(
			`insert into public.expenses (organization_id, kind, spent_on, amount, vendor, category, payment_method, created_by) values
			 ($1, 'refund', make_date($3::int, 5, 5), 40, 'Ana', 'other', 'Venmo', $2),
			 ($1, 'expense', make_date($3::int, 6, 1), 250, 'Landlord', 'rent', null, $2)`,
			[orgId, userId, YEAR],
		)
		return orgId
	})
}

function cells(locator: Locator) {
	return locator
		.getByRole('row')
		.evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('th, td')).map((c) => (c.textContent ?? '').trim())))
}

test('the year shows each rail with its fees and tips and flags the federal threshold; a bad year says why @nojs', async ({
	page,
	request,
}) => {
	const account = await signUpFresh(page, request, 'Tax Owner')
	await seedYear(account.email)
	await page.goto('/app/reports/tax-year')
	await expect(page.getByRole('note').filter({ hasText: 'Not tax advice' })).toBeVisible()
	await page.getByLabel('Year', { exact: true }).selectOption(String(YEAR))
	await page.getByRole('button', { name: 'Show' }).click()
	await expect(page).toHaveURL(new RegExp(`/app/reports/tax-year\\?year=${YEAR}$`))
	await expect(page.getByRole('heading', { name: `Tax year ${YEAR}`, level: 1 })).toBeVisible()
	const rails = await cells(page.getByTestId('rails-table'))
	expect(rails[0]).toEqual(['Rail', 'Payments', 'Received', 'Fees', 'Tips', 'Refunds'])
	expect(rails.find((r) => r[0] === 'Venmo')).toEqual(['Venmo', '201', '$20,100.00', '$1.50', '$12.00', '$40.00 (1)'])
	expect(rails.find((r) => r[0] === 'Zelle')).toEqual(['Zelle', '2', '$400.00', '$0.00', '$0.00', '$0.00 (0)'])
	expect(rails.at(-1)).toEqual(['Total', '203', '$20,500.00', '$1.50', '$12.00', '$40.00 (1)'])
	await expect(page.getByTestId('check-Venmo')).toContainText(
		'Passes the federal threshold (more than $20,000.00 and more than 200 payments): expect a Form 1099-K.',
	)
	await expect(page.getByTestId('check-CashApp')).toContainText('Below the federal threshold')
	await expect(page.getByText('Payments by bank Zelle, cash and wire are reported on no Form 1099-K')).toBeVisible()
	await expect(page.getByTestId('profit-line')).toHaveText('Profit (received − expenses)$20,250.00')

	const response = await page.goto('/app/reports/tax-year?year=19x9')
	expect(response?.status()).toBe(400)
	await expect(page.getByRole('alert').filter({ hasText: "That year can't be shown" })).toBeVisible()
	await expect(page.getByTestId('rails-table')).toHaveCount(0)
})

test('a tip typed on a payment in the transactions table counts in the year; a tip over the amount is refused @nojs', async ({
	page,
	request,
}) => {
	await signUpFresh(page, request, 'Tip Typist')
	await page.goto('/app/transactions?edit=1&add=1')
	const row = page.getByRole('row').nth(1)
	await expect(row.getByRole('textbox', { name: 'Tip' })).toHaveValue('')
	await row.getByLabel('Date received').fill(`${YEAR}-07-04`)
	await row.getByRole('textbox', { name: 'Amount' }).fill('80.00')
	await row.getByRole('textbox', { name: 'Tip' }).fill('95.00')
	await row.getByRole('combobox', { name: 'Payment method' }).selectOption('Venmo')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('The tip is part of the amount, so it cannot be more than the amount.')).toBeVisible()

	await page.getByRole('row').nth(1).getByRole('textbox', { name: 'Tip' }).fill('12.50')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('Changes saved successfully')).toBeVisible()
	await expect(page.getByRole('row').filter({ hasText: '$80.00' })).toContainText('incl. $12.50 tip')

	await page.goto(`/app/reports/tax-year?year=${YEAR}`)
	const rails = await cells(page.getByTestId('rails-table'))
	expect(rails.find((r) => r[0] === 'Venmo')).toEqual(['Venmo', '1', '$80.00', '$0.00', '$12.50', '$0.00 (0)'])
})

test("the accountant's CSV and PDF carry the year's figures", async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Export Owner')
	await seedYear(account.email)
	await page.goto(`/app/reports/tax-year?year=${YEAR}`)
	const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()])
	expect(csvDownload.suggestedFilename()).toBe(`tax-year-${YEAR}.csv`)
	const csv = await readFile(await csvDownload.path(), 'utf8')
	expect(csv).toContain('Venmo,201,20100.00,1.50,12.00,1,40.00')
	expect(csv).toContain('Total,203,20500.00,1.50,12.00,1,40.00')
	expect(csv).toContain('Profit (received − expenses),20250.00')

	const [pdfDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PDF' }).click()])
	const pdf = await readPdf(new Uint8Array(await readFile(await pdfDownload.path())))
	expect(pdf.text).toContain(`Tax year ${YEAR}`)
	expect(pdf.text).toContain('$20,500.00')
	expect(pdf.text).toContain('$20,250.00')
	expect(pdf.text).toContain('This is not tax advice')
})

test('in Spanish and Portuguese the words and amounts are theirs', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Año Fiscal')
	await seedYear(account.email)
	await useLanguage(page, 'es')
	await page.goto(`/app/reports/tax-year?year=${YEAR}`)
	await expect(page.getByRole('heading', { name: `Año fiscal ${YEAR}`, level: 1 })).toBeVisible()
	const es = await cells(page.getByTestId('rails-table'))
	expect(es[0]).toEqual(['Medio', 'Pagos', 'Recibido', 'Comisiones', 'Propinas', 'Reembolsos'])
	expect(es.at(-1)![2]).toMatch(/^20\.500,00\sUS\$$/)
	await expect(page.getByTestId('check-Venmo')).toContainText('Supera el umbral federal')

	await useLanguage(page, 'pt-BR')
	await page.goto(`/app/reports/tax-year?year=${YEAR}`)
	await expect(page.getByRole('heading', { name: `Ano fiscal ${YEAR}`, level: 1 })).toBeVisible()
	const pt = await cells(page.getByTestId('rails-table'))
	expect(pt[0]).toEqual(['Meio', 'Pagamentos', 'Recebido', 'Taxas', 'Gorjetas', 'Reembolsos'])
	expect(pt.at(-1)![2]).toMatch(/^US\$\s20\.500,00$/)
	await expect(page.getByTestId('check-Venmo')).toContainText('Passa do limite federal')
})

test('on a phone the page does not scroll sideways', async ({ page, request }) => {
	await page.setViewportSize({ width: 390, height: 844 })
	const account = await signUpFresh(page, request, 'Phone Tax')
	await seedYear(account.email)
	await page.goto(`/app/reports/tax-year?year=${YEAR}`)
	await expect(page.getByTestId('rails-table')).toBeVisible()
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
	expect(overflow).toBeLessThanOrEqual(0)
})

test("an owner sets the organization's state in Settings and the year checks that state's threshold too @nojs", async ({
	page,
	request,
}) => {
	const account = await signUpFresh(page, request, 'State Owner')
	await seedYear(account.email)
	await page.goto('/app/settings/organization')
	await page.getByLabel('State (for Form 1099-K)').selectOption({ label: 'Massachusetts' })
	await page.getByRole('button', { name: 'Save organization' }).click()
	await expect(page.getByLabel('State (for Form 1099-K)')).toHaveValue('MA')
	await page.goto(`/app/reports/tax-year?year=${YEAR}`)
	await expect(page.getByTestId('check-Venmo')).toContainText(
		'Passes the Massachusetts threshold ($600.00 or more): expect a Form 1099-K for Massachusetts.',
	)
	await expect(page.getByTestId('check-CashApp')).toContainText('Below the Massachusetts threshold ($600.00 or more).')
})
