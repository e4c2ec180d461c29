import ICAL from 'ical.js'
import type { APIRequestContext, Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { decodeQuotedPrintable, expect, latestMailTo, mailsTo, newAccount, signUpByRequest, tabTo, test } from './fixtures.ts'

const EVERY_DAY = Object.fromEntries(
	['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
		d,
		{ start: '08:00', end: '18:00', enabled: true },
	]),
)

type World = { slug: string; orgId: string; serviceId: string; providerIds: string[]; ownerEmail: string }

/** An organization open every day 08:00–18:00 UTC with one 30-minute service and two providers. */
async function bookingWorld(request: APIRequestContext, settings: Record<string, unknown> = {}): Promise<World> {
	const owner = newAccount('Wizard Owner')
	await signUpByRequest(request, owner)
	return withDatabase(async (client) => {
		const { rows } = await client.query<{ id: string; slug: string }>(
			`select o.id, o.slug from public.organizations o join public.organization_members m on m.organization_id = o.id
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[owner.email],
		)
		const org = rows[0]!
		// The Appointment Booking module: its staff side (the calendar, the notices of new bookings) follows it.
		await client.query(
			`insert into public.organization_modules (organization_id, module_id) values ($1, 'b0000000-0000-4000-8000-000000000003')`,
			[org.id],
		)
		await client.query(
			`update public.booking_settings set business_hours = $2, timezone = 'UTC', min_advance_hours = 1, max_advance_days = $5,
			 buffer_minutes = 0, auto_confirm = $3, require_phone = $4, cancellation_hours = 24 where organization_id = $1`,
			[org.id, JSON.stringify(EVERY_DAY), settings.autoConfirm ?? true, settings.requirePhone ?? false, settings.maxAdvanceDays ?? 30],
		)
		const service = await client.query<{ id: string }>(
			`insert into public.booking_services (organization_id, name, description, price, duration_minutes, color)
			 values ($1, 'Haircut', 'A classic cut', 25, 30, '#16a34a') returning id`,
			[org.id],
		)
		const providers = await client.query<{ id: string }>(
			`insert into public.booking_providers (organization_id, display_name, bio) values ($1, 'Ana Silva', 'Ten years of cuts'), ($1, 'Bruno Costa', null) returning id`,
			[org.id],
		)
		return {
			slug: org.slug,
			orgId: org.id,
			serviceId: service.rows[0]!.id,
			providerIds: providers.rows.map((r) => r.id),
			ownerEmail: owner.email,
		}
	})
}

/**
 * Shows tomorrow's times (UTC, the test organization's zone): a whole day of them whatever the
 * hour the test runs at, where today's thin out as the day goes.
 */
async function showTomorrow(page: Page) {
	const url = new URL(page.url())
	url.searchParams.set('date', new Date(Date.now() + 86_400_000).toISOString().slice(0, 10))
	await page.goto(url.toString())
}

async function fillDetails(page: Page, name: string, email: string) {
	await expect(page).toHaveURL(/\/details\?/)
	await page.getByLabel('Name', { exact: true }).fill(name)
	await page.getByLabel('Email', { exact: true }).fill(email)
	await page.getByRole('button', { name: 'Continue' }).click()
}

/** Books the third free time three days ahead with the first provider, to the booked page; returns that day. */
async function bookThreeDaysAhead(page: Page, w: World, name: string, email: string) {
	const later = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}&date=${later}`)
	await page.getByRole('list', { name: 'Free times' }).getByRole('link').nth(2).click()
	await fillDetails(page, name, email)
	await page.getByRole('button', { name: 'Confirm booking' }).click()
	await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
	return later
}

function parseIcs(mail: string) {
	const body = decodeQuotedPrintable(mail)
	const ics = /BEGIN:VCALENDAR[\s\S]*END:VCALENDAR/.exec(body)?.[0]
	if (ics) return new ICAL.Component(ICAL.parse(ics))
	// Base64 attachment
	const b64 = /Content-Type: text\/calendar[^\n]*\n(?:[^\n]+\n)*\n([A-Za-z0-9+/=\n]+)/.exec(mail)?.[1]
	return new ICAL.Component(ICAL.parse(Buffer.from(b64!.replace(/\n/g, ''), 'base64').toString('utf8')))
}

test('a visitor books from /book/{slug} to the booked page in four steps, and gets the email with the .ics @nojs', async ({ page }) => {
	const w = await bookingWorld(page.request)
	await page.context().clearCookies()
	const email = `visitor-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`
	await page.goto(`/book/${w.slug}`)
	await expect(page).toHaveURL(new RegExp(`/book/${w.slug}/service$`))
	await expect(page.getByRole('heading', { name: 'Choose a service' })).toBeVisible()
	// One action per step: no Back on the first, no "Next" beside the choices, nothing disabled.
	await expect(page.getByRole('link', { name: 'Back' })).toHaveCount(0)
	await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0)
	await expect(page.getByRole('navigation', { name: 'Booking progress' }).locator('[aria-current="step"]')).toContainText('Service')
	await page.getByRole('link', { name: /Haircut/ }).click()
	await expect(page).toHaveURL(/\/slot\?service=/)
	await page.getByRole('link', { name: /Ana Silva/ }).click()
	await expect(page).toHaveURL(/provider=/)
	await showTomorrow(page)
	const first = page.getByRole('list', { name: 'Free times' }).getByRole('link').first()
	await expect(first).toBeVisible()
	await expect(page.getByRole('list', { name: 'Free times' }).getByRole('link')).toHaveCount(6)
	const label = (await first.textContent())!.trim()
	await first.click()
	await expect(page).toHaveURL(/\/details\?/)
	// The details step recalls what was chosen.
	await expect(page.getByText('Haircut', { exact: true })).toBeVisible()
	await expect(page.getByText('With Ana Silva')).toBeVisible()
	await expect(page.getByText(label, { exact: false })).toBeVisible()
	const start = new URL(page.url()).searchParams.get('start')!
	await fillDetails(page, 'Maria Lopez', email)
	await expect(page).toHaveURL(/\/confirm\?/)
	await expect(page.getByText('Maria Lopez')).toBeVisible()
	await expect(page.getByText(email)).toBeVisible()
	// The contact details never travel in the address.
	expect(page.url()).not.toContain('Maria')
	expect(page.url()).not.toContain(encodeURIComponent(email))
	await expect(page.getByText(label, { exact: false })).toBeVisible()
	await page.getByRole('button', { name: 'Confirm booking' }).click()
	await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
	await expect(page.getByText('With Ana Silva')).toBeVisible()
	await expect(page.getByText(`A confirmation email was sent to ${email}`)).toBeVisible()
	await expect(page.getByRole('link', { name: 'Add to Google Calendar' })).toHaveAttribute('href', /calendar\.google\.com/)
	const id = /\/booked\/([0-9a-f-]{36})\?/.exec(page.url())![1]!
	// Back from the booked page leads to this booking again, not to "someone else just booked that time".
	await page.goBack()
	await expect(page).toHaveURL(new RegExp(`/booked/${id}\\?token=`))
	await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
	// Back again, past the confirmation to the details step: still this booking.
	await page.goBack()
	await expect(page).toHaveURL(new RegExp(`/booked/${id}\\?token=`))
	await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
	await expect(page.getByText('someone else just booked')).toHaveCount(0)
	// The price is the service's, whatever a visitor might add to the address or the form.
	const stored = await withDatabase((c) =>
		c.query(`select total_price::text as price, starts_at from public.booking_appointments where id = $1`, [id]),
	)
	expect(stored.rows[0]).toEqual({ price: '25.00', starts_at: new Date(start) })

	const mail = await latestMailTo(email)
	expect(decodeQuotedPrintable(mail)).toContain(`/book/${w.slug}/booked/${id}?token=`)
	const event = parseIcs(mail).getFirstSubcomponent('vevent')!
	expect(event.getFirstPropertyValue('uid')).toBe(`${id}@p2p-booking`)
	const ev = new ICAL.Event(event)
	expect(ev.startDate.toJSDate().toISOString()).toBe(start)
	expect(ev.endDate.toJSDate().getTime() - ev.startDate.toJSDate().getTime()).toBe(30 * 60_000)
	expect(ev.startDate.zone?.tzid ?? 'UTC').toBe('UTC')

	// The .ics download answers the same event.
	const ics = await page.request.get(
		await page
			.getByRole('link', { name: 'Download .ics file' })
			.getAttribute('href')
			.then((h) => h!),
	)
	expect(ics.headers()['content-type']).toContain('text/calendar')
	expect(await ics.text()).toContain(`UID:${id}@p2p-booking`)

	// The staff hear of it too (the owner's "Email notifications" preference is on by default).
	await expect.poll(() => mailsTo(w.ownerEmail).some((m) => decodeQuotedPrintable(m).includes('New booking: Haircut'))).toBe(true)

	// The slot is gone for the next visitor.
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}&date=${start.slice(0, 10)}`)
	await expect(page.getByRole('list', { name: 'Free times' }).getByRole('link', { name: label, exact: true })).toHaveCount(0)
})

test('the same browser books a second person at the same time with another provider @nojs', async ({ page }) => {
	const w = await bookingWorld(page.request)
	await page.context().clearCookies()
	const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
	let label = ''
	for (const [provider, name, person] of [
		[w.providerIds[0]!, 'Ana Silva', 'Maria Lopez'],
		[w.providerIds[1]!, 'Bruno Costa', 'Pedro Lopez'],
	] as const) {
		await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${provider}&date=${tomorrow}`)
		const times = page.getByRole('list', { name: 'Free times' }).getByRole('link')
		if (!label) label = (await times.first().textContent())!.trim()
		await times.getByText(label, { exact: true }).click()
		await expect(page.getByText(`With ${name}`)).toBeVisible()
		await fillDetails(page, person, 'lopez@example.test')
		await expect(page).toHaveURL(/\/confirm\?/)
		await page.getByRole('button', { name: 'Confirm booking' }).click()
		await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
		await expect(page.getByText(`With ${name}`)).toBeVisible()
	}
	const booked = await withDatabase((c) =>
		c.query<{ guest_name: string }>(`select guest_name from public.booking_appointments where organization_id = $1 order by guest_name`, [
			w.orgId,
		]),
	)
	expect(booked.rows.map((r) => r.guest_name)).toEqual(['Maria Lopez', 'Pedro Lopez'])
})

