import type { i18n } from 'i18next'
import type { RouterContextProvider } from 'react-router'
import { getLocale, instanceFor } from '../i18n.ts'
import type { Language } from '#app/lib/i18n.ts'

/**
 * The module catalogue (modules, upgrades, industry tags) in the interface language.
 *
 * The catalogue's texts live in the database in English (supabase/seed.sql); their
 * translations live in `public/locales/{lng}/catalogue.json`, keyed by the row's fixed id
 * (`modules.<id>.name`, `upgrades.<id>.features`…) and industry tags by their English text.
 * A row with no translation shows the database's text. Loaders translate before returning,
 * so components print what they get; `catalogueName` keeps the database name for code that
 * recognises a row by it. The namespace is read on the server only (the browser never needs it).
 */
export type CatalogueText = {
	/** The translation of `key`, or `fallback` (the database's text) when there is none. */
	text: (key: string, fallback: string) => string
	/** The translated list of `key` when it has as many texts as `fallback`, else `fallback`. */
	list: (key: string, fallback: string[]) => string[]
}

const translators = new Map<Language, CatalogueText>()

/** The catalogue's translator of the request's language: one per language, made once. */
export function catalogueT(context: Readonly<RouterContextProvider>): CatalogueText {
	const language = getLocale(context)
	let translator = translators.get(language)
	if (!translator) {
		translator = catalogueTranslator(instanceFor(language))
		translators.set(language, translator)
	}
	return translator
}

/** Texts kept per translator: the signed-in shell names its active modules on every page. */
const KEPT_MAX = 5_000

/**
 * The server's resources never change, so a text depends only on its key and fallback: each is
 * looked up once. i18next's `t` costs 5–15 µs a call, which every signed-in page paid for each of
 * the sidebar's active modules (bench/README.md, "Catalogue texts kept"). Bounded: a fallback is
 * the database's text, which an edit of the catalogue changes.
 */
function catalogueTranslator(instance: i18n): CatalogueText {
	const t = instance.getFixedT(null, 'catalogue')
	const kept = new Map<string, string>()
	return {
		text(key, fallback) {
			const id = `${key}\u0000${fallback}`
			let text = kept.get(id)
			if (text === undefined) {
				const value: unknown = t(key, { defaultValue: fallback })
				text = typeof value === 'string' && value !== '' ? value : fallback
				if (kept.size >= KEPT_MAX) kept.clear()
				kept.set(id, text)
			}
			return text
		},
		list(key, fallback) {
			const value: unknown = t(key, { returnObjects: true, defaultValue: fallback })
			return Array.isArray(value) && value.length === fallback.length && value.every((v) => typeof v === 'string')
				? (value as string[])
				: fallback
		},
	}
}

type ModuleTexts = { id: string; name: string; shortDescription?: string; description?: string; industryTags?: string[] }
type UpgradeTexts = { id: string; name: string; description?: string; features?: string[] }

export function localizeModule<M extends ModuleTexts>(t: CatalogueText, m: M): M & { catalogueName: string } {
	const key = `modules.${m.id}`
	return {
		...m,
		catalogueName: m.name,
		name: t.text(`${key}.name`, m.name),
		...(m.shortDescription !== undefined ? { shortDescription: t.text(`${key}.shortDescription`, m.shortDescription) } : {}),
		...(m.description !== undefined ? { description: t.text(`${key}.description`, m.description) } : {}),
		...(m.industryTags !== undefined ? { industryTags: m.industryTags.map((tag) => t.text(`industries.${tag}`, tag)) } : {}),
	}
}

export function localizeUpgrade<U extends UpgradeTexts>(t: CatalogueText, u: U): U & { catalogueName: string } {
	const key = `upgrades.${u.id}`
	return {
		...u,
		catalogueName: u.name,
		name: t.text(`${key}.name`, u.name),
		...(u.description !== undefined ? { description: t.text(`${key}.description`, u.description) } : {}),
		...(u.features !== undefined ? { features: t.list(`${key}.features`, u.features) } : {}),
	}
}
