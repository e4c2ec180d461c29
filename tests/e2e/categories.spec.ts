import { expect, test } from './fixtures.ts'
import { seedPayments, signUpFresh, useLanguage } from './reports-data.ts'

const payments = [
	{ client: null, amount: '10.00', date: '2025-01-05', category: 'pending' },
	{ client: null, amount: '20.50', date: '2025-02-05', category: 'pending' },
	{ client: null, amount: '30.25', date: '2026-01-05', category: 'pending' },
	{ client: null, amount: '1000.00', date: '2025-03-01', category: 'matched' },
	{ client: null, amount: '5.00', date: '2024-12-31', category: 'matched' },
	{ client: null, amount: '7.77', date: '2025-06-30', category: 'review' },
] as const

test('the cards show each category present with its count and sum, most used first @nojs', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Category Owner')
	await seedPayments(account.email, [], [...payments])
	await page.goto('/app/categories')
	await expect(page.getByRole('heading', { name: 'Categories', level: 1 })).toBeVisible()
	const cards = page.getByTestId('category-card')
	await expect(cards).toHaveCount(3)
	await expect(cards.nth(0)).toHaveAttribute('data-category', 'pending')
	await expect(cards.nth(0).getByTestId('category-count')).toHaveText('3')
	await expect(cards.nth(0).getByTestId('category-amount')).toHaveText('$60.75')
	await expect(cards.nth(1)).toHaveAttribute('data-category', 'matched')
	await expect(cards.nth(1).getByTestId('category-count')).toHaveText('2')
	await expect(cards.nth(1).getByTestId('category-amount')).toHaveText('$1,005.00')
	await expect(cards.nth(2)).toHaveAttribute('data-category', 'review')
	await expect(cards.nth(2).getByTestId('category-amount')).toHaveText('$7.77')
	// Unmatched has no transactions: no card.
	await expect(page.locator('[data-category="unmatched"]')).toHaveCount(0)
	// Each card opens the transactions of its category; Add starts a new transaction.
	await expect(page.getByRole('link', { name: 'Matched', exact: true })).toHaveAttribute('href', '/app/transactions?category=matched')
	await expect(page.getByRole('link', { name: 'Add a transaction' })).toHaveAttribute('href', '/app/transactions?edit=1&add=1')

	// Search, through the URL.
	const search = page.getByRole('searchbox', { name: 'Search categories' })
	await search.fill('REV')
	await page.getByRole('button', { name: 'Search', exact: true }).click()
	await expect(page).toHaveURL(/\/app\/categories\?q=REV$/)
	await expect(cards).toHaveCount(1)
	await expect(cards.first()).toHaveAttribute('data-category', 'review')
	await expect(search).toHaveValue('REV')

	await page.goto('/app/categories?q=nothing-like-this')
	await expect(page.getByText('No categories found')).toBeVisible()
	await expect(cards).toHaveCount(0)
	await page.getByRole('link', { name: 'Clear search' }).click()
	await expect(cards).toHaveCount(3)

	// In Spanish the search reads the Spanish names, blind to accents, and not the English ones.
	await useLanguage(page, 'es')
	await page.goto('/app/categories?q=REVISION')
	await expect(cards).toHaveCount(1)
	await expect(cards.first()).toHaveAttribute('data-category', 'review')
	await page.goto('/app/categories?q=matched')
	await expect(cards).toHaveCount(0)
	await page.goto('/app/categories?q=concil')
	await expect(cards).toHaveCount(1)
	await expect(cards.first()).toHaveAttribute('data-category', 'matched')
})

test('a new organization has no categories, and an oversized search is harmless @nojs', async ({ page, request }) => {
	await signUpFresh(page, request, 'Category Newcomer')
	await page.goto('/app/categories')
	await expect(page.getByText('No categories found')).toBeVisible()
	const response = await page.goto(`/app/categories?q=${'x'.repeat(5000)}`)
	expect(response?.status()).toBe(200)
	await expect(page.getByText('No categories found')).toBeVisible()
})

test('six placeholder cards show while a search loads', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Category Waiter')
	await seedPayments(account.email, [], [...payments])
	await page.goto('/app/categories')
	await expect(page.getByTestId('category-card')).toHaveCount(3)
	let release!: () => void
	const held = new Promise<void>((resolve) => (release = resolve))
	await page.route(/\/app\/categories\.data/, async (route) => {
		await held
		await route.continue()
	})
	await page.getByRole('searchbox', { name: 'Search categories' }).fill('pend')
	await expect(page.getByTestId('category-skeleton')).toHaveCount(6)
	await expect(page.getByRole('status', { name: 'Loading categories...' })).toBeVisible()
	release()
	await expect(page.getByTestId('category-skeleton')).toHaveCount(0)
	await expect(page.getByTestId('category-card')).toHaveCount(1)
	await expect(page).toHaveURL(/\?q=pend$/)
})

test('with JavaScript the results follow the typing, and the box keeps its focus', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Category Typist')
	await seedPayments(account.email, [], [...payments])
	await page.goto('/app/categories')
	const search = page.getByRole('searchbox', { name: 'Search categories' })
	await search.click()
	await search.pressSequentially('pe', { delay: 50 })
	await expect(page).toHaveURL(/\?q=pe$/)
	await search.pressSequentially('nd', { delay: 50 })
	await expect(page).toHaveURL(/\?q=pend$/)
	await expect(search).toBeFocused()
	await expect(search).toHaveValue('pend')
	await expect(page.getByTestId('category-card')).toHaveCount(1)
	await page.getByRole('link', { name: 'Clear search' }).click()
	await expect(page).toHaveURL(/\/app\/categories$/)
	await expect(search).toHaveValue('')
	await expect(page.getByTestId('category-card')).toHaveCount(3)
})
