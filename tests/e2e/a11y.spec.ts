import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures.ts'

/**
 * axe on every screen, public and signed in, on the embedded demo install (realistic data: a
 * year of payments, the booking module active), with JavaScript, at a laptop's width and at a
 * phone's (390 px). Every WCAG 2.0/2.1 A and AA rule runs, with label-content-name-mismatch
 * (WCAG 2.5.3, Label in Name: off in axe by default); serious and critical violations fail the
 * test, every screen being audited before it fails; each screen's counts are printed for the record.
 */
// An invoice's page is audited with an invoice in tests/e2e/invoice-page.spec.ts; here its 404.
const PUBLIC_SCREENS = [
	'/',
	'/auth',
	'/auth?mode=signup',
	'/auth/forgot-password',
	'/no-such-page',
	'/book',
	'/book/no-such-organization',
	`/i/${'0'.repeat(64)}`,
]

/** Signed-in screens, in two halves audited side by side; `{appointment}` is a demo appointment's id. */
const SIGNED_IN_SCREENS = [
	[
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
		'/app/owed',
		'/app/invoices',
		'/app/invoices/new',
	],
	[
		'/app/booking/calendar',
		'/app/booking/calendar?view=week',
		'/app/booking/appointments/{appointment}',
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
	],
]

const PHONE = { width: 390, height: 844 }

async function audit(page: Page, path: string) {
	const response = await page.goto(path)
	expect(response?.status(), path).toBeLessThan(500)
	await page.waitForLoadState('networkidle')
	const { violations } = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
		.analyze()
	const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
	const width = page.viewportSize()?.width
	console.log(
		`axe ${path} (${width} px): ${violations.length} rule(s) violated, ${serious.length} serious or critical${serious.length ? ` (${serious.map((v) => v.id).join(', ')})` : ''}`,
	)
	return serious.map((v) => ({ rule: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }))
}

test('public screens have no serious or critical accessibility violation, on a laptop and a phone @embedded', async ({ page }) => {
	test.setTimeout(120_000)
	for (const path of PUBLIC_SCREENS) expect.soft(await audit(page, path), path).toEqual([])
	await page.setViewportSize(PHONE)
	for (const path of PUBLIC_SCREENS) expect.soft(await audit(page, path), `${path} at 390 px`).toEqual([])
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

/** A demo appointment's id, from the first week view (this week or one of the next three) that shows one. */
async function anAppointment(page: Page) {
	const link = page.locator('a[href*="appointment="], a[href*="/app/booking/appointments/"]').first()
	for (let week = 0; week < 4; week++) {
		const day = new Date(Date.now() + week * 7 * 86_400_000).toISOString().slice(0, 10)
		await page.goto(`/app/booking/calendar?view=week&day=${day}`)
		if ((await link.count()) > 0) {
			const href = new URL((await link.getAttribute('href'))!, page.url())
			return href.searchParams.get('appointment') ?? href.pathname.split('/').pop()!
		}
	}
	throw new Error('no demo appointment in the next four weeks')
}

for (const [half, screens] of SIGNED_IN_SCREENS.entries()) {
	for (const phone of [false, true]) {
		test(`signed-in screens (${half + 1} of 2) have no serious or critical accessibility violation${phone ? ' at 390 px' : ''} @embedded`, async ({
			page,
		}) => {
			test.setTimeout(150_000)
			if (phone) await page.setViewportSize(PHONE)
			await signInAsDemo(page)
			const appointment = screens.some((p) => p.includes('{appointment}')) ? await anAppointment(page) : ''
			for (const path of screens.map((p) => p.replace('{appointment}', appointment))) {
				expect.soft(await audit(page, path), `${path}${phone ? ' at 390 px' : ''}`).toEqual([])
			}
		})
	}
}

test('the public booking steps have no serious or critical accessibility violation @embedded', async ({ page, browser }) => {
	test.setTimeout(120_000)
	await signInAsDemo(page)
	await page.goto('/app/booking/calendar')
	const publicUrl = await page.getByLabel('Public booking link').inputValue()
	const context = await browser.newContext()
	const visitor = await context.newPage()
	expect.soft(await audit(visitor, new URL(publicUrl).pathname), 'service step').toEqual([])
	await visitor.getByRole('link').filter({ hasText: 'Initial Consultation' }).first().click()
	await expect(visitor).toHaveURL(/\/slot\?/)
	expect.soft(await audit(visitor, visitor.url()), 'slot step').toEqual([])
	await visitor.locator('main a[href*="provider="]').first().click()
	await expect(visitor).toHaveURL(/provider=/)
	expect.soft(await audit(visitor, visitor.url()), 'slot step with a provider').toEqual([])
	// The last day offered: far enough ahead to be cancelled online.
	const lastDay = visitor.getByRole('navigation', { name: 'Days with free times' }).getByRole('list').getByRole('link').last()
	const lastDate = new URL((await lastDay.getAttribute('href'))!, visitor.url()).searchParams.get('date')!
	await lastDay.click()
	await expect(visitor).toHaveURL(new RegExp(`date=${lastDate}`))
	await visitor.getByRole('list', { name: 'Free times' }).getByRole('link').first().click()
	await expect(visitor).toHaveURL(/\/details\?/)
	expect.soft(await audit(visitor, visitor.url()), 'details step').toEqual([])
	await visitor.getByLabel('Name', { exact: true }).fill('Axe Visitor')
	await visitor.getByLabel('Email', { exact: true }).fill(`axe-${Date.now()}@example.test`)
	await visitor.getByRole('button', { name: 'Continue' }).click()
	await expect(visitor).toHaveURL(/\/confirm\?/)
	expect.soft(await audit(visitor, visitor.url()), 'confirm step').toEqual([])
	await visitor.getByRole('button', { name: 'Confirm booking' }).click()
	await expect(visitor).toHaveURL(/\/booked\//)
	expect.soft(await audit(visitor, visitor.url()), 'booked page').toEqual([])
	// The cancellation's question, then the booking cancelled (the demo keeps its calendar).
	await visitor.getByRole('link', { name: 'Cancel booking' }).click()
	await expect(visitor).toHaveURL(/cancel=1/)
	expect.soft(await audit(visitor, visitor.url()), 'cancel question').toEqual([])
	await visitor.getByRole('button', { name: 'Yes, cancel it' }).click()
	await expect(visitor.getByRole('heading', { name: 'Booking cancelled' })).toBeVisible()
	await context.close()
})

test('a success toast reads at 4.5:1 or more (WCAG 1.4.3) @embedded', async ({ page }) => {
	await signInAsDemo(page)
	await page.goto('/app/settings/notifications')
	await page.getByRole('button', { name: 'Save preferences' }).click()
	const toast = page.locator('[data-sonner-toast][data-type="success"]')
	await expect(toast).toBeVisible()
	const { violations } = await new AxeBuilder({ page }).include('[data-sonner-toaster]').withRules(['color-contrast']).analyze()
	expect(violations.map((v) => ({ rule: v.id, nodes: v.nodes.map((n) => n.failureSummary) }))).toEqual([])
})
