import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'
import { grantCatalogue, withDatabase } from './db.ts'
import { expect, test } from './fixtures.ts'
import { seedPayments, signUpFresh, useLanguage, utcToday } from './reports-data.ts'

/**
 * On a phone (390×844) the tables list their rows as cards (docs/decisions/021-table-cards.md):
 * the amount and the client first, in read and edit mode, with no sideways scroll; texts that
 * cannot fit wrap or carry their full text.
 */
test.use({ viewport: { width: 390, height: 844 } })

const PHONE_WIDTH = 390

async function ownerWithPayments(page: Page, request: import('@playwright/test').APIRequestContext, name: string) {
	const account = await signUpFresh(page, request, name)
	const seeded = await seedPayments(
		account.email,
		['Ana Beatriz Silva Nascimento', 'Bruno Costa'],
		[
			{
				client: 0,
				amount: '123456.78',
				date: utcToday(),
				category: 'matched',
				method: 'Wire Transfer',
				externalId: 'EXT-LONG-IDENTIFIER-0001',
				description: 'A long description of what this payment was for, in full',
			},
			{ client: 1, amount: '80.00', date: utcToday(), category: 'pending', method: 'Venmo', externalId: 'VM-200' },
		],
	)
	return { account, ...seeded }
}

/** Nothing of the page, and nothing inside its table, scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
	const overflow = await page.evaluate(() => ({
		page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
		tables: [...document.querySelectorAll('[data-slot=table-container]')].map((el) => el.scrollWidth - el.clientWidth),
	}))
	expect(overflow.page).toBeLessThanOrEqual(0)
	for (const table of overflow.tables) expect(table).toBeLessThanOrEqual(0)
}

/**
 * The element is on screen, whole, within the phone's width: once it has settled (the phone menu
 * slides in from the left, so its text starts off screen).
 */
async function expectOnScreen(locator: Locator) {
	await expect(locator).toBeVisible()
	await expect
		.poll(async () => {
			const box = (await locator.boundingBox())!
			return { leftEdgeOnScreen: box.x >= 0, rightEdgeOnScreen: box.x + box.width <= PHONE_WIDTH }
		})
		.toEqual({ leftEdgeOnScreen: true, rightEdgeOnScreen: true })
}

function card(page: Page, text: string) {
	return page.locator('tbody tr').filter({ hasText: text })
}

/** The column name a card shows above a value (its `::before`), or null when it shows none. */
async function cardLabel(cell: Locator) {
	return cell.evaluate((el) => {
		const before = getComputedStyle(el, '::before')
		return before.display === 'none' || before.content === 'none' ? null : (JSON.parse(before.content) as string)
	})
}

function editCard(page: Page, externalId: string) {
	return page.locator('tr[data-edit-row]').filter({ has: page.locator(`input[value="${externalId}"]`) })
}

test('on a phone the transactions are cards: the amount and the client first, then the date and category @nojs', async ({
	page,
	request,
}) => {
	await ownerWithPayments(page, request, 'Phone Cards Owner')
	await page.goto('/app/transactions')
	const row = card(page, 'EXT-LONG-IDENTIFIER-0001')
	const amount = row.locator('.card-title')
	const client = row.getByRole('link', { name: 'Ana Beatriz Silva Nascimento' })
	await expect(amount).toHaveText('$123,456.78')
	await expectOnScreen(amount)
	await expectOnScreen(client)
	await expectOnScreen(row.getByText('Matched'))
	await expectOnScreen(row.getByText('Wire Transfer'))
	await expectOnScreen(row.getByText('A long description of what this payment was for, in full'))
	// The amount and the client on the first line, the date and category under them.
	const amountBox = (await amount.boundingBox())!
	const dateBox = (await row.locator('.card-meta').first().boundingBox())!
	expect(dateBox.y).toBeGreaterThan(amountBox.y + amountBox.height - 1)
	// Each value under its column's name, but the amount and the client, which speak for themselves.
	const cells = row.locator('td')
	expect(await Promise.all([0, 1, 2, 3, 4, 5, 6].map((i) => cardLabel(cells.nth(i))))).toEqual([
		'Date received',
		null,
		'External ID',
		null,
		'Category',
		'Payment method',
		'Description',
	])
	// Sorting stays at hand above the cards.
	await expectOnScreen(page.locator('thead').getByRole('link', { name: 'Amount' }))
	await expectNoSidewaysScroll(page)
})

test('on a phone a transaction’s amount is edited in its card and saved @nojs', async ({ page, request }) => {
	const { orgId } = await ownerWithPayments(page, request, 'Phone Edit Owner')
	await page.goto('/app/transactions?edit=1')
	const row = editCard(page, 'VM-200')
	const amount = row.getByRole('textbox', { name: 'Amount' })
	await expectOnScreen(amount)
	// In edit mode every field is named, the amount too.
	expect(await cardLabel(row.locator('td').nth(3))).toBe('Amount')
	expect(await cardLabel(row.locator('td').nth(1))).toBe('Client')
	await expectOnScreen(row.getByRole('combobox', { name: 'Client' }))
	await expectOnScreen(row.getByRole('checkbox', { name: 'Delete row' }))
	await expectNoSidewaysScroll(page)
	await amount.fill('95.25')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('Changes saved successfully')).toBeVisible()
	await expect(card(page, 'VM-200').locator('.card-title')).toHaveText('$95.25')
	const stored = await withDatabase((db) =>
		db.query<{ amount: string }>(`select amount::text from public.transactions where organization_id = $1 and external_id = 'VM-200'`, [
			orgId,
		]),
	)
	expect(stored.rows[0]!.amount).toBe('95.25')
})

