import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'

const OPEN_MENUS = 'details[data-menu][open]'

/**
 * The menus made of a `<details data-menu>` (the language and organization switchers, which work
 * without JavaScript) close as a menu does: with Escape, focus back on their button, and when
 * the page changes (a new document would have closed them).
 */
export function useDetailsMenus() {
	const { key } = useLocation()
	const shown = useRef(key)
	useEffect(() => {
		// Not on the first render: a menu opened before the page came to life stays open.
		if (shown.current === key) return
		shown.current = key
		for (const menu of document.querySelectorAll<HTMLDetailsElement>(OPEN_MENUS)) menu.open = false
	}, [key])
	useEffect(() => {
		const onKeyDown = (event: KeyboardEvent) => {
			if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return
			const menu = event.target instanceof Element ? event.target.closest(OPEN_MENUS) : null
			if (!(menu instanceof HTMLDetailsElement)) return
			event.preventDefault()
			menu.open = false
			menu.querySelector('summary')?.focus()
		}
		document.addEventListener('keydown', onKeyDown)
		return () => document.removeEventListener('keydown', onKeyDown)
	}, [])
}
