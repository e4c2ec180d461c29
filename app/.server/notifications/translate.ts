import { fallbackLanguage, isLanguage } from '#app/lib/i18n.ts'
import { instanceFor } from '../i18n.ts'

export type Translate = (key: string, options?: Record<string, unknown>) => string

/** A translator for one namespace in a member's language, outside any request (mails, jobs). */
export function tIn(language: string | null | undefined, ns: string): Translate {
	const lng = isLanguage(language) ? language : fallbackLanguage
	const t = instanceFor(lng).getFixedT(lng, ns)
	return (key, options) => String(t(key, options ?? {}))
}
