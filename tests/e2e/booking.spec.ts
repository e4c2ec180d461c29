import type { Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'

const BOOKING_MODULE_ID = 'b0000000-0000-4000-8000-000000000003'

/** A new owner signed in on `page`, whose organization has the booking module (unless told not to). */
async function bookingOwner(page: Page, { active = true } = {}) {
	const account = newAccount('Booking Owner')
	await signUpByRequest(page.request, account)
	const slug = await withDatabase(async (client) => {
		const { rows } = await client.query<{ id: string; slug: string }>(
			`select o.id, o.slug from public.organizations o
			 join public.organization_members m on m.organization_id = o.id
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		)
		const org = rows[0]!
		if (active) {
			await client.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [
				org.id,
				BOOKING_MODULE_ID,
			])
		}
		return org.slug
	})
	return { account, slug }
}

test('without the booking module the page says so and points to the marketplace @nojs', async ({ page }) => {
	await bookingOwner(page, { active: false })
	await page.goto('/app/booking')
	await expect(page.getByRole('heading', { name: 'The booking module is not active' })).toBeVisible()
	await page.getByRole('link', { name: 'Open the module marketplace' }).click()
	await expect(page).toHaveURL(/\/app\/module-marketplace$/)
	// A tab's address answers 403 too: its data stays out of reach.
	expect((await page.request.get('/app/booking/settings')).status()).toBe(403)
})

test('a booking module configured for managers is not there for a plain member: no sidebar link, 403 on every tab @nojs', async ({
	page,
}) => {
	const { account } = await bookingOwner(page)
	const setRole = (role: string, visibility: string) =>
		withDatabase((client) =>
			client.query(
				`with m as (
				   update public.organization_members om set role = $1
				   from auth.users u where u.id = om.user_id and u.email = $3
				   returning om.organization_id)
				 update public.organization_modules set default_visibility = $2
				 where organization_id = (select organization_id from m) and module_id = $4`,
				[role, visibility, account.email, BOOKING_MODULE_ID],
			),
		)
	await setRole('member', 'manager')
	await page.goto('/app/dashboard')
	const sidebar = page.getByRole('navigation', { name: 'Main navigation' })
	await expect(sidebar.getByRole('link', { name: 'Dashboard' })).toBeVisible()
	// The module's one sidebar link (Booking) stays; what only its members see (Who owes me) does not show.
	await expect(sidebar.getByRole('link', { name: 'Who owes me' })).toHaveCount(0)
	for (const path of ['/app/booking/calendar', '/app/booking/services', '/app/booking/settings', '/app/booking/events']) {
		expect((await page.request.get(path)).status(), path).toBe(403)
	}
	const forged = await page.request.post('/app/booking/settings', {
		form: { intent: 'add-override', date: '2099-01-01', closed: 'on' },
		headers: { origin: test.info().project.use.baseURL! },
	})
	expect(forged.status()).toBe(403)
	await page.goto('/app/booking/calendar')
	await expect(page.getByRole('heading', { name: 'Booking', level: 1 })).toHaveCount(0)

	// A manager is in.
	await setRole('manager', 'manager')
	await page.goto('/app/booking/calendar')
	await expect(page.getByRole('heading', { name: 'Booking', level: 1 })).toBeVisible()
	await expect(sidebar.getByRole('link', { name: 'Who owes me' })).toBeVisible()
	// One link per destination: the module's screens are under Booking, not a second "Appointment Booking".
	await expect(sidebar.getByRole('link', { name: 'Appointment Booking' })).toHaveCount(0)
})

test('the five tabs are addresses of their own, the calendar first @nojs', async ({ page }) => {
	await bookingOwner(page)
	await page.goto('/app/booking')
	await expect(page).toHaveURL(/\/app\/booking\/calendar$/)
	await expect(page).toHaveTitle(/^Booking · /)
	await expect(page.getByRole('heading', { name: 'Booking', level: 1 })).toBeVisible()
	const tabs = page.getByRole('navigation', { name: 'Booking sections' })
	await expect(tabs.getByRole('link', { name: 'Calendar' })).toHaveAttribute('aria-current', 'page')
	for (const [name, path] of [
		['Services', 'services'],
		['Providers', 'providers'],
		['Analytics', 'analytics'],
		['Settings', 'settings'],
	] as const) {
		await tabs.getByRole('link', { name }).click()
		await expect(page).toHaveURL(new RegExp(`/app/booking/${path}$`))
		await expect(tabs.getByRole('link', { name })).toHaveAttribute('aria-current', 'page')
	}
	await page.goto('/app/booking/services')
	await expect(page.getByRole('heading', { name: 'Services', level: 2 })).toBeVisible()
	await page.goto('/app/booking/providers')
	await expect(page.getByRole('heading', { name: 'Providers', level: 2 })).toBeVisible()
})

test('/app/booking?orgSlug= goes to the public wizard, signed in or not', async ({ request, page }) => {
	const response = await request.get('/app/booking?orgSlug=some-org', {
		maxRedirects: 0,
	})
	expect(response.status()).toBe(302)
	expect(response.headers().location).toBe('/book/some-org')
	const legacy = await request.get('/booking?orgSlug=some-org', {
		maxRedirects: 0,
	})
	expect(legacy.headers().location).toBe('/app/booking?orgSlug=some-org')
	await bookingOwner(page)
	const signedIn = await page.request.get('/app/booking?orgSlug=some-org', {
		maxRedirects: 0,
	})
	expect(signedIn.headers().location).toBe('/book/some-org')
})

test('without JavaScript the link sits in a read-only field, with a button that opens it @nojs', async ({ page, javaScriptEnabled }) => {
	test.skip(javaScriptEnabled, 'the no-JS view')
	const { slug } = await bookingOwner(page)
	await page.goto('/app/booking/calendar')
	const field = page.getByLabel('Public booking link')
	await expect(field).toHaveValue(new RegExp(`^http://[^/]+/book/${slug}$`))
	await expect(field).toHaveAttribute('readonly', '')
	await expect(page.getByRole('button', { name: 'Copy link' })).toHaveCount(0)
	const open = page.getByRole('link', { name: 'Open in a new tab' })
	await expect(open).toHaveAttribute('href', new RegExp(`/book/${slug}$`))
	await expect(open).toHaveAttribute('target', '_blank')
})

test('the copy button copies the link, says so for 2 seconds, and reports a failure', async ({ page, context }) => {
	await context.grantPermissions(['clipboard-read', 'clipboard-write'])
	const { slug } = await bookingOwner(page)
	await page.goto('/app/booking/calendar')
	await page.getByRole('button', { name: 'Copy link' }).click()
	await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible()
	expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/book/${slug}$`))
	await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible({
		timeout: 4_000,
	})

	await page.evaluate(() => {
		navigator.clipboard.writeText = () => Promise.reject(new Error('denied'))
	})
	await page.getByRole('button', { name: 'Copy link' }).click()
	await expect(page.getByRole('alert').filter({ hasText: 'Could not copy the link' })).toContainText(
		'Select the link and copy it yourself.',
	)
})

test('booking settings are saved and come back after a reload @nojs', async ({ page }) => {
	await bookingOwner(page)
	await page.goto('/app/booking/settings')
	await expect(page.getByLabel('Minimum notice (hours)')).toHaveValue('1')
	await expect(page.getByLabel('Accept bookings from the public page')).toBeChecked()
	await page.getByLabel('Minimum notice (hours)').fill('3')
	await page.getByLabel('Book up to (days ahead)').fill('14')
	await page.getByLabel('Buffer between appointments (minutes)').fill('15')
	await page.getByLabel('Cancellation notice (hours)').fill('48')
	await page.getByLabel('Confirm bookings automatically').uncheck()
	await page.getByLabel('Require a phone number').check()
	await page.getByLabel('Timezone').selectOption('Europe/Paris')
	await page.getByLabel('Saturday', { exact: true }).check()
	await page.getByLabel('Saturday opens at').fill('10:00')
	await page.getByLabel('Saturday closes at').fill('14:00')
	await page.getByLabel('Monday', { exact: true }).uncheck()
	await page.getByRole('button', { name: 'Save settings' }).click()
	await expect(page.getByText('Booking settings saved')).toBeVisible()

	await page.goto('/app/booking/settings')
	await expect(page.getByLabel('Minimum notice (hours)')).toHaveValue('3')
	await expect(page.getByLabel('Book up to (days ahead)')).toHaveValue('14')
	await expect(page.getByLabel('Buffer between appointments (minutes)')).toHaveValue('15')
	await expect(page.getByLabel('Cancellation notice (hours)')).toHaveValue('48')
	await expect(page.getByLabel('Confirm bookings automatically')).not.toBeChecked()
	await expect(page.getByLabel('Require a phone number')).toBeChecked()
	await expect(page.getByLabel('Accept bookings from the public page')).toBeChecked()
	await expect(page.getByLabel('Timezone')).toHaveValue('Europe/Paris')
	await expect(page.getByLabel('Saturday', { exact: true })).toBeChecked()
	await expect(page.getByLabel('Saturday opens at')).toHaveValue('10:00')
	await expect(page.getByLabel('Saturday closes at')).toHaveValue('14:00')
	await expect(page.getByLabel('Monday', { exact: true })).not.toBeChecked()
})

test('out-of-range settings get field errors and nothing is saved @nojs', async ({ page }) => {
	await bookingOwner(page)
	await page.goto('/app/booking/settings')
	await page.getByLabel('Minimum notice (hours)').fill('-1')
	await page.getByLabel('Book up to (days ahead)').fill('0')
	await page.getByLabel('Buffer between appointments (minutes)').fill('')
	await page.getByLabel('Tuesday closes at').fill('08:00')
	await page.getByRole('button', { name: 'Save settings' }).click()
	await expect(page.getByText('Enter 0 or more.')).toBeVisible()
	await expect(page.getByText('Enter 1 or more.')).toBeVisible()
	await expect(page.getByText('Enter a value.')).toBeVisible()
	await expect(page.getByText('The closing time must be after the opening time.')).toBeVisible()
	await page.goto('/app/booking/settings')
	await expect(page.getByLabel('Minimum notice (hours)')).toHaveValue('1')
	await expect(page.getByLabel('Tuesday closes at')).toHaveValue('17:00')
})

/** A weekday at least `daysAhead` days from now (UTC, the organization's default timezone). */
function upcomingWeekday(daysAhead: number) {
	const d = new Date()
	d.setUTCHours(0, 0, 0, 0)
	d.setUTCDate(d.getUTCDate() + daysAhead)
	while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1)
	return d.toISOString().slice(0, 10)
}

async function bookingSetup(page: Page) {
	const owner = await bookingOwner(page)
	const ids = await withDatabase(async (client) => {
		const org = (await client.query<{ id: string }>('select id from public.organizations where slug = $1', [owner.slug])).rows[0]!.id
		const service = (
			await client.query<{ id: string }>(
				`insert into public.booking_services (organization_id, name, price, duration_minutes) values ($1, 'Haircut', 40, 30) returning id`,
				[org],
			)
		).rows[0]!.id
		const provider = (
			await client.query<{ id: string }>(
				`insert into public.booking_providers (organization_id, display_name) values ($1, 'Alex Provider') returning id`,
				[org],
			)
		).rows[0]!.id
		return { org, service, provider }
	})
	return { ...owner, ...ids }
}

async function openNewAppointment(page: Page, day: string) {
	await page.goto(`/app/booking/calendar?day=${day}`)
	await page.getByRole('link', { name: 'New appointment' }).click()
	await page.getByLabel('Service').selectOption({ label: 'Haircut (30 min)' })
	await page.getByLabel('Provider').selectOption({ label: 'Alex Provider' })
	await page.getByLabel('Date', { exact: true }).fill(day)
	await page.getByRole('button', { name: 'Show free times' }).click()
}

/** Fills a window's new-appointment form and books. */
async function bookIn(window: Page, start: string, client: string, email: string) {
	await window.getByLabel('Start time').selectOption({ label: start })
	await window.getByLabel('Client name').fill(client)
	await window.getByLabel('Client email').fill(email)
	await window.getByRole('button', { name: 'Book appointment' }).click()
}

test('a new appointment appears on its day and its time is no longer offered; a day already gone is said to be gone @nojs', async ({
	page,
}) => {
	await bookingSetup(page)
	const day = upcomingWeekday(3)
	await openNewAppointment(page, day)
	await page.getByLabel('Start time').selectOption({ label: '10:00 AM' })
	await page.getByLabel('Client name').fill('Dana Client')
	await page.getByLabel('Client email').fill('dana@example.com')
	await page.getByLabel('Notes').fill('First visit')
	await page.getByRole('button', { name: 'Book appointment' }).click()
	await expect(page.getByText('Appointment booked')).toBeVisible()
	await expect(page).toHaveURL(new RegExp(`day=${day}$`))
	const item = page.getByRole('listitem', { name: '10:00 AM–10:30 AM, Dana Client' })
	await expect(item).toContainText('Haircut')
	await expect(item).toContainText('with Alex Provider')
	await expect(item).toContainText('Confirmed')

	// Offered again, 10:00 is gone from the free times.
	await openNewAppointment(page, day)
	await expect(page.getByLabel('Start time').locator('option', { hasText: '10:30 AM' })).toHaveCount(1)
	await expect(page.getByLabel('Start time').locator('option', { hasText: /^10:00 AM$/ })).toHaveCount(0)

	// A day already gone is said to be gone, not to be full.
	await openNewAppointment(page, '2020-01-06')
	await expect(page.getByText('01/06/2020 has passed: choose today or a later day.')).toBeVisible()
})

test('the same provider at the same time is refused with a clear message, from a window that had not heard of the booking @nojs', async ({
	page,
}) => {
	const setup = await bookingSetup(page)
	const day = upcomingWeekday(3)
	// A window that has not heard of the other booking (with JavaScript it would drop the taken
	// time from its list by itself, unless chosen already): the server is the one to refuse.
	await page.route('**/app/booking/events', (route) => route.abort())
	await openNewAppointment(page, day)
	await page.getByLabel('Start time').selectOption({ label: '10:00 AM' })
	await page.getByLabel('Client name').fill('Eli Client')
	await page.getByLabel('Client email').fill('eli@example.com')
	// Booked meanwhile, as another window would.
	await withDatabase((client) =>
		client.query(
			`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name, guest_email)
			 values ($1, $2, $3, $4, $5, 'confirmed', 'Dana Client', 'dana@example.com')`,
			[setup.org, setup.service, setup.provider, `${day}T10:00:00Z`, `${day}T10:30:00Z`],
		),
	)
	await page.getByRole('button', { name: 'Book appointment' }).click()
	await expect(page.getByRole('alert')).toContainText('This provider already has an appointment at that time')
	await expect(page.getByLabel('Client name')).toHaveValue('Eli Client')
})

test('staff confirm, cancel (after a confirmation) and mark appointments @nojs', async ({ page }) => {
	const setup = await bookingSetup(page)
	const day = upcomingWeekday(4)
	await withDatabase((client) =>
		client.query(
			`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name, guest_email)
			 values ($1, $2, $3, $4, $5, 'pending', 'Pat Pending', 'pat@example.com'), ($1, $2, $3, $6, $7, 'confirmed', 'Sam Client', 'sam@example.com')`,
			[setup.org, setup.service, setup.provider, `${day}T09:00:00Z`, `${day}T09:30:00Z`, `${day}T11:00:00Z`, `${day}T11:30:00Z`],
		),
	)
	await page.goto(`/app/booking/calendar?day=${day}`)
	const pending = page.getByRole('listitem', { name: '9:00 AM–9:30 AM, Pat Pending' })
	const confirmed = page.getByRole('listitem', { name: '11:00 AM–11:30 AM, Sam Client' })
	await expect(pending).toContainText('Pending')
	await expect(confirmed).toContainText('Confirmed')

	await pending.getByRole('button', { name: 'Confirm' }).click()
	await expect(page.getByText('Appointment confirmed')).toBeVisible()
	await expect(pending).toContainText('Confirmed')

	await pending.getByRole('link', { name: 'Cancel' }).click()
	await expect(page.getByRole('heading', { name: 'Cancel this appointment?' })).toBeVisible()
	await page.getByRole('link', { name: 'Keep it' }).click()
	await expect(pending).toContainText('Confirmed')
	await pending.getByRole('link', { name: 'Cancel' }).click()
	await page.getByRole('button', { name: 'Yes, cancel it' }).click()
	await expect(page.getByText('Appointment cancelled')).toBeVisible()
	await expect(pending).toContainText('Cancelled')
	await expect(pending.getByRole('button')).toHaveCount(0)
	// Back to the question's address: it is not asked again of a cancelled appointment.
	await page.goBack()
	await expect(page).toHaveURL(/cancel=/)
	await expect(pending).toContainText('Cancelled')
	await expect(page.getByRole('heading', { name: 'Cancel this appointment?' })).toHaveCount(0)

	// The week strip counts the day's appointments that were not cancelled.
	await expect(page.getByRole('navigation', { name: 'Week' }).locator('[aria-current="date"]')).toContainText('1 appt.')

	// An appointment still ahead is not completed or marked a no-show, even by a crafted post.
	await expect(confirmed.getByRole('button', { name: 'Complete' })).toHaveCount(0)
	await expect(confirmed.getByRole('button', { name: 'No-show' })).toHaveCount(0)
	const id = await withDatabase((client) =>
		client.query<{ id: string }>(
			`select id from public.booking_appointments where guest_email = 'sam@example.com' and organization_id = $1`,
			[setup.org],
		),
	).then((r) => r.rows[0]!.id)
	const refused = await page.request.post(`/app/booking/calendar?day=${day}`, {
		form: { intent: 'change-status', id, day, change: 'no-show' },
		maxRedirects: 0,
	})
	expect(refused.status()).toBe(302)
	await page.reload()
	await expect(page.getByText('An appointment can be completed or marked as a no-show once it has started.')).toBeVisible()
	await expect(confirmed).toContainText('Confirmed')

	// Once it has started, it is.
	const lastWeek = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10)
	await withDatabase((client) =>
		client.query(
			`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name, guest_email)
			 values ($1, $2, $3, $4, $5, 'confirmed', 'Past Client', 'past@example.com')`,
			[setup.org, setup.service, setup.provider, `${lastWeek}T09:00:00Z`, `${lastWeek}T09:30:00Z`],
		),
	)
	await page.goto(`/app/booking/calendar?day=${lastWeek}`)
	const past = page.getByRole('listitem', { name: '9:00 AM–9:30 AM, Past Client' })
	await expect(past.getByRole('button', { name: 'Complete' })).toBeVisible()
	await past.getByRole('button', { name: 'No-show' }).click()
	await expect(page.getByText('Appointment marked as no-show')).toBeVisible()
	await expect(past).toContainText('No-show')
})

test('a day off added on the settings tab removes the free times of that day, says the appointments still booked then, and removing it brings the times back @nojs', async ({
	page,
}) => {
	const setup = await bookingSetup(page)
	const day = upcomingWeekday(5)
	await openNewAppointment(page, day)
	await expect(page.getByLabel('Start time')).toBeVisible()
	await withDatabase(async (client) => {
		const timezone = (
			await client.query<{ timezone: string }>('select timezone from public.booking_settings where organization_id = $1', [setup.org])
		).rows[0]!.timezone
		for (const [time, status] of [
			['10:00', 'confirmed'],
			['11:00', 'pending'],
			['12:00', 'cancelled'],
		]) {
			await client.query(
				`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name, guest_email, total_price)
				 values ($1, $2, $3, ($4::timestamp at time zone $6), ($4::timestamp at time zone $6) + interval '30 minutes', $5, 'Booked Guest', 'guest@example.com', 40)`,
				[setup.org, setup.service, setup.provider, `${day} ${time}`, status, timezone],
			)
		}
	})

	await page.goto('/app/booking/settings')
	await expect(page.getByText('No upcoming date overrides.')).toBeVisible()
	await page.getByLabel('Override date').fill(day)
	await page.getByRole('button', { name: 'Add override' }).click()
	await expect(page.getByText('Enter a time.').first()).toBeVisible()
	await page.getByLabel('Closed all day').check()
	await page.getByLabel('Note (optional)').fill('Holiday')
	await page.getByRole('button', { name: 'Add override' }).click()
	await expect(page.getByText('Date override added')).toBeVisible()
	// The cancelled one is not counted; the other two stay booked, and the screen says so.
	await expect(page.getByText('2 appointments are still booked that day: move or cancel them in the calendar.')).toBeVisible()
	const [y, m, d] = day.split('-')
	const line = page.getByRole('listitem').filter({ hasText: `${m}/${d}/${y} · Whole organization · Closed` })
	await expect(line).toContainText('Holiday')

	await openNewAppointment(page, day)
	await expect(page.getByText(`No free times on ${m}/${d}/${y} for this provider.`)).toBeVisible()
	await expect(page.getByLabel('Start time')).toHaveCount(0)

	await page.goto('/app/booking/settings')
	await line.getByRole('button', { name: 'Remove' }).click()
	await expect(page.getByText('Date override removed')).toBeVisible()
	await openNewAppointment(page, day)
	await expect(page.getByLabel('Start time')).toBeVisible()
})

/** The settings tab's date override form, and how many overrides the organization has. */
function overrideForm(page: Page, org: string) {
	const count = () =>
		withDatabase(async (c) => (await c.query(`select 1 from public.booking_date_overrides where organization_id = $1`, [org])).rowCount)
	const add = async (date: string, hours: [string, string] | 'closed') => {
		await page.goto('/app/booking/settings')
		await page.getByLabel('Override date').fill(date)
		if (hours === 'closed') await page.getByLabel('Closed all day').check()
		else {
			await page.getByLabel('Opens at', { exact: true }).fill(hours[0])
			await page.getByLabel('Closes at', { exact: true }).fill(hours[1])
		}
		await page.getByRole('button', { name: 'Add override' }).click()
	}
	return { add, count }
}

test('a date override on a past date and overlapping hours are refused with a message; two periods on one day are fine @nojs', async ({
	page,
}) => {
	const { add, count } = overrideForm(page, (await bookingSetup(page)).org)
	await add(daysAgo(3), 'closed')
	await expect(page.getByText('This date has passed: choose today or a later date.')).toBeVisible()

	const day = upcomingWeekday(6)
	await add(day, ['10:00', '12:00'])
	await expect(page.getByText('Date override added')).toBeVisible()
	await add(day, ['11:00', '14:00'])
	await expect(page.getByText('These hours overlap special hours already set on this date for the same “Applies to”.')).toBeVisible()
	await add(day, ['13:00', '15:00'])
	await expect(page.getByText('Date override added')).toBeVisible()
	expect(await count()).toBe(2)
})

test('a day off over special hours, or special hours over a day off, are refused with a message @nojs', async ({ page }) => {
	const { add, count } = overrideForm(page, (await bookingSetup(page)).org)
	const [day, other] = [upcomingWeekday(6), upcomingWeekday(9)]
	await add(day, ['10:00', '12:00'])
	await expect(page.getByText('Date override added')).toBeVisible()
	await add(day, 'closed')
	await expect(
		page.getByText('This date already has special hours for the same “Applies to”. Remove them first to close the whole day.'),
	).toBeVisible()
	await add(other, 'closed')
	await expect(page.getByText('Date override added')).toBeVisible()
	await add(other, ['10:00', '12:00'])
	await expect(page.getByText('This date is already closed all day for the same “Applies to”. Remove that first.')).toBeVisible()
	expect(await count()).toBe(2)
})

function daysAgo(n: number) {
	const d = new Date()
	d.setUTCDate(d.getUTCDate() - n)
	return d.toISOString().slice(0, 10)
}

test('analytics show the figures of what was booked, against the previous period @nojs', async ({ page }) => {
	const setup = await bookingSetup(page)
	const current = daysAgo(2)
	const previous = daysAgo(35)
	const rows: [string, string, string, number, string][] = [
		[current, '10:00', 'completed', 40, 'a@example.com'],
		[current, '11:00', 'completed', 60, 'b@example.com'],
		[current, '12:00', 'no_show', 40, 'A@example.com'],
		[current, '13:00', 'cancelled', 40, 'd@example.com'],
		[previous, '10:00', 'completed', 50, 'e@example.com'],
		[previous, '11:00', 'completed', 50, 'f@example.com'],
	]
	await withDatabase(async (client) => {
		for (const [date, time, status, price, email] of rows) {
			const start = new Date(`${date}T${time}:00Z`)
			await client.query(
				`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name, guest_email, total_price)
				 values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
				[setup.org, setup.service, setup.provider, start, new Date(start.getTime() + 30 * 60_000), status, `Client ${email}`, email, price],
			)
		}
	})
	await page.goto('/app/booking/analytics')
	const [ty, tm, td] = daysAgo(0).split('-')
	await expect(page.getByText(new RegExp(`to ${tm}/${td}/${ty}, compared with`))).toBeVisible()
	const card = (name: string) => page.getByRole('group', { name })
	await expect(card('Appointments')).toContainText('3')
	await expect(card('Appointments')).toContainText('+50.0% vs the previous period')
	await expect(card('Revenue')).toContainText('$100.00')
	await expect(card('Revenue')).toContainText('0.0% vs the previous period')
	await expect(card('Average price')).toContainText('$50.00')
	await expect(card('Unique clients')).toContainText('2')
	await expect(card('Completion rate')).toContainText('66.7%')
	await expect(card('Completion rate')).toContainText('-33.3 points vs the previous period')
	await expect(card('No-show rate')).toContainText('33.3%')
	await expect(card('No-show rate')).toContainText('+33.3 points vs the previous period')
	const activity = page.getByRole('list', { name: 'Recent activity' })
	await expect(activity.getByRole('listitem')).toHaveCount(6)
	await expect(activity).toContainText('Client a@example.com booked Haircut for')

	await page.getByRole('link', { name: 'Last 7 days' }).click()
	await expect(card('Appointments')).toContainText('3')
	await expect(card('Appointments')).toContainText('Nothing to compare with in the previous period')
	await expect(page.getByRole('status').filter({ hasText: 'is not a date' })).toHaveCount(0)

	// An edited address says what it could not use, rather than silently showing something else.
	await page.goto(`/app/booking/analytics?from=2026-13-45&to=${daysAgo(0)}`)
	await expect(
		page.getByRole('status').filter({ hasText: `“2026-13-45” is not a date, so the period shown is the 30 days up to ${tm}/${td}/${ty}.` }),
	).toBeVisible()
	await expect(card('Appointments')).toContainText('3')
	await page.goto(`/app/booking/analytics?from=${daysAgo(10)}&to=nonsense`)
	await expect(page.getByRole('status').filter({ hasText: '“nonsense” is not a date, so the period shown ends today.' })).toBeVisible()
	await expect(page.getByLabel('To', { exact: true })).toHaveValue(daysAgo(0))
	await expect(page.getByLabel('From', { exact: true })).toHaveValue(daysAgo(10))
	await page.goto(`/app/booking/analytics?from=${daysAgo(0)}&to=${daysAgo(10)}`)
	await expect(page.getByRole('status').filter({ hasText: 'The dates were the wrong way round, so they were swapped.' })).toBeVisible()
	await expect(page.getByLabel('From', { exact: true })).toHaveValue(daysAgo(10))
	await page.goto(`/app/booking/analytics?from=2000-01-01&to=${daysAgo(0)}`)
	const start = daysAgo(730).split('-')
	await expect(
		page
			.getByRole('status')
			.filter({ hasText: `A period covers at most two years, so this one starts on ${start[1]}/${start[2]}/${start[0]}.` }),
	).toBeVisible()
})

