/**
 * The marketplace sells only what works (docs/decisions/039-what-the-catalogue-sells.md): what is
 * coming soon shows no purchase button and a forged purchase spends nothing; what every
 * organization has is Included; each module page links to the screens it unlocks.
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

const P2P = 'b0000000-0000-4000-8000-000000000001'
const BOOKING = 'b0000000-0000-4000-8000-000000000003'
const INVENTORY = 'b0000000-0000-4000-8000-000000000007'
const MULTI_LOCATION = 'c0000000-0000-4000-8000-000000000009'

async function owner(page: Page, request: APIRequestContext, name: string) {
	const account = await signUpFresh(page, request, name)
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string; slug: string }>(
			`select m.organization_id, o.slug from public.organization_members m join auth.users u on u.id = m.user_id
			 join public.organizations o on o.id = m.organization_id where u.email = $1`,
			[account.email],
		)
		return { orgId: rows[0]!.organization_id, slug: rows[0]!.slug }
	})
}

/** The balance, and the ledger and rows beyond the starting grant and the included modules. */
async function spent(orgId: string) {
	return withDatabase(async (db) => ({
		remaining: (await db.query<{ g: number }>(`select gears_remaining as g from public.organizations where id = $1`, [orgId])).rows[0]!.g,
		ledger: (await db.query(`select id from public.gear_ledger where organization_id = $1 and reason <> 'initial_grant'`, [orgId]))
			.rowCount,
		chosen: (
			await db.query(
				`select 1 from public.organization_modules om join public.modules m on m.id = om.module_id where om.organization_id = $1 and not m.included`,
				[orgId],
			)
		).rowCount,
		upgrades: (await db.query(`select 1 from public.organization_module_upgrades where organization_id = $1`, [orgId])).rowCount,
	}))
}

function card(page: Page, name: string) {
	return page.getByRole('article', { name, exact: true })
}

const post = (page: Page, path: string, form: Record<string, string>) =>
	page.request.post(path, { form, headers: { origin: test.info().project.use.baseURL! }, maxRedirects: 0 })

test('what is coming soon has no purchase button, and a forged activation or purchase is refused with nothing spent @nojs', async ({
	page,
	request,
}) => {
	const { orgId } = await owner(page, request, 'Soon Owner')
	await page.goto('/app/module-marketplace')
	for (const name of ['Inventory', 'Loyalty & Rewards']) {
		const c = card(page, name)
		await expect(c.getByText('Coming soon', { exact: true })).toBeVisible()
		await expect(c.getByRole('button', { name: /^Activate / })).toHaveCount(0)
		await expect(c.getByRole('link', { name: /^Upgrade — / })).toHaveCount(0)
		await expect(c.getByText(/gears/)).toHaveCount(0)
	}
	for (const name of ['P2P Transaction Tracking', 'Clients CRM', 'Reports & Analytics']) {
		const c = card(page, name)
		await expect(c.getByText('Included', { exact: true }).first()).toBeVisible()
		await expect(c.getByRole('button', { name: /^Activate / })).toHaveCount(0)
		await expect(c.getByRole('link', { name: /^Deactivate / })).toHaveCount(0)
	}
	await expect(card(page, 'Appointment Booking').getByRole('button', { name: /^Activate .* — Appointment Booking$/ })).toBeVisible()

	// Posted anyway: the database refuses it, and says why.
	expect((await post(page, '/app/module-marketplace', { intent: 'activate', moduleId: INVENTORY })).status()).toBe(302)
	await page.goto('/app/module-marketplace')
	await expect(page.getByText('It is coming soon: it cannot be bought yet. Nothing was charged.').first()).toBeVisible()
	expect((await post(page, `/app/modules/${BOOKING}`, { intent: 'purchaseUpgrade', upgradeId: MULTI_LOCATION })).status()).toBe(302)
	expect((await post(page, `/app/modules/${P2P}`, { intent: 'deactivate' })).status()).toBe(302)
	await page.goto(`/app/modules/${P2P}`)
	await expect(page.getByText('It is included for every organization and cannot be deactivated.').first()).toBeVisible()
	expect(await spent(orgId)).toEqual({ remaining: 15000, ledger: 0, chosen: 0, upgrades: 0 })

	// The module page of a coming-soon module: no button, nothing to get yet.
	await page.goto(`/app/modules/${INVENTORY}`)
	await expect(page.getByRole('heading', { name: 'This module is coming soon' })).toBeVisible()
	await expect(page.getByRole('button', { name: /^Activate/ })).toHaveCount(0)
	await expect(page.getByRole('region', { name: 'What you get' })).toContainText('Nothing yet: it is coming soon.')
	// An upgrade that is coming soon: its dialog says so, without a button.
	await page.goto(`/app/modules/${BOOKING}?upgrade=${MULTI_LOCATION}`)
	const dialog = page.getByRole('dialog', { name: /Multi-location Booking/ })
	await expect(dialog).toContainText('Coming soon: this upgrade cannot be bought yet.')
	await expect(dialog.getByRole('button')).toHaveCount(0)
	await expect(page.getByText(/gears per use|Gears to Maintain/)).toHaveCount(0)
})

