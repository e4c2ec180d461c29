import i18next, { type BackendModule } from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import { fallbackLanguage, i18nConfig, isLanguage } from './lib/i18n.ts'

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

async function hydrate() {
	await i18next
		.use(initReactI18next)
		.use(fetchBackend)
		.init({ ...i18nConfig, lng, react: { useSuspense: false } })
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