test('a start chosen in a window that refreshes by itself stays chosen when another window books it, and Book is refused with the reason', async ({
	page,
	context,
}) => {
	await bookingSetup(page)
	const day = upcomingWeekday(4)
	const other = await context.newPage()
	await openNewAppointment(page, day)
	await openNewAppointment(other, day)
	await page.getByLabel('Start time').selectOption({ label: '11:00 AM' })
	await page.getByLabel('Client name').fill('Waiting Client')

	await bookIn(other, '11:00 AM', 'Quick Client', 'quick@example.com')
	await expect(other.getByText('Appointment booked')).toBeVisible()

	// The first window's list drops 11:00 by itself, but not the choice: it says so.
	await expect(page.getByText('11:00 AM is no longer free: someone booked it meanwhile. Choose another time.')).toBeVisible({
		timeout: 15_000,
	})
	await expect(page.getByLabel('Start time')).toHaveValue(/T\d{2}:00:00/)
	await expect(page.getByLabel('Start time').locator('option:checked')).toHaveText('11:00 AM (no longer free)')
	await expect(page.getByLabel('Client name')).toHaveValue('Waiting Client')
	await page.getByLabel('Client email').fill('waiting@example.com')
	await page.getByRole('button', { name: 'Book appointment' }).click()
	await expect(page.getByRole('alert').filter({ hasText: 'This provider already has an appointment at that time' })).toBeVisible()
	// Another time books.
	await page.getByLabel('Start time').selectOption({ label: '11:30 AM' })
	await page.getByRole('button', { name: 'Book appointment' }).click()
	await expect(page.getByText('Appointment booked')).toBeVisible()
	await expect(page.getByRole('listitem', { name: '11:30 AM–12:00 PM, Waiting Client' })).toBeVisible()
	await expect(page.getByRole('listitem', { name: '11:00 AM–11:30 AM, Quick Client' })).toBeVisible()
})

