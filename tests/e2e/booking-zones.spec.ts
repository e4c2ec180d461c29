import { createHash, randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'

// docs/product.md, Public booking and Limits and formats: the zone the visitor chose travels with
// the booking (the booked page says their time, and the business's when it differs), and every
// time is written in the language's one format: 12-hour in English, 24-hour in Spanish and Portuguese.

const BOOKING = 'b0000000-0000-4000-8000-000000000003'

/** An owner signed in on `page` whose organization works in New York and has one appointment, booked by a visitor in Los Angeles. */
async function world(page: Page) {
	const owner = newAccount('Zone Owner')
	await signUpByRequest(page.request, owner)
	const token = randomBytes(32).toString('hex')
	// Ten days ahead at 19:05 UTC: 2:05 PM in New York in winter (3:05 PM in summer), three hours later than Los Angeles.
	const start = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 10, 19, 5))
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ id: string; slug: string }>(
			`select o.id, o.slug from public.organizations o join public.organization_members m on m.organization_id = o.id
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[owner.email],
		)
		const org = rows[0]!
		await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [org.id, BOOKING])
		await db.query(`update public.booking_settings set timezone = 'America/New_York' where organization_id = $1`, [org.id])
		const service = await db.query<{ id: string }>(
			`insert into public.booking_services (organization_id, name, price, duration_minutes) values ($1, 'Haircut', 50, 30) returning id`,
			[org.id],
		)
		const provider = await db.query<{ id: string }>(
			`insert into public.booking_providers (organization_id, display_name) values ($1, 'Ana Silva') returning id`,
			[org.id],
		)
		const appointment = await db.query<{ id: string }>(
			`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name,
				guest_email, total_price, manage_token_hash, guest_timezone, guest_language)
			 values ($1, $2, $3, $4, $5, 'confirmed', 'Lee Visitor', 'lee@visitor.example', 50, $6, 'America/Los_Angeles', 'en') returning id`,
			[
				org.id,
				service.rows[0]!.id,
				provider.rows[0]!.id,
				start,
				new Date(start.getTime() + 30 * 60_000),
				createHash('sha256').update(token).digest('hex'),
			],
		)
		return { slug: org.slug, id: appointment.rows[0]!.id, token, start }
	})
}

/** A wall-clock time computed apart from the app: "11:05 AM" in English, "14:05" in Portuguese. */
function clock(instant: Date, zone: string, language: 'en' | 'pt-BR') {
	const options: Intl.DateTimeFormatOptions =
		language === 'en' ? { hour: 'numeric', minute: '2-digit', hour12: true } : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
	return new Intl.DateTimeFormat(language === 'en' ? 'en-US' : 'pt-BR', { ...options, timeZone: zone }).format(instant).replace(/\s/g, ' ')
}

test("the booked page shows the visitor's time in their zone, in words, and the business's beside it @nojs", async ({ page }) => {
	const w = await world(page)
	const end = new Date(w.start.getTime() + 30 * 60_000)
	await page.goto(`/book/${w.slug}/booked/${w.id}?token=${w.token}`)
	const la = `${clock(w.start, 'America/Los_Angeles', 'en')}–${clock(end, 'America/Los_Angeles', 'en')} Pacific Time (Los Angeles)`
	const ny = `${clock(w.start, 'America/New_York', 'en')}–${clock(end, 'America/New_York', 'en')} at the business, Eastern Time (New York)`
	await expect(page.getByText(`${la} — ${ny}`)).toBeVisible()
	await expect(page.getByText('America/')).toHaveCount(0)
})

test('the calendar writes times as 12-hour in English and 24-hour in Portuguese @nojs', async ({ page }) => {
	const w = await world(page)
	const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(w.start)
	await page.goto(`/app/booking/calendar?day=${day}`)
	const list = page.getByRole('region', { name: 'Appointments of the day' })
	await expect(list.getByText(`${clock(w.start, 'America/New_York', 'en')}–`)).toBeVisible()
	await page
		.context()
		.addCookies([{ name: 'lng', value: Buffer.from(JSON.stringify('pt-BR')).toString('base64'), url: test.info().project.use.baseURL! }])
	await page.reload()
	const hhmm = clock(w.start, 'America/New_York', 'pt-BR')
	expect(hhmm).toMatch(/^\d{2}:\d{2}$/)
	await expect(page.getByRole('region', { name: /./ }).getByText(`${hhmm}–`).first()).toBeVisible()
	await expect(page.getByText(/\d (AM|PM)/)).toHaveCount(0)
})
