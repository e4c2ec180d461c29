import { useContext } from 'react'
import { I18nContext, useTranslation as useReactI18nextTranslation } from 'react-i18next'

type UseTranslation = typeof useReactI18nextTranslation

/**
 * The one `useTranslation` of the app's components. In the browser it is react-i18next's. On the
 * server it is a lean one: the server renders each component once, with the request's own i18next
 * instance (entry.server.tsx), whose language and resources do not change during the render, so
 * there is nothing to subscribe to. react-i18next's hook copies the whole i18next instance into
 * a wrapper for every component it mounts and builds its `t` through `getFixedT`, which copies
 * the instance's options on every call: on a table of 25 rows that was a tenth of the page's
 * server time (bench/README.md, "load.ts").
 *
 * Like react-i18next's default, `t` looks keys up in the first namespace given (or the default
 * one); `other:key` reaches another namespace.
 */
/**
 * Lookups kept by language, namespace and prefix, then by key and options: the server's
 * resources never change, and i18next's `t` costs about 6 µs a call against 0.1 µs for the map
 * (more on the first plural of a request: i18next builds its Intl.PluralRules per instance), on
 * pages that make hundreds of them (the sidebar, table headers, labels, month names). A component
 * finds its map once; a plain key is then looked up as it is, with no string built per call. Only
 * options that are all strings, numbers or booleans are kept (not `returnObjects`), so a text
 * depends on nothing else. Bounded: interpolated values (names, amounts) make new keys.
 */
const kept = new Map<string, Map<string, unknown>>()
const KEPT_MAX = 20_000

function keptTexts(language: string, ns: string, prefix: string | undefined) {
	const id = `${language}\u0000${ns}\u0000${prefix ?? ''}`
	let texts = kept.get(id)
	if (!texts) {
		texts = new Map()
		kept.set(id, texts)
	}
	return texts
}

function keyOf(key: string, opts: object | undefined) {
	if (opts === undefined) return key
	let id = key
	for (const [name, value] of Object.entries(opts)) {
		const type = typeof value
		if (name === 'returnObjects' || (type !== 'string' && type !== 'number' && type !== 'boolean')) return null
		// JSON: a value cannot pass for another option (it escapes the separators) nor a number for a string.
		id += `\u0000${name}\u0001${JSON.stringify(value)}`
	}
	return id
}

const useServerTranslation = ((ns?: string | readonly string[], options?: { keyPrefix?: string }) => {
	const { i18n } = useContext(I18nContext)
	const first = (Array.isArray(ns) ? ns[0] : ns) ?? i18n.options.defaultNS
	const prefix = options?.keyPrefix
	const texts = keptTexts(i18n.language, first, prefix)
	const t = (key: string, opts?: unknown, ...rest: unknown[]) => {
		const simple = rest.length === 0 && (opts === undefined || (typeof opts === 'object' && opts !== null && !Array.isArray(opts)))
		const id = simple ? keyOf(key, opts as object | undefined) : null
		if (id !== null) {
			const text = texts.get(id)
			if (text !== undefined) return text
		}
		const o: Record<string, unknown> =
			typeof opts === 'object' && opts !== null
				? { ...opts }
				: opts === undefined
					? {}
					: (i18n.options.overloadTranslationOptionHandler?.([key, opts, ...rest] as string[]) ?? {})
		o.ns ??= first
		const text = i18n.t(prefix ? `${prefix}.${key}` : key, o)
		if (id !== null) {
			if (texts.size >= KEPT_MAX) texts.clear()
			texts.set(id, text)
		}
		return text
	}
	const result = [t, i18n, true] as unknown as ReturnType<UseTranslation>
	return Object.assign(result, { t, i18n, ready: true })
}) as unknown as UseTranslation

export const useTranslation: UseTranslation = import.meta.env.SSR ? useServerTranslation : useReactI18nextTranslation