test('without JavaScript, a start booked meanwhile is refused with the reason and stays chosen, not the first time of the list @nojs', async ({
	page,
	context,
	javaScriptEnabled,
}) => {
	test.skip(javaScriptEnabled, 'with JavaScript the list refreshes by itself (the test above)')
	await bookingSetup(page)
	const day = upcomingWeekday(4)
	const other = await context.newPage()
	await openNewAppointment(page, day)
	await openNewAppointment(other, day)
	await bookIn(other, '11:00 AM', 'Quick Client', 'quick@example.com')
	await expect(other.getByText('Appointment booked')).toBeVisible()

	await bookIn(page, '11:00 AM', 'Waiting Client', 'waiting@example.com')
	await expect(page.getByRole('alert').filter({ hasText: 'This provider already has an appointment at that time' })).toBeVisible()
	await expect(page.getByLabel('Start time').locator('option:checked')).toHaveText('11:00 AM (no longer free)')
	await expect(page.getByLabel('Client name')).toHaveValue('Waiting Client')
	// Book again as it is: refused again, nothing booked at another time.
	await page.getByRole('button', { name: 'Book appointment' }).click()
	await expect(page.getByRole('alert').filter({ hasText: 'This provider already has an appointment at that time' })).toBeVisible()
	await page.getByLabel('Start time').selectOption({ label: '11:30 AM' })
	await page.getByRole('button', { name: 'Book appointment' }).click()
	await expect(page.getByText('Appointment booked')).toBeVisible()
	await expect(page.getByRole('listitem', { name: '11:30 AM–12:00 PM, Waiting Client' })).toBeVisible()
	await expect(page.getByRole('listitem', { name: /Waiting Client/ })).toHaveCount(1)
})