test('on a phone the clients are cards too, in read and edit mode @nojs', async ({ page, request }) => {
	await ownerWithPayments(page, request, 'Phone Clients Owner')
	await page.goto('/app/clients')
	const row = card(page, 'Ana Beatriz Silva Nascimento')
	await expectOnScreen(row.getByRole('link', { name: 'Ana Beatriz Silva Nascimento' }))
	await expectOnScreen(row.getByText('Active'))
	await expectNoSidewaysScroll(page)
	await page.goto('/app/clients?edit=1')
	const edit = page.locator('tr[data-edit-row]').filter({ has: page.locator('input[value="Bruno Costa"]') })
	await expectOnScreen(edit.getByRole('textbox', { name: 'Name' }))
	await expectOnScreen(edit.getByRole('textbox', { name: 'Email' }))
	await expectOnScreen(edit.getByRole('combobox', { name: 'Status' }))
	await expectNoSidewaysScroll(page)
})

test('on a phone the dashboard’s latest payments and the reports’ categories fit, with the Share column, in es and pt-BR @nojs', async ({
	page,
	request,
}) => {
	await ownerWithPayments(page, request, 'Phone Reports Owner')
	for (const lng of ['es', 'pt-BR'] as const) {
		await useLanguage(page, lng)
		await page.goto('/app/dashboard')
		await expectOnScreen(card(page, 'Ana Beatriz Silva Nascimento').locator('.card-title'))
		// The method is in the card too (the transactions' cards show it as well).
		const method = card(page, 'Ana Beatriz Silva Nascimento').locator('td', {
			hasText: lng === 'es' ? 'Transferencia bancaria' : 'Transferência bancária',
		})
		await expectOnScreen(method)
		// Under its column's name in the page's language.
		expect(await cardLabel(method)).toBe(await page.locator('thead th').nth(4).textContent())
		await expectNoSidewaysScroll(page)
		await page.goto('/app/reports')
		const table = page.getByTestId('category-table')
		const matched = table.locator('tbody tr').first()
		for (const cell of await matched.locator('td').all()) await expectOnScreen(cell)
		// The Share column is there: the last value of the card is a percentage.
		await expect(matched.locator('td').last()).toContainText('%')
		await expectNoSidewaysScroll(page)
	}
})

test('texts that cannot fit wrap or carry their full text, in es and pt-BR @nojs', async ({ page, request }) => {
	await ownerWithPayments(page, request, 'Phone Texts Owner')
	// The transactions search box carries its whole hint.
	await page.goto('/app/transactions')
	const search = page.getByRole('searchbox', { name: 'Search' })
	await expect(search).toHaveAttribute('title', 'Client, external ID, description or amount')

	await useLanguage(page, 'pt-BR')
	// The sync notice's title wraps instead of being cut to one line.
	await page.goto('/app/transactions')
	await page.getByRole('button', { name: 'Sincronizar' }).click()
	const title = page.locator('[data-slot=alert-title]').filter({ hasText: 'Nada para sincronizar ainda' })
	await expect(title).toBeVisible()
	expect(await title.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth)).toBe(true)
	await expectOnScreen(title)

	// The sidebar's organization subtitle (role and gears left) wraps, in both languages.
	for (const lng of ['es', 'pt-BR'] as const) {
		await useLanguage(page, lng)
		await page.setViewportSize({ width: 1366, height: 900 })
		await page.goto('/app/dashboard')
		const subtitle = page.locator('#app-sidebar').getByText(/·/).first()
		await expect(subtitle).toBeVisible()
		expect(await subtitle.evaluate((el) => el.scrollWidth <= el.clientWidth && getComputedStyle(el).textOverflow !== 'ellipsis')).toBe(true)
		await page.setViewportSize({ width: PHONE_WIDTH, height: 844 })
	}
	// On the phone's menu too (pt-BR is the language now).
	await page.goto('/app/dashboard')
	await page.getByLabel('Abrir menu').click()
	const inMenu = page.locator('[role=dialog], #app-sidebar:visible').getByText(/·/).first()
	await expectOnScreen(inMenu)
	expect(await inMenu.evaluate((el) => el.scrollWidth <= el.clientWidth && getComputedStyle(el).textOverflow !== 'ellipsis')).toBe(true)
})

test('on a phone the menu closes on choosing any of its links, the page already shown too', async ({ page, request }) => {
	await signUpFresh(page, request, 'Phone Menu Owner')
	await page.goto('/app/reports?range=all')
	const menu = page.getByRole('dialog')
	for (const [link, path] of [
		['Reports', '/app/reports'],
		['Clients', '/app/clients'],
		['Clients', '/app/clients'],
	] as const) {
		await page.getByRole('button', { name: 'Open menu' }).click()
		await expect(menu).toBeVisible()
		await menu.getByRole('link', { name: link }).click()
		await expect(menu).toBeHidden()
		expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(path)
	}
})

