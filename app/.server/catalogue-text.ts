import type { TFunction } from 'i18next'
import type { RouterContextProvider } from 'react-router'
import { getInstance } from './i18n.ts'

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
export function catalogueT(context: Readonly<RouterContextProvider>): TFunction {
	return getInstance(context).getFixedT(null, 'catalogue')
}

function text(t: TFunction, key: string, fallback: string): string {
	const value: unknown = t(key, { defaultValue: fallback })
	return typeof value === 'string' && value !== '' ? value : fallback
}

function list(t: TFunction, key: string, fallback: string[]): string[] {
	const value: unknown = t(key, { returnObjects: true, defaultValue: fallback })
	return Array.isArray(value) && value.length === fallback.length && value.every((v) => typeof v === 'string') ? (value as string[]) : fallback
}

type ModuleTexts = { id: string; name: string; shortDescription?: string; description?: string; industryTags?: string[] }
type UpgradeTexts = { id: string; name: string; description?: string; features?: string[] }

export function localizeModule<M extends ModuleTexts>(t: TFunction, m: M): M & { catalogueName: string } {
	const key = `modules.${m.id}`
	return {
		...m,
		catalogueName: m.name,
		name: text(t, `${key}.name`, m.name),
		...(m.shortDescription !== undefined ? { shortDescription: text(t, `${key}.shortDescription`, m.shortDescription) } : {}),
		...(m.description !== undefined ? { description: text(t, `${key}.description`, m.description) } : {}),
		...(m.industryTags !== undefined ? { industryTags: m.industryTags.map((tag) => text(t, `industries.${tag}`, tag)) } : {}),
	}
}

export function localizeUpgrade<U extends UpgradeTexts>(t: TFunction, u: U): U & { catalogueName: string } {
	const key = `upgrades.${u.id}`
	return {
		...u,
		catalogueName: u.name,
		name: text(t, `${key}.name`, u.name),
		...(u.description !== undefined ? { description: text(t, `${key}.description`, u.description) } : {}),
		...(u.features !== undefined ? { features: list(t, `${key}.features`, u.features) } : {}),
	}
}