test('a start picked while the page still loads is the one booked', async ({ page }) => {
	await bookingSetup(page)
	const day = upcomingWeekday(4)
	await openNewAppointment(page, day)
	await expect(page.getByLabel('Start time')).toBeVisible()
	// The page's scripts arrive late, as on a slow phone: the start is already picked.
	await page.route('**/assets/**/*.js', async (route) => {
		await new Promise((resolve) => setTimeout(resolve, 1500))
		await route.continue()
	})
	await page.evaluate(() => window.location.reload())
	await page.getByLabel('Start time').selectOption({ label: '10:30 AM' })
	await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
	await page.getByLabel('Client name').fill('Early Client')
	await page.getByLabel('Client email').fill('early@example.com')
	await expect(page.getByLabel('Start time').locator('option:checked')).toHaveText('10:30 AM')
	await page.getByRole('button', { name: 'Book appointment' }).click()
	await expect(page.getByText('Appointment booked')).toBeVisible()
	await expect(page.getByRole('listitem', { name: '10:30 AM–11:00 AM, Early Client' })).toBeVisible()
})

test('a booking made in another window appears in the calendar without a reload; without JavaScript a Refresh link @nojs', async ({
	page,
	context,
	javaScriptEnabled,
}) => {
	await bookingSetup(page)
	const day = upcomingWeekday(6)
	await page.goto(`/app/booking/calendar?day=${day}`)
	await expect(page.getByRole('link', { name: 'Refresh' })).toHaveAttribute('href', `/app/booking/calendar?day=${day}`)
	await expect(page.getByText('No appointments on this day.')).toBeVisible()

	const other = await context.newPage()
	await openNewAppointment(other, day)
	await other.getByLabel('Start time').selectOption({ label: '2:00 PM' })
	await other.getByLabel('Client name').fill('Live Client')
	await other.getByLabel('Client email').fill('live@example.com')
	await other.getByRole('button', { name: 'Book appointment' }).click()
	await expect(other.getByText('Appointment booked')).toBeVisible()

	const item = page.getByRole('listitem', { name: '2:00 PM–2:30 PM, Live Client' })
	if (javaScriptEnabled) {
		await expect(item).toBeVisible({ timeout: 15_000 })
	} else {
		await page.getByRole('link', { name: 'Refresh' }).click()
		await expect(item).toBeVisible()
	}
	// Cancelled elsewhere: the first window follows too.
	await other.goto(`/app/booking/calendar?day=${day}`)
	await other.getByRole('listitem', { name: '2:00 PM–2:30 PM, Live Client' }).getByRole('link', { name: 'Cancel' }).click()
	await other.getByRole('button', { name: 'Yes, cancel it' }).click()
	await expect(other.getByText('Appointment cancelled')).toBeVisible()
	if (!javaScriptEnabled) await page.getByRole('link', { name: 'Refresh' }).click()
	await expect(item).toContainText('Cancelled', { timeout: 15_000 })
})

