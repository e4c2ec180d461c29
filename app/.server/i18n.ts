import { createInstance, type i18n, type Resource } from 'i18next'
import type { RouterContextProvider } from 'react-router'
import { createCookie } from 'react-router'
import { createI18nextMiddleware } from 'remix-i18next/middleware'
import { fallbackLanguage, i18nConfig, supportedLanguages } from '#app/lib/i18n.ts'

// Every translation file, bundled once into the server: no file read per request.
const files = import.meta.glob<{ default: Record<string, unknown> }>('../../public/locales/*/*.json', {
	eager: true,
})

export const resources: Resource = {}
for (const [file, mod] of Object.entries(files)) {
	const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file)
	if (!match) continue
	const [, lng, ns] = match as unknown as [string, string, string]
	resources[lng] ??= {}
	resources[lng][ns] = mod.default
}

/** The saved language choice: set by the language switcher, and at sign-in from the profile. */
export const languageCookie = createCookie('lng', {
	path: '/',
	sameSite: 'lax',
	httpOnly: false,
	maxAge: 60 * 60 * 24 * 365,
})

export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
	detection: {
		supportedLanguages: [...supportedLanguages],
		fallbackLanguage,
		cookie: languageCookie,
		order: ['cookie', 'header'],
	},
	i18next: { ...i18nConfig, resources },
})

let fallbackInstance: i18n | undefined

/**
 * The request's i18next instance, or, when the i18n middleware never ran (a request React
 * Router refused before middleware, such as an unsupported method), one in the fallback
 * language, so the error page still renders.
 */
export function requestI18n(context: Readonly<RouterContextProvider>) {
	try {
		return getInstance(context)
	} catch {
		if (!fallbackInstance) {
			fallbackInstance = createInstance({ ...i18nConfig, resources, lng: fallbackLanguage, initAsync: false })
			void fallbackInstance.init()
		}
		return fallbackInstance
	}
}
