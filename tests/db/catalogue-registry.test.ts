/**
 * The registry of the catalogue (app/lib/modules.ts) against the catalogue the database holds
 * (supabase/seed.sql): code names modules and upgrades by id, feature type and name, and says
 * what is sold and what it unlocks; the SQL purchase functions read `available` and `included`
 * from the rows. Each entry must be a row with exactly those figures, every row an entry, and
 * nothing sold may unlock nothing (docs/decisions/039-what-the-catalogue-sells.md).
 */
import { describe, expect, test } from 'vitest'
import { asSystem } from '#app/.server/db/index.ts'
import { INDUSTRY_TEMPLATES, MODULES, registryItems, upgradeAvailable, type Offer } from '#app/lib/modules.ts'

async function catalogueRows() {
	return asSystem(async (trx) => ({
		modules: await trx
			.selectFrom('modules')
			.select(['id', 'name', 'feature_type', 'available', 'included', 'base_gear_cost'])
			.orderBy('id')
			.execute(),
		upgrades: await trx.selectFrom('module_upgrades').select(['id', 'module_id', 'name', 'available']).orderBy('id').execute(),
	}))
}

/** The catalogue row's figures an offer stands for. */
function rowOffer(row: { available: boolean; included: boolean }): Offer {
	return row.included ? 'included' : row.available ? 'available' : 'comingSoon'
}

describe('the registry of the catalogue', () => {
	test('names every module with the id, catalogue name, feature type and offer of its row, and every row is in it', async () => {
		const { modules } = await catalogueRows()
		const rows = modules.map((m) => ({ id: m.id, name: m.name, feature_type: m.feature_type, offer: rowOffer(m) }))
		const registry = registryItems()
			.modules.map((m) => ({ id: m.id, name: m.name, feature_type: m.featureType, offer: m.offer }))
			.sort((a, b) => a.id.localeCompare(b.id))
		expect(registry.length).toBeGreaterThan(0)
		expect(registry).toEqual(rows)
	})

	test('names every upgrade with the id, catalogue name and availability of its row, under its own module, and every row is in it', async () => {
		const { upgrades } = await catalogueRows()
		const registry = registryItems()
			.upgrades.map((u) => ({ id: u.id, module_id: u.moduleId, name: u.name, available: u.available }))
			.sort((a, b) => a.id.localeCompare(b.id))
		expect(registry.length).toBeGreaterThan(0)
		expect(registry).toEqual(upgrades)
	})

	test('an included module costs nothing in the catalogue', async () => {
		const { modules } = await catalogueRows()
		for (const m of modules.filter((r) => r.included)) expect(m.base_gear_cost, m.name).toBe(0)
	})

	test('every module and upgrade that is sold or included unlocks at least one screen; one coming soon unlocks none yet', () => {
		const { modules, upgrades } = registryItems()
		for (const m of modules) {
			if (m.offer === 'comingSoon') expect(m.screens, m.name).toEqual([])
			else expect(m.screens.length, `${m.name} unlocks nothing`).toBeGreaterThan(0)
		}
		for (const u of upgrades) {
			if (upgradeAvailable(u.id)) expect(u.screens.length, `${u.name} unlocks nothing`).toBeGreaterThan(0)
			else expect(u.screens, u.name).toEqual([])
		}
		for (const screen of [...modules, ...upgrades].flatMap((i) => i.screens)) expect(screen.to).toMatch(/^\/(app|book)\//)
	})

	test('gives each module and upgrade its own id and name', () => {
		const { modules, upgrades } = registryItems()
		for (const list of [modules, upgrades]) {
			expect(new Set(list.map((e) => e.id)).size).toBe(list.length)
			expect(new Set(list.map((e) => e.name)).size).toBe(list.length)
		}
	})

	test('bundles in the industry templates only modules of the registry', () => {
		const ids = new Set<string>(Object.values(MODULES).map((m) => m.id))
		for (const template of INDUSTRY_TEMPLATES) for (const id of template.moduleIds) expect(ids.has(id), `${template.id}: ${id}`).toBe(true)
	})
})
