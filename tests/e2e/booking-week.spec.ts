import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'

const BOOKING_MODULE_ID = 'b0000000-0000-4000-8000-000000000003'
const DAY_MS = 86_400_000

/** The Monday `weeks` weeks after this one (UTC, the timezone of a new organization). */
function mondayAhead(weeks: number) {
	const d = new Date()
	d.setUTCHours(0, 0, 0, 0)
	d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7) + 7 * weeks)
	return d.toISOString().slice(0, 10)
}
const plus = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_MS).toISOString().slice(0, 10)
const mdy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`
/** A day column's heading as the week shows it in English: "Wed, 12/16". */
const columnName = (weekday: string, iso: string) => `${weekday}, ${Number(iso.slice(5, 7))}/${Number(iso.slice(8, 10))}`

/**
 * A new owner signed in on `page` with the booking module, two services and two providers, and
 * appointments in the week of `monday` (and the next): Alex's Dana on Wednesday 10:00–10:30,
 * Blake's Eli on Wednesday 14:00–15:00, Alex's cancelled Gone on Thursday 11:00, Alex's Nora on
 * the next Tuesday 09:00.
 */
async function weekSetup(page: Page, monday: string) {
	const account = newAccount('Week Owner')
	await signUpByRequest(page.request, account)
	return withDatabase(async (client) => {
		const one = async (text: string, values: unknown[]) => (await client.query<{ id: string }>(text, values)).rows[0]!.id
		const org = await one(
			`select o.id from public.organizations o join public.organization_members m on m.organization_id = o.id
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		)
		await client.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [org, BOOKING_MODULE_ID])
		const haircut = await one(
			`insert into public.booking_services (organization_id, name, price, duration_minutes, color) values ($1, 'Haircut', 40, 30, '#dc2626') returning id`,
			[org],
		)
		const coloring = await one(
			`insert into public.booking_services (organization_id, name, price, duration_minutes, color) values ($1, 'Coloring', 90, 60, '#16a34a') returning id`,
			[org],
		)
		const alex = await one(
			`insert into public.booking_providers (organization_id, display_name) values ($1, 'Alex Provider') returning id`,
			[org],
		)
		const blake = await one(
			`insert into public.booking_providers (organization_id, display_name) values ($1, 'Blake Provider') returning id`,
			[org],
		)
		const insert = (service: string, provider: string, day: string, from: string, to: string, status: string, name: string) =>
			one(
				`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name, guest_email)
				 values ($1, $2, $3, $4, $5, $6, $7, 'week@example.com') returning id`,
				[org, service, provider, `${day}T${from}:00Z`, `${day}T${to}:00Z`, status, name],
			)
		const wednesday = plus(monday, 2)
		const dana = await insert(haircut, alex, wednesday, '10:00', '10:30', 'confirmed', 'Dana Client')
		const eli = await insert(coloring, blake, wednesday, '14:00', '15:00', 'pending', 'Eli Client')
		await insert(haircut, alex, plus(monday, 3), '11:00', '11:30', 'cancelled', 'Gone Client')
		await insert(haircut, alex, plus(monday, 8), '09:00', '09:30', 'confirmed', 'Nora Client')
		return { org, haircut, alex, blake, dana, eli }
	})
}

test('the week shows each appointment in its day and at its time, and a provider filter keeps to one provider @nojs', async ({ page }) => {
	const monday = mondayAhead(3)
	const wednesday = plus(monday, 2)
	const setup = await weekSetup(page, monday)
	await page.goto(`/app/booking/calendar?view=week&day=${wednesday}`)
	await expect(page.getByRole('heading', { name: `Week of ${mdy(monday)} to ${mdy(plus(monday, 6))}`, level: 2 })).toBeVisible()
	await expect(page.getByRole('navigation', { name: 'Calendar view' }).getByRole('link', { name: 'Week' })).toHaveAttribute(
		'aria-current',
		'page',
	)

	const grid = page.getByRole('region', { name: 'Appointments of the week' })
	await expect(grid.getByRole('heading', { level: 3 })).toHaveCount(7)
	const wednesdayColumn = grid.getByRole('region', { name: columnName('Wed', wednesday) })
	const dana = wednesdayColumn.getByRole('link', { name: /^10:00 AM–10:30 AM, Dana Client, Haircut, with Alex Provider/ })
	// It leads to that appointment (its page, or the calendar's panel of it).
	await expect(dana).toHaveAttribute('href', new RegExp(`[/=]${setup.dana}$`))
	await expect(dana).toContainText('Dana Client')
	await expect(
		wednesdayColumn.getByRole('link', { name: /^2:00 PM–3:00 PM, Eli Client, Coloring, with Blake Provider \(Pending\)/ }),
	).toBeVisible()
	// Its top at the 10:00 line of the hours beside the grid (09:00 to 17:00, the business hours), under Wednesday's heading.
	const box = (await dana.boundingBox())!
	const label = (await grid.getByText('10:00 AM', { exact: true }).boundingBox())!
	expect(Math.abs(box.y - (label.y + label.height / 2))).toBeLessThan(4)
	const heading = (await wednesdayColumn.getByRole('heading').boundingBox())!
	expect(box.x).toBeGreaterThanOrEqual(heading.x - 1)
	expect(box.x + box.width).toBeLessThanOrEqual(heading.x + heading.width + 1)
	// Coloured by its service.
	await expect(dana).toHaveCSS('border-left-color', 'rgb(220, 38, 38)')
	// A cancelled appointment is not in the grid; another week's is not either.
	await expect(grid.getByRole('link', { name: /Gone Client/ })).toHaveCount(0)
	await expect(grid.getByRole('link', { name: /Nora Client/ })).toHaveCount(0)

	// Blake's appointments only.
	await page.getByLabel('Appointments of', { exact: true }).selectOption({ label: 'Blake Provider' })
	await page.getByRole('button', { name: 'Apply' }).click()
	await expect(page).toHaveURL(new RegExp(`view=week&day=${wednesday}&provider=${setup.blake}$`))
	await expect(wednesdayColumn.getByRole('link', { name: /Eli Client/ })).toBeVisible()
	await expect(grid.getByRole('link', { name: /Dana Client/ })).toHaveCount(0)
})