test('a visitor books with the keyboard alone: Tab to each choice, Enter to follow it, Space to confirm @nojs', async ({
	page,
	javaScriptEnabled,
}) => {
	const w = await bookingWorld(page.request)
	await page.context().clearCookies()
	const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
	await page.goto(`/book/${w.slug}`)
	await tabTo(page, page.getByRole('link', { name: /Haircut/ }))
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(/\/slot\?service=/)
	await tabTo(page, page.getByRole('link', { name: /Ana Silva/ }))
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(/provider=/)
	const strip = page.getByRole('navigation', { name: 'Days with free times' }).getByRole('list')
	const tomorrowLink = strip.locator(`a[href*="date=${tomorrow}"]`)
	if (javaScriptEnabled) {
		// With JavaScript the row of days is one Tab stop, and the arrow keys move within it.
		await tabTo(page, strip.locator('a[tabindex="0"]'))
		for (let i = 0; i < 3 && !(await tomorrowLink.evaluate((el) => el === document.activeElement)); i++)
			await page.keyboard.press('ArrowRight')
	} else await tabTo(page, tomorrowLink)
	await expect(tomorrowLink).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(new RegExp(`date=${tomorrow}`))
	await tabTo(page, page.getByRole('list', { name: 'Free times' }).getByRole('link').first())
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(/\/details\?/)
	await tabTo(page, page.getByLabel('Name', { exact: true }))
	await page.keyboard.type('Kim Keys')
	await page.keyboard.press('Tab')
	await expect(page.getByLabel('Email', { exact: true })).toBeFocused()
	await page.keyboard.type(`keys-${Date.now()}@example.test`)
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(/\/confirm\?/)
	await tabTo(page, page.getByRole('button', { name: 'Confirm booking' }))
	await page.keyboard.press('Space')
	await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
})

