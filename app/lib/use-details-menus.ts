import { useEffect } from 'react'

const OPEN_MENUS = 'details[data-menu][open]'

/**
 * The menus made of a `<details data-menu>` (the language and organization switchers, which work
 * without JavaScript) behave as menus do:
 * - Escape closes the menu it is pressed in and gives the focus back to its button;
 * - a click anywhere outside an open menu (a link to another page, say) closes it.
 *
 * Only the reader's own key or click closes a menu, never a navigation finishing on its own: a
 * menu opened while a page is still arriving stays open.
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
		const onClick = (event: MouseEvent) => {
			const target = event.target instanceof Node ? event.target : null
			for (const menu of document.querySelectorAll<HTMLDetailsElement>(OPEN_MENUS)) {
				if (!target || !menu.contains(target)) menu.open = false
			}
		}
		document.addEventListener('keydown', onKeyDown)
		document.addEventListener('click', onClick)
		return () => {
			document.removeEventListener('keydown', onKeyDown)
			document.removeEventListener('click', onClick)
		}
	}, [])
}