test('a module name longer than the sidebar ends in an ellipsis inside it and carries its whole name (es, laptop)', async ({
	page,
	request,
}) => {
	const account = await signUpFresh(page, request, 'Sidebar Modules Owner')
	await withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string }>(
			'select m.organization_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1',
			[account.email],
		)
		await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [
			rows[0]!.organization_id,
			// Loyalty & Rewards: no screen of its own under the sidebar's items, so it is listed under Active modules.
			'b0000000-0000-4000-8000-000000000008',
		])
	})
	await useLanguage(page, 'es')
	await page.setViewportSize({ width: 1280, height: 800 })
	await page.goto('/app/dashboard')
	const link = page.locator('#app-sidebar').getByRole('link', { name: 'Fidelización y recompensas' })
	await expect(link).toHaveAttribute('title', 'Fidelización y recompensas')
	const label = link.getByText('Fidelización y recompensas')
	const fits = await label.evaluate((el) => {
		const nav = el.closest('nav')!
		return {
			inLink: el.getBoundingClientRect().right <= el.parentElement!.getBoundingClientRect().right + 0.5,
			navScrollsSideways: nav.scrollWidth > nav.clientWidth,
			cut: el.scrollWidth > el.clientWidth,
		}
	})
	// Inside its link, the link inside the sidebar (no sideways scroll), the text ending in an ellipsis.
	expect(fits).toEqual({ inLink: true, navScrollsSideways: false, cut: true })
})

test('a six-figure category total stays inside its card, on a laptop and on a phone', async ({ page, request }) => {
	await ownerWithPayments(page, request, 'Phone Category Owner')
	for (const width of [1366, 1024, 700, PHONE_WIDTH]) {
		await page.setViewportSize({ width, height: 900 })
		await page.goto('/app/categories')
		const matched = page.locator('[data-testid=category-card][data-category=matched]')
		const amount = matched.getByTestId('category-amount')
		await expect(amount).toHaveText('$123,456.78')
		const inner = await matched.locator('[data-slot=card-content]').evaluate((el) => {
			const box = el.getBoundingClientRect()
			const style = getComputedStyle(el)
			return { left: box.left + parseFloat(style.paddingLeft), right: box.right - parseFloat(style.paddingRight) }
		})
		const box = await amount.evaluate((el) => {
			const range = document.createRange()
			range.selectNodeContents(el)
			const r = range.getBoundingClientRect()
			return { left: r.left, right: r.right }
		})
		expect(box.left, `${width}px`).toBeGreaterThanOrEqual(inner.left - 0.5)
		expect(box.right, `${width}px`).toBeLessThanOrEqual(inner.right + 0.5)
	}
})

test('the cards have no serious or critical accessibility violation, and a scrolling table is a named region the keyboard reaches', async ({
	page,
	request,
}) => {
	test.setTimeout(120_000)
	await ownerWithPayments(page, request, 'Phone Axe Owner')
	for (const path of ['/app/transactions', '/app/transactions?edit=1', '/app/clients', '/app/dashboard', '/app/reports']) {
		await page.goto(path)
		const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
		const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		expect(
			serious.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`),
			path,
		).toEqual([])
	}
	// The report's categories table (which scrolls sideways on a narrow laptop column) is a region in the tab order.
	const region = page.getByRole('region', { name: 'Category breakdown' })
	await expect(region).toHaveAttribute('tabindex', '0')
	await region.focus()
	await expect(region).toBeFocused()
})

/** The screens of the upgrades (rules, webhooks, reconciliation, pipelines, client import, API tokens). */
const UPGRADE_SCREENS = [
	'/app/rules',
	'/app/webhooks',
	'/app/transactions/reconciliation',
	'/app/clients/pipelines',
	'/app/clients/import',
	'/app/settings/api-tokens',
]

for (const lng of ['en', 'es', 'pt-BR'] as const) {
	test(`on a phone the screens of the upgrades do not scroll sideways (${lng})`, async ({ page, request }) => {
		const account = await signUpFresh(page, request, 'Phone Upgrades')
		await grantCatalogue(account.email, {
			modules: ['b0000000-0000-4000-8000-000000000010'],
			upgrades: [
				'c0000000-0000-4000-8000-000000000015',
				'c0000000-0000-4000-8000-000000000003',
				'c0000000-0000-4000-8000-000000000004',
				'c0000000-0000-4000-8000-000000000005',
				'c0000000-0000-4000-8000-000000000006',
			],
		})
		await useLanguage(page, lng)
		for (const path of UPGRADE_SCREENS) {
			await page.goto(path)
			// The screen itself, not the offer of a missing upgrade.
			await expect(page.locator('[data-module-offer], [data-testid="crm-offer"]')).toHaveCount(0)
			await expect(page.locator('main h1').first()).toBeVisible()
			await expectNoSidewaysScroll(page)
		}
	})
}
