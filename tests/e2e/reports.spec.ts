import { readFileSync } from 'node:fs'
import { expect, test } from './fixtures.ts'
import { seedPayments, signUpFresh, useLanguage, type Payment } from './reports-data.ts'

const clients = ['Ana, "A" Díaz', 'Bruno', '=HYPERLINK("http://evil.example")']
const payments: Payment[] = [
	{ client: 0, amount: '999.00', date: '2025-01-09', category: 'matched' },
	{
		client: 0,
		amount: '100.00',
		date: '2025-01-10',
		category: 'matched',
		method: 'Zelle',
		externalId: 'EXT-1',
		description: 'first, "quoted"\nsecond line',
	},
	{ client: 1, amount: '50.50', date: '2025-01-31', category: 'pending', method: 'Venmo' },
	{ client: 2, amount: '200.00', date: '2025-02-14', category: 'matched', method: 'CashApp', description: '+SUM(1,2)' },
	{ client: null, amount: '25.25', date: '2025-03-20', category: 'review', method: 'PayPal', externalId: '@ext' },
	{ client: null, amount: '1.00', date: '2025-03-21', category: 'unmatched', method: 'Other' },
]
const RANGE = 'range=custom&from=2025-01-10&to=2025-03-20'

/** RFC 4180: fields separated by commas, quoted fields may hold commas, quotes and newlines. */
function parseCsv(text: string): string[][] {
	const rows: string[][] = []
	let row: string[] = []
	let field = ''
	let quoted = false
	for (let i = 0; i < text.length; i++) {
		const c = text[i]!
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') {
				field += '"'
				i++
			} else if (c === '"') quoted = false
			else field += c
		} else if (c === '"') quoted = true
		else if (c === ',') {
			row.push(field)
			field = ''
		} else if (c === '\r' && text[i + 1] === '\n') {
			row.push(field)
			rows.push(row)
			row = []
			field = ''
			i++
		} else field += c
	}
	if (field || row.length) {
		row.push(field)
		rows.push(row)
	}
	return rows
}

function cells(locator: import('@playwright/test').Locator) {
	return locator
		.getByRole('row')
		.evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('th, td')).map((c) => (c.textContent ?? '').trim())))
}

test('a custom range shows the figures of exactly the transactions inside it @nojs', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Report Owner')
	await seedPayments(account.email, clients, payments)
	await page.goto('/app/reports')
	await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible()
	await page.getByLabel('From', { exact: true }).fill('2025-01-10')
	await page.getByLabel('To', { exact: true }).fill('2025-03-20')
	await page.getByRole('button', { name: 'Apply' }).click()
	await expect(page).toHaveURL(new RegExp(`/app/reports\\?${RANGE}$`))
	await expect(page.getByTestId('range-caption')).toHaveText('Showing 01/10/2025 to 03/20/2025')
	await expect(page.getByRole('group', { name: 'Total Revenue' }).getByTestId('stat-value')).toHaveText('$375.75')
	await expect(page.getByRole('group', { name: 'Average Transaction' }).getByTestId('stat-value')).toHaveText('$93.94')
	await expect(page.getByRole('group', { name: 'Transaction Volume' }).getByTestId('stat-value')).toHaveText('4')

	expect(await cells(page.getByTestId('category-table'))).toEqual([
		['Category', 'Transactions', 'Amount', 'Share'],
		['Matched', '2', '$300.00', '79.8%'],
		['Pending', '1', '$50.50', '13.4%'],
		['Review', '1', '$25.25', '6.7%'],
		['Total', '4', '$375.75', '100.0%'],
	])
	expect(await cells(page.getByTestId('month-table'))).toEqual([
		['Month', 'Transactions', 'Amount'],
		['January 2025', '2', '$150.50'],
		['February 2025', '1', '$200.00'],
		['March 2025', '1', '$25.25'],
		['Total', '4', '$375.75'],
	])
	// The export link carries the same range.
	await expect(page.getByRole('link', { name: 'Export Report' })).toHaveAttribute('href', `/app/reports/export.csv?${RANGE}`)
})

