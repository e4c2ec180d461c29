import { useEffect, useRef } from 'react'
import { useNavigate } from 'react-router'

/**
 * A panel or dialog opened by an address (`?module=`, `?upgrade=`, `?confirm=`…), so that it
 * works without JavaScript. With JavaScript it behaves as a dialog for the keyboard: it takes
 * focus when it opens (a screen reader reads its name), Escape goes to `closeHref`, and focus
 * goes back to what opened it when it closes. The element gets the ref and `tabIndex={-1}`.
 *
 * `openKey` names what is shown: another module in the same panel takes focus again. While a
 * dialog inside this one is open, `active: false` leaves focus and Escape to it.
 */
export function useUrlDialog<T extends HTMLElement>(closeHref: string, openKey: string, { active = true } = {}) {
	const ref = useRef<T>(null)
	const navigate = useNavigate()
	useEffect(() => {
		if (!active) return
		const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
		ref.current?.focus()
		return () => {
			if (opener?.isConnected && !ref.current?.isConnected) opener.focus({ preventScroll: true })
		}
	}, [openKey, active])
	useEffect(() => {
		if (!active) return
		const onKeyDown = (event: KeyboardEvent) => {
			if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return
			event.preventDefault()
			void navigate(closeHref, { preventScrollReset: true })
		}
		document.addEventListener('keydown', onKeyDown)
		return () => document.removeEventListener('keydown', onKeyDown)
	}, [closeHref, active, navigate])
	return ref
}
