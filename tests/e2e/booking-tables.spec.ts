import type { Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'

const BOOKING_MODULE_ID = 'b0000000-0000-4000-8000-000000000003'

/** A new owner signed in on `page`, whose organization has the booking module. */
async function bookingOwner(page: Page, name = 'Booking Owner') {
	const account = newAccount(name)
	await signUpByRequest(page.request, account)
	const orgId = await withDatabase(async (client) => {
		const { rows } = await client.query<{ id: string }>(
			`select m.organization_id as id from public.organization_members m
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		)
		await client.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [
			rows[0]!.id,
			BOOKING_MODULE_ID,
		])
		return rows[0]!.id
	})
	return { account, orgId }
}

const editRow = (page: Page, value: string) => page.getByRole('row').filter({ has: page.locator(`input[value="${value}"]`) })

test('services: add with validation errors, edit, refuse deleting one with upcoming appointments, delete @nojs', async ({ page }) => {
	const { orgId } = await bookingOwner(page)
	await page.goto('/app/booking/services')
	await expect(page.getByText('No services yet. Add the first one.')).toBeVisible()

	await page.getByRole('link', { name: 'Add service' }).click()
	const added = page.getByRole('row').nth(1)
	await expect(added.getByRole('textbox', { name: 'Price' })).toHaveValue('0.00')
	await expect(added.getByRole('textbox', { name: 'Duration (minutes)' })).toHaveValue('30')
	await expect(added.getByRole('combobox', { name: 'Status' })).toHaveValue('active')
	await added.getByRole('textbox', { name: 'Description' }).fill('A simple cut')
	await added.getByRole('textbox', { name: 'Price' }).fill('abc')
	await added.getByRole('textbox', { name: 'Duration (minutes)' }).fill('3')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('Enter the service name.')).toBeVisible()
	await expect(page.getByText('Enter a price from 0 to 99,999,999.99, with at most 2 decimals (like 45.00).')).toBeVisible()
	await expect(page.getByText('Enter a whole number of minutes from 5 to 480.')).toBeVisible()

	const row = page.getByRole('row').nth(1)
	await row.getByRole('textbox', { name: 'Name' }).fill('Haircut')
	await row.getByRole('textbox', { name: 'Price' }).fill('45.5')
	await row.getByRole('textbox', { name: 'Duration (minutes)' }).fill('60')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page).toHaveURL(/\/app\/booking\/services$/)
	const saved = page.getByRole('row').filter({ hasText: 'Haircut' })
	await expect(saved).toContainText('$45.50')
	await expect(saved).toContainText('60 min')
	await expect(saved).toContainText('Active')

	// Edit: deactivate it and add a second service.
	await page.getByRole('link', { name: 'Edit services' }).click()
	await editRow(page, 'Haircut').getByRole('combobox', { name: 'Status' }).selectOption('inactive')
	await page.getByRole('button', { name: 'Add row' }).click()
	const second = page.getByRole('row').nth(1)
	await second.getByRole('textbox', { name: 'Name' }).fill('Beard trim')
	await second.getByRole('textbox', { name: 'Price' }).fill('15')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page).toHaveURL(/\/app\/booking\/services$/)
	await expect(page.getByRole('row').filter({ hasText: 'Haircut' })).toContainText('Inactive')
	await expect(page.getByRole('row').filter({ hasText: 'Beard trim' })).toContainText('$15.00')

	// An upcoming appointment keeps Haircut: the row says so and suggests deactivating it.
	await withDatabase((client) =>
		client.query(
			`insert into public.booking_appointments (organization_id, service_id, starts_at, ends_at, status, guest_name, guest_email)
			 select $1, s.id, now() + interval '3 days', now() + interval '3 days 1 hour', 'confirmed', 'Maria Lopez', 'maria@example.com'
			 from public.booking_services s where s.organization_id = $1 and s.name = 'Haircut'`,
			[orgId],
		),
	)
	await page.getByRole('link', { name: 'Edit services' }).click()
	await editRow(page, 'Haircut').getByRole('checkbox', { name: 'Delete row' }).check()
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('This service has upcoming appointments, so it cannot be deleted. Deactivate it instead')).toBeVisible()
	// Nothing was deleted; unticking it saves no changes.
	await editRow(page, 'Haircut').getByRole('checkbox', { name: 'Delete row' }).uncheck()
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page).toHaveURL(/\/app\/booking\/services$/)

	// Deleting the other one asks first.
	await page.getByRole('link', { name: 'Edit services' }).click()
	await editRow(page, 'Beard trim').getByRole('checkbox', { name: 'Delete row' }).check()
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByRole('alertdialog', { name: 'Delete the row and save?' })).toContainText('0 added, 0 updated, 1 deleted.')
	await page.getByRole('button', { name: 'Confirm and save' }).click()
	await expect(page).toHaveURL(/\/app\/booking\/services$/)
	await expect(page.getByRole('row').filter({ hasText: 'Beard trim' })).toHaveCount(0)
	await expect(page.getByRole('row').filter({ hasText: 'Haircut' })).toHaveCount(1)
})

test('providers: add members until none is free, the name prefilled, then edit @nojs', async ({ page }) => {
	const { orgId } = await bookingOwner(page, 'Olivia Owner')
	// A second member, made as the sign-up trigger makes users, then added to the organization.
	await withDatabase(async (client) => {
		const { rows } = await client.query<{ id: string }>(
			`insert into auth.users (email, raw_user_meta_data) values ($1, '{"full_name": "Carlos Colleague"}'::jsonb) returning id`,
			[`e2e-colleague-${crypto.randomUUID()}@example.test`],
		)
		await client.query(`insert into public.organization_members (organization_id, user_id, role) values ($1, $2, 'member')`, [
			orgId,
			rows[0]!.id,
		])
	})
	await page.goto('/app/booking/providers')
	await expect(page.getByText('No providers yet. Add the first one.')).toBeVisible()

	await page.getByRole('link', { name: 'Add provider' }).click()
	let member = page.getByRole('row').nth(1).getByRole('combobox', { name: 'Member' })
	await expect(member.getByRole('option')).toHaveText(['Choose a member', /Carlos Colleague/, /Olivia Owner/])
	await page.getByRole('row').nth(1).getByRole('textbox', { name: 'Avatar URL' }).fill('not a url')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('Choose a member.')).toBeVisible()
	await expect(page.getByText('Enter a web address starting with http:// or https://, or leave it empty.')).toBeVisible()

	member = page.getByRole('row').nth(1).getByRole('combobox', { name: 'Member' })
	await member.selectOption({ index: 2 })
	await page.getByRole('row').nth(1).getByRole('textbox', { name: 'Avatar URL' }).fill('https://example.com/olivia.png')
	await page.getByRole('row').nth(1).getByRole('textbox', { name: 'Bio' }).fill('Founder')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page).toHaveURL(/\/app\/booking\/providers$/)
	const olivia = page.getByRole('row').filter({ hasText: 'Founder' })
	await expect(olivia.getByRole('cell').nth(1)).toHaveText('Olivia Owner')
	await expect(olivia).toContainText('Active')

	// The member list shrinks: only the colleague is left.
	await page.getByRole('link', { name: 'Add provider' }).click()
	member = page.getByRole('row').nth(1).getByRole('combobox', { name: 'Member' })
	await expect(member.getByRole('option')).toHaveText(['Choose a member', /Carlos Colleague/])
	await member.selectOption({ index: 1 })
	await page.getByRole('row').nth(1).getByRole('combobox', { name: 'Status' }).selectOption('inactive')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page).toHaveURL(/\/app\/booking\/providers$/)
	await expect(page.getByRole('row').filter({ hasText: 'Carlos Colleague' }).last()).toContainText('Inactive')

	// Nobody is free now: Add is disabled, with the reason.
	await expect(page.getByRole('button', { name: 'Add provider' })).toBeDisabled()
	await expect(page.getByText('Every member of the organization is a provider already')).toBeVisible()

	// Edit: the member is fixed, the rest changes; no row can be added (nobody is free) or deleted.
	await page.getByRole('link', { name: 'Edit providers' }).click()
	await expect(page.getByRole('combobox', { name: 'Member' })).toHaveCount(0)
	await expect(page.getByRole('button', { name: 'Add row' })).toBeDisabled()
	await expect(page.getByText('Every member of the organization is a provider already')).toBeVisible()
	await expect(page.getByRole('checkbox', { name: 'Delete row' })).toHaveCount(0)
	const row = editRow(page, 'Olivia Owner')
	await row.getByRole('textbox', { name: 'Display name' }).fill('Dr. Olivia')
	await row.getByRole('combobox', { name: 'Status' }).selectOption('inactive')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page).toHaveURL(/\/app\/booking\/providers$/)
	await expect(page.getByRole('row').filter({ hasText: 'Dr. Olivia' })).toContainText('Inactive')
})

test('a service or provider name of 120 characters wraps on a laptop: price, duration and status stay in view', async ({ page }) => {
	await page.setViewportSize({ width: 1280, height: 800 })
	const { orgId } = await bookingOwner(page)
	const long = `${'Consultoria'.repeat(10)}Extra-longa`.slice(0, 120)
	await withDatabase(async (client) => {
		await client.query(`insert into public.booking_services (organization_id, name, price, duration_minutes) values ($1, $2, 45, 60)`, [
			orgId,
			long,
		])
		await client.query(`insert into public.booking_providers (organization_id, display_name) values ($1, $2)`, [orgId, long])
	})
	for (const tab of ['services', 'providers']) {
		await page.goto(`/app/booking/${tab}`)
		await expect(page.getByRole('cell', { name: long }).first()).toBeVisible()
		const container = page.locator('[data-slot=table-container]')
		expect(await container.evaluate((el) => el.scrollWidth - el.clientWidth), tab).toBeLessThanOrEqual(0)
	}
})

test.describe('on a phone, with a 12-hour clock', () => {
	test.use({ viewport: { width: 390, height: 844 }, locale: 'en-US' })

	test('each day of the business hours keeps its two times on one line, inside the screen @nojs', async ({ page }) => {
		await bookingOwner(page, 'Hours Phone Owner')
		await page.goto('/app/booking/settings')
		const boxes = await page
			.getByRole('group', { name: 'Business hours' })
			.locator('input[type=time]')
			.evaluateAll((inputs) =>
				inputs.map((input) => {
					const box = input.getBoundingClientRect()
					return { top: Math.round(box.top), right: box.right, width: box.width }
				}),
			)
		expect(boxes).toHaveLength(14)
		for (let day = 0; day < 7; day++) {
			const [opens, closes] = [boxes[2 * day]!, boxes[2 * day + 1]!]
			expect(closes.top).toBe(opens.top)
			expect(closes.right).toBeLessThanOrEqual(390)
			// "09:00 AM" and its clock icon: wider than the 128 px that cut the AM/PM off.
			expect(opens.width).toBeGreaterThan(128)
		}
	})
})