test('presets are links in the URL, and an unknown one falls back to the last 12 months @nojs', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Preset User')
	await seedPayments(account.email, clients, payments)
	await page.goto('/app/reports')
	const presets = page.getByRole('navigation', { name: 'Date range' })
	await expect(presets.getByRole('link', { name: 'Last 12 months' })).toHaveAttribute('aria-current', 'page')
	await presets.getByRole('link', { name: 'All time' }).click()
	await expect(page).toHaveURL(/\/app\/reports\?range=all$/)
	await expect(presets.getByRole('link', { name: 'All time' })).toHaveAttribute('aria-current', 'page')
	await expect(page.getByTestId('range-caption')).toHaveText('Showing all transactions')
	await expect(page.getByRole('group', { name: 'Total Revenue' }).getByTestId('stat-value')).toHaveText('$1,375.75')
	await expect(page.getByRole('group', { name: 'Transaction Volume' }).getByTestId('stat-value')).toHaveText('6')
	await expect(page.getByRole('link', { name: 'Export Report' })).toHaveAttribute('href', '/app/reports/export.csv?range=all')

	for (const preset of ['this-month', 'last-3-months', 'year-to-date', 'last-12-months']) {
		const response = await page.goto(`/app/reports?range=${preset}`)
		expect(response?.status()).toBe(200)
		await expect(page.getByTestId('range-caption')).toHaveText(/^Showing \d\d\/\d\d\/\d{4} to \d\d\/\d\d\/\d{4}$/)
	}
	const response = await page.goto('/app/reports?range=bogus')
	expect(response?.status()).toBe(200)
	await expect(presets.getByRole('link', { name: 'Last 12 months' })).toHaveAttribute('aria-current', 'page')
})

test('a malformed range answers 400 with a translated message, never a 500 @nojs', async ({ page, request }) => {
	await signUpFresh(page, request, 'Range Breaker')
	const cases: Array<[string, string]> = [
		['range=custom&from=2025-02-30&to=2025-03-01', 'Invalid start date'],
		['range=custom&from=2025-02-01&to=03/01/2025', 'Invalid end date'],
		['range=custom&from=2025-03-01&to=2025-02-01', 'Dates out of order'],
		['range=custom&from=2025-03-01', 'Dates missing'],
		[`range=custom&from=${'9'.repeat(8000)}&to=2025-01-01`, 'Invalid start date'],
	]
	for (const [query, title] of cases) {
		const response = await page.goto(`/app/reports?${query}`)
		expect(response?.status(), query).toBe(400)
		await expect(page.getByRole('alert')).toContainText(title)
		await expect(page.getByRole('link', { name: 'Export Report' })).toHaveCount(0)
		await expect(page.getByRole('link', { name: 'Last 12 months' })).toBeVisible()
		const csv = await page.request.get(`/app/reports/export.csv?${query}`)
		expect(csv.status(), query).toBe(400)
		expect(await csv.text()).toContain(title)
	}
	// What was typed stays in the form.
	await page.goto('/app/reports?range=custom&from=2025-03-01&to=2025-02-01')
	await expect(page.getByLabel('From', { exact: true })).toHaveValue('2025-03-01')
	await expect(page.getByLabel('To', { exact: true })).toHaveValue('2025-02-01')
})

test('Export Report downloads the range’s rows and a summary as CSV, safely escaped @nojs', async ({ page, request }) => {
	// Machine-readable dates and numbers in every language (docs/decisions/022-formats-follow-the-language.md).
	const account = await signUpFresh(page, request, 'Exporter')
	await seedPayments(account.email, clients, payments)
	await page.goto(`/app/reports?${RANGE}`)
	const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export Report' }).click()])
	expect(download.suggestedFilename()).toBe('p2p-report-2025-01-10_2025-03-20.csv')
	const text = readFileSync(await download.path(), 'utf8')

	const response = await page.request.get(`/app/reports/export.csv?${RANGE}`)
	expect(response.status()).toBe(200)
	expect(response.headers()['content-type']).toBe('text/csv; charset=utf-8')
	expect(await response.text()).toBe(text)

	expect(text.startsWith('\uFEFF')).toBe(true)
	const rows = parseCsv(text.slice(1))
	expect(rows.slice(0, 6)).toEqual([
		['Date', 'Client', 'External ID', 'Amount', 'Category', 'Method', 'Description'],
		['2025-01-10', 'Ana, "A" Díaz', 'EXT-1', '100.00', 'Matched', 'Zelle', 'first, "quoted"\nsecond line'],
		['2025-01-31', 'Bruno', '', '50.50', 'Pending', 'Venmo', ''],
		// A spreadsheet would run these as formulas: they are written as text.
		['2025-02-14', `'=HYPERLINK("http://evil.example")`, '', '200.00', 'Matched', 'Cash App', "'+SUM(1,2)"],
		['2025-03-20', '', "'@ext", '25.25', 'Review', 'PayPal', ''],
		[''],
	])
	expect(rows.slice(6)).toEqual([
		['Summary'],
		['Organization', expect.any(String)],
		['Range', '2025-01-10', '2025-03-20'],
		['Total revenue', '375.75'],
		['Transactions', '4'],
		['Average transaction', '93.94'],
		[''],
		['By category', 'Transactions', 'Amount', 'Share'],
		['Matched', '2', '300.00', '79.8%'],
		['Pending', '1', '50.50', '13.4%'],
		['Review', '1', '25.25', '6.7%'],
	])

	// All time: every row, oldest first.
	const all = parseCsv((await (await page.request.get('/app/reports/export.csv?range=all')).text()).slice(1))
	const dataRows = all.slice(
		1,
		all.findIndex((r) => r.length === 1 && r[0] === ''),
	)
	expect(dataRows.map((r) => r[0])).toEqual(['2025-01-09', '2025-01-10', '2025-01-31', '2025-02-14', '2025-03-20', '2025-03-21'])
	expect(all).toContainEqual(['Total revenue', '1375.75'])
	expect(all).toContainEqual(['Range', 'All time'])
})

