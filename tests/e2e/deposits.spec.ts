import type { Page } from '@playwright/test'
import { startImapServer } from '../support/imap-server.ts'
import { withDatabase } from './db.ts'
import { decodeQuotedPrintable, expect, latestMailTo, newAccount, signUpByRequest, test } from './fixtures.ts'

// docs/product.md, Deposits and prepayment: the owner says where they get paid and which service
// asks a deposit; a visitor who books it sees the code and the ways to pay; the payment that
// arrives (by email sync or an import, its memo carrying the code) confirms the booking and the
// visitor is told; an unpaid hold is released at its deadline and the time is free again.

const BOOKING = 'b0000000-0000-4000-8000-000000000003'
const DEPOSITS = 'c0000000-0000-4000-8000-000000000008'
const P2P = 'b0000000-0000-4000-8000-000000000001'
const EMAIL_UPGRADE = 'c0000000-0000-4000-8000-000000000001'
const EVERY_DAY = JSON.stringify(
	Object.fromEntries(
		['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
			d,
			{ start: '08:00', end: '18:00', enabled: true },
		]),
	),
)
const CODE = /^[2-9A-HJKMNP-TW-Z]{6}$/

type World = { slug: string; orgId: string; serviceId: string; providerId: string }

/**
 * An owner signed in on `page`, whose organization has Appointment Booking with the Deposits &
 * Prepayment upgrade, open every day 08:00–18:00 UTC, one 30-minute $50 Haircut with one provider;
 * `deposit` and `zelle` arranged in the database when given (else the test sets them on screen).
 */
