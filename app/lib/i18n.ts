export const supportedLanguages = ['en', 'es', 'pt-BR'] as const
export type Language = (typeof supportedLanguages)[number]
export const fallbackLanguage: Language = 'en'
export const namespaces = [
	'common',
	'auth',
	'notFound',
	'table',
	'dashboard',
	'categories',
	'reports',
	'transactions',
	'clients',
	'marketplace',
	'booking',
	'imports',
	'settings',
	'book',
	'messaging',
	'invoice-page',
	'invoices',
	'recurring',
	'expenses',
	'tax-year',
	'analytics',
	'automation',
	'rules',
	'webhooks',
	'parsing-rules',
] as const
export const defaultNS = 'common'

export const languageNames: Record<Language, string> = {
	en: 'English',
	es: 'Español',
	'pt-BR': 'Português (Brasil)',
}

export function isLanguage(value: unknown): value is Language {
	return typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value)
}

export const i18nConfig = {
	supportedLngs: [...supportedLanguages],
	fallbackLng: fallbackLanguage,
	defaultNS,
	ns: [...namespaces],
	interpolation: { escapeValue: false },
}
