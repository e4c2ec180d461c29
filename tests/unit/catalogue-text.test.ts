import { readFileSync } from 'node:fs'
import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { catalogueT, localizeModule, localizeUpgrade } from '#app/.server/marketplace/catalogue-text.ts'
import { i18nextMiddleware } from '#app/.server/i18n.ts'
import { supportedLanguages, type Language } from '#app/lib/i18n.ts'

type Catalogue = {
	modules: Record<string, { name: string; shortDescription: string; description: string }>
	upgrades: Record<string, { name: string; features: string[] }>
	industries: Record<string, string>
}
const files = Object.fromEntries(
	supportedLanguages.map((lng) => [lng, JSON.parse(readFileSync(`public/locales/${lng}/catalogue.json`, 'utf8')) as Catalogue]),
) as Record<Language, Catalogue>

/** A request's router context in a language, as the root middleware leaves it. */
async function contextIn(language: Language) {
	const context = new RouterContextProvider()
	const request = new Request('http://localhost/app/dashboard', { headers: { 'accept-language': language } })
	await i18nextMiddleware({ request, context, params: {}, unstable_pattern: '/' } as never, async () => new Response(null))
	return context
}

const [moduleId, moduleTexts] = Object.entries(files.en.modules)[0]!
const [upgradeId, upgradeTexts] = Object.entries(files.en.upgrades)[0]!
const [tag] = Object.keys(files.en.industries)

describe('the module catalogue in the interface language (kept texts)', () => {
	test('each language gets its own texts, call after call, whichever language asked first', async () => {
		const order: Language[] = ['es', 'en', 'pt-BR', 'es', 'pt-BR', 'en']
		for (const language of order) {
			const t = catalogueT(await contextIn(language))
			const m = localizeModule(t, { id: moduleId, name: moduleTexts.name, description: moduleTexts.description, industryTags: [tag!] })
			expect(m.name).toBe(files[language].modules[moduleId]!.name)
			expect(m.description).toBe(files[language].modules[moduleId]!.description)
			expect(m.industryTags).toEqual([files[language].industries[tag!]])
			expect(m.catalogueName).toBe(moduleTexts.name)
			const u = localizeUpgrade(t, { id: upgradeId, name: upgradeTexts.name, features: upgradeTexts.features })
			expect(u.name).toBe(files[language].upgrades[upgradeId]!.name)
			expect(u.features).toEqual(files[language].upgrades[upgradeId]!.features)
		}
		// Spanish and English differ for this module, so a text kept for one language did not leak.
		expect(files.es.modules[moduleId]!.name).not.toBe(files.en.modules[moduleId]!.name)
	})

	test('a row the files do not know shows the database text, and each row keeps its own', async () => {
		const t = catalogueT(await contextIn('es'))
		expect(localizeModule(t, { id: 'not-in-the-files', name: 'Brand New Module' }).name).toBe('Brand New Module')
		// The same unknown key with another database text (the catalogue was edited): the new text.
		expect(localizeModule(t, { id: 'not-in-the-files', name: 'Renamed Module' }).name).toBe('Renamed Module')
		// A list whose length does not match the database's falls back to the database's.
		expect(localizeUpgrade(t, { id: upgradeId, name: 'x', features: ['only one'] }).features).toEqual(['only one'])
	})
})