test('on the embedded database the calendar refreshes by itself too (in-process notifier) @embedded', async ({ page, context }) => {
	const { readFileSync } = await import('node:fs')
	const demo = JSON.parse(readFileSync(`${process.env.E2E_EMBEDDED_DATA_DIR}/demo-credentials.json`, 'utf8')) as {
		email: string
		password: string
	}
	await page.goto('/auth')
	await page.getByLabel('Email').fill(demo.email)
	await page.getByLabel('Password', { exact: true }).fill(demo.password)
	await page.getByRole('button', { name: 'Sign In' }).click()
	await expect(page).toHaveURL(/\/app\/dashboard$/)
	const day = upcomingWeekday(9)
	await page.goto(`/app/booking/calendar?day=${day}`)

	const other = await context.newPage()
	await other.goto(`/app/booking/calendar?day=${day}&new=1`)
	await other.getByLabel('Date', { exact: true }).fill(day)
	await other.getByRole('button', { name: 'Show free times' }).click()
	await other.getByLabel('Start time').selectOption({ index: 0 })
	await other.getByLabel('Client name').fill('Embedded Live Client')
	await other.getByLabel('Client email').fill('embedded-live@example.com')
	await other.getByRole('button', { name: 'Book appointment' }).click()
	await expect(other.getByText('Appointment booked')).toBeVisible()

	await expect(page.getByText('Embedded Live Client')).toBeVisible({ timeout: 15_000 })
})