test('the next week is a link away and keeps the provider filter @nojs', async ({ page }) => {
	const monday = mondayAhead(7)
	const wednesday = plus(monday, 2)
	const setup = await weekSetup(page, monday)
	await page.goto(`/app/booking/calendar?view=week&day=${wednesday}&provider=${setup.blake}`)
	const grid = page.getByRole('region', { name: 'Appointments of the week' })
	await expect(page.getByLabel('Appointments of', { exact: true })).toHaveValue(setup.blake)

	// The next week, still Blake's: Alex's Nora is not there; everyone's, she is.
	await page.getByRole('link', { name: 'Next week' }).click()
	await expect(page.getByRole('heading', { name: `Week of ${mdy(plus(monday, 7))} to ${mdy(plus(monday, 13))}` })).toBeVisible()
	await expect(page).toHaveURL(new RegExp(`provider=${setup.blake}$`))
	await expect(grid.getByRole('link')).toHaveCount(7) // the day headings alone
	await page.getByLabel('Appointments of', { exact: true }).selectOption({ label: 'All providers' })
	await page.getByRole('button', { name: 'Apply' }).click()
	await expect(
		grid.getByRole('region', { name: columnName('Tue', plus(monday, 8)) }).getByRole('link', { name: /^9:00 AM–9:30 AM, Nora Client/ }),
	).toBeVisible()
})

test('the day view keeps the provider filter from link to link, and its client names lead to the appointment @nojs', async ({ page }) => {
	const monday = mondayAhead(8)
	const wednesday = plus(monday, 2)
	const setup = await weekSetup(page, monday)
	await page.goto(`/app/booking/calendar?view=week&day=${wednesday}&provider=${setup.alex}`)
	await page.getByRole('navigation', { name: 'Calendar view' }).getByRole('link', { name: 'Day' }).click()
	await expect(page).toHaveURL(new RegExp(`\\?day=${wednesday}&provider=${setup.alex}$`))
	const dana = page.getByRole('listitem', { name: '10:00 AM–10:30 AM, Dana Client' })
	await expect(dana).toBeVisible()
	await expect(page.getByRole('listitem', { name: /Eli Client/ })).toHaveCount(0)
	await expect(dana.getByRole('link', { name: 'Dana Client' })).toHaveAttribute('href', new RegExp(`[/=]${setup.dana}$`))
	await page.getByRole('link', { name: 'Next day' }).click()
	await expect(page).toHaveURL(new RegExp(`\\?day=${plus(wednesday, 1)}&provider=${setup.alex}$`))
	// The day view lists every status: Thursday's cancelled appointment is there.
	await expect(page.getByRole('listitem', { name: '11:00 AM–11:30 AM, Gone Client' })).toContainText('Cancelled')
})

test('a provider that is not one of the organization’s, or not an id, is ignored rather than an error', async ({ page }) => {
	const monday = mondayAhead(4)
	await weekSetup(page, monday)
	for (const provider of ['00000000-0000-4000-8000-000000000000', 'not-an-id', "'; select 1 --"]) {
		const response = await page.request.get(
			`/app/booking/calendar?view=week&day=${plus(monday, 2)}&provider=${encodeURIComponent(provider)}`,
		)
		expect(response.status(), provider).toBe(200)
		// Everyone's appointments, Alex's and Blake's.
		const html = await response.text()
		expect(html, provider).toContain('Dana Client')
		expect(html, provider).toContain('Eli Client')
	}
})

