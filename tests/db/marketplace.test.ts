/**
 * The marketplace's rules in SQL (supabase/migrations/20261122004000_marketplace.sql,
 * 20261204030000_catalogue_sells_what_works.sql): buying an upgrade of a module that is not active
 * charges both costs at once, module configuration is the owner's, favourites are each member's own.
 */
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql, type Tx } from '#app/.server/db/index.ts'
import { whatYouGet } from '#app/.server/marketplace/module-page.ts'
import { getMarketplace, getModuleDetail, listActiveModules } from '#app/.server/marketplace/modules.ts'
import { MODULES } from '#app/lib/modules.ts'
import { addMember, CATALOGUE, createUser, gearBalance, isDbTarget, refusal } from './fixtures.ts'
import { withOpenCatalogue } from './marketplace-open.ts'

const { modules, upgrades } = CATALOGUE

const purchase = (trx: Tx, org: string, upgrade: string) => sql`select public.purchase_upgrade(${org}, ${upgrade})`.execute(trx)
const settings = (trx: Tx, org: string, mod: string, visibility: string | null, notifications: boolean | null) =>
	sql`select public.update_module_settings(${org}, ${mod}, ${visibility}, ${notifications})`.execute(trx)

async function drainTo(orgId: string, left: number) {
	const { remaining } = await gearBalance(orgId)
	await asSystem((trx) => sql`select private.spend_gears(${orgId}, ${remaining - left}, 'adjustment')`.execute(trx))
}

describe('buying an upgrade of a module that is not active', () => {
	// Booking Reminders, opened for these tests whatever the catalogue sells today.
	const reminders = MODULES.booking.upgrades.reminders.id

	test('charges the module base cost and the upgrade cost together, each once, with two ledger rows', async () => {
		const owner = await createUser('Combined Owner')
		const rows = await withOpenCatalogue(owner.userId, { upgrades: [reminders] }, async ({ trx }) => {
			await purchase(trx, owner.orgId, reminders)
			return trx
				.selectFrom('gear_ledger')
				.select(['delta', 'reason', 'module_id', 'upgrade_id'])
				.where('organization_id', '=', owner.orgId)
				.where('reason', 'in', ['module_activation', 'upgrade_purchase'])
				.orderBy('id')
				.execute()
		})
		expect(rows).toEqual([
			{ delta: -1000, reason: 'module_activation', module_id: modules.booking, upgrade_id: null },
			{ delta: -400, reason: 'upgrade_purchase', module_id: modules.booking, upgrade_id: reminders },
		])
	})

	test('of an active module charges only the upgrade', async () => {
		const owner = await createUser('Combined Owner')
		const after = await withOpenCatalogue(owner.userId, { upgrades: [reminders] }, async ({ trx, state }) => {
			await sql`select public.activate_module(${owner.orgId}, ${modules.booking})`.execute(trx)
			await purchase(trx, owner.orgId, reminders)
			return state(owner.orgId)
		})
		expect(after.remaining).toBe(15000 - 1000 - 400)
	})

	test('is refused whole when the balance covers the upgrade but not both costs: no module, no upgrade, no spend', async () => {
		const owner = await createUser('Combined Owner')
		await drainTo(owner.orgId, 1200) // the upgrade alone (400) fits, with the module (1400) it does not
		const result = await withOpenCatalogue(owner.userId, { upgrades: [reminders] }, async ({ trx, state }) => {
			await sql`savepoint buy`.execute(trx)
			const error = await purchase(trx, owner.orgId, reminders).catch((e: unknown) => e)
			await sql`rollback to savepoint buy`.execute(trx)
			return { error, after: await state(owner.orgId) }
		})
		expect(result.error).toMatchObject({ message: 'insufficient_gears' })
		expect(JSON.parse((result.error as { detail: string }).detail)).toEqual({ required: 1400, remaining: 1200 })
		expect(result.after).toEqual({ modules: [], upgrades: [], remaining: 1200 })
		expect(await gearBalance(owner.orgId)).toMatchObject({ remaining: 1200, ledger: 1200 })
	})
})