test('a provider with hours of their own is offered only inside them; back to the organization hours @nojs', async ({ page }) => {
	await bookingSetup(page)
	const day = upcomingWeekday(4)
	const weekday = new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' })

	await page.goto('/app/booking/providers')
	await page.getByRole('link', { name: /— Alex Provider \(edit\)$/ }).click()
	await expect(page).toHaveURL(/\/app\/booking\/providers\/[0-9a-f-]+\/hours$/)
	await expect(page.getByRole('heading', { name: 'Hours of Alex Provider' })).toBeVisible()
	await expect(page.getByLabel("The organization's business hours")).toBeChecked()

	await page.getByLabel('Hours of their own').check()
	await page.getByLabel(`${weekday} opens at`).fill('11:00')
	await page.getByLabel(`${weekday} closes at`).fill('10:00')
	await page.getByRole('button', { name: 'Save hours' }).click()
	await expect(page.getByText('The closing time must be after the opening time.').first()).toBeVisible()

	await page.getByLabel(`${weekday} opens at`).fill('10:00')
	await page.getByLabel(`${weekday} closes at`).fill('11:00')
	await page.getByRole('button', { name: 'Save hours' }).click()
	await expect(page.getByText('The hours of Alex Provider are saved.')).toBeVisible()
	await expect(page).toHaveURL(/\/app\/booking\/providers$/)
	await expect(page.getByRole('link', { name: 'Own hours — Alex Provider (edit)' })).toBeVisible()

	await openNewAppointment(page, day)
	const starts = page.getByLabel('Start time').locator('option')
	await expect(starts).toHaveText(['10:00 AM', '10:30 AM'])

	await page.goto('/app/booking/providers')
	await page.getByRole('link', { name: /— Alex Provider \(edit\)$/ }).click()
	await expect(page.getByLabel('Hours of their own')).toBeChecked()
	await expect(page.getByLabel(`${weekday} opens at`)).toHaveValue('10:00')
	await page.getByLabel("The organization's business hours").check()
	await page.getByRole('button', { name: 'Save hours' }).click()
	await expect(page.getByRole('link', { name: "Organization's hours — Alex Provider (edit)" })).toBeVisible()
	await openNewAppointment(page, day)
	await expect(page.getByLabel('Start time').locator('option', { hasText: /^4:30 PM$/ })).toHaveCount(1)
})

