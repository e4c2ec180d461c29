import { readFile } from 'node:fs/promises'
import { describe, expect, test } from 'vitest'
import { asSystem, asUser } from '#app/.server/db/index.ts'
import { createUser } from './fixtures.ts'

async function catalogue() {
	const user = await createUser('Catalogue Reader')
	return asUser(user.userId, async (trx) => ({
		modules: await trx.selectFrom('modules').selectAll().orderBy('name').execute(),
		upgrades: await trx.selectFrom('module_upgrades').selectAll().orderBy('tier').orderBy('name').execute(),
	}))
}

describe('the module catalogue seed', () => {
	test('offers at least 8 modules, booking, P2P tracking, clients CRM and reports among them, free and paid, fully described', async () => {
		const { modules } = await catalogue()
		expect(modules.length).toBeGreaterThanOrEqual(8)
		expect(modules.map((m) => m.feature_type)).toEqual(expect.arrayContaining(['booking', 'transactions', 'clients', 'reports']))
		expect(modules.some((m) => m.base_gear_cost === 0)).toBe(true)
		expect(modules.some((m) => m.base_gear_cost > 0)).toBe(true)
		for (const m of modules) {
			expect(m.industry_tags.length, m.name).toBeGreaterThanOrEqual(2)
			expect(m.short_description.length, m.name).toBeGreaterThan(10)
			expect(m.description.length, m.name).toBeGreaterThan(m.short_description.length)
			expect(m.icon, m.name).toMatch(/^[A-Z]/)
			expect(m.version, m.name).toMatch(/^\d+\.\d+\.\d+$/)
		}
		expect(modules.find((m) => m.feature_type === 'transactions')!.icon).toBe('CreditCard')
		expect(modules.find((m) => m.feature_type === 'clients')!.icon).toBe('Users')
	})

	test('has upgrades in every tier with features, including those the product names, with their prices and dependency', async () => {
		const { upgrades } = await catalogue()
		const byName = new Map(upgrades.map((u) => [u.name, u]))
		expect(new Set(upgrades.map((u) => u.tier))).toEqual(new Set(['basic', 'pro', 'enterprise']))
		expect(upgrades.every((u) => u.features.length >= 3)).toBe(true)
		const spec = ['Advanced Analytics', 'Automation', 'P2P Tracking - Email', 'Email Pro', 'CRM Enterprise'].map((name) => ({
			name,
			tier: byName.get(name)?.tier,
			gear_cost: byName.get(name)?.gear_cost,
		}))
		expect(spec).toEqual([
			{ name: 'Advanced Analytics', tier: 'pro', gear_cost: 2000 },
			{ name: 'Automation', tier: 'pro', gear_cost: 1500 },
			{ name: 'P2P Tracking - Email', tier: 'basic', gear_cost: 1000 },
			{ name: 'Email Pro', tier: 'pro', gear_cost: 2900 },
			{ name: 'CRM Enterprise', tier: 'enterprise', gear_cost: 9900 },
		])
		expect(byName.get('Automation')!.dependencies).toEqual([byName.get('Advanced Analytics')!.id])
		expect(upgrades.map((u) => u.tier)).toEqual(
			[...upgrades.map((u) => u.tier)].sort(
				(a, b) => ['basic', 'pro', 'enterprise'].indexOf(a) - ['basic', 'pro', 'enterprise'].indexOf(b),
			),
		)
	})

	test('running the seed again changes nothing', async () => {
		const snapshot = () =>
			asSystem(async (trx) => ({
				modules: await trx.selectFrom('modules').selectAll().orderBy('id').execute(),
				upgrades: await trx.selectFrom('module_upgrades').selectAll().orderBy('id').execute(),
			}))
		const before = await snapshot()
		const seed = await readFile('supabase/seed.sql', 'utf8')
		await asSystem((_trx, runScript) => runScript(seed))
		expect(await snapshot()).toEqual(before)
	})
})