describe.runIf(isDbTarget('pg'))('under concurrency (PostgreSQL server)', () => {
	test('the same purchase twice at once: charged once (the second sees it active), the ledger agrees', async () => {
		const owner = await createUser('Race Buyer')
		await drainTo(owner.orgId, 1500) // each purchase alone (1,000) fits, both do not
		const codes = await Promise.all(
			[upgrades.p2pEmail, upgrades.p2pEmail].map((u) =>
				refusal(asUser(owner.userId, (trx) => sql`select pg_sleep(0.05), public.purchase_upgrade(${owner.orgId}, ${u})`.execute(trx))),
			),
		)
		expect(codes.filter((c) => c === null)).toHaveLength(1)
		expect(codes.filter((c) => c === 'already_active')).toHaveLength(1)
		expect(await gearBalance(owner.orgId)).toMatchObject({ remaining: 500, ledger: 500 })
	})

	test('a purchase and an activation that together exceed the balance: exactly one is refused for insufficient gears', async () => {
		const owner = await createUser('Race Buyer')
		await drainTo(owner.orgId, 1500) // the email upgrade: 1,000; Appointment Booking: 1,000
		const codes = await Promise.all([
			refusal(
				asUser(owner.userId, (trx) =>
					sql`select pg_sleep(0.05), public.purchase_upgrade(${owner.orgId}, ${upgrades.p2pEmail})`.execute(trx),
				),
			),
			refusal(
				asUser(owner.userId, (trx) => sql`select pg_sleep(0.05), public.activate_module(${owner.orgId}, ${modules.booking})`.execute(trx)),
			),
		])
		expect(codes.filter((c) => c === null)).toHaveLength(1)
		expect(codes.filter((c) => c === 'insufficient_gears')).toHaveLength(1)
		expect(await gearBalance(owner.orgId)).toMatchObject({ remaining: 500, ledger: 500 })
	})
})

describe('module configuration', () => {
	test('the owner saves visibility and email notifications of an active module; the defaults are any and on', async () => {
		const owner = await createUser('Settings Owner')
		// Clients CRM is included: active from the start.
		const read = () =>
			asUser(owner.userId, (trx) =>
				trx
					.selectFrom('organization_modules')
					.select(['default_visibility', 'email_notifications'])
					.where('organization_id', '=', owner.orgId)
					.where('module_id', '=', modules.crm)
					.executeTakeFirstOrThrow(),
			)
		expect(await read()).toEqual({ default_visibility: 'any', email_notifications: true })
		await asUser(owner.userId, (trx) => settings(trx, owner.orgId, modules.crm, 'manager', false))
		expect(await read()).toEqual({ default_visibility: 'manager', email_notifications: false })
	})

	test('a non-owner, an inactive module and a value outside the list are refused', async () => {
		const owner = await createUser('Settings Owner')
		const manager = await createUser('Settings Manager')
		await addMember(owner.orgId, manager.userId, 'manager')
		expect(await refusal(asUser(manager.userId, (trx) => settings(trx, owner.orgId, modules.crm, 'owner', true)))).toBe('not_owner')
		expect(await refusal(asUser(owner.userId, (trx) => settings(trx, owner.orgId, modules.booking, 'owner', true)))).toBe('not_active')
		expect(await refusal(asUser(owner.userId, (trx) => settings(trx, owner.orgId, modules.crm, 'everyone', true)))).toBe('invalid_settings')
		expect(await refusal(asUser(owner.userId, (trx) => settings(trx, owner.orgId, modules.crm, 'owner', null)))).toBe('invalid_settings')
	})
})

describe('favourites', () => {
	test("a member adds and removes their own favourites and never sees another member's", async () => {
		const owner = await createUser('Fav Owner')
		const member = await createUser('Fav Member')
		await addMember(owner.orgId, member.userId, 'member')
		await asUser(member.userId, (trx) =>
			trx.insertInto('module_favorites').values({ organization_id: owner.orgId, user_id: member.userId, module_id: modules.crm }).execute(),
		)
		const mine = (userId: string) =>
			asUser(userId, (trx) => trx.selectFrom('module_favorites').select('module_id').where('organization_id', '=', owner.orgId).execute())
		expect(await mine(member.userId)).toEqual([{ module_id: modules.crm }])
		expect(await mine(owner.userId)).toEqual([])
		expect(
			await refusal(
				asUser(owner.userId, (trx) =>
					trx
						.insertInto('module_favorites')
						.values({ organization_id: owner.orgId, user_id: member.userId, module_id: modules.booking })
						.execute(),
				),
			),
		).toBe('42501')
		await asUser(member.userId, (trx) =>
			trx.deleteFrom('module_favorites').where('organization_id', '=', owner.orgId).where('module_id', '=', modules.crm).execute(),
		)
		expect(await mine(member.userId)).toEqual([])
	})
})

