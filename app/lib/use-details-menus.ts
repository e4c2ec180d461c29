import { useEffect } from 'react'

const OPEN_MENUS = 'details[data-menu][open]'

/**
 * The menus made of a `<details data-menu>` (the language and organization switchers, which work
 * without JavaScript) close with Escape, focus back on their button, as a menu does.
 */
export function useDetailsMenus() {
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