test('a time inside the cancellation notice is said so before it is confirmed; a later one is not @nojs', async ({ page }) => {
	const w = await bookingWorld(page.request)
	await withDatabase((c) => c.query(`update public.booking_settings set cancellation_hours = 72 where organization_id = $1`, [w.orgId]))
	await page.context().clearCookies()
	const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10)
	const email = `notice-${Date.now()}@example.test`
	for (const [ahead, note] of [
		[1, 'This time starts in less than 72 hours: once confirmed, it cannot be changed or cancelled online.'],
		[5, null],
	] as const) {
		await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}&date=${day(ahead)}`)
		await page.getByRole('list', { name: 'Free times' }).getByRole('link').first().click()
		await fillDetails(page, 'Nora Notice', email)
		await expect(page).toHaveURL(/\/confirm\?/)
		if (note) await expect(page.getByRole('note')).toHaveText(note)
		else await expect(page.getByRole('note')).toHaveCount(0)
	}
})

test('no step of the wizard scrolls sideways on a phone or a desktop; the row of days scrolls inside itself @nojs', async ({ page }) => {
	const w = await bookingWorld(page.request, { maxAdvanceDays: 60 })
	await page.context().clearCookies()
	const widerThanScreen = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
	for (const viewport of [
		{ width: 390, height: 844 },
		{ width: 1280, height: 800 },
	]) {
		await page.setViewportSize(viewport)
		const seen: Record<string, number> = {}
		await page.goto(`/book/${w.slug}/service`)
		seen.service = await widerThanScreen()
		await page.getByRole('link', { name: /Haircut/ }).click()
		await expect(page).toHaveURL(/\/slot\?service=/)
		seen.providers = await widerThanScreen()
		await page.getByRole('link', { name: /Ana Silva/ }).click()
		await expect(page).toHaveURL(/provider=/)
		seen.byProvider = await widerThanScreen()
		const days = page.getByRole('navigation', { name: 'Days with free times' }).getByRole('list')
		// 60 days ahead do not fit a phone: they scroll within their row.
		if (viewport.width === 390) expect(await days.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
		await page.getByRole('link', { name: 'By time' }).click()
		await expect(page).toHaveURL(/mode=time/)
		seen.byTime = await widerThanScreen()
		await page.getByRole('link', { name: 'By provider' }).click()
		await expect(page).not.toHaveURL(/mode=time/)
		await page.getByRole('link', { name: /Ana Silva/ }).click()
		await page.getByRole('list', { name: 'Free times' }).getByRole('link').first().click()
		await expect(page).toHaveURL(/\/details\?/)
		seen.details = await widerThanScreen()
		await fillDetails(page, 'Wide Screen', `wide-${viewport.width}-${Date.now()}@example.test`)
		await expect(page).toHaveURL(/\/confirm\?/)
		seen.confirm = await widerThanScreen()
		await page.getByRole('button', { name: 'Confirm booking' }).click()
		await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
		seen.booked = await widerThanScreen()
		expect(seen, `${viewport.width} px`).toEqual({ service: 0, providers: 0, byProvider: 0, byTime: 0, details: 0, confirm: 0, booked: 0 })
	}
})

test('details are validated in red under the field, in the visitor language, and a phone is required only when the organization asks @nojs', async ({
	page,
}) => {
	const w = await bookingWorld(page.request, { requirePhone: true })
	await page.context().clearCookies()
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[1]}`)
	// Tomorrow's first time: today's may come within the notice period while the test runs.
	await showTomorrow(page)
	await page.getByRole('list', { name: 'Free times' }).getByRole('link').first().click()
	await expect(page).toHaveURL(/\/details\?/)
	await page.getByLabel('Name', { exact: true }).fill('   ')
	await page.getByLabel('Email', { exact: true }).fill('not-an-email')
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page.getByText('Name is required')).toBeVisible()
	await expect(page.getByText('Please enter a valid email address')).toBeVisible()
	await expect(page.getByText('Phone is required')).toBeVisible()
	await expect(page).toHaveURL(/\/details\?/)
	await page.getByLabel('Name', { exact: true }).fill('Ann')
	await page.getByLabel('Email', { exact: true }).fill('')
	await page.getByLabel('Phone').fill('call me')
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page.getByText('Email is required')).toBeVisible()
	await expect(page.getByText('Enter a phone number (digits, spaces, +, -, parentheses).')).toBeVisible()
	await page.getByLabel('Phone').fill('555-0100')
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page.getByText('Email is required')).toBeVisible()
	await expect(page.getByText('Enter a phone number')).toHaveCount(0)

	// Notes too long to carry in a cookie: the refusal is answered in place, with what was typed.
	const notes = 'é'.repeat(1900)
	await page.getByLabel('Email', { exact: true }).fill('not-an-email')
	await page.getByLabel('Notes').fill(notes)
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page.getByText('Please enter a valid email address')).toBeVisible()
	await expect(page.getByLabel('Notes')).toHaveValue(notes)

	// A filled honeypot is refused, and what the visitor typed stays.
	await page.getByLabel('Email', { exact: true }).fill('ann@example.test')
	await page.getByLabel('Notes').fill('Window seat')
	await page.locator('input[name="website"]').fill('http://spam.example', { force: true })
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page.getByRole('alert').filter({ hasText: 'could not be accepted' })).toBeVisible()
	await expect(page).toHaveURL(/\/details\?/)
	await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Ann')
	await expect(page.getByLabel('Email', { exact: true })).toHaveValue('ann@example.test')

	// Corrected, on to the confirmation. Back shows the details again: the refused post was
	// answered with a redirect, so the browser does not ask to post the form again.
	await page.locator('input[name="website"]').fill('', { force: true })
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page).toHaveURL(/\/confirm\?/)
	await page.goBack()
	await expect(page).toHaveURL(/\/details\?/)
	await expect(page.getByRole('heading', { name: 'Your details' })).toBeVisible()
	await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Ann')
	await expect(page.getByText('Please enter a valid email address')).toHaveCount(0)

	// Valid details whose notes, within 2,000 characters, are too long to carry to the next
	// step: said so, nothing lost, and the confirmation never shows the previous details.
	const long = 'ñ'.repeat(1990)
	await page.getByLabel('Name', { exact: true }).fill('Bea')
	await page.getByLabel('Email', { exact: true }).fill('bea@example.test')
	await page.getByLabel('Notes').fill(long)
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page.getByText('Notes are too long to keep: please shorten them')).toBeVisible()
	await expect(page).toHaveURL(/\/details\?/)
	await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Bea')
	await expect(page.getByLabel('Notes')).toHaveValue(long)
	await page.getByLabel('Notes').fill('ñ'.repeat(300))
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page).toHaveURL(/\/confirm\?/)
	await expect(page.getByText('bea@example.test')).toBeVisible()
	await expect(page.getByText('ann@example.test')).toHaveCount(0)
})

