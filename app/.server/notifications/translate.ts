import { createInstance, type i18n } from 'i18next'
import { fallbackLanguage, i18nConfig, isLanguage, type Language } from '#app/lib/i18n.ts'
import { resources } from '../i18n.ts'

const instances = new Map<Language, i18n>()

export type Translate = (key: string, options?: Record<string, unknown>) => string

/** A translator for one namespace in a member's language, outside any request (mails, jobs). */
export function tIn(language: string | null | undefined, ns: string): Translate {
	const lng = isLanguage(language) ? language : fallbackLanguage
	let instance = instances.get(lng)
	if (!instance) {
		instance = createInstance({ ...i18nConfig, resources, lng, initAsync: false })
		void instance.init()
		instances.set(lng, instance)
	}
	const t = instance.getFixedT(lng, ns)
	return (key, options) => String(t(key, options ?? {}))
}
