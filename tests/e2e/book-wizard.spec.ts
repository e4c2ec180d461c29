import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, tabTo, test } from './fixtures.ts'

/*
 * The public wizard as a new visitor meets it (issue 53): times in their zone and their language's
 * format, one action per step, the day strip, the time-first path, the language switch on the
 * details step, and phone-sized targets with a visible focus ring. The whole walk through the
 * steps is in book.spec.ts.
 */

const EVERY_DAY = Object.fromEntries(
	['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
		d,
		{ start: '08:00', end: '18:00', enabled: true },
	]),
)

type World = { slug: string; orgId: string; serviceId: string; providerIds: string[] }

/** An organization open every day 08:00–18:00 in `timezone`, one 30-minute service, two providers. */
async function world(request: APIRequestContext, timezone = 'UTC'): Promise<World> {
	const owner = newAccount('Wizard Owner')
	await signUpByRequest(request, owner)
	return withDatabase(async (client) => {
		const { rows } = await client.query<{ id: string; slug: string }>(
			`select o.id, o.slug from public.organizations o join public.organization_members m on m.organization_id = o.id
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[owner.email],
		)
		const org = rows[0]!
		await client.query(
			`update public.booking_settings set business_hours = $2, timezone = $3, min_advance_hours = 1, max_advance_days = 30,
			 buffer_minutes = 0, auto_confirm = true, cancellation_hours = 0 where organization_id = $1`,
			[org.id, JSON.stringify(EVERY_DAY), timezone],
		)
		const service = await client.query<{ id: string }>(
			`insert into public.booking_services (organization_id, name, price, duration_minutes) values ($1, 'Haircut', 25, 30) returning id`,
			[org.id],
		)
		const providers = await client.query<{ id: string }>(
			`insert into public.booking_providers (organization_id, display_name) values ($1, 'Ana Silva'), ($1, 'Bruno Costa') returning id`,
			[org.id],
		)
		return { slug: org.slug, orgId: org.id, serviceId: service.rows[0]!.id, providerIds: providers.rows.map((r) => r.id) }
	})
}

/** A day `ahead` days from now, as YYYY-MM-DD (UTC). */
const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10)

const times = (page: Page) => page.getByRole('list', { name: /Free times|Horas libres|Horários livres/ }).getByRole('link')
const strip = (page: Page) => page.getByRole('navigation', { name: 'Days with free times' }).getByRole('list')

test.use({ timezoneId: 'UTC' })

test.describe('a visitor in Los Angeles, an organization in New York', () => {
	test.use({ timezoneId: 'America/Los_Angeles' })

	test('with JavaScript the times are Pacific from the first step, named in words, and the booking keeps the zone', async ({ page }) => {
		const w = await world(page.request, 'America/New_York')
		await page.context().clearCookies()
		await page.goto(`/book/${w.slug}`)
		// The browser's zone replaces the address's missing one, without a history entry.
		await expect(page).toHaveURL(/\/service\?tz=America%2FLos_Angeles$/)
		expect(await page.evaluate(() => history.length)).toBe(2)
		await page.getByRole('link', { name: /Haircut/ }).click()
		await page.getByRole('link', { name: /Ana Silva/ }).click()
		await expect(page).toHaveURL(/provider=.*tz=America%2FLos_Angeles/)
		await page.goto(`${page.url()}&date=${day(2)}`)
		await expect(page.getByText('Times shown in Pacific Time (Los Angeles).')).toBeVisible()
		// Open 08:00 in New York: 5:00 AM in Los Angeles, in English's 12-hour clock.
		await expect(times(page).first()).toHaveText('5:00 AM')
		await times(page).first().click()
		await page.getByLabel('Name', { exact: true }).fill('Lee Pacific')
		await page.getByLabel('Email', { exact: true }).fill(`pacific-${Date.now()}@example.test`)
		await page.getByRole('button', { name: 'Continue' }).click()
		await page.getByRole('button', { name: 'Confirm booking' }).click()
		await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible()
		const stored = await withDatabase((c) =>
			c.query(`select guest_timezone from public.booking_appointments where organization_id = $1`, [w.orgId]),
		)
		expect(stored.rows).toEqual([{ guest_timezone: 'America/Los_Angeles' }])
	})

	test('without JavaScript the organization zone is shown, and the visitor zone is one tap away', async ({ browser }) => {
		const context = await browser.newContext({ javaScriptEnabled: false, timezoneId: 'America/Los_Angeles', locale: 'en-US' })
		const page = await context.newPage()
		const w = await world(page.request, 'America/New_York')
		await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}&date=${day(2)}`)
		await expect(page.getByText('Times shown in Eastern Time (New York).')).toBeVisible()
		await expect(times(page).first()).toHaveText('8:00 AM')
		// The likely zones are links in view (the organization's first, then those of en-US); the
		// others wait folded.
		const zones = page.getByRole('navigation', { name: 'Time zone' })
		await expect(zones.getByRole('link').first()).toHaveText("Eastern Time (New York) · the business's time")
		await expect(zones.getByRole('link', { name: 'Japan Standard Time (Tokyo)' })).toBeHidden()
		await zones.getByRole('link', { name: 'Pacific Time (Los Angeles)' }).click()
		await expect(page).toHaveURL(/tz=America%2FLos_Angeles/)
		expect(new URL(page.url()).searchParams.get('provider')).toBe(w.providerIds[0])
		await expect(page.getByText('Times shown in Pacific Time (Los Angeles).')).toBeVisible()
		await expect(times(page).first()).toHaveText('5:00 AM')
		await expect(zones.getByRole('link', { name: 'Pacific Time (Los Angeles)' })).toHaveAttribute('aria-current', 'true')
		// A visitor from Mexico finds Mexico City's zone among the first, in Spanish.
		const mx = await browser.newContext({ javaScriptEnabled: false, locale: 'es-MX' })
		const mxPage = await mx.newPage()
		await mxPage.goto(page.url().replace(/&tz=[^&]*/, ''))
		await expect(mxPage.getByRole('navigation', { name: 'Zona horaria' }).getByRole('link', { name: /Ciudad de México/ })).toBeVisible()
		await Promise.all([context.close(), mx.close()])
	})
})