test('a deep link to /slot works, a step opened too early goes back to the first step that needs input, and tampered choices are refused @nojs', async ({
	page,
}) => {
	const w = await bookingWorld(page.request)
	const other = await bookingWorld(page.request)
	await page.context().clearCookies()
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}`)
	await expect(page.getByRole('heading', { name: 'Choose a provider and a time' })).toBeVisible()
	// Confirm without details or slot: back to the slot step, the service kept.
	await page.goto(`/book/${w.slug}/confirm?service=${w.serviceId}`)
	await expect(page).toHaveURL(new RegExp(`/slot\\?service=${w.serviceId}$`))
	// Another organization's service: refused, back to the service step.
	await page.goto(`/book/${w.slug}/slot?service=${other.serviceId}`)
	await expect(page).toHaveURL(/\/service\?refused=service_unavailable$/)
	await expect(page.getByRole('alert')).toContainText('That service is not available')
	// Another organization's provider.
	await page.goto(`/book/${w.slug}/details?service=${w.serviceId}&provider=${other.providerIds[0]}`)
	await expect(page.getByRole('alert')).toContainText('That provider is not available')
	// A start off the grid, in the past, and beyond the horizon.
	const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
	for (const [start, message] of [
		[`${tomorrow}T10:07:00.000Z`, 'not one of the offered times'],
		[`${tomorrow}T03:00:00.000Z`, 'outside opening hours'],
		['2020-01-06T10:00:00.000Z', 'That time has already passed'],
		[`${new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10)}T10:00:00.000Z`, 'too far ahead'],
	] as const) {
		await page.goto(`/book/${w.slug}/details?service=${w.serviceId}&provider=${w.providerIds[0]}&start=${start}`)
		await expect(page).toHaveURL(/\/slot\?.*refused=/)
		await expect(page.getByRole('alert')).toContainText(message)
		// The same start chosen by time, before a provider: the same reason, not "taken".
		await page.goto(`/book/${w.slug}/details?service=${w.serviceId}&mode=time&start=${start}`)
		await expect(page.getByRole('alert')).toContainText(message)
	}
	// A day with no free time (past the horizon here) asked for in the address: said, and the next
	// days shown under an address without it, the provider kept.
	const farDay = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10)
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}&date=${farDay}`)
	await expect(page).toHaveURL(/refused=day_unavailable$/)
	expect(new URL(page.url()).searchParams.get('provider')).toBe(w.providerIds[0])
	expect(new URL(page.url()).searchParams.get('date')).toBeNull()
	await expect(page.getByRole('alert')).toContainText('That day has no free times. Here are the next days that do.')
	await expect(page.locator('[aria-current="date"]')).toHaveCount(1)
	await expect(page.getByRole('link', { name: /\d{1,2}:\d{2}/ }).first()).toBeVisible()
	// A day further than the strip's first fourteen: the strip moves along so that it is on it.
	const dayTwenty = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10)
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}&date=${dayTwenty}`)
	await expect(page.locator('[aria-current="date"]')).toHaveAttribute('href', new RegExp(`date=${dayTwenty}`))
	// A booking link that is not (or no longer) valid, of an organization that exists.
	const noBooking = await page.goto(`/book/${w.slug}/booked/${crypto.randomUUID()}?token=${'a'.repeat(64)}`)
	expect(noBooking?.status()).toBe(404)
	await expect(page.getByRole('heading', { name: 'Booking not found' })).toBeVisible()
	// An unknown organization, and no organization at all.
	const missing = await page.goto('/book/no-such-organization-here/service')
	expect(missing?.status()).toBe(404)
	await expect(page.getByRole('heading', { name: 'Organization not found' })).toBeVisible()
	const invalid = await page.goto('/book')
	expect(invalid?.status()).toBe(404)
	await expect(page.getByRole('heading', { name: 'Invalid booking link' })).toBeVisible()
})

test('a provider picture that does not load leaves their initial, not a broken image; one that loads covers it @nojs', async ({
	page,
	baseURL,
}) => {
	const w = await bookingWorld(page.request)
	await withDatabase(async (c) => {
		await c.query(`update public.booking_providers set avatar_url = 'https://example.invalid/nope.png' where id = $1`, [w.providerIds[0]])
		await c.query(`update public.booking_providers set avatar_url = $2 where id = $1`, [w.providerIds[1], `${baseURL}/favicon.svg`])
	})
	await page.context().clearCookies()
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}`)
	await expect(page.locator('img')).toHaveCount(0)
	const avatar = (name: string) => page.getByRole('link', { name: new RegExp(name) }).locator('> [aria-hidden=true]')
	await expect(avatar('Ana Silva')).toHaveText('A')
	await expect(avatar('Ana Silva')).toBeVisible()
	await expect(avatar('Bruno Costa').locator('span')).toHaveCSS('background-image', `url("${baseURL}/favicon.svg")`)
})

