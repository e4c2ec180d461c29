/**
 * Every text of the module catalogue (modules, upgrades, industry tags: supabase/seed.sql) has
 * its translation in every language (public/locales/{lng}/catalogue.json, keyed by the row's
 * fixed id), and the English file says what the database says (docs/glossary.md).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { asSystem } from '#app/.server/db/index.ts'
import { supportedLanguages } from '#app/lib/i18n.ts'

type Catalogue = {
	modules: Record<string, { name: string; shortDescription: string; description: string }>
	upgrades: Record<string, { name: string; description: string; features: string[] }>
	industries: Record<string, string>
}
const files = Object.fromEntries(
	supportedLanguages.map((lng) => [lng, JSON.parse(readFileSync(`public/locales/${lng}/catalogue.json`, 'utf8')) as Catalogue]),
)

async function rows() {
	return asSystem(async (trx) => ({
		modules: await trx.selectFrom('modules').select(['id', 'name', 'short_description', 'description', 'industry_tags']).execute(),
		upgrades: await trx.selectFrom('module_upgrades').select(['id', 'name', 'description', 'features']).execute(),
	}))
}

describe('catalogue texts in en, es and pt-BR', () => {
	test('every module has its name and descriptions in all three languages, the English one as in the database', async () => {
		const { modules } = await rows()
		expect(modules.length).toBeGreaterThan(0)
		for (const m of modules) {
			expect(files.en!.modules[m.id], m.name).toEqual({ name: m.name, shortDescription: m.short_description, description: m.description })
			for (const lng of supportedLanguages) {
				const texts = files[lng]!.modules[m.id]
				expect(texts, `${lng} ${m.name}`).toBeDefined()
				for (const value of Object.values(texts!)) expect(value.trim(), `${lng} ${m.name}`).not.toBe('')
				for (const tag of m.industry_tags) expect(files[lng]!.industries[tag], `${lng} industry ${tag}`).toBeTruthy()
			}
		}
		// A translated module reads as translated: its Spanish and Portuguese names differ from the English.
		const booking = modules.find((m) => m.name === 'Appointment Booking')!
		expect(files.es!.modules[booking.id]!.name).toBe('Reserva de citas')
		expect(files['pt-BR']!.modules[booking.id]!.name).toBe('Agendamento de compromissos')
	})

	test('every upgrade has its name, description and each feature in all three languages', async () => {
		const { upgrades } = await rows()
		expect(upgrades.length).toBeGreaterThan(0)
		for (const u of upgrades) {
			expect(files.en!.upgrades[u.id], u.name).toEqual({ name: u.name, description: u.description, features: u.features })
			for (const lng of supportedLanguages) {
				const texts = files[lng]!.upgrades[u.id]
				expect(texts, `${lng} ${u.name}`).toBeDefined()
				expect(texts!.features, `${lng} ${u.name}`).toHaveLength(u.features.length)
				for (const value of [texts!.name, texts!.description, ...texts!.features]) expect(value.trim(), `${lng} ${u.name}`).not.toBe('')
			}
		}
	})

	test('no translation names a row the catalogue does not have', async () => {
		const { modules, upgrades } = await rows()
		for (const lng of supportedLanguages) {
			expect(Object.keys(files[lng]!.modules).sort()).toEqual(modules.map((m) => m.id).sort())
			expect(Object.keys(files[lng]!.upgrades).sort()).toEqual(upgrades.map((u) => u.id).sort())
		}
	})
})