test('the hours page of an unknown provider is a 404', async ({ page }) => {
	await bookingSetup(page)
	expect((await page.request.get('/app/booking/providers/00000000-0000-4000-8000-000000000000/hours')).status()).toBe(404)
	expect((await page.request.get('/app/booking/providers/not-a-uuid/hours')).status()).toBe(404)
})

test('while another tab loads, the open one says so', async ({ page }) => {
	await bookingOwner(page)
	await page.goto('/app/booking/calendar')
	let release = () => {}
	const held = new Promise<void>((resolve) => (release = resolve))
	await page.route('**/app/booking/services.data*', async (route) => {
		await held
		await route.continue()
	})
	await page.getByRole('navigation', { name: 'Booking sections' }).getByRole('link', { name: 'Services' }).click()
	await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toBeVisible()
	release()
	await expect(page.getByRole('heading', { name: 'Services', level: 2 })).toBeVisible()
	await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toHaveCount(0)
})

test.describe('on a phone', () => {
	test.use({ viewport: { width: 375, height: 812 } })

	test('the calendar, the settings and a provider’s hours fit in pt-BR: the week strip inside its days, the day controls on one line, a one-word client name wrapped @nojs', async ({
		page,
	}) => {
		const setup = await bookingSetup(page)
		const day = upcomingWeekday(2)
		await withDatabase((client) =>
			client.query(
				`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name, guest_email)
				 values ($1, $2, $3, $4::date + time '15:00', $4::date + time '15:30', 'confirmed', $5, 'long@example.com')`,
				[setup.org, setup.service, setup.provider, day, 'X'.repeat(110)],
			),
		)
		await page
			.context()
			.addCookies([{ name: 'lng', value: Buffer.from(JSON.stringify('pt-BR')).toString('base64'), url: test.info().project.use.baseURL! }])
		await page.goto(`/app/booking/calendar?day=${day}`)
		await expect(page.getByRole('listitem', { name: new RegExp(`X{110}`) })).toBeVisible()
		expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
		// Every day of the strip holds its text, and still names its count for a screen reader.
		const days = page.getByRole('navigation', { name: 'Semana' }).getByRole('link')
		await expect(days).toHaveCount(7)
		for (const link of await days.all()) expect(await link.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
		await expect(page.getByRole('navigation', { name: 'Semana' }).locator('[aria-current="date"]')).toContainText('1 compromisso')
		// Previous day, the date, Show and next day side by side.
		const tops = await Promise.all(
			[
				page.getByRole('link', { name: 'Dia anterior' }),
				page.getByLabel('Dia', { exact: true }),
				page.getByRole('button', { name: 'Mostrar' }),
				page.getByRole('link', { name: 'Próximo dia' }),
			].map(async (l) => Math.round((await l.boundingBox())!.y + (await l.boundingBox())!.height)),
		)
		expect(new Set(tops).size, `bottoms ${tops.join(', ')}`).toBe(1)
		// The settings (business hours, date exceptions) and a provider's hours fit too.
		for (const path of ['/app/booking/settings', `/app/booking/providers/${setup.provider}/hours`]) {
			await page.goto(path)
			expect(
				await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
				path,
			).toBeLessThanOrEqual(0)
		}
	})
})
