/**
 * Organizations that bought what the catalogue no longer sells (a module or upgrade that is coming
 * soon, a module now included) keep the row and get its gears back, once, as a refund row of the
 * ledger (supabase/migrations/20261204030000_catalogue_sells_what_works.sql,
 * private.refund_unsold_purchases; docs/decisions/039-what-the-catalogue-sells.md).
 */
import { describe, expect, test } from 'vitest'
import { asSystem, sql } from '#app/.server/db/index.ts'
import { getGearHistory } from '#app/.server/marketplace/modules.ts'
import { MODULES } from '#app/lib/modules.ts'
import { createUser, gearBalance } from './fixtures.ts'

/**
 * What an organization bought before the catalogue said what it sells: the rows and spends the
 * purchase functions wrote then, made directly as the system (the functions refuse them today).
 */
async function boughtBefore(orgId: string, userId: string) {
	await asSystem(async (trx) => {
		const inventory = await trx
			.insertInto('organization_modules')
			.values({ organization_id: orgId, module_id: MODULES.inventory.id, activated_by: userId })
			.returning('id')
			.executeTakeFirstOrThrow()
		await sql`select private.spend_gears(${orgId}, 1500, 'module_activation', ${userId}, ${MODULES.inventory.id}, null)`.execute(trx)
		const p2p = await trx
			.selectFrom('organization_modules')
			.select('id')
			.where('organization_id', '=', orgId)
			.where('module_id', '=', MODULES.p2p.id)
			.executeTakeFirstOrThrow()
		const booking = await trx
			.insertInto('organization_modules')
			.values({ organization_id: orgId, module_id: MODULES.booking.id, activated_by: userId })
			.returning('id')
			.executeTakeFirstOrThrow()
		await trx
			.insertInto('organization_module_upgrades')
			.values([
				{ organization_id: orgId, organization_module_id: p2p.id, upgrade_id: MODULES.p2p.upgrades.email.id, purchased_by: userId },
				{
					organization_id: orgId,
					organization_module_id: booking.id,
					upgrade_id: MODULES.booking.upgrades.multiLocation.id,
					purchased_by: userId,
				},
			])
			.execute()
		await sql`select private.spend_gears(${orgId}, 1000, 'upgrade_purchase', ${userId}, ${MODULES.p2p.id}, ${MODULES.p2p.upgrades.email.id})`.execute(
			trx,
		)
		await sql`select private.spend_gears(${orgId}, 4000, 'upgrade_purchase', ${userId}, ${MODULES.booking.id}, ${MODULES.booking.upgrades.multiLocation.id})`.execute(
			trx,
		)
		// Clients CRM was sold for 500 gears; it is now part of what every organization has.
		await sql`select private.spend_gears(${orgId}, 500, 'module_activation', ${userId}, ${MODULES.crm.id}, null)`.execute(trx)
		return inventory.id
	})
}

const refund = () => asSystem((trx) => sql`select private.refund_unsold_purchases()`.execute(trx))

async function ledgerOf(orgId: string) {
	return asSystem((trx) =>
		trx
			.selectFrom('gear_ledger')
			.select(['id', 'delta', 'balance_after', 'reason', 'module_id', 'upgrade_id', 'refund_of'])
			.where('organization_id', '=', orgId)
			.orderBy('id')
			.execute(),
	)
}

describe('refunds of what the catalogue does not sell', () => {
	test('give back each unsold spend once, naming it, keep the rows, and leave what is sold alone', async () => {
		const owner = await createUser('Early Buyer')
		await boughtBefore(owner.orgId, owner.userId)
		expect(await gearBalance(owner.orgId)).toMatchObject({ remaining: 15000 - 1500 - 1000 - 4000 - 500 })
		await refund()
		const rows = await ledgerOf(owner.orgId)
		const spends = rows.filter((r) => r.delta < 0)
		const refunds = rows.filter((r) => r.refund_of !== null)
		// Inventory and Multi-location Booking (coming soon), Clients CRM (included now): given back; the email upgrade (sold) is not.
		expect(refunds.map((r) => ({ delta: r.delta, reason: r.reason, module_id: r.module_id, upgrade_id: r.upgrade_id }))).toEqual([
			{ delta: 1500, reason: 'adjustment', module_id: MODULES.inventory.id, upgrade_id: null },
			{ delta: 4000, reason: 'adjustment', module_id: MODULES.booking.id, upgrade_id: MODULES.booking.upgrades.multiLocation.id },
			{ delta: 500, reason: 'adjustment', module_id: MODULES.crm.id, upgrade_id: null },
		])
		expect(refunds.map((r) => r.refund_of)).toEqual([spends[0]!.id, spends[2]!.id, spends[3]!.id])
		expect(refunds.map((r) => r.balance_after)).toEqual([9500, 13500, 14000])
		expect(await gearBalance(owner.orgId)).toMatchObject({ owned: 15000, remaining: 15000 - 1000, ledger: 14000 })
		// The rows stay: the organization keeps what it had, marked coming soon on its screens.
		const kept = await asSystem((trx) =>
			trx.selectFrom('organization_module_upgrades').select('upgrade_id').where('organization_id', '=', owner.orgId).execute(),
		)
		expect(kept.map((r) => r.upgrade_id).sort()).toEqual([MODULES.p2p.upgrades.email.id, MODULES.booking.upgrades.multiLocation.id].sort())
		const modules = await asSystem((trx) =>
			trx.selectFrom('organization_modules').select('module_id').where('organization_id', '=', owner.orgId).execute(),
		)
		expect(modules.map((m) => m.module_id)).toContain(MODULES.inventory.id)

		// Once: running it again gives nothing more.
		await refund()
		expect(await ledgerOf(owner.orgId)).toEqual(rows)
	})

	test('a refund row cannot be written twice for one spend, nor rewritten', async () => {
		const owner = await createUser('Early Buyer')
		await boughtBefore(owner.orgId, owner.userId)
		await refund()
		const first = (await ledgerOf(owner.orgId)).find((r) => r.refund_of !== null)!
		const twice = await asSystem((trx) =>
			sql`insert into public.gear_ledger (organization_id, delta, balance_after, reason, refund_of)
				values (${owner.orgId}, 1500, 16000, 'adjustment', ${first.refund_of})`.execute(trx),
		).catch((e: { code?: string }) => e.code)
		expect(twice).toBe('23505')
		const rewrite = await asSystem((trx) =>
			trx.updateTable('gear_ledger').set({ refund_of: null }).where('id', '=', first.id).execute(),
		).catch((e: { message?: string }) => e.message)
		expect(rewrite).toBe('gear_ledger_append_only')
	})

	test('the gear history shows a refund as "Gears refunded" with what it was for', async () => {
		const owner = await createUser('Early Buyer')
		await boughtBefore(owner.orgId, owner.userId)
		await refund()
		const history = await getGearHistory(owner.userId, owner.orgId, 1)
		const refunds = history.rows.filter((r) => r.reason === 'refund')
		expect(refunds.map((r) => ({ delta: r.delta, moduleName: r.moduleName, upgradeName: r.upgradeName }))).toEqual([
			{ delta: 500, moduleName: 'Clients CRM', upgradeName: null },
			{ delta: 4000, moduleName: 'Appointment Booking', upgradeName: 'Multi-location Booking' },
			{ delta: 1500, moduleName: 'Inventory', upgradeName: null },
		])
	})
})