test('by time: slots with their provider counts, in any display zone, then the providers free then, with the chosen one ringed @nojs', async ({
	page,
}) => {
	const w = await bookingWorld(page.request)
	await page.context().clearCookies()
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}`)
	await page.getByRole('link', { name: 'By time' }).click()
	await expect(page).toHaveURL(/mode=time/)
	await showTomorrow(page)
	const times = page.getByRole('list', { name: 'Free times' }).getByRole('link')
	await expect(times).toHaveCount(12)
	// Shown in another zone: the same instants, other labels; the choice stays in the address.
	await expect(page.getByText('Times shown in Coordinated Universal Time.')).toBeVisible()
	const utcStart = new URL((await times.first().getAttribute('href'))!, 'http://x').searchParams.get('start')
	// A zone far from the visitor's languages is one tap away, under "Other time zones".
	await page.getByText('Other time zones').click()
	await page.getByRole('link', { name: 'Japan Standard Time (Tokyo)' }).click()
	await expect(page).toHaveURL(/tz=Asia%2FTokyo/)
	await expect(page.getByText('Times shown in Japan Standard Time (Tokyo).')).toBeVisible()
	expect(new URL((await times.first().getAttribute('href'))!, 'http://x').searchParams.get('start')).toBe(utcStart)
	await expect(times.first()).toContainText('2 available')
	await times.first().click()
	await expect(page.getByRole('heading', { name: 'Available at this time' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Change time' })).toBeVisible()
	await page.getByRole('link', { name: /Bruno Costa/ }).click()
	await expect(page).toHaveURL(/\/details\?.*provider=/)
	// Back to the slot step: the chosen provider is ringed (aria-current).
	await page.getByRole('link', { name: 'Back' }).click()
	await expect(page.getByRole('link', { name: /Bruno Costa/ })).toHaveAttribute('aria-current', 'true')
})

test('in a display zone where a time falls on the next day, the time says its day there @nojs', async ({ page }) => {
	const w = await bookingWorld(page.request)
	await page.context().clearCookies()
	const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
	const dayLabel = (offset: number) =>
		new Intl.DateTimeFormat('en', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
			new Date(Date.parse(`${day}T12:00:00Z`) + offset * 86_400_000),
		)
	// Open 08:00–18:00 UTC: 17:00 to 02:30 the next day in Tokyo.
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&mode=time&date=${day}&tz=Asia%2FTokyo&more=2`)
	const times = page.getByRole('list', { name: 'Free times' }).getByRole('link')
	await expect(times).toHaveCount(20)
	await expect(times.first()).toHaveText(/^5:00 PM/)
	await expect(times.filter({ hasText: dayLabel(1) })).toHaveCount(6)
	await times.filter({ hasText: `${dayLabel(1)} 12:00 AM` }).click()
	await expect(page.getByRole('heading', { name: 'Available at this time' })).toBeVisible()
	await expect(page.getByText(`${dayLabel(1)} 12:00 AM`)).toBeVisible()
	await expect(page.getByText(`${dayLabel(0)} 12:00 AM`)).toHaveCount(0)
})

test('a change made outside this server (another instance, SQL by hand) shows on the next load of a public page @nojs', async ({
	page,
}) => {
	const w = await bookingWorld(page.request)
	await page.context().clearCookies()
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}`)
	await showTomorrow(page)
	const first = page.getByRole('list', { name: 'Free times' }).getByRole('link').first()
	const start = new URL((await first.getAttribute('href'))!, 'http://x').searchParams.get('start')!
	await page.goto(`/book/${w.slug}/service`)
	await expect(page.getByRole('link', { name: /Haircut/ })).toBeVisible()
	// The public pages keep what they read for a while, unless told of a change (docs/decisions/024-public-booking-reads.md).
	await withDatabase(async (c) => {
		await c.query(`update public.booking_services set name = 'Beard trim' where id = $1`, [w.serviceId])
		await c.query(
			`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, buffer_ends_at, guest_name, guest_email, status, total_price)
			 values ($1, $2, $3, $4, $4::timestamptz + interval '30 minutes', $4::timestamptz + interval '30 minutes', 'Walk-in', 'walk-in@example.test', 'confirmed', 25)`,
			[w.orgId, w.serviceId, w.providerIds[0], start],
		)
	})
	await expect(async () => {
		await page.reload()
		await expect(page.getByRole('link', { name: /Beard trim/ })).toBeVisible({ timeout: 200 })
	}).toPass({ timeout: 2_000 })
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}`)
	await showTomorrow(page)
	// The walk-in's time is taken: the first time offered is a later one.
	const firstNow = await page.getByRole('list', { name: 'Free times' }).getByRole('link').first().getAttribute('href')
	expect(new URL(firstNow!, 'http://x').searchParams.get('start')).not.toBe(start)
})

