import { createInstance, type i18n, type Resource } from 'i18next'
import { createContext, createCookie, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { RemixI18Next } from 'remix-i18next/server'
import { fallbackLanguage, i18nConfig, isLanguage, supportedLanguages, type Language } from '#app/lib/i18n.ts'

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

const detector = new RemixI18Next({
	detection: {
		supportedLanguages: [...supportedLanguages],
		fallbackLanguage,
		cookie: languageCookie,
		order: ['cookie', 'header'],
	},
})

/** The request's language; the fallback when the middleware never ran (a request React Router refused before middleware). */
const localeContext = createContext<Language>(fallbackLanguage)

const instances = new Map<Language, i18n>()

/**
 * The i18next instance of one language, made once and shared by every request and job in it.
 * Nothing on the server changes an instance's language or resources (all are bundled), so
 * sharing is safe; a fresh instance per request cost about half a millisecond of CPU
 * (bench/README.md).
 */
export function instanceFor(language: Language): i18n {
	let instance = instances.get(language)
	if (!instance) {
		instance = createInstance({ ...i18nConfig, resources, lng: language, initAsync: false })
		void instance.init()
		instances.set(language, instance)
	}
	return instance
}

export type Translate = (key: string, options?: Record<string, unknown>) => string

/**
 * A translator for one namespace in a language, outside any request: every mail and job (the
 * recipient's language; the fallback when it is none of ours). A request's own translations
 * come from `getInstance`.
 */
export function tIn(language: string | null | undefined, ns: string): Translate {
	const lng = isLanguage(language) ? language : fallbackLanguage
	const t = instanceFor(lng).getFixedT(lng, ns)
	return (key, options) => String(t(key, options ?? {}))
}

/** Root middleware: the request's language, from the saved choice, else the browser's. */
export const i18nextMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	const detected = await detector.getLocale(request)
	context.set(localeContext, isLanguage(detected) ? detected : fallbackLanguage)
	return next()
}

export const getLocale = (context: Readonly<RouterContextProvider>): Language => context.get(localeContext)

/** The i18next instance in the request's language. */
export const getInstance = (context: Readonly<RouterContextProvider>): i18n => instanceFor(getLocale(context))