test('Tab reaches the week’s appointments in time order, and the week has no serious axe violation', async ({ page }) => {
	const monday = mondayAhead(5)
	const wednesday = plus(monday, 2)
	await weekSetup(page, monday)
	await page.goto(`/app/booking/calendar?view=week&day=${monday}`)
	// From the last control before the grid, Tab goes day by day, each day's appointments in time order.
	await page.getByRole('link', { name: 'Refresh' }).focus()
	const reached: string[] = []
	for (let i = 0; i < 6; i++) {
		await page.keyboard.press('Tab')
		reached.push(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? ''))
	}
	expect(reached.map((name) => name.split(',').slice(0, 2).join(','))).toEqual([
		columnName('Mon', monday),
		columnName('Tue', plus(monday, 1)),
		columnName('Wed', wednesday),
		'10:00 AM–10:30 AM, Dana Client',
		'2:00 PM–3:00 PM, Eli Client',
		columnName('Thu', plus(monday, 3)),
	])

	const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
	expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
})

test('in the week view, an appointment booked elsewhere appears without a reload', async ({ page }) => {
	const monday = mondayAhead(9)
	const wednesday = plus(monday, 2)
	const setup = await weekSetup(page, monday)
	const stream = page.waitForResponse((r) => r.url().endsWith('/app/booking/events'))
	await page.goto(`/app/booking/calendar?view=week&day=${monday}`)
	await stream
	const grid = page.getByRole('region', { name: 'Appointments of the week' })
	await expect(grid.getByRole('link', { name: /Dana Client/ })).toBeVisible()
	// Booked by SQL (the server tells the calendar through its trigger): the grid follows.
	const id = await withDatabase(async (client) => {
		const { rows } = await client.query<{ id: string }>(
			`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name, guest_email)
			 values ($1, $2, $3, $4, $5, 'confirmed', 'Live Week Client', 'live-week@example.com') returning id`,
			[setup.org, setup.haircut, setup.alex, `${wednesday}T16:00:00Z`, `${wednesday}T16:30:00Z`],
		)
		return rows[0]!.id
	})
	const live = grid
		.getByRole('region', { name: columnName('Wed', wednesday) })
		.getByRole('link', { name: /^4:00 PM–4:30 PM, Live Week Client/ })
	// The stream may still be subscribing on the server when the row goes in: a change of its note tells it again.
	await expect(async () => {
		try {
			await expect(live).toBeVisible({ timeout: 2_000 })
		} catch (error) {
			await withDatabase((client) => client.query('update public.booking_appointments set notes = $2 where id = $1', [id, `${Date.now()}`]))
			throw error
		}
	}).toPass({ timeout: 10_000, intervals: [0] })
})

test.describe('on a phone', () => {
	test.use({ viewport: { width: 390, height: 844 } })

	test('the week view shows the day view of the chosen day instead of the grid, its week strip included, and no sideways scroll @nojs', async ({
		page,
	}) => {
		const monday = mondayAhead(6)
		const wednesday = plus(monday, 2)
		const setup = await weekSetup(page, monday)
		await page.goto(`/app/booking/calendar?view=week&day=${wednesday}&provider=${setup.alex}`)
		await expect(page.getByRole('region', { name: 'Appointments of the week' })).toBeHidden()
		await expect(page.getByRole('heading', { name: /^Week of/ })).toBeHidden()
		await expect(page.getByRole('heading', { name: `Appointments on ${mdy(wednesday)}` })).toBeVisible()
		await expect(page.getByRole('listitem', { name: '10:00 AM–10:30 AM, Dana Client' })).toBeVisible()
		// The provider filter holds here too: Blake's Eli is not listed.
		await expect(page.getByRole('listitem', { name: /Eli Client/ })).toHaveCount(0)
		expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
		await expect(page.getByRole('navigation', { name: 'Calendar view' }).getByRole('link', { name: 'Week' })).toBeVisible()

		// A status changed from here comes back to the same view and filter.
		await page.goto(`/app/booking/calendar?view=week&day=${wednesday}&provider=${setup.blake}`)
		const eli = page.getByRole('listitem', { name: '2:00 PM–3:00 PM, Eli Client' })
		await eli.getByRole('button', { name: 'Confirm' }).click()
		await expect(page).toHaveURL(new RegExp(`\\?view=week&day=${wednesday}&provider=${setup.blake}$`))
		await expect(eli).toContainText('Confirmed')

		// The week's days, each with its count, lead to the others.
		const days = page.getByRole('navigation', { name: 'Week', exact: true })
		await expect(days.getByRole('link')).toHaveCount(7)
		await expect(days.locator('[aria-current="date"]')).toContainText('1 appt.')
		await days.getByRole('link').nth(3).click()
		await expect(page).toHaveURL(new RegExp(`day=${plus(monday, 3)}&provider=${setup.blake}$`))
		await expect(page.getByRole('heading', { name: `Appointments on ${mdy(plus(monday, 3))}` })).toBeVisible()
	})
})