test('two visitors confirming the same slot: one is booked, the other is told it is taken and keeps their details @nojs', async ({
	browser,
	page,
}) => {
	const w = await bookingWorld(page.request)
	const [a, b] = await Promise.all([browser.newContext(), browser.newContext()])
	const [pa, pb] = await Promise.all([a.newPage(), b.newPage()])
	await pa.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}`)
	const href = (await pa.getByRole('list', { name: 'Free times' }).getByRole('link').first().getAttribute('href'))!
	for (const [p, name] of [
		[pa, 'First Visitor'],
		[pb, 'Second Visitor'],
	] as const) {
		await p.goto(href)
		await fillDetails(p, name, `${name.split(' ')[0]!.toLowerCase()}-${Date.now()}@example.test`)
		await expect(p.getByRole('button', { name: 'Confirm booking' })).toBeVisible()
	}
	await pa.getByRole('button', { name: 'Confirm booking' }).click()
	await expect(pa.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
	await pb.getByRole('button', { name: 'Confirm booking' }).click()
	await expect(pb).toHaveURL(/\/slot\?.*refused=slot_taken/)
	await expect(pb.getByRole('alert')).toContainText('that time was just taken')
	// The details are kept: choosing another slot leads to details filled in.
	await pb.getByRole('list', { name: 'Free times' }).getByRole('link').first().click()
	await expect(pb.getByLabel('Name', { exact: true })).toHaveValue('Second Visitor')
	const count = await withDatabase((c) =>
		c.query(`select count(*)::int as n from public.booking_appointments where organization_id = $1`, [w.orgId]),
	)
	expect(count.rows[0].n).toBe(1)
	await Promise.all([a.close(), b.close()])
})

test('the same confirm form posted twice (a double tap) books once and shows the booking, not "slot taken" @nojs', async ({
	page,
	baseURL,
}) => {
	const w = await bookingWorld(page.request)
	await page.context().clearCookies()
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}`)
	await page.getByRole('list', { name: 'Free times' }).getByRole('link').first().click()
	await fillDetails(page, 'Double Tap', `double-${Date.now()}@example.test`)
	await expect(page.getByRole('button', { name: 'Confirm booking' })).toBeVisible()
	// The first post of the form, whose answer the browser never shows (the visitor tapped again).
	const attempt = await page.locator('input[name="attempt"]').inputValue()
	const first = await page.request.post(page.url(), { form: { attempt, website: '' }, headers: { origin: baseURL! }, maxRedirects: 0 })
	expect(first.status()).toBe(302)
	const bookedAt = first.headers()['location']!
	expect(bookedAt).toMatch(/\/booked\/[0-9a-f-]{36}\?token=/)
	// The second post of the same form: the booking it made, not "that time was just taken".
	await page.getByRole('button', { name: 'Confirm booking' }).click()
	await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
	expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(bookedAt)
	const count = await withDatabase((c) =>
		c.query(`select count(*)::int as n from public.booking_appointments where organization_id = $1`, [w.orgId]),
	)
	expect(count.rows[0].n).toBe(1)
})

test('the manage link reschedules (same booking, update mail with the same UID) and cancels (cancellation .ics) @nojs', async ({
	page,
}) => {
	const w = await bookingWorld(page.request)
	await page.context().clearCookies()
	const email = `manage-${Date.now()}@example.test`
	const later = await bookThreeDaysAhead(page, w, 'Manage Me', email)
	const manage = page.url()
	const id = /\/booked\/([0-9a-f-]{36})\?/.exec(manage)![1]!
	const firstMail = await latestMailTo(email)
	const firstEvent = parseIcs(firstMail).getFirstSubcomponent('vevent')!
	const firstSequence = Number(firstEvent.getFirstPropertyValue('sequence') ?? 0)

	// Reschedule: a new slot in the same wizard, straight to the confirmation.
	const reschedule = (await page.getByRole('link', { name: 'Choose another time' }).getAttribute('href'))!
	await page.getByRole('link', { name: 'Choose another time' }).click()
	await expect(page).toHaveURL(/\/slot\?.*reschedule=/)
	// It opens on the booking's own day, not on the first day with free time.
	await expect(page.locator('[aria-current="date"]')).toHaveAttribute('href', new RegExp(`date=${later}`))
	await page.getByRole('list', { name: 'Free times' }).getByRole('link').nth(4).click()
	await expect(page).toHaveURL(/\/confirm\?/)
	await expect(page.getByRole('heading', { name: 'Confirm the new time' })).toBeVisible()
	await page.getByRole('button', { name: 'Confirm new time' }).click()
	await expect(page.getByRole('heading', { name: 'Booking moved' })).toBeVisible()
	await expect.poll(() => mailsTo(email).length).toBe(2)
	// Back from the moved booking shows it again; it does not offer to move it onto its own time.
	await page.goBack()
	await expect(page).toHaveURL(new RegExp(`/booked/${id}\\?token=`))
	await expect(page.getByRole('heading', { name: 'Booking moved' })).toBeVisible()
	await page.goto(manage)
	const update = parseIcs(mailsTo(email)[1]!)
	expect(update.getFirstPropertyValue('method')).toBe('REQUEST')
	const updated = update.getFirstSubcomponent('vevent')!
	expect(updated.getFirstPropertyValue('uid')).toBe(`${id}@p2p-booking`)
	expect(Number(updated.getFirstPropertyValue('sequence'))).toBeGreaterThan(firstSequence)
	const rows = await withDatabase((c) =>
		c.query(`select id, status from public.booking_appointments where organization_id = $1`, [w.orgId]),
	)
	expect(rows.rows).toEqual([{ id, status: 'confirmed' }])

	// Cancel: asked first; keeping it changes nothing.
	await page.getByRole('link', { name: 'Cancel booking' }).click()
	const ask = page.getByRole('alertdialog', { name: 'Cancel this booking?' })
	await expect(ask).toContainText('this cannot be undone')
	await ask.getByRole('link', { name: 'Keep my booking' }).click()
	await expect(page.getByRole('alertdialog')).toHaveCount(0)
	await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
	await page.getByRole('link', { name: 'Cancel booking' }).click()
	await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, cancel it' }).click()
	await expect(page.getByRole('heading', { name: 'Booking cancelled' })).toBeVisible()
	await expect(page.getByRole('alertdialog')).toHaveCount(0)
	await expect.poll(() => mailsTo(email).length).toBe(3)
	const cancel = parseIcs(mailsTo(email)[2]!)
	expect(cancel.getFirstPropertyValue('method')).toBe('CANCEL')
	const cancelled = cancel.getFirstSubcomponent('vevent')!
	expect(cancelled.getFirstPropertyValue('uid')).toBe(`${id}@p2p-booking`)
	expect(Number(cancelled.getFirstPropertyValue('sequence'))).toBeGreaterThan(Number(updated.getFirstPropertyValue('sequence')))
	expect(cancelled.getFirstPropertyValue('status')).toBe('CANCELLED')

	// An old "Choose another time" link of the cancelled booking opens its page, not the times.
	await page.goto(reschedule)
	await expect(page).toHaveURL(new RegExp(`/booked/${id}\\?token=`))
	await expect(page.getByRole('heading', { name: 'Booking cancelled' })).toBeVisible()
})

