/**
 * The marketplace's rules in SQL (supabase/migrations/20261122004000_marketplace.sql): buying an
 * upgrade of a module that is not active charges both costs at once, module configuration is
 * the owner's, favourites are each member's own.
 */
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql, type Tx } from '#app/.server/db/index.ts'
import { addMember, CATALOGUE, createUser, gearBalance, isDbTarget, refusal } from './fixtures.ts'

const { modules, upgrades } = CATALOGUE

const purchase = (trx: Tx, org: string, upgrade: string) => sql`select public.purchase_upgrade(${org}, ${upgrade})`.execute(trx)
const settings = (trx: Tx, org: string, mod: string, visibility: string | null, notifications: boolean | null) =>
	sql`select public.update_module_settings(${org}, ${mod}, ${visibility}, ${notifications})`.execute(trx)

async function drainTo(orgId: string, left: number) {
	const { remaining } = await gearBalance(orgId)
	await asSystem((trx) => sql`select private.spend_gears(${orgId}, ${remaining - left}, 'adjustment')`.execute(trx))
}

async function ledger(orgId: string) {
	return asSystem((trx) =>
		trx
			.selectFrom('gear_ledger')
			.select(['delta', 'reason', 'module_id', 'upgrade_id'])
			.where('organization_id', '=', orgId)
			.where('reason', 'in', ['module_activation', 'upgrade_purchase'])
			.orderBy('id')
			.execute(),
	)
}

describe('buying an upgrade of a module that is not active', () => {
	test('charges the module base cost and the upgrade cost together, each once, with two ledger rows', async () => {
		const owner = await createUser('Combined Owner')
		await asUser(owner.userId, (trx) => purchase(trx, owner.orgId, upgrades.advancedAnalytics))
		expect(await gearBalance(owner.orgId)).toMatchObject({ remaining: 15000 - 750 - 2000, ledger: 15000 - 750 - 2000 })
		expect(await ledger(owner.orgId)).toEqual([
			{ delta: -750, reason: 'module_activation', module_id: modules.reports, upgrade_id: null },
			{ delta: -2000, reason: 'upgrade_purchase', module_id: modules.reports, upgrade_id: upgrades.advancedAnalytics },
		])
	})

	test('of an active module charges only the upgrade', async () => {
		const owner = await createUser('Combined Owner')
		await asUser(owner.userId, async (trx) => {
			await sql`select public.activate_module(${owner.orgId}, ${modules.reports})`.execute(trx)
			await purchase(trx, owner.orgId, upgrades.advancedAnalytics)
		})
		expect(await gearBalance(owner.orgId)).toMatchObject({ remaining: 15000 - 750 - 2000 })
	})

	test('is refused whole when the balance covers the upgrade but not both costs: no module, no upgrade, no spend', async () => {
		const owner = await createUser('Combined Owner')
		await drainTo(owner.orgId, 2500) // the upgrade alone (2000) fits, with the module (2750) it does not
		const error = await asUser(owner.userId, (trx) => purchase(trx, owner.orgId, upgrades.advancedAnalytics)).catch((e: unknown) => e)
		expect(error).toMatchObject({ message: 'insufficient_gears' })
		expect(JSON.parse((error as { detail: string }).detail)).toEqual({ required: 2750, remaining: 2500 })
		const rows = await asSystem((trx) =>
			trx.selectFrom('organization_modules').select('id').where('organization_id', '=', owner.orgId).execute(),
		)
		expect(rows).toEqual([])
		expect(await gearBalance(owner.orgId)).toMatchObject({ remaining: 2500, ledger: 2500 })
	})
})

describe.runIf(isDbTarget('pg'))('under concurrency (PostgreSQL server)', () => {
	test('the same purchase twice at once: charged once (the second sees it active), the ledger agrees', async () => {
		const owner = await createUser('Race Buyer')
		await drainTo(owner.orgId, 3000) // each purchase alone (2,750 with its module) fits, both do not
		const codes = await Promise.all(
			[upgrades.advancedAnalytics, upgrades.advancedAnalytics].map((u) =>
				refusal(asUser(owner.userId, (trx) => sql`select pg_sleep(0.05), public.purchase_upgrade(${owner.orgId}, ${u})`.execute(trx))),
			),
		)
		expect(codes.filter((c) => c === null)).toHaveLength(1)
		expect(codes.filter((c) => c === 'already_active')).toHaveLength(1)
		expect(await gearBalance(owner.orgId)).toMatchObject({ remaining: 250, ledger: 250 })
	})

	test('two different purchases that together exceed the balance: exactly one is refused for insufficient gears', async () => {
		const owner = await createUser('Race Buyer')
		await drainTo(owner.orgId, 3000) // Advanced Analytics with Reports: 2,750; CRM Basic Fields with CRM: 900
		const codes = await Promise.all(
			[upgrades.advancedAnalytics, 'c0000000-0000-4000-8000-000000000004'].map((u) =>
				refusal(asUser(owner.userId, (trx) => sql`select pg_sleep(0.05), public.purchase_upgrade(${owner.orgId}, ${u})`.execute(trx))),
			),
		)
		expect(codes.filter((c) => c === null)).toHaveLength(1)
		expect(codes.filter((c) => c === 'insufficient_gears')).toHaveLength(1)
		const { remaining, ledger } = await gearBalance(owner.orgId)
		expect(remaining).toBe(ledger)
		expect([3000 - 2750, 3000 - 900]).toContain(remaining)
	})
})

describe('module configuration', () => {
	test('the owner saves visibility and email notifications of an active module; the defaults are any and on', async () => {
		const owner = await createUser('Settings Owner')
		await asUser(owner.userId, (trx) => sql`select public.activate_module(${owner.orgId}, ${modules.crm})`.execute(trx))
		const read = () =>
			asUser(owner.userId, (trx) =>
				trx
					.selectFrom('organization_modules')
					.select(['default_visibility', 'email_notifications'])
					.where('organization_id', '=', owner.orgId)
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
		await asUser(owner.userId, (trx) => sql`select public.activate_module(${owner.orgId}, ${modules.crm})`.execute(trx))
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
