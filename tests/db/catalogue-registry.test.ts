/**
 * The registry of module identities (app/lib/modules.ts) against the catalogue the database
 * holds (supabase/seed.sql): code names modules and upgrades by id, feature type and name, so
 * each entry must be a row with exactly those, or a query or a link would find nothing.
 */
import { describe, expect, test } from 'vitest'
import { asSystem } from '#app/.server/db/index.ts'
import { INDUSTRY_TEMPLATES, MODULES, type CatalogueUpgradeIdentity } from '#app/lib/modules.ts'

async function catalogueRows() {
	return asSystem(async (trx) => ({
		modules: await trx.selectFrom('modules').select(['id', 'name', 'feature_type']).execute(),
		upgrades: await trx.selectFrom('module_upgrades').select(['id', 'module_id', 'name']).execute(),
	}))
}

describe('the registry of module identities', () => {
	test('names every module with the id, catalogue name and feature type of its row in the database', async () => {
		const { modules } = await catalogueRows()
		const registry = Object.values(MODULES).map((m) => ({ id: m.id, name: m.name, feature_type: m.featureType }))
		expect(registry.length).toBeGreaterThan(0)
		for (const entry of registry) expect(modules, entry.name).toContainEqual(entry)
	})

	test('names every upgrade with the id and catalogue name of its row, under its own module', async () => {
		const { upgrades } = await catalogueRows()
		const registry = Object.values(MODULES).flatMap((m) =>
			Object.values(m.upgrades as Record<string, CatalogueUpgradeIdentity>).map((u) => ({ id: u.id, module_id: m.id, name: u.name })),
		)
		expect(registry.length).toBeGreaterThan(0)
		for (const entry of registry) expect(upgrades, entry.name).toContainEqual(entry)
	})

	test('gives each module and upgrade its own id and name', () => {
		const modules = Object.values(MODULES)
		const upgrades = modules.flatMap((m) => Object.values(m.upgrades as Record<string, CatalogueUpgradeIdentity>))
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
