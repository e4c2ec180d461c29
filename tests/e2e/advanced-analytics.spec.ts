/**
 * The Advanced Analytics screen (docs/product.md, Reports: Advanced Analytics): with the upgrade
 * its tables show the figures of the typed payments, without it the screen says what the upgrade
 * gives; Spanish numbers and words; a phone without sideways scrolling. The figures themselves are
 * checked in depth by tests/db/advanced-analytics.test.ts.
 */
import { withDatabase } from './db.ts'
import { expect, test } from './fixtures.ts'
import { seedPayments, signUpFresh, useLanguage, type Payment } from './reports-data.ts'

const clients = ['Ana Díaz', 'Bruno']
const payments: Payment[] = [
	{ client: 0, amount: '100.00', date: '2025-01-10', category: 'matched', method: 'Zelle' },
	{ client: 0, amount: '250.50', date: '2025-02-14', category: 'matched', method: 'Venmo' },
	{ client: 1, amount: '80.00', date: '2025-02-03', category: 'matched', method: 'Venmo' },
	{ client: null, amount: '20.00', date: '2025-03-01', category: 'unmatched', method: 'Other' },
]
const RANGE = 'range=custom&from=2025-01-01&to=2025-03-31'

/** Gives the organization the Advanced Analytics upgrade, as a purchase in the marketplace would. */
async function giveUpgrade(orgId: string) {
	await withDatabase(async (db) => {
		await db.query(
			`with m as (
				insert into public.organization_modules (organization_id, module_id) values ($1, 'b0000000-0000-4000-8000-000000000004')
				on conflict (organization_id, module_id) do update set status = excluded.status returning id)
			insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select $1, id, 'c0000000-0000-4000-8000-000000000010' from m`,
			[orgId],
		)
	})
}

function cells(locator: import('@playwright/test').Locator) {
	return locator
		.getByRole('row')
		.evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('th, td')).map((c) => (c.textContent ?? '').trim())))
}

test('with the upgrade the tables show the figures of the payments in the range; a bad range says why @nojs', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Analytics Owner')
	const { orgId } = await seedPayments(account.email, clients, payments)
	await giveUpgrade(orgId)
	await page.goto('/app/reports/analytics')
	await page.getByLabel('From', { exact: true }).fill('2025-01-01')
	await page.getByLabel('To', { exact: true }).fill('2025-03-31')
	await page.getByRole('button', { name: 'Apply' }).click()
	await expect(page).toHaveURL(new RegExp(`/app/reports/analytics\\?${RANGE}$`))
	await expect(page.getByTestId('analytics-totals')).toHaveText('$450.50 received in 4 payments in this range.')
	expect(await cells(page.getByTestId('top-clients-table'))).toEqual([
		['Client', 'Payments', 'Received', 'Share', 'Last payment'],
		['Ana Díaz', '2', '$350.50', '77.8%', '02/14/2025'],
		['Bruno', '1', '$80.00', '17.8%', '02/03/2025'],
	])
	expect(await cells(page.getByTestId('method-table'))).toEqual([
		['Month', 'Zelle', 'Venmo', 'Other', 'Total'],
		['Jan 2025', '$100.00', '$0.00', '$0.00', '$100.00'],
		['Feb 2025', '$0.00', '$330.50', '$0.00', '$330.50'],
		['Mar 2025', '$0.00', '$0.00', '$20.00', '$20.00'],
		['Total', '$100.00', '$330.50', '$20.00', '$450.50'],
	])
	// Ana's first payment in January, again in February; Bruno's first in February.
	const cohorts = await cells(page.getByTestId('cohort-table'))
	expect(cohorts[1]!.slice(0, 4)).toEqual(['Jan 2025', '1', '1100.0%', '00.0%'])
	expect(cohorts[2]!.slice(0, 3)).toEqual(['Feb 2025', '1', '00.0%'])
	expect((await cells(page.getByTestId('yoy-table')))[2]).toEqual(['February 2025', '$330.50', '$0.00', '—', '2', '0', '—'])

	await page.goto('/app/reports/analytics?range=custom&from=2025-03-31&to=2025-01-01')
	await expect(page.getByRole('alert')).toContainText('Dates out of order')
	await expect(page.getByTestId('top-clients-table')).toHaveCount(0)
})

test('without the upgrade the screen says what it gives and links to the marketplace', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'No Analytics')
	await seedPayments(account.email, clients, payments)
	const response = await page.goto(`/app/reports/analytics?${RANGE}`)
	expect(response?.status()).toBe(200)
	await expect(page.getByRole('heading', { name: 'Advanced Analytics is an upgrade of Reports' })).toBeVisible()
	await expect(page.getByTestId('top-clients-table')).toHaveCount(0)
	await expect(page.getByRole('navigation', { name: 'Reports sections' }).getByRole('link', { name: 'Analytics' })).toHaveAttribute(
		'aria-current',
		'page',
	)
	await page.getByRole('link', { name: 'See Advanced Analytics in the marketplace' }).click()
	await expect(page).toHaveURL(/\/app\/modules\/b0000000-0000-4000-8000-000000000004$/)
})

test('in Spanish the words, months and amounts are Spanish', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Análisis')
	const { orgId } = await seedPayments(account.email, clients, payments)
	await giveUpgrade(orgId)
	await useLanguage(page, 'es')
	await page.goto(`/app/reports/analytics?${RANGE}`)
	await expect(page.getByRole('heading', { name: 'Cohortes de clientes' })).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Mejores clientes' })).toBeVisible()
	const top = await cells(page.getByTestId('top-clients-table'))
	expect(top[0]).toEqual(['Cliente', 'Pagos', 'Recibido', 'Proporción', 'Último pago'])
	expect(top[1]![0]).toBe('Ana Díaz')
	expect(top[1]![2]).toMatch(/^350,50\sUS\$$/)
	expect(top[1]![4]).toBe('14/02/2025')
	const methods = await cells(page.getByTestId('method-table'))
	expect(methods[0]).toEqual(['Mes', 'Zelle', 'Venmo', 'Otro', 'Total'])
	expect(methods[1]![0]).toBe('ene 2025')
})

test('on a phone the page does not scroll sideways', async ({ page, request }) => {
	await page.setViewportSize({ width: 390, height: 844 })
	const account = await signUpFresh(page, request, 'Phone Analytics')
	const { orgId } = await seedPayments(account.email, clients, payments)
	await giveUpgrade(orgId)
	await page.goto(`/app/reports/analytics?${RANGE}`)
	await expect(page.getByTestId('cohort-table')).toBeVisible()
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
	expect(overflow).toBeLessThanOrEqual(0)
	// The wide tables scroll inside their own named region, which the keyboard can reach.
	await expect(page.getByRole('region', { name: 'Client cohorts' })).toBeVisible()
})
