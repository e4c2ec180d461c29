import { useEffect, useLayoutEffect, useRef } from 'react'
import { useNavigate } from 'react-router'

/**
 * A panel or dialog opened by an address (`?module=`, `?upgrade=`, `?confirm=`…), so that it
 * works without JavaScript. With JavaScript it behaves as a dialog for the keyboard: it takes
 * focus when it opens (a screen reader reads its name), Escape goes to `closeHref`, and focus
 * goes back to what opened it when it closes. The element gets the ref and `tabIndex={-1}`.
 *
 * `openKey` names what is shown: another module in the same panel takes focus again. While a
 * dialog inside this one is open, `active: false` leaves focus and Escape to it.
 *
 * Escape is left alone in a text field outside the dialog (it clears a search box), and in an
 * open menu (a `<details>`), which it closes instead.
 */
export function useUrlDialog<T extends HTMLElement>(closeHref: string, openKey: string, { active = true } = {}) {
	const ref = useRef<T>(null)
	const opener = useRef<HTMLElement | null>(null)
	const activeNow = useRef(active)
	const navigate = useNavigate()
	useEffect(() => {
		activeNow.current = active
	}, [active])
	// What opened the dialog is remembered once per thing shown, not when an inner dialog closes;
	// read in a layout effect, before any dialog (an inner one's effects run first) moves focus.
	useLayoutEffect(() => {
		const focused = document.activeElement
		if (focused instanceof HTMLElement && focused !== document.body && !ref.current?.contains(focused)) opener.current = focused
	}, [openKey])
	useEffect(() => {
		if (activeNow.current) ref.current?.focus()
	}, [openKey])
	useEffect(
		() => () => {
			if (opener.current?.isConnected) opener.current.focus({ preventScroll: true })
		},
		[],
	)
	useEffect(() => {
		if (!active) return
		const onKeyDown = (event: KeyboardEvent) => {
			if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return
			const target = event.target instanceof Element ? event.target : null
			const menu = target?.closest('details[open]')
			if (menu instanceof HTMLDetailsElement) {
				event.preventDefault()
				menu.open = false
				menu.querySelector('summary')?.focus()
				return
			}
			if (target?.closest('input, textarea, select, [contenteditable="true"]') && !ref.current?.contains(target)) return
			event.preventDefault()
			void navigate(closeHref, { preventScrollReset: true })
		}
		document.addEventListener('keydown', onKeyDown)
		return () => document.removeEventListener('keydown', onKeyDown)
	}, [closeHref, active, navigate])
	return ref
}
