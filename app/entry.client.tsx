import i18next, { type BackendModule } from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import { fallbackLanguage, i18nConfig, isLanguage, namespaces } from './lib/i18n.ts'

// Translations come from /locales/{lng}/{ns}.json, as the server rendered them.
const fetchBackend: BackendModule = {
	type: 'backend',
	init() {},
	read(language, namespace, callback) {
		fetch(`/locales/${language}/${namespace}.json`)
			.then((response) => (response.ok ? response.json() : Promise.reject(new Error(response.statusText))))
			.then((data: Record<string, unknown>) => callback(null, data))
			.catch((error: Error) => callback(error, null))
	},
}

const htmlLang = document.documentElement.lang
const lng = isLanguage(htmlLang) ? htmlLang : fallbackLanguage

/**
 * The namespaces fetched before the page hydrates. The public booking wizard, which visitors open
 * on any phone, uses two of the fourteen (tests/e2e/book.spec.ts checks it fetches no other);
 * every other page fetches them all. A namespace not fetched yet loads when a component asks
 * for it.
 */
const firstNamespaces = location.pathname.startsWith('/book/')
	? ['common', 'book']
	: // An invoice's public page comes written by the server (app/routes/invoice/page.tsx).
		location.pathname.startsWith('/i/')
		? ['common']
		: [...namespaces]

async function hydrate() {
	await i18next
		.use(initReactI18next)
		.use(fetchBackend)
		// No fallback language: every key exists in all three (tests/unit/i18n.test.ts), and a
		// fallback would fetch each namespace twice on a page in Spanish or Portuguese.
		.init({ ...i18nConfig, ns: firstNamespaces, lng, fallbackLng: false, react: { useSuspense: false } })
	try {
		localStorage.setItem('lng', lng)
	} catch {
		// private mode: the cookie keeps the choice
	}
	startTransition(() => {
		hydrateRoot(
			document,
			<I18nextProvider i18n={i18next}>
				<StrictMode>
					<HydratedRouter />
				</StrictMode>
			</I18nextProvider>,
		)
	})
}

void hydrate()
