import { randomUUID } from 'node:crypto'
import { withDatabase } from './db.ts'
import { decodeQuotedPrintable, expect, latestMailTo, newAccount, signUpByRequest, test } from './fixtures.ts'

const BOOKING_MODULE_ID = 'b0000000-0000-4000-8000-000000000003'

// On a phone: the page must work at 390 px.
test.use({ viewport: { width: 390, height: 844 } })

/**
 * A new owner signed in on `page`, whose organization has the booking module, a Venmo handle,
 * and two appointments of last week, completed unpaid: one booked by a Spanish-speaking client
 * with an address, one by a walk-in without. Returns the client's address and the code to pay.
 */
async function owedWorld(request: import('@playwright/test').APIRequestContext) {
	const account = newAccount('Owed Owner')
	await signUpByRequest(request, account)
	const guestEmail = `e2e-guest-${randomUUID()}@example.test`
	const code = await withDatabase(async (db) => {
		const { rows } = await db.query<{ id: string }>(
			`select m.organization_id as id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		)
		const orgId = rows[0]!.id
		await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [orgId, BOOKING_MODULE_ID])
		await db.query(`insert into public.payment_handles (organization_id, venmo) values ($1, 'Studio-Nine')`, [orgId])
		const service = await db.query<{ id: string }>(
			`insert into public.booking_services (organization_id, name, price, duration_minutes) values ($1, 'Haircut', 80, 30) returning id`,
			[orgId],
		)
		const provider = await db.query<{ id: string }>(
			`insert into public.booking_providers (organization_id, display_name) values ($1, 'Dr. Rivera') returning id`,
			[orgId],
		)
		const appointments: Array<[string, string | null, string | null, number]> = [
			['Lucía Pérez', guestEmail, 'es', 7],
			['Walk In', null, null, 6],
		]
		for (const [name, email, language, daysAgo] of appointments) {
			const a = await db.query<{ id: string }>(
				`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status,
				   guest_name, guest_email, guest_language, total_price)
				 values ($1, $2, $3, now() - make_interval(days => $4), now() - make_interval(days => $4) + interval '30 minutes',
				   'confirmed', $5, $6, $7, 80) returning id`,
				[orgId, service.rows[0]!.id, provider.rows[0]!.id, daysAgo, name, email, language],
			)
			await db.query(`update public.booking_appointments set status = 'completed' where id = $1`, [a.rows[0]!.id])
		}
		const expectation = await db.query<{ memo_code: string }>(
			`select e.memo_code from public.payment_expectations e join public.booking_appointments a on a.id = e.appointment_id
			 where a.guest_email = $1 and e.status = 'open'`,
			[guestEmail],
		)
		return expectation.rows[0]!.memo_code
	})
	return { guestEmail, code }
}

test('who still owes me: a completed unpaid appointment, a payment request in the client’s language, then a typed payment with the code clears it @nojs', async ({
	page,
}) => {
	const { guestEmail, code } = await owedWorld(page.request)
	await page.goto('/app/owed')
	await expect(page.getByRole('heading', { name: 'Who still owes me', level: 1 })).toBeVisible()
	await expect(page.getByRole('group', { name: 'Owed to you' })).toContainText('$160.00')
	const lucia = page.getByRole('region', { name: 'Lucía Pérez' })
	await expect(lucia).toContainText('$80.00 still owed')
	await expect(lucia).toContainText(code)
	await expect(lucia.getByRole('link', { name: 'Open appointment' })).toHaveAttribute(
		'href',
		/^\/app\/booking\/appointments\/[0-9a-f-]{36}$/,
	)
	// The walk-in has no address: its button is disabled and says why.
	const walkIn = page.getByRole('region', { name: 'Walk In' })
	await expect(walkIn.getByRole('button', { name: 'Send payment request' })).toBeDisabled()
	await expect(walkIn).toContainText('No email address: add one to the client to send a request.')
	// Nothing sticks out of a phone's screen.
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

	await lucia.getByRole('button', { name: 'Send payment request' }).click()
	await expect(page.getByText('Payment request sent')).toBeVisible()
	await expect(page.getByRole('region', { name: 'Lucía Pérez' })).toContainText('Payment requested')
	const mail = decodeQuotedPrintable(await latestMailTo(guestEmail))
	expect(mail).toContain('Para pagar')
	expect(mail).toContain(code)
	expect(mail).toContain('https://venmo.com/Studio-Nine')

	// The client pays with the code in the memo; the owner types it in.
	await page.goto('/app/transactions?edit=1&add=1')
	const added = page.getByRole('row').nth(1)
	await added.getByRole('textbox', { name: 'Amount' }).fill('80.00')
	await added.getByRole('textbox', { name: 'Description' }).fill(`Zelle from Lucia ${code}`)
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('Changes saved successfully')).toBeVisible()

	await page.goto('/app/owed')
	await expect(page.getByRole('region', { name: 'Lucía Pérez' })).toHaveCount(0)
	await expect(page.getByRole('group', { name: 'Owed to you' })).toContainText('$80.00')
	await expect(page.getByRole('region', { name: 'Walk In' })).toBeVisible()
})

test('nobody owes anything: the empty state @nojs', async ({ page }) => {
	const account = newAccount('Paid Up Owner')
	await signUpByRequest(page.request, account)
	await withDatabase((db) =>
		db.query(
			`insert into public.organization_modules (organization_id, module_id)
			 select m.organization_id, $2 from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email, BOOKING_MODULE_ID],
		),
	)
	await page.goto('/app/owed')
	await expect(page.getByRole('heading', { name: 'Nobody owes you anything' })).toBeVisible()
	await expect(page.getByRole('group', { name: 'Owed to you' })).toContainText('$0.00')
	// A request for an amount that is not there, or named by anything but an id: a message, never an error page.
	for (const expectationId of ["'; drop table public.clients; --", '<img src=x onerror=alert(1)>', randomUUID(), '']) {
		const response = await page.request.post('/app/owed', {
			form: { intent: 'request-payment', expectationId },
			headers: { origin: new URL(page.url()).origin },
		})
		expect(response.status(), expectationId).toBe(200)
		expect(await response.text()).toContain('That amount is not owed to this organization (any more).')
	}
})