test('a module page says what you get and links there: the booking calendar, the public page, the mailbox and its sync @nojs', async ({
	page,
	request,
}) => {
	const { slug } = await owner(page, request, 'Links Owner')
	await page.goto(`/app/modules/${BOOKING}`)
	const get = page.getByRole('region', { name: 'What you get' })
	await expect(get.getByRole('link', { name: 'Booking calendar' })).toHaveAttribute('href', '/app/booking/calendar')
	await expect(get.getByRole('link', { name: 'Your public booking page' })).toHaveAttribute('href', `/book/${slug}`)
	await expect(page.getByTestId('activation-price')).toHaveText('1,000 gears, once')
	await expect(page.getByText('Nothing is charged per month or per use.')).toBeVisible()

	await page.goto(`/app/modules/${P2P}`)
	await expect(get.getByRole('link', { name: 'Transactions' })).toHaveAttribute('href', '/app/transactions')
	const email = get.getByRole('region', { name: 'With P2P Tracking - Email' })
	await expect(email.getByRole('link', { name: 'Mailbox connection' })).toHaveAttribute('href', `/app/modules/${P2P}#integrations`)
	await expect(email.getByRole('link', { name: 'Email sync history' })).toHaveAttribute('href', `/app/modules/${P2P}#email-sync`)
	await get.getByRole('link', { name: 'Import payments (CSV)' }).click()
	await expect(page).toHaveURL(/\/app\/transactions\/import$/)

	await useLanguage(page, 'es')
	await page.goto(`/app/modules/${BOOKING}`)
	await expect(page.getByRole('region', { name: 'Qué obtienes' }).getByRole('link', { name: 'Calendario de reservas' })).toBeVisible()
	await useLanguage(page, 'pt-BR')
	await page.goto(`/app/modules/${BOOKING}`)
	await expect(
		page.getByRole('region', { name: 'O que você recebe' }).getByRole('link', { name: 'Calendário de agendamentos' }),
	).toBeVisible()
})

test('a module bought before it was marked coming soon is kept, marked so, and its gears come back in the gear history @nojs', async ({
	page,
	request,
}) => {
	const { orgId } = await owner(page, request, 'Early Owner')
	await withDatabase(async (db) => {
		await db.query(`insert into public.organization_modules (organization_id, module_id) values ($1, $2)`, [orgId, INVENTORY])
		await db.query(`select private.spend_gears($1, 1500, 'module_activation', null, $2, null)`, [orgId, INVENTORY])
		await db.query(`select private.refund_unsold_purchases()`)
	})
	await page.goto(`/app/modules/${INVENTORY}`)
	await expect(page.getByRole('heading', { name: 'Inventory', level: 1 })).toBeVisible()
	await expect(page.getByText('Coming soon', { exact: true }).first()).toBeVisible()
	await expect(page.getByText(/the gears it cost were refunded/)).toBeVisible()
	await page.goto('/app/gears')
	const row = page.getByRole('row').filter({ hasText: 'Gears refunded: Inventory' })
	await expect(row).toContainText('+1,500')
	await expect(row).toContainText('15,000')
})
