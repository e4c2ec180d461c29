import type { RouterContextProvider } from 'react-router'
import { getInstance, getLocale } from '../i18n.ts'
import type { ExportWords } from './tax-year-export.ts'

/** The translators of the tax-year exports, in the request's language. */
export function exportWords(context: Readonly<RouterContextProvider>): ExportWords {
	const i18n = getInstance(context)
	const t = i18n.getFixedT(null, 'tax-year')
	const methods = i18n.getFixedT(null, 'transactions')
	const categories = i18n.getFixedT(null, 'expenses')
	return {
		t: (key, options) => String(t(key, options as never)),
		method: (method) => String(methods(`methods.${method}`)),
		category: (category) => String(categories(`categories.${category}`, { defaultValue: category })),
		language: getLocale(context),
	}
}
