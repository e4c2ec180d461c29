/**
 * The appointment page and clients from bookings (docs/product.md, Booking: The appointment page,
 * Clients from bookings), with JavaScript and without (@nojs), one of them on a phone: an
 * appointment opened from the calendar (its side panel, then its own page), completed, marked
 * paid, its history; a match undone and the payment linked back by hand; a walk-in without an
 * e-mail; the client's page listing their appointments; two clients merged.
 */
import { createHash, randomBytes } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'

const BOOKING_MODULE_ID = 'b0000000-0000-4000-8000-000000000003'
const DEPOSITS_UPGRADE_ID = 'c0000000-0000-4000-8000-000000000008'

type Studio = { org: string; service: string; provider: string }

/** A new owner ("Studio Owner") signed in on `page`, with the booking module, a Haircut (40.00, 30 min) and Alex Provider. */
async function studio(page: Page, { deposit }: { deposit?: number } = {}): Promise<Studio> {
	const account = newAccount('Studio Owner')
	await signUpByRequest(page.request, account)
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ id: string }>(
			`select o.id from public.organizations o join public.organization_members m on m.organization_id = o.id
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		)
		const org = rows[0]!.id
		const activated = await db.query<{ id: string }>(
			'insert into public.organization_modules (organization_id, module_id) values ($1, $2) returning id',
			[org, BOOKING_MODULE_ID],
		)
		if (deposit)
			await db.query(
				'insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id) values ($1, $2, $3)',
				[org, activated.rows[0]!.id, DEPOSITS_UPGRADE_ID],
			)
		const one = async (text: string, values: unknown[]) => (await db.query<{ id: string }>(text, values)).rows[0]!.id
		const service = await one(
			`insert into public.booking_services (organization_id, name, price, duration_minutes, deposit_kind, deposit_amount)
			 values ($1, 'Haircut', 40, 30, $2, $3) returning id`,
			[org, deposit ? 'fixed' : 'none', deposit ?? null],
		)
		const provider = await one(
			`insert into public.booking_providers (organization_id, display_name) values ($1, 'Alex Provider') returning id`,
			[org],
		)
		return { org, service, provider }
	})
}

/** A date `days` from today (UTC, the organization's default zone), as yyyy-mm-dd. */
function dayFromNow(days: number) {
	return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
}

/** An appointment inserted as the database would store a booking (the triggers link its client); `token` makes it a public booking. */
async function appointment(
	s: Studio,
	values: {
		day: string
		time: string
		name: string
		email?: string | null
		phone?: string
		notes?: string
		status?: string
		token?: boolean
	},
) {
	const start = new Date(`${values.day}T${values.time}:00Z`)
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ id: string; client_id: string }>(
			`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name,
				guest_email, guest_phone, notes, total_price, manage_token_hash)
			 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 40, $11) returning id, client_id`,
			[
				s.org,
				s.service,
				s.provider,
				start,
				new Date(start.getTime() + 30 * 60_000),
				values.status ?? 'confirmed',
				values.name,
				values.email === undefined ? `${values.name.toLowerCase().replace(/\W+/g, '.')}@example.com` : values.email,
				values.phone ?? null,
				values.notes ?? null,
				values.token ? createHash('sha256').update(randomBytes(32).toString('hex')).digest('hex') : null,
			],
		)
		return { id: rows[0]!.id, clientId: rows[0]!.client_id }
	})
}

/** A payment as email sync or an import would insert it (the matching engine runs on insert). */
async function payment(s: Studio, values: { amount: number; description: string; clientId?: string }) {
	await withDatabase((db) =>
		db.query(
			`insert into public.transactions (organization_id, client_id, amount, description, date_received, payment_method)
			 values ($1, $2, $3, $4, current_date, 'Zelle')`,
			[s.org, values.clientId ?? null, values.amount, values.description],
		),
	)
}

test('an appointment opens from the calendar in its side panel; completed there, the calendar stays as it was @nojs', async ({ page }) => {
	const s = await studio(page)
	const lastWeek = dayFromNow(-7)
	const { id } = await appointment(s, {
		day: lastWeek,
		time: '09:00',
		name: 'Rita Walker',
		email: 'rita@example.com',
		phone: '+1 (555) 010-0199',
		notes: 'Prefers the window seat',
	})
	await page.goto(`/app/booking/calendar?day=${lastWeek}`)
	await page.getByRole('listitem', { name: '9:00 AM–9:30 AM, Rita Walker' }).getByRole('link', { name: 'Rita Walker' }).click()
	await expect(page).toHaveURL(new RegExp(`/app/booking/calendar\\?day=${lastWeek}&appointment=${id}$`))
	const panel = page.getByRole('complementary', { name: 'Appointment' })
	await expect(panel.getByRole('heading', { name: 'Rita Walker' })).toBeVisible()
	await expect(panel.getByRole('link', { name: 'rita@example.com' })).toHaveAttribute('href', 'mailto:rita@example.com')
	await expect(panel.getByRole('link', { name: '+1 (555) 010-0199' })).toHaveAttribute('href', 'tel:+15550100199')
	await expect(panel).toContainText('Prefers the window seat')
	await panel.getByRole('button', { name: 'Complete' }).click()
	await expect(page.getByText('Appointment completed')).toBeVisible()
	await expect(page).toHaveURL(new RegExp(`day=${lastWeek}&appointment=${id}$`))
	await expect(panel).toContainText(/Owes \$40\.00 \(memo code [2-9A-Z]{6}\)\./)
	await expect(page.getByRole('listitem', { name: '9:00 AM–9:30 AM, Rita Walker' })).toContainText('Completed')

	await panel.getByRole('link', { name: 'Open its page' }).click()
	await expect(page).toHaveURL(new RegExp(`/app/booking/appointments/${id}$`))
	await expect(page).toHaveTitle(/^Rita Walker · Appointment · /)
})

test('on its own page an appointment is completed, then marked paid; its history says so, and its client’s page leads back to it @nojs', async ({
	page,
}) => {
	const s = await studio(page)
	const { id } = await appointment(s, { day: dayFromNow(-2), time: '14:00', name: 'Omar Paid', email: 'omar@example.com' })
	await page.goto(`/app/booking/appointments/${id}`)
	await page.getByRole('button', { name: 'Complete' }).click()
	await expect(page.getByText('Appointment completed')).toBeVisible()
	await page.getByRole('button', { name: 'Mark paid' }).click()
	await expect(page.getByText('Appointment marked paid')).toBeVisible()
	await expect(page.getByText('Paid.', { exact: true })).toBeVisible()
	await expect(page.getByText('$40.00 marked paid by Studio Owner', { exact: true })).toBeVisible()
	await expect(page.getByRole('button', { name: 'Mark paid' })).toHaveCount(0)
	const history = page.getByRole('list', { name: 'History' })
	await expect(history.getByRole('listitem')).toHaveText([
		/^Booked \(Confirmed\)/,
		/^Now Completed.*Studio Owner$/,
		/^Marked paid \(\$40\.00\).*Studio Owner$/,
	])

	await page.getByRole('link', { name: 'Omar Paid' }).click()
	const past = page.getByRole('list', { name: 'Past' })
	await expect(past).toContainText('Paid $40.00')
	await past.getByRole('link').click()
	await expect(page).toHaveURL(new RegExp(`/app/booking/appointments/${id}$`))
})

test('a match undone frees the payment, and the deposit waits again until it is linked by hand @nojs', async ({ page }) => {
	const s = await studio(page, { deposit: 15 })
	const day = dayFromNow(5)
	const { id } = await appointment(s, { day, time: '10:00', name: 'Dana Deposit', token: true })
	const code = await withDatabase(async (db) => {
		const { rows } = await db.query<{ memo_code: string }>('select memo_code from public.payment_expectations where appointment_id = $1', [
			id,
		])
		return rows[0]!.memo_code
	})
	await payment(s, { amount: 15, description: `Zelle from Dana: ${code}` })

	await page.goto(`/app/booking/appointments/${id}`)
	await expect(page.getByText('Paid.', { exact: true })).toBeVisible()
	await expect(page.getByText(`Matched by memo code ${code}`, { exact: true })).toBeVisible()
	await page.getByRole('button', { name: /^Undo the match of the \$15\.00 payment/ }).click()
	await expect(page.getByText('Match undone: the payment is free again')).toBeVisible()
	await expect(page.getByText(new RegExp(`^Awaiting a deposit of \\$15\\.00: memo code ${code}, by `))).toBeVisible()
	await expect(page.getByRole('list', { name: 'History' })).toContainText('Match of the $15.00 payment undone')

	await page.getByLabel('One of the client’s unmatched payments').selectOption({ index: 0 })
	await page.getByRole('button', { name: 'Link payment' }).click()
	await expect(page.getByText('Payment linked', { exact: true })).toBeVisible()
	await expect(page.getByText('Linked by hand', { exact: true })).toBeVisible()
	await expect(page.getByText('$15.00 linked by hand', { exact: true })).toBeVisible()
})

/** Open all day, every day: a test's day and time are bookable whatever today is. */
async function openAllDay(s: Studio) {
	await withDatabase((db) =>
		db.query(
			`update public.booking_settings set business_hours = (select jsonb_object_agg(d, '{"start": "00:00", "end": "24:00", "enabled": true}'::jsonb)
				from unnest(array['monday','tuesday','wednesday','thursday','friday','saturday','sunday']) d) where organization_id = $1`,
			[s.org],
		),
	)
}

test('a walk-in is booked without an e-mail @nojs', async ({ page }) => {
	const s = await studio(page)
	await openAllDay(s)
	const day = dayFromNow(3)
	await page.goto(`/app/booking/calendar?day=${day}&new=1&service=${s.service}&provider=${s.provider}&date=${day}`)
	await page.getByLabel('Start time').selectOption({ label: '10:00 AM' })
	await page.getByLabel('Client name').fill('Walk-in Will')
	await page.getByRole('button', { name: 'Book appointment' }).click()
	await expect(page.getByText('Appointment booked')).toBeVisible()
	await page.getByRole('listitem', { name: '10:00 AM–10:30 AM, Walk-in Will' }).getByRole('link', { name: 'Walk-in Will' }).click()
	const panel = page.getByRole('complementary', { name: 'Appointment' })
	await expect(panel).toContainText('No email')
	await expect(panel).toContainText('No phone')
})

test('an appointment moves from the calendar’s side panel; a taken time is refused and the form keeps what was typed @nojs', async ({
	page,
}) => {
	const s = await studio(page)
	await openAllDay(s)
	const day = dayFromNow(3)
	const { id } = await appointment(s, { day, time: '10:00', name: 'Moving Mia' })
	await appointment(s, { day, time: '13:00', name: 'Busy Ben' })
	await page.goto(`/app/booking/calendar?day=${day}&appointment=${id}&step=move`)
	const panel = page.getByRole('complementary', { name: 'Appointment' })
	await panel.getByLabel('New start time').fill('13:15')
	await panel.getByRole('button', { name: 'Move appointment' }).click()
	await expect(page.getByText('This provider already has an appointment at that time')).toBeVisible()
	await expect(panel.getByLabel('New start time')).toHaveValue('13:15')
	await expect(page.getByRole('listitem', { name: '10:00 AM–10:30 AM, Moving Mia' })).toBeVisible()

	await panel.getByLabel('New start time').fill('11:30')
	await panel.getByRole('button', { name: 'Move appointment' }).click()
	await expect(page.getByText('Appointment moved')).toBeVisible()
	await expect(page.getByRole('listitem', { name: '11:30 AM–12:00 PM, Moving Mia' })).toBeVisible()
	await expect(panel.getByRole('list', { name: 'History' })).toContainText(
		/Moved from \d\d\/\d\d\/\d{4} 10:00 AM to \d\d\/\d\d\/\d{4} 11:30 AM/,
	)
})

test('the client’s page lists their appointments; merging two clients keeps both histories on the one kept @nojs', async ({ page }) => {
	const s = await studio(page)
	const kept = await appointment(s, { day: dayFromNow(4), time: '09:00', name: 'Rita Walker', email: 'rita@example.com' })
	const merged = await appointment(s, {
		day: dayFromNow(-3),
		time: '15:00',
		name: 'Rita W.',
		email: 'rita.w@example.com',
		status: 'completed',
	})
	await payment(s, { amount: 25, description: 'Tip', clientId: kept.clientId })
	await payment(s, { amount: 40, description: 'Last visit', clientId: merged.clientId })

	await page.goto(`/app/clients/${merged.clientId}`)
	await expect(page.getByRole('list', { name: 'Past' }).getByRole('listitem')).toHaveCount(1)
	await page.getByRole('link', { name: 'Merge into…' }).click()
	await page.getByLabel('Find the client to keep').fill('rita walker')
	await page.getByRole('button', { name: 'Find', exact: true }).click()
	await page.getByRole('link', { name: 'Merge into Rita Walker · rita@example.com' }).click()
	await expect(page.getByRole('heading', { name: 'Merge Rita W. into Rita Walker?' })).toBeVisible()
	await page.getByRole('button', { name: 'Yes, merge them' }).click()

	await expect(page).toHaveURL(new RegExp(`/app/clients/${kept.clientId}$`))
	await expect(page.getByText('Clients merged: both histories are on this page')).toBeVisible()
	await expect(page.getByRole('list', { name: 'Upcoming' }).getByRole('listitem')).toHaveCount(1)
	await expect(page.getByRole('list', { name: 'Past' }).getByRole('listitem')).toHaveCount(1)
	await expect(page.getByText('Last visit')).toBeVisible()
	await expect(page.getByText('Tip', { exact: true })).toBeVisible()
	expect((await page.request.get(`/app/clients/${merged.clientId}`)).status()).toBe(404)
})

test('the appointment page, its move form open, has no serious or critical accessibility violation', async ({ page }) => {
	const s = await studio(page, { deposit: 15 })
	const { id, clientId } = await appointment(s, {
		day: dayFromNow(6),
		time: '10:00',
		name: 'Axel Audit',
		phone: '555 010 0123',
		token: true,
	})
	// The client's payment of the deposit's amount pays it (payer and amount): a linked payment with its Undo button.
	await payment(s, { amount: 15, description: 'Zelle', clientId })
	await page.goto(`/app/booking/appointments/${id}?step=move`)
	await expect(page.getByText('Matched by payer and amount', { exact: true })).toBeVisible()
	const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
	expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => [v.id, v.nodes[0]?.target])).toEqual([])
})

test.describe('on a phone', () => {
	test.use({ viewport: { width: 390, height: 844 } })

	test('the appointment fits the screen, full width over the calendar, with contact links a finger can tap', async ({ page }) => {
		const s = await studio(page)
		const day = dayFromNow(2)
		const { id } = await appointment(s, { day, time: '09:00', name: 'Rita Walker', email: 'rita@example.com', phone: '555 010 0199' })
		for (const address of [`/app/booking/appointments/${id}`, `/app/booking/calendar?day=${day}&appointment=${id}`]) {
			await page.goto(address)
			for (const name of ['rita@example.com', '555 010 0199']) {
				const box = (await page.getByRole('link', { name }).boundingBox())!
				expect(box.height, `${address} ${name}`).toBeGreaterThanOrEqual(44)
			}
			expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
		}
		// In the calendar the panel comes first, as wide as the list below it.
		const panel = (await page.getByRole('complementary', { name: 'Appointment' }).boundingBox())!
		const list = (await page.getByRole('region', { name: 'Appointments of the day' }).boundingBox())!
		expect(panel.y).toBeLessThan(list.y)
		expect(Math.abs(panel.width - list.width)).toBeLessThanOrEqual(1)
	})
})