test('times are 12-hour in English and 24-hour in Spanish and Portuguese, under the day in words @nojs', async ({ browser }) => {
	const page0 = await browser.newPage()
	const w = await world(page0.request)
	await page0.close()
	const date = day(3)
	for (const [locale, first, language] of [
		['en-US', '8:00 AM', 'en'],
		['es-ES', '08:00', 'es'],
		['pt-BR', '08:00', 'pt-BR'],
	] as const) {
		const context = await browser.newContext({ locale, timezoneId: 'UTC' })
		const page = await context.newPage()
		await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}&date=${date}&more=2`)
		await expect(times(page).first()).toHaveText(first)
		await expect(times(page).nth(9)).toHaveText(language === 'en' ? '12:30 PM' : '12:30')
		const words = new Intl.DateTimeFormat(language, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
			new Date(`${date}T12:00:00Z`),
		)
		await expect(page.getByRole('heading', { level: 2 })).toHaveText(words.charAt(0).toLocaleUpperCase(language) + words.slice(1))
		await context.close()
	}
})

test('every step has one primary action: no "Next", nothing disabled, no account box that does nothing @nojs', async ({ page }) => {
	const w = await world(page.request)
	await page.context().clearCookies()
	const dead = () => page.locator('main :is(button, a)[disabled], main [aria-disabled="true"]')
	await page.goto(`/book/${w.slug}/service`)
	await expect(page.getByRole('heading', { name: 'Choose a service' })).toBeVisible()
	for (const step of ['service', 'slot', 'details', 'confirm']) {
		if (step === 'slot') await page.getByRole('link', { name: /Haircut/ }).click()
		if (step === 'details') {
			await page.getByRole('link', { name: /Ana Silva/ }).click()
			await expect(page).toHaveURL(/provider=/)
			await page.goto(`${page.url()}&date=${day(2)}`)
			await times(page).first().click()
			await expect(page.getByText('Create an account')).toHaveCount(0)
		}
		if (step === 'confirm') {
			await page.getByLabel('Name', { exact: true }).fill('One Action')
			await page.getByLabel('Email', { exact: true }).fill('one-action@example.test')
			await page.getByRole('button', { name: 'Continue' }).click()
		}
		await expect(page).toHaveURL(new RegExp(`/${step}`))
		await expect(page.getByRole('link', { name: 'Next' })).toHaveCount(0)
		await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0)
		await expect(dead(), step).toHaveCount(0)
	}
})

test.describe('on a phone', () => {
	test.use({ viewport: { width: 390, height: 844 } })

	test('a later day stays in view in the strip, under its heading, and the arrows move a day @nojs', async ({ page }) => {
		const w = await world(page.request)
		await page.context().clearCookies()
		await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}`)
		const target = strip(page).getByRole('link').nth(9)
		const date = new URL((await target.getAttribute('href'))!, 'http://x').searchParams.get('date')!
		await target.click()
		await expect(page).toHaveURL(new RegExp(`date=${date}`))
		const current = strip(page).locator('[aria-current="date"]')
		await expect(current).toHaveAttribute('href', new RegExp(`date=${date}`))
		await expectInside(current, strip(page))
		const words = (d: string) =>
			new Intl.DateTimeFormat('en', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${d}T12:00:00Z`))
		await expect(page.getByRole('heading', { level: 2 })).toHaveText(words(date))
		const next = new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
		await page.getByRole('link', { name: 'Next day' }).click()
		await expect(page.getByRole('heading', { level: 2 })).toHaveText(words(next))
		await expectInside(strip(page).locator('[aria-current="date"]'), strip(page))
		await page.getByRole('link', { name: 'Previous day' }).click()
		await expect(page.getByRole('heading', { level: 2 })).toHaveText(words(date))
	})

	test('every target of the wizard is at least 44 px, and every focus shows a 2 px ring of 3:1 or more @nojs', async ({ page }) => {
		const w = await world(page.request)
		await page.context().clearCookies()
		await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}&date=${day(2)}`)
		await expect(times(page).first()).toBeVisible()
		await checkTargets(page, 'slot')
		await times(page).first().click()
		await expect(page).toHaveURL(/\/details\?/)
		await checkTargets(page, 'details')
	})
})

