import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures.ts'

/**
 * axe on every screen, public and signed in, on the embedded demo install (realistic data: a
 * year of payments, the booking module active). Serious and critical violations fail the test;
 * every screen's counts are printed for the record.
 */
const PUBLIC_SCREENS = ['/', '/auth', '/auth?mode=signup', '/auth/forgot-password', '/no-such-page', '/book', '/book/no-such-organization']

const SIGNED_IN_SCREENS = [
	'/app/dashboard',
	'/app/transactions',
	'/app/transactions?edit=1',
	'/app/clients',
	'/app/clients?edit=1',
	'/app/categories',
	'/app/reports',
	'/app/module-marketplace',
	'/app/module-marketplace?module=b0000000-0000-4000-8000-000000000001',
	'/app/modules/b0000000-0000-4000-8000-000000000003',
	'/app/plans',
	'/app/gears',
	'/app/booking/calendar',
	'/app/booking/services',
	'/app/booking/providers',
	'/app/booking/analytics',
	'/app/booking/settings',
	'/app/settings',
	'/app/settings/organization',
	'/app/settings/members',
	'/app/settings/notifications',
	'/app/transactions/import',
	'/app/transactions/import/history',
	'/app/transactions/import/review',
]

async function audit(page: Page, path: string) {
	const response = await page.goto(path)
	expect(response?.status(), path).toBeLessThan(500)
	await page.waitForLoadState('networkidle')
	const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
	const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
	console.log(
		`axe ${path}: ${violations.length} rule(s) violated, ${serious.length} serious or critical${serious.length ? ` (${serious.map((v) => v.id).join(', ')})` : ''}`,
	)
	return serious.map((v) => ({ rule: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }))
}

test('public screens have no serious or critical accessibility violation @embedded', async ({ page }) => {
	for (const path of PUBLIC_SCREENS) expect(await audit(page, path), path).toEqual([])
})

async function signInAsDemo(page: Page) {
	const demo = JSON.parse(readFileSync(`${process.env.E2E_EMBEDDED_DATA_DIR}/demo-credentials.json`, 'utf8')) as {
		email: string
		password: string
	}
	await page.goto('/auth')
	await page.getByLabel('Email').fill(demo.email)
	await page.getByLabel('Password', { exact: true }).fill(demo.password)
	await page.getByRole('button', { name: 'Sign In' }).click()
	await expect(page).toHaveURL(/\/app\/dashboard$/)
}

test('signed-in screens have no serious or critical accessibility violation @embedded', async ({ page }) => {
	test.setTimeout(180_000)
	await signInAsDemo(page)
	for (const path of SIGNED_IN_SCREENS) expect(await audit(page, path), path).toEqual([])
})

test('the public booking steps have no serious or critical accessibility violation @embedded', async ({ page, browser }) => {
	test.setTimeout(120_000)
	await signInAsDemo(page)
	await page.goto('/app/booking/calendar')
	const publicUrl = await page.getByLabel('Public booking link').inputValue()
	const context = await browser.newContext()
	const visitor = await context.newPage()
	expect(await audit(visitor, new URL(publicUrl).pathname), 'service step').toEqual([])
	await visitor.getByRole('link').filter({ hasText: 'Initial Consultation' }).first().click()
	await expect(visitor).toHaveURL(/\/slot\?/)
	expect(await audit(visitor, visitor.url()), 'slot step').toEqual([])
	await visitor.locator('main a[href*="provider="]').first().click()
	await expect(visitor).toHaveURL(/provider=/)
	expect(await audit(visitor, visitor.url()), 'slot step with a provider').toEqual([])
	// The last day offered: far enough ahead to be cancelled online.
	const lastDay = visitor.getByRole('navigation', { name: 'Days with free times' }).getByRole('link').last()
	const lastDate = new URL((await lastDay.getAttribute('href'))!, visitor.url()).searchParams.get('date')!
	await lastDay.click()
	await expect(visitor).toHaveURL(new RegExp(`date=${lastDate}`))
	await visitor.getByRole('list', { name: 'Free times' }).getByRole('link').first().click()
	await expect(visitor).toHaveURL(/\/details\?/)
	expect(await audit(visitor, visitor.url()), 'details step').toEqual([])
	await visitor.getByLabel('Name', { exact: true }).fill('Axe Visitor')
	await visitor.getByLabel('Email', { exact: true }).fill(`axe-${Date.now()}@example.test`)
	await visitor.getByRole('button', { name: 'Continue' }).click()
	await expect(visitor).toHaveURL(/\/confirm\?/)
	expect(await audit(visitor, visitor.url()), 'confirm step').toEqual([])
	await visitor.getByRole('button', { name: 'Confirm booking' }).click()
	await expect(visitor).toHaveURL(/\/booked\//)
	expect(await audit(visitor, visitor.url()), 'booked page').toEqual([])
	// The cancellation's question, then the booking cancelled (the demo keeps its calendar).
	await visitor.getByRole('link', { name: 'Cancel booking' }).click()
	await expect(visitor).toHaveURL(/cancel=1/)
	expect(await audit(visitor, visitor.url()), 'cancel question').toEqual([])
	await visitor.getByRole('button', { name: 'Yes, cancel it' }).click()
	await expect(visitor.getByRole('heading', { name: 'Booking cancelled' })).toBeVisible()
	await context.close()
})