test('another user cannot export this organization’s transactions', async ({ page, request, playwright }) => {
	const owner = await signUpFresh(page, request, 'Private Owner')
	await seedPayments(owner.email, [], [{ client: null, amount: '123.45', date: '2025-05-05', category: 'matched' }])
	const stranger = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL })
	const { signUpByRequest, newAccount } = await import('./fixtures.ts')
	await signUpByRequest(stranger, newAccount('Stranger'))
	const csv = await (await stranger.get('/app/reports/export.csv?range=all')).text()
	expect(csv).not.toContain('123.45')
	expect(csv).toContain('Total revenue,0.00')
	const anonymous = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL })
	const response = await anonymous.get('/app/reports/export.csv?range=all', { maxRedirects: 0 })
	expect(response.status()).toBe(302)
	expect(response.headers().location).toMatch(/^\/auth\?redirectTo=/)
	await stranger.dispose()
	await anonymous.dispose()
})

test('with JavaScript the charts draw and a preset changes the figures in place', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Chart Reader')
	await seedPayments(account.email, clients, payments)
	await page.goto(`/app/reports?${RANGE}`)
	await expect(
		page
			.getByRole('img', { name: /Donut chart/ })
			.locator('svg.recharts-surface')
			.first(),
	).toBeVisible()
	const trend = page.getByRole('img', { name: /Bar chart of the revenue per month/ })
	await expect(trend.locator('svg.recharts-surface').first()).toBeVisible()
	// The two series are named in a legend.
	await expect(trend.locator('.recharts-legend-item-text')).toHaveText(['Amount', 'Transactions'])
	await page.getByRole('link', { name: 'All time' }).click()
	await expect(page).toHaveURL(/\?range=all$/)
	await expect(page.getByRole('group', { name: 'Transaction Volume' }).getByTestId('stat-value')).toHaveText('6')
	await expect(page.getByLabel('From', { exact: true })).toHaveValue('')
})

const topLevelKeys = ['dashboard', 'categories', 'reports', 'common', 'table'].flatMap((ns) =>
	Object.keys(JSON.parse(readFileSync(`public/locales/en/${ns}.json`, 'utf8')) as Record<string, unknown>),
)
const missingKey = new RegExp(`\\b(${topLevelKeys.join('|')})\\.[a-zA-Z]+|\\b(common|dashboard|categories|reports):`)

test('dashboard, categories and reports render in es and pt-BR without a missing key', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Polyglot Reporter')
	await seedPayments(account.email, clients, payments)
	const expected = {
		es: {
			dashboard: 'Total recibido',
			categories: 'Conciliada',
			reports: 'Ingresos totales',
			csv: 'Fecha,Cliente,ID externo,Monto,Categoría,Método,Descripción',
		},
		'pt-BR': {
			dashboard: 'Total recebido',
			categories: 'Conciliada',
			reports: 'Receita total',
			csv: 'Data,Cliente,ID externo,Valor,Categoria,Método,Descrição',
		},
	} as const
	for (const lng of ['es', 'pt-BR'] as const) {
		await useLanguage(page, lng)
		for (const [path, word] of [
			['/app/dashboard', expected[lng].dashboard],
			['/app/categories', expected[lng].categories],
			['/app/categories?q=zzz', null],
			['/app/reports?range=all', expected[lng].reports],
			['/app/reports?range=custom&from=2025-03-01&to=2025-02-01', null],
		] as const) {
			await page.goto(path)
			await expect(page.locator('html')).toHaveAttribute('lang', lng)
			if (word) await expect(page.getByText(word, { exact: true }).first()).toBeVisible()
			const text = await page.locator('body').innerText()
			expect(text, `${lng} ${path}`).not.toMatch(missingKey)
			expect(text, `${lng} ${path}`).not.toMatch(/\bTotal Received\b|\bNo categories found\b|\bTotal Revenue\b|\bDates out of order\b/)
		}
		const csv = await (await page.request.get('/app/reports/export.csv?range=all')).text()
		expect(csv.slice(1).split('\r\n')[0]).toBe(expected[lng].csv)
	}
})
