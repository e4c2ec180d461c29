import { isRouteErrorResponse, type MetaDescriptor } from 'react-router'
import { appName as appNameEn, titles as en } from '../../public/locales/en/common.json'
import { appName as appNameEs, titles as es } from '../../public/locales/es/common.json'
import { appName as appNamePt, titles as pt } from '../../public/locales/pt-BR/common.json'
import { fallbackLanguage, isLanguage, type Language } from './i18n.ts'

/**
 * Every route's <title>, in the user's language: "Transactions · P2P Transaction Tracker".
 *
 * A meta function cannot call hooks, so it reads the language the root loader resolved
 * (`locale`, from the root match) and looks the page's name up in the `titles` block of
 * common.json. Only that block and `appName` reach the browser bundle (named JSON imports).
 * A route declares its title in one line:
 *
 *     export const meta = titleMeta('transactions')
 *
 * or, with something of its own in front (a client's name), from a meta function:
 *
 *     export const meta: Route.MetaFunction = (args) => pageMeta(args, 'clientDetail', args.loaderData?.client.name)
 */
export type PageTitle = keyof typeof en

const dictionaries: Record<Language, { appName: string; titles: Record<PageTitle, string> }> = {
	en: { appName: appNameEn, titles: en },
	es: { appName: appNameEs, titles: es },
	'pt-BR': { appName: appNamePt, titles: pt },
}

type MetaInput = { matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>; error?: unknown }

/** The language the root loader chose; in the browser, the page's own lang after that. */
export function metaLanguage(matches: MetaInput['matches']): Language {
	const root = matches.find((m) => m?.id === 'root')?.loaderData
	const locale = root && typeof root === 'object' && 'locale' in root ? root.locale : undefined
	if (isLanguage(locale)) return locale
	if (typeof document !== 'undefined' && isLanguage(document.documentElement.lang)) return document.documentElement.lang
	return fallbackLanguage
}

/** "Page · App", or just the app's name when page is null; an optional detail goes first. */
export function pageTitle(language: Language, page: PageTitle | null, detail?: string | null): string {
	const { appName, titles } = dictionaries[language]
	return [detail, page ? titles[page] : null, appName].filter(Boolean).join(' · ')
}

/**
 * The title of a route, or of the error it shows: a 404 is titled "Page not found"; another
 * error keeps the screen's name (the root's own boundary says "Error").
 */
export function pageMeta(args: MetaInput, page: PageTitle | null, detail?: string | null): MetaDescriptor[] {
	const language = metaLanguage(args.matches)
	if (args.error && isRouteErrorResponse(args.error) && args.error.status === 404) return [{ title: pageTitle(language, 'notFound') }]
	if (args.error && page === null) return [{ title: pageTitle(language, 'error') }]
	return [{ title: pageTitle(language, page, detail) }]
}

/** A route's meta export that sets its title and nothing else. */
export function titleMeta(page: PageTitle | null) {
	return (args: MetaInput): MetaDescriptor[] => pageMeta(args, page)
}
