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
 * Plain lookups (a key, no options) by language, namespace and prefix: the server's resources never
 * change, and i18next's `t` costs about 6 µs a call against 0.1 µs for the map, on pages that make
 * hundreds of them (the sidebar, table headers, labels). Bounded, for keys made at run time.
 */
const plain = new Map<string, unknown>()

const useServerTranslation = ((ns?: string | readonly string[], options?: { keyPrefix?: string }) => {
	const { i18n } = useContext(I18nContext)
	const first = (Array.isArray(ns) ? ns[0] : ns) ?? i18n.options.defaultNS
	const prefix = options?.keyPrefix
	const t = (key: string, opts?: unknown, ...rest: unknown[]) => {
		if (opts === undefined && rest.length === 0) {
			const id = `${i18n.language}\u0000${first}\u0000${prefix ?? ''}\u0000${key}`
			let text = plain.get(id)
			if (text === undefined) {
				text = i18n.t(prefix ? `${prefix}.${key}` : key, { ns: first })
				if (plain.size >= 20_000) plain.clear()
				plain.set(id, text)
			}
			return text
		}
		const o: Record<string, unknown> =
			typeof opts === 'object' && opts !== null
				? { ...opts }
				: (i18n.options.overloadTranslationOptionHandler?.([key, opts, ...rest] as string[]) ?? {})
		o.ns ??= first
		return i18n.t(prefix ? `${prefix}.${key}` : key, o)
	}
	const result = [t, i18n, true] as unknown as ReturnType<UseTranslation>
	return Object.assign(result, { t, i18n, ready: true })
}) as unknown as UseTranslation

export const useTranslation: UseTranslation = import.meta.env.SSR ? useServerTranslation : useReactI18nextTranslation