test('with JavaScript the strip of days is one Tab stop: the arrow keys move within it, Enter follows', async ({ page }) => {
	const w = await world(page.request)
	await page.context().clearCookies()
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}&date=${day(2)}`)
	await expect(page.locator('html[data-hydrated="true"]')).toBeAttached()
	await expect(strip(page).locator('a[tabindex="0"]')).toHaveCount(1)
	await tabTo(page, strip(page).locator('[aria-current="date"]'))
	await page.keyboard.press('ArrowRight')
	const focused = strip(page).locator(`a[href*="date=${day(3)}"]`)
	await expect(focused).toBeFocused()
	await expect(strip(page).locator('a[tabindex="0"]')).toHaveCount(1)
	// Tab leaves the row (to the next-day arrow); Shift+Tab comes back to the day it was on.
	await page.keyboard.press('Tab')
	await expect(page.getByRole('link', { name: 'Next day' })).toBeFocused()
	await page.keyboard.press('Shift+Tab')
	await expect(focused).toBeFocused()
	await page.keyboard.press('ArrowLeft')
	await page.keyboard.press('ArrowRight')
	await page.keyboard.press('Enter')
	await expect(page).toHaveURL(new RegExp(`date=${day(3)}`))
	await expect(strip(page).locator('[aria-current="date"]')).toHaveAttribute('href', new RegExp(`date=${day(3)}`))
})

/** The element lies within the visible part of its scrolling row. */
async function expectInside(inner: Locator, outer: Locator) {
	const [a, b] = await Promise.all([inner.boundingBox(), outer.boundingBox()])
	expect(a!.x).toBeGreaterThanOrEqual(b!.x - 1)
	expect(a!.x + a!.width).toBeLessThanOrEqual(b!.x + b!.width + 1)
}

/**
 * Every visible control in the header and the step is at least 44 × 44 px; then, walking the page
 * with Tab, every control focused shows a 2 px outline whose colour has 3:1 or more against what
 * it is drawn on.
 */
async function checkTargets(page: Page, where: string) {
	const small = await page.evaluate(() =>
		[
			...document.querySelectorAll<HTMLElement>(
				'header :is(a, button, input, select, textarea, summary), main :is(a, button, input, select, textarea, summary)',
			),
		]
			.filter((el) => el.getAttribute('type') !== 'hidden' && !el.closest('[aria-hidden="true"]') && el.getClientRects().length > 0)
			.map((el) => ({ el: el.outerHTML.slice(0, 80), ...el.getBoundingClientRect().toJSON() }))
			.filter((r) => r.width > 0 && (r.width < 44 || r.height < 44)),
	)
	expect(small, where).toEqual([])
	await page.locator('body').focus()
	const seen = new Set<string>()
	for (let i = 0; i < 30; i++) {
		await page.keyboard.press('Tab')
		const ring = await page.evaluate(() => {
			const el = document.activeElement as HTMLElement | null
			if (!el || !el.closest('header, main')) return null
			const canvas = document.createElement('canvas').getContext('2d')!
			const rgba = (color: string) => {
				canvas.clearRect(0, 0, 1, 1)
				canvas.fillStyle = color
				canvas.fillRect(0, 0, 1, 1)
				return [...canvas.getImageData(0, 0, 1, 1).data]
			}
			let bg = [255, 255, 255, 255]
			for (let p = el.parentElement; p; p = p.parentElement) {
				const c = rgba(getComputedStyle(p).backgroundColor)
				if (c[3]! > 0) {
					bg = c
					break
				}
			}
			const lum = (c: number[]) =>
				c.slice(0, 3).reduce((sum, v, k) => {
					const s = v / 255
					const lin = s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
					return sum + lin * [0.2126, 0.7152, 0.0722][k]!
				}, 0)
			const style = getComputedStyle(el)
			const [l1, l2] = [lum(rgba(style.outlineColor)), lum(bg)].sort((a, b) => b - a)
			return {
				el: `${el.outerHTML.slice(0, 60)} ${el.textContent?.trim().slice(0, 40)} ${el.getAttribute('href') ?? ''}`,
				style: style.outlineStyle,
				width: style.outlineWidth,
				contrast: Math.round(((l1! + 0.05) / (l2! + 0.05)) * 10) / 10,
			}
		})
		if (!ring) continue
		seen.add(ring.el)
		expect(ring.style, `${where}: ${ring.el}`).toBe('solid')
		expect(ring.width, `${where}: ${ring.el}`).toBe('2px')
		expect(ring.contrast, `${where}: ${ring.el}`).toBeGreaterThanOrEqual(3)
	}
	expect(seen.size, where).toBeGreaterThan(3)
}

test('by time: a time only one provider is free at goes on with them; at a time several are, "First available" @nojs', async ({ page }) => {
	const w = await world(page.request)
	const date = day(2)
	// Bruno is busy at 10:00: only Ana is free then; at 10:30 both are.
	await withDatabase((c) =>
		c.query(
			`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, buffer_ends_at, guest_name, guest_email, status, total_price)
			 values ($1, $2, $3, $4, $4::timestamptz + interval '30 minutes', $4::timestamptz + interval '30 minutes', 'Walk-in', 'walk-in@example.test', 'confirmed', 25)`,
			[w.orgId, w.serviceId, w.providerIds[1], `${date}T10:00:00Z`],
		),
	)
	await page.context().clearCookies()
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&mode=time&date=${date}`)
	await times(page).filter({ hasText: '10:00 AM' }).click()
	await expect(page).toHaveURL(/\/details\?/)
	await expect(page.getByText('With Ana Silva')).toBeVisible()
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&mode=time&date=${date}`)
	await times(page).filter({ hasText: '10:30 AM' }).click()
	await expect(page).toHaveURL(/\/slot\?.*start=/)
	await page.getByRole('link', { name: /First available/ }).click()
	await expect(page).toHaveURL(/\/details\?/)
	await expect(page.getByText(/With (Ana Silva|Bruno Costa)/)).toBeVisible()
	expect(w.providerIds).toContain(new URL(page.url()).searchParams.get('provider'))
})

test('switching language on the details step keeps what was typed, checks nothing and saves nothing @nojs', async ({ page }) => {
	const w = await world(page.request)
	await page.context().clearCookies()
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerIds[0]}&date=${day(2)}`)
	await times(page).first().click()
	await expect(page).toHaveURL(/\/details\?/)
	const details = page.url()
	await page.getByLabel('Name', { exact: true }).fill('Lucía Gómez')
	await page.getByLabel('Notes (optional)').fill('Primera vez')
	await page.getByLabel(/^Language/).click()
	await page.getByRole('button', { name: 'Español' }).click()
	await expect(page.getByRole('heading', { name: 'Tus datos' })).toBeVisible()
	expect(page.url()).toBe(details)
	await expect(page.getByLabel('Nombre', { exact: true })).toHaveValue('Lucía Gómez')
	await expect(page.getByLabel('Notas (opcional)')).toHaveValue('Primera vez')
	// The empty email is not an error yet: the form was not sent.
	await expect(page.getByText('El correo electrónico es obligatorio')).toHaveCount(0)
	// Nothing saved: the confirmation still needs the details.
	await page.goto(details.replace('/details?', '/confirm?'))
	await expect(page).toHaveURL(/\/details\?/)
})