test('moving a booking to the same time with another provider moves it, not shows it as already there @nojs', async ({ page }) => {
	const w = await bookingWorld(page.request)
	await page.context().clearCookies()
	await bookThreeDaysAhead(page, w, 'Switch Provider', `switch-${Date.now()}@example.test`)
	const manage = new URL(page.url())
	const id = /\/booked\/([0-9a-f-]{36})$/.exec(manage.pathname)![1]!
	const read = () =>
		withDatabase((c) =>
			c.query<{ starts_at: Date; provider_id: string }>(`select starts_at, provider_id from public.booking_appointments where id = $1`, [
				id,
			]),
		).then((r) => r.rows[0]!)
	const before = await read()
	const confirm = new URLSearchParams({
		service: w.serviceId,
		provider: w.providerIds[1]!,
		start: before.starts_at.toISOString(),
		reschedule: manage.searchParams.get('token')!,
	})
	await page.goto(`/book/${w.slug}/confirm?${confirm}`)
	await expect(page.getByRole('heading', { name: 'Confirm the new time' })).toBeVisible()
	await page.getByRole('button', { name: 'Confirm new time' }).click()
	await expect(page.getByRole('heading', { name: 'Booking moved' })).toBeVisible()
	await expect(page.getByText('With Bruno Costa')).toBeVisible()
	expect(await read()).toEqual({ starts_at: before.starts_at, provider_id: w.providerIds[1] })

	// Inside the cancellation notice the booking can no longer move: the same address opens its
	// page at once, without a time to choose.
	await withDatabase((c) =>
		c.query(`update public.booking_settings set cancellation_hours = 24 * 365 where organization_id = $1`, [w.orgId]),
	)
	confirm.set('provider', w.providerIds[0]!)
	await page.goto(`/book/${w.slug}/confirm?${confirm}`)
	await expect(page).toHaveURL(new RegExp(`/booked/${id}\\?token=`))
	await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Choose another time' })).toHaveCount(0)
	expect(await read()).toEqual({ starts_at: before.starts_at, provider_id: w.providerIds[1] })
})

test('with "Accept bookings from the public page" off every step says bookings are closed; a booking held can be seen and cancelled, not moved @nojs', async ({
	page,
}) => {
	const w = await bookingWorld(page.request)
	await page.context().clearCookies()
	const later = await bookThreeDaysAhead(page, w, 'Held Booking', `held-${Date.now()}@example.test`)
	const manage = page.url()

	const name = await withDatabase(async (c) => {
		await c.query(`update public.booking_settings set allow_guest_booking = false where organization_id = $1`, [w.orgId])
		return (await c.query<{ name: string }>(`select name from public.organizations where id = $1`, [w.orgId])).rows[0]!.name
	})
	// The public pages keep their reads a moment; a change made in SQL reaches this server by
	// the database's notification, an instant later (docs/decisions/024-public-booking-reads.md).
	await expect.poll(async () => (await page.request.get(`/book/${w.slug}/service`)).status()).toBe(403)
	const steps = [
		'',
		'/service',
		`/slot?service=${w.serviceId}`,
		`/slot?service=${w.serviceId}&provider=${w.providerIds[0]}&date=${later}`,
		`/details?service=${w.serviceId}`,
		`/confirm?service=${w.serviceId}`,
	]
	for (const step of steps) {
		const response = await page.goto(`/book/${w.slug}${step}`)
		expect(response?.status(), step).toBe(403)
		await expect(page.getByRole('heading', { name: 'Online booking is closed' })).toBeVisible()
		await expect(page.getByText(`${name} is not taking bookings online right now.`)).toBeVisible()
		await expect(page.getByRole('link', { name: /Continue|Next/ })).toHaveCount(0)
	}

	await page.goto(manage)
	await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Choose another time' })).toHaveCount(0)
	await page.getByRole('link', { name: 'Cancel booking' }).click()
	await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, cancel it' }).click()
	await expect(page.getByRole('heading', { name: 'Booking cancelled' })).toBeVisible()
	const rows = await withDatabase((c) => c.query(`select status from public.booking_appointments where organization_id = $1`, [w.orgId]))
	expect(rows.rows).toEqual([{ status: 'cancelled' }])
})

