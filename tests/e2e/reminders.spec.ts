import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'

const BOOKING_MODULE_ID = 'b0000000-0000-4000-8000-000000000003'

test.use({ viewport: { width: 390, height: 844 } })

test('the reminder times: a time chosen twice is refused under its field, the rest is saved and shown again @nojs', async ({ page }) => {
	const account = newAccount('Reminder Owner')
	await signUpByRequest(page.request, account)
	await withDatabase((db) =>
		db.query(
			`insert into public.organization_modules (organization_id, module_id)
			 select m.organization_id, $2 from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email, BOOKING_MODULE_ID],
		),
	)
	await page.goto('/app/booking/settings')
	const card = page.locator('#reminders')
	await expect(card.getByRole('heading', { name: 'Booking reminders' })).toBeVisible()
	await expect(card).toContainText('Reminders go out once the organization has the Booking Reminders upgrade.')
	await expect(card.getByLabel('First reminder')).toHaveValue('1440')
	await expect(card.getByLabel('Second reminder')).toHaveValue('60')

	await card.getByLabel('Second reminder').selectOption({ label: '1 day before' })
	await card.getByRole('button', { name: 'Save reminders' }).click()
	await expect(page.locator('#reminders').getByText('This time is already chosen above.')).toBeVisible()
	expect(await offsets(account.email)).toEqual([1440, 60])

	await page.locator('#reminders').getByLabel('Second reminder').selectOption({ label: 'None' })
	await page.locator('#reminders').getByLabel('Third reminder').selectOption({ label: '2 hours before' })
	await page.locator('#reminders').getByRole('button', { name: 'Save reminders' }).click()
	await expect(page.getByText('Reminder times saved')).toBeVisible()
	expect(await offsets(account.email)).toEqual([1440, 120])
	await page.goto('/app/booking/settings')
	await expect(page.locator('#reminders').getByLabel('Second reminder')).toHaveValue('120')
	await expect(page.locator('#reminders').getByLabel('Third reminder')).toHaveValue('')
})

async function offsets(email: string) {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ reminder_offsets_minutes: number[] }>(
			`select s.reminder_offsets_minutes from public.booking_settings s
			 join public.organization_members m on m.organization_id = s.organization_id join auth.users u on u.id = m.user_id
			 where u.email = $1`,
			[email],
		)
		return rows[0]!.reminder_offsets_minutes
	})
}