async function depositWorld(page: Page, arranged: { deposit?: string; zelle?: string } = {}): Promise<World> {
	const owner = newAccount('Deposit Owner')
	await signUpByRequest(page.request, owner)
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ id: string; slug: string }>(
			`select o.id, o.slug from public.organizations o join public.organization_members m on m.organization_id = o.id
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[owner.email],
		)
		const org = rows[0]!
		const module = await db.query<{ id: string }>(
			'insert into public.organization_modules (organization_id, module_id) values ($1, $2) returning id',
			[org.id, BOOKING],
		)
		await db.query(
			'insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id) values ($1, $2, $3)',
			[org.id, module.rows[0]!.id, DEPOSITS],
		)
		await db.query(
			`update public.booking_settings set business_hours = $2, timezone = 'UTC', min_advance_hours = 0, max_advance_days = 30
			 where organization_id = $1`,
			[org.id, EVERY_DAY],
		)
		const service = await db.query<{ id: string }>(
			`insert into public.booking_services (organization_id, name, price, duration_minutes, deposit_kind, deposit_amount)
			 values ($1, 'Haircut', 50, 30, $2, $3) returning id`,
			[org.id, arranged.deposit ? 'fixed' : 'none', arranged.deposit ?? null],
		)
		const provider = await db.query<{ id: string }>(
			`insert into public.booking_providers (organization_id, display_name) values ($1, 'Ana Silva') returning id`,
			[org.id],
		)
		if (arranged.zelle)
			await db.query('insert into public.payment_handles (organization_id, zelle) values ($1, $2)', [org.id, arranged.zelle])
		return { slug: org.slug, orgId: org.id, serviceId: service.rows[0]!.id, providerId: provider.rows[0]!.id }
	})
}

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
const visitorEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2)}@visitor.example`

/** A visitor books tomorrow's first free time on the public page; returns the booked page's address and the time's label. */
async function book(page: Page, w: World, email: string, { expectTerms }: { expectTerms?: string } = {}) {
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerId}&date=${tomorrow()}`)
	const first = page.getByRole('list', { name: 'Free times' }).getByRole('link').first()
	const time = (await first.textContent())!.trim()
	await first.click()
	await page.getByLabel('Name', { exact: true }).fill('Lucía Pérez')
	await page.getByLabel('Email', { exact: true }).fill(email)
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page).toHaveURL(/\/confirm\?/)
	if (expectTerms) await expect(page.getByRole('note').filter({ hasText: expectTerms })).toBeVisible()
	await page.getByRole('button', { name: 'Confirm booking' }).click()
	await expect(page.getByRole('heading', { name: 'Awaiting payment', level: 1 })).toBeVisible()
	const code = (await page.getByTestId('deposit-code').textContent())!.trim()
	expect(code).toMatch(CODE)
	return { url: new URL(page.url()).pathname + new URL(page.url()).search, time, code }
}

const mailText = async (to: string, containing: string) => decodeQuotedPrintable(await latestMailTo(to, 10_000, containing))

test('the owner sets a Zelle handle and a fixed deposit; a visitor who books sees the code, the deadline and how to pay, on a phone too @nojs', async ({
	page,
}) => {
	const w = await depositWorld(page)
	// Getting paid, on Settings › Organization: a wrong value says why and keeps nothing.
	await page.goto('/app/settings/organization')
	await page.getByLabel('Venmo username').fill('@ab')
	await page.getByRole('button', { name: 'Save payment details' }).click()
	await expect(page.getByText('Enter a Venmo username: 5 to 30 letters, digits, - or _.')).toBeVisible()
	await page.getByLabel('Venmo username').fill('')
	await page.getByLabel('Zelle (email or US phone number)').fill('+1 555 123 4567')
	await page.getByRole('button', { name: 'Save payment details' }).click()
	await expect(page.getByText('Payment details saved').first()).toBeVisible()
	await expect(page.getByLabel('Zelle (email or US phone number)')).toHaveValue('(555) 123-4567')

	// A fixed deposit on the service, more than its price refused first.
	await page.goto('/app/booking/services?edit=1')
	const row = page.getByRole('row').filter({ has: page.locator('input[value="Haircut"]') })
	await row.getByRole('combobox', { name: 'Deposit', exact: true }).selectOption('fixed')
	await row.getByRole('textbox', { name: 'Deposit amount' }).fill('60')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page.getByText('The deposit cannot be more than the price.')).toBeVisible()
	await page
		.getByRole('row')
		.filter({ has: page.locator('input[value="Haircut"]') })
		.getByRole('textbox', { name: 'Deposit amount' })
		.fill('20')
	await page.getByRole('button', { name: 'Save' }).click()
	await expect(page).toHaveURL(/\/app\/booking\/services$/)
	await expect(page.getByRole('row').filter({ hasText: 'Haircut' })).toContainText('$20.00')

	// The visitor: told before confirming, then the code, the deadline and the ways to pay.
	const email = visitorEmail('awaiting')
	const booked = await book(page, w, email, { expectTerms: 'This service asks a deposit of $20.00' })
	const notice = page.getByRole('region', { name: 'Awaiting payment' })
	await expect(notice).toContainText('Pay the deposit of $20.00 to keep this time.')
	await expect(notice).toContainText('Zelle to (555) 123-4567')
	await expect(notice).toContainText(/Pay by .+ Coordinated Universal Time, or the time is released\./)
	const mail = await mailText(email, booked.code)
	expect(mail).toContain('Awaiting payment')
	expect(mail).toContain('Zelle to (555) 123-4567')

	// On a phone: nothing wider than the screen, the code whole.
	await page.setViewportSize({ width: 390, height: 844 })
	await page.goto(booked.url)
	await expect(page.getByTestId('deposit-code')).toHaveText(booked.code)
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
})

test('a Zelle notice whose memo carries the code, read by Sync, confirms the booking and the visitor is told', async ({ page }) => {
	const imap = await startImapServer({ user: `notices-${Date.now()}@example.test`, password: 'Sync-App-Password-7' })
	try {
		const w = await depositWorld(page, { deposit: '20', zelle: 'pay@studio.example' })
		const email = visitorEmail('synced')
		const booked = await book(page, w, email)

		// The owner's mailbox, connected as in tests/e2e/email-sync.spec.ts.
		await page.goto(`/app/modules/${P2P}?upgrade=${EMAIL_UPGRADE}`)
		await page
			.getByRole('dialog', { name: /P2P Tracking - Email/ })
			.getByRole('button', { name: /gears/ })
			.click()
		const form = page.getByRole('region', { name: 'Any mailbox over IMAP' })
		await form.getByLabel('IMAP server').fill(imap.host)
		await form.getByLabel('Port').fill(String(imap.port))
		await form.getByLabel('Use TLS (SSL)').uncheck()
		await form.getByLabel('User name').fill(imap.user)
		await form.getByLabel('App password').fill(imap.password)
		await form.getByRole('button', { name: 'Connect mailbox' }).click()
		await expect(page.getByText(`Connected to ${imap.user}`).first()).toBeVisible()
		// Bank of America's Zelle notice (app/.server/payments/email-sync/parsers/zelle.ts), the code in its memo.
		await imap.appendMessage(
			[
				'Authentication-Results: mx.example.test; dkim=pass header.d=ealerts.bankofamerica.com; spf=pass smtp.mailfrom=ealerts.bankofamerica.com; dmarc=pass',
				'From: Bank of America <onlinebanking@ealerts.bankofamerica.com>',
				`To: ${imap.user}`,
				'Subject: Lucia Perez sent you $20.00',
				`Date: ${new Date(Date.now() - 3_600_000).toUTCString()}`,
				`Message-ID: <deposit-${Date.now()}@fixtures.example.test>`,
				'MIME-Version: 1.0',
				'Content-Type: text/plain; charset=utf-8',
				'',
				'Lucia Perez sent you $20.00',
				'',
				'The money was deposited to your account ending in 1234.',
				`Memo: deposit ${booked.code.toLowerCase()}`,
				'',
			].join('\r\n'),
			{ date: new Date(Date.now() - 3_600_000) },
		)

		await page.goto('/app/transactions')
		await page.getByRole('button', { name: 'Sync', exact: true }).click()
		await expect(page.getByText('Sync finished: 1 new payment').first()).toBeVisible()

		// The staff calendar shows it confirmed; the visitor's page and mail say it is paid.
		await page.goto(`/app/booking/calendar?day=${tomorrow()}`)
		await expect(page.getByRole('listitem').filter({ hasText: 'Lucía Pérez' })).toContainText('Confirmed')
		await page.goto(booked.url)
		await expect(page.getByRole('heading', { name: 'Booking confirmed', level: 1 })).toBeVisible()
		await expect(page.getByRole('status').filter({ hasText: 'Deposit received: $20.00' })).toBeVisible()
		const mail = await mailText(email, 'Payment received')
		expect(mail).toContain('received your deposit: your booking is confirmed')
		expect(mail).toContain(booked.code)
		expect(mail).toContain(booked.url)
	} finally {
		await imap.stop()
	}
})

test('a bank CSV whose memo carries the code, once imported, confirms the booking and the visitor is told', async ({ page }) => {
	const w = await depositWorld(page, { deposit: '20', zelle: 'pay@studio.example' })
	const email = visitorEmail('imported')
	const booked = await book(page, w, email)
	const today = new Date().toISOString().slice(0, 10).split('-')
	const csv = [
		'Date,Description,Amount,Running Bal.',
		`${today[1]}/${today[2]}/${today[0]},"Zelle payment from LUCIA PEREZ for ""Haircut ${booked.code}""; Conf# dp${Date.now()}","20.00","1,020.00"`,
	].join('\n')
	await page.goto('/app/transactions/import')
	await page.getByLabel('CSV file').setInputFiles({ name: 'bofa.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
	await page.getByRole('button', { name: 'Upload and preview' }).click()
	await page.getByRole('button', { name: 'Import 1 payment' }).click()
	await expect(page).toHaveURL(/\/app\/transactions\/import\/history$/)

	await page.goto(booked.url)
	await expect(page.getByRole('heading', { name: 'Booking confirmed', level: 1 })).toBeVisible()
	await expect(page.getByRole('status').filter({ hasText: 'Deposit received: $20.00' })).toBeVisible()
	expect(await mailText(email, 'Payment received')).toContain(booked.code)
})

test('an unpaid hold is released at its deadline: the visitor sees it, is told, and the time is free again @nojs', async ({ page }) => {
	const w = await depositWorld(page, { deposit: '20', zelle: 'pay@studio.example' })
	const email = visitorEmail('released')
	const booked = await book(page, w, email)
	// The slot is held: another visitor is not offered it.
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerId}&date=${tomorrow()}`)
	await expect(page.getByRole('list', { name: 'Free times' }).getByRole('link').first()).not.toHaveText(booked.time)
	// The deadline passes.
	await withDatabase((db) =>
		db.query(
			`update public.payment_expectations set due_at = now() - interval '1 minute'
			 where appointment_id = (select a.id from public.booking_appointments a where a.guest_email = $1)`,
			[email],
		),
	)
	await page.goto(booked.url)
	await expect(page.getByRole('heading', { name: 'Booking released', level: 1 })).toBeVisible()
	await expect(page.getByText(/The deposit did not arrive by .+, so this time was released/)).toBeVisible()
	await expect(page.getByTestId('deposit-code')).toHaveCount(0)
	const mail = await mailText(email, 'was released')
	expect(mail).toContain('its deposit did not arrive in time')
	expect(mail).toContain(`/book/${w.slug}`)

	await expect(page.getByRole('link', { name: 'Book again' })).toHaveAttribute('href', `/book/${w.slug}`)
	await page.goto(`/book/${w.slug}/slot?service=${w.serviceId}&provider=${w.providerId}&date=${tomorrow()}`)
	await expect(page.getByRole('list', { name: 'Free times' }).getByRole('link').first()).toHaveText(booked.time)
})