describe('what the marketplace and the module page read from the registry', () => {
	test('each module says whether it is included, available or coming soon, each upgrade whether it is sold', async () => {
		const owner = await createUser('Reader')
		const { catalogue } = await getMarketplace(owner.userId, owner.orgId, { q: '', favoritesOnly: false })
		const offers = Object.fromEntries(catalogue.map((m) => [m.name, { offer: m.offer, active: m.active }]))
		expect(offers).toMatchObject({
			'P2P Transaction Tracking': { offer: 'included', active: true },
			'Clients CRM': { offer: 'included', active: true },
			'Reports & Analytics': { offer: 'included', active: true },
			'Appointment Booking': { offer: 'available', active: false },
			'Reminders & Messaging': { offer: 'available', active: false },
			Inventory: { offer: 'comingSoon', active: false },
			Invoicing: { offer: 'available', active: false },
			'Workflow Automation': { offer: 'available', active: false },
		})
		const sold = catalogue.flatMap((m) => m.upgrades.filter((u) => u.available).map((u) => u.name))
		expect(sold.sort()).toEqual([
			'Advanced Analytics',
			'Automation',
			'Automation Unlimited',
			'Bank Feed Reconciliation',
			'Booking Reminders',
			'CRM Basic Fields',
			'CRM Enterprise',
			'CRM Pipelines',
			'Deposits & Prepayment',
			'Email Pro',
			'P2P Tracking - Email',
			'Recurring Invoices',
			'Report Export',
		])
	})

	test('"What you get" links each screen a module and its upgrades unlock, the public page with the slug', async () => {
		const owner = await createUser('Reader')
		const booking = await getModuleDetail(owner.userId, owner.orgId, modules.booking)
		expect(whatYouGet(booking!, 'ana-studio').screens.map((s) => s.to)).toEqual([
			'/app/booking/calendar',
			'/app/booking/services',
			'/app/booking/providers',
			'/app/booking/analytics',
			'/app/booking/settings',
			'/book/ana-studio',
		])
		const p2p = await getModuleDetail(owner.userId, owner.orgId, modules.p2p)
		expect(whatYouGet(p2p!, 'ana-studio').upgrades).toEqual([
			{
				id: upgrades.p2pEmail,
				name: 'P2P Tracking - Email',
				active: false,
				screens: [
					{ key: 'mailboxConnection', to: `/app/modules/${modules.p2p}#integrations` },
					{ key: 'syncHistory', to: `/app/modules/${modules.p2p}#email-sync` },
				],
			},
			{
				id: MODULES.p2p.upgrades.emailPro.id,
				name: 'Email Pro',
				active: false,
				screens: [
					{ key: 'mailboxes', to: `/app/modules/${modules.p2p}#integrations` },
					{ key: 'parsingRules', to: `/app/modules/${modules.p2p}/parsing-rules` },
				],
			},
			{
				id: MODULES.p2p.upgrades.bankFeed.id,
				name: 'Bank Feed Reconciliation',
				active: false,
				screens: [{ key: 'bankReconciliation', to: '/app/transactions/reconciliation' }],
			},
		])
		const inventory = await getModuleDetail(owner.userId, owner.orgId, MODULES.inventory.id)
		expect(whatYouGet(inventory!, 'ana-studio')).toEqual({ screens: [], upgrades: [] })
	})

	test('the sidebar lists the modules an organization chose, not the included ones every organization has', async () => {
		const owner = await createUser('Reader')
		expect(await listActiveModules(owner.userId, owner.orgId, 'owner')).toEqual([])
		await asUser(owner.userId, (trx) => sql`select public.activate_module(${owner.orgId}, ${modules.booking})`.execute(trx))
		expect((await listActiveModules(owner.userId, owner.orgId, 'owner')).map((m) => m.moduleId)).toEqual([modules.booking])
	})
})
