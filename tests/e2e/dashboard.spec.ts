import { expect, test } from './fixtures.ts'
import { cutAxisLabels, monthsAgo, seedPayments, signUpFresh, useLanguage, utcToday } from './reports-data.ts'

function mmddyyyy(iso: string) {
	return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`
}

test('a new organization sees zeros and a way to add its first transaction @nojs', async ({ page, request }) => {
	await signUpFresh(page, request, 'Dashboard Newcomer')
	await page.goto('/app/dashboard')
	await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible()
	await expect(page.getByRole('group', { name: 'Total Received' })).toContainText('$0.00')
	await expect(page.getByRole('group', { name: 'Total Transactions' })).toContainText('0')
	await expect(page.getByRole('group', { name: 'Unique Clients' })).toContainText('0')
	await expect(page.getByRole('group', { name: 'Matched Transactions' })).toContainText('0.0% of all transactions')
	await expect(page.getByRole('heading', { name: 'No transactions yet' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Add a transaction' })).toHaveAttribute('href', '/app/transactions?edit=1&add=1')
	// No axes around nothing: the chart says there is nothing yet, on the reports too.
	await expect(page.getByText('No payments in this period yet.')).toBeVisible()
	await expect(page.getByRole('img', { name: /Bar chart of the amount received/ })).toHaveCount(0)
})

test('the dashboard cards, latest transactions and months equal what was inserted @nojs', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Dashboard Owner')
	const today = utcToday()
	await seedPayments(
		account.email,
		['Ana Díaz', 'Bruno', 'Carla'],
		[
			{ client: 0, amount: '1000.50', date: today, category: 'matched', method: 'Zelle', externalId: 'EXT-1' },
			{ client: 1, amount: '250.25', date: monthsAgo(1, 15), category: 'matched', method: 'Venmo' },
			{ client: 2, amount: '99.99', date: monthsAgo(2, 10), category: 'pending', method: 'PayPal' },
			{ client: null, amount: '10.00', date: monthsAgo(3, 5), category: 'unmatched', method: 'Other' },
			{ client: 0, amount: '40.00', date: monthsAgo(13, 5), category: 'review', method: 'Zelle' },
		],
	)
	await page.goto('/app/dashboard')
	await expect(page.getByRole('group', { name: 'Total Received' })).toContainText('$1,400.74')
	await expect(page.getByRole('group', { name: 'Total Transactions' }).getByTestId('stat-value')).toHaveText('5')
	await expect(page.getByRole('group', { name: 'Unique Clients' }).getByTestId('stat-value')).toHaveText('3')
	const matched = page.getByRole('group', { name: 'Matched Transactions' })
	await expect(matched.getByTestId('stat-value')).toHaveText('2')
	await expect(matched).toContainText('40.0% of all transactions')
	await expect(page.getByRole('heading', { name: 'No transactions yet' })).toHaveCount(0)

	// The latest first, with the client's name, amount, category and method.
	const latest = page.getByRole('table').first()
	const rows = latest.getByRole('row')
	await expect(rows).toHaveCount(6)
	await expect(rows.nth(1)).toContainText(mmddyyyy(today))
	await expect(rows.nth(1)).toContainText('Ana Díaz')
	await expect(rows.nth(1)).toContainText('$1,000.50')
	await expect(rows.nth(1)).toContainText('Matched')
	await expect(rows.nth(1)).toContainText('Zelle')
	await expect(rows.nth(4)).toContainText('No client')
	await expect(rows.nth(5)).toContainText(mmddyyyy(monthsAgo(13, 5)))
	await expect(page.getByRole('link', { name: 'View all transactions' })).toHaveAttribute('href', '/app/transactions')
	await expect(page.getByRole('link', { name: 'View reports' })).toHaveAttribute('href', /^\/app\/reports/)

	// Without JavaScript the chart is drawn on the server: twelve bars in proportion, this month's the tallest.
	if (test.info().project.name === 'no-js') {
		const bars = page.getByRole('img', { name: /Bar chart of the amount received/ }).locator('svg rect')
		await expect(bars).toHaveCount(12)
		const heights = await bars.evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('height'))))
		expect(Math.max(...heights)).toBe(heights[11])
		expect(heights[10]).toBeGreaterThan(heights[9]!)
		expect(heights[9]).toBeGreaterThan(0)
		expect(heights[0]).toBe(0)
	}

	// The chart's table: twelve months, the current one last; the 13-month-old payment is outside.
	await page.getByText('Show the figures').click()
	const months = page.getByRole('table', { name: 'Amount received per month' })
	await expect(months.getByRole('row')).toHaveCount(13)
	await expect(months.getByRole('row').last()).toContainText('$1,000.50')
	await expect(months.getByRole('row').nth(11)).toContainText('$250.25')
	await expect(months).not.toContainText('$40.00')
})

test('the dashboard chart draws with JavaScript', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Chart Viewer')
	await seedPayments(account.email, [], [{ client: null, amount: '12.00', date: utcToday(), category: 'matched' }])
	await page.goto('/app/dashboard')
	const chart = page.getByRole('img', { name: /Bar chart of the amount received/ })
	await expect(chart.locator('svg.recharts-surface').first()).toBeVisible()
	await page.getByRole('link', { name: 'View reports' }).click()
	await expect(page).toHaveURL(/\/app\/reports\?range=last-12-months$/)
})

test('the latest transactions fit their card beside the chart on a laptop in es and pt-BR; a wide screen adds the method @nojs', async ({
	page,
	request,
}) => {
	const account = await signUpFresh(page, request, 'Laptop Reader')
	await seedPayments(
		account.email,
		['Maria Fernanda Albuquerque'],
		[
			{ client: 0, amount: '123456.78', date: utcToday(), category: 'unmatched', method: 'Wire Transfer' },
			{ client: 0, amount: '80.00', date: utcToday(), category: 'pending', method: 'CashApp' },
		],
	)
	const latest = page.locator('[data-slot=table-container]').first()
	for (const language of ['es', 'pt-BR'] as const) {
		await useLanguage(page, language)
		await page.setViewportSize({ width: 1280, height: 800 })
		await page.goto('/app/dashboard')
		await expect(latest).toBeVisible()
		expect(await latest.evaluate((el) => el.scrollWidth - el.clientWidth), language).toBeLessThanOrEqual(0)
		await page.setViewportSize({ width: 1600, height: 900 })
		await expect(latest.getByRole('columnheader', { name: 'Método' })).toBeVisible()
		expect(await latest.evaluate((el) => el.scrollWidth - el.clientWidth), `${language} wide`).toBeLessThanOrEqual(0)
	}
})

test('in Spanish the chart’s amount axis shows whole labels ("6 mil US$", not a cut "mil US$")', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Chart Lector')
	await seedPayments(account.email, [], [{ client: null, amount: '6000.00', date: utcToday(), category: 'matched' }])
	await useLanguage(page, 'es')
	await page.goto('/app/dashboard')
	const labels = page.locator('.recharts-cartesian-axis-tick-value')
	await expect(labels.first()).toBeVisible()
	expect((await labels.allTextContents()).join(' | ')).toContain('mil')
	expect(await cutAxisLabels(page)).toEqual([])
})