for (const [locale, strings] of [
	[
		'es-ES',
		{
			service: 'Elige un servicio',
			confirm: 'Confirmar reserva',
			done: 'Reserva confirmada',
			name: 'Nombre',
			email: 'Correo electrónico',
			cont: 'Continuar',
			subject: 'Tu reserva con',
		},
	],
	[
		'pt-BR',
		{
			service: 'Escolha um serviço',
			confirm: 'Confirmar agendamento',
			done: 'Agendamento confirmado',
			name: 'Nome',
			email: 'E-mail',
			cont: 'Continuar',
			subject: 'Seu agendamento com',
		},
	],
] as const) {
	test.describe(`in ${locale}`, () => {
		test.use({ locale })
		test(`a full booking in ${locale}, email included @nojs`, async ({ page }) => {
			// In pt-BR the organization confirms bookings itself: the booked page says it is pending.
			const w = await bookingWorld(page.request, { autoConfirm: locale !== 'pt-BR' })
			await page.context().clearCookies()
			const email = `lang-${locale}-${Date.now()}@example.test`
			await page.goto(`/book/${w.slug}`)
			await expect(page.getByRole('heading', { name: strings.service })).toBeVisible()
			await page.getByRole('link', { name: /Haircut/ }).click()
			await page.getByRole('link', { name: /Ana Silva/ }).click()
			await page.locator('ul[aria-label] a[href*="start="]').first().click()
			await expect(page).toHaveURL(/\/details\?/)
			await page.getByLabel(strings.name, { exact: true }).fill('Lucía')
			await page.getByLabel(strings.email, { exact: true }).fill(email)
			await page.getByRole('button', { name: strings.cont }).click()
			await page.getByRole('button', { name: strings.confirm }).click()
			await expect(page.getByRole('heading', { name: strings.done })).toBeVisible()
			if (locale === 'pt-BR') await expect(page.getByText('Aguardando confirmação')).toBeVisible()
			expect(decodeQuotedPrintable(await latestMailTo(email))).toContain(strings.subject)
		})
	})
}

test.describe('on a phone in Spanish', () => {
	test.use({ locale: 'es-ES', viewport: { width: 390, height: 844 } })
	test('the wizard fetches only the translations it uses, hydrates without an error, and validates and books in Spanish', async ({
		page,
	}) => {
		const w = await bookingWorld(page.request)
		await page.context().clearCookies()
		const fetched: string[] = []
		page.on('request', (r) => {
			const path = new URL(r.url()).pathname
			if (path.startsWith('/locales/')) fetched.push(path)
		})
		// The details post refused with a 400 (below) is the one failed load the browser reports.
		const errors: string[] = []
		page.on('console', (m) => m.type() === 'error' && !m.text().includes('status of 400') && errors.push(m.text()))
		page.on('pageerror', (e) => errors.push(e.message))

		await page.goto(`/book/${w.slug}`)
		await expect(page.locator('html[data-hydrated="true"]')).toBeAttached()
		await page.getByRole('link', { name: /Haircut/ }).click()
		await page.getByRole('link', { name: /Ana Silva/ }).click()
		await page.locator('ul[aria-label] a[href*="start="]').first().click()
		await expect(page).toHaveURL(/\/details\?/)
		// The refusal comes back as data and is rendered by the hydrated page, in Spanish.
		await page.getByRole('button', { name: 'Continuar' }).click()
		await expect(page.getByText('El nombre es obligatorio')).toBeVisible()
		await page.getByLabel('Nombre', { exact: true }).fill('Lucía')
		await page.getByLabel('Correo electrónico', { exact: true }).fill(`phone-${Date.now()}@example.test`)
		await page.getByRole('button', { name: 'Continuar' }).click()
		await page.getByRole('button', { name: 'Confirmar reserva' }).click()
		await expect(page.getByRole('heading', { name: 'Reserva confirmada' })).toBeVisible()
		// Spanish only (no English fallback: every key exists in every language), two namespaces.
		expect([...new Set(fetched)].sort()).toEqual(['/locales/es/book.json', '/locales/es/common.json'])

		// Another language from the menu: the same two namespaces in it, and the page follows.
		await page.getByLabel('Idioma').click()
		await page.getByRole('button', { name: 'Português (Brasil)' }).click()
		await expect(page.getByRole('heading', { name: 'Agendamento confirmado' })).toBeVisible()
		expect([...new Set(fetched)].sort()).toEqual([
			'/locales/es/book.json',
			'/locales/es/common.json',
			'/locales/pt-BR/book.json',
			'/locales/pt-BR/common.json',
		])
		expect(errors).toEqual([])
	})
})

test('no address or form on the public pages gives a 5xx, even a year-long horizon', async ({ page }) => {
	test.setTimeout(90_000)
	const w = await bookingWorld(page.request, { maxAdvanceDays: 365 })
	const uuid = '00000000-0000-4000-8000-000000000000'
	const junk = [
		'',
		'x',
		"'; drop table x; --",
		'%00',
		'9'.repeat(300),
		'2026-02-31',
		'+275760-09-13T00:00:00.001Z',
		'__proto__',
		'Mars/Olympus',
		'-1',
	]
	const paths: string[] = [
		'/book',
		'/book/',
		`/book/${w.slug}`,
		`/book/${w.slug}/booked/${uuid}?token=${'a'.repeat(64)}`,
		`/book/${w.slug}/booked/x/calendar.ics?token=x`,
		`/book/${'x'.repeat(500)}/service`,
	]
	for (const value of junk) {
		const v = encodeURIComponent(value)
		for (const step of ['service', 'slot', 'details', 'confirm']) {
			paths.push(
				`/book/${w.slug}/${step}?service=${w.serviceId}&provider=${w.providerIds[0]}&start=${v}&date=${v}&tz=${v}&more=${v}&mode=${v}&refused=${v}&reschedule=${v}`,
			)
			paths.push(`/book/${w.slug}/${step}?service=${v}&provider=${v}`)
		}
	}
	for (const path of paths) {
		const get = await page.request.get(path, { maxRedirects: 0 })
		expect(get.status(), `GET ${path}`).toBeLessThan(500)
		const post = await page.request.post(path, {
			form: { name: 'x'.repeat(5000), email: '@', phone: '\u0000', website: '', notes: 'n' },
			maxRedirects: 0,
		})
		expect(post.status(), `POST ${path}`).toBeLessThan(500)
	}
	// The year-long horizon lists its first days.
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&mode=time`)
	await expect(page.getByRole('list', { name: 'Free times' }).getByRole('link').first()).toBeVisible()
})
