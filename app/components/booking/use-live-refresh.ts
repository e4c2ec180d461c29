import { useEffect, useRef } from 'react'
import { useNavigation, useRevalidator } from 'react-router'

const LIVE_REFRESH_DELAY_MS = 300

/**
 * With JavaScript, the calendar loads its data again whenever the organization's appointments
 * change elsewhere (server-sent events from /app/booking/events); without it, the Refresh link.
 */
export function useLiveRefresh() {
	const revalidator = useRevalidator()
	const revalidate = revalidator.revalidate
	// A change while a navigation or a form is under way (often the staff's own, told back by the
	// server) waits for it to end: revalidating would interrupt it, and the redirect of a form
	// carries the flash message that its toast shows.
	const idle = useNavigation().state === 'idle'
	const navigating = useRef(false)
	const missed = useRef(false)
	useEffect(() => {
		navigating.current = !idle
		if (idle && missed.current) {
			missed.current = false
			void revalidate()
		}
	}, [idle, revalidate])
	useEffect(() => {
		if (typeof EventSource === 'undefined') return
		const source = new EventSource('/app/booking/events')
		// Changes are taken a moment after they are told: a burst of them loads once, and the staff's
		// own change (told while its form's redirect is still loading) is seen as a navigation under
		// way once React has rendered it, instead of interrupting that load and its toast.
		let timer: ReturnType<typeof setTimeout> | undefined
		const onChange = () => {
			clearTimeout(timer)
			timer = setTimeout(() => {
				if (navigating.current) missed.current = true
				else void revalidate()
			}, LIVE_REFRESH_DELAY_MS)
		}
		source.addEventListener('change', onChange)
		return () => {
			clearTimeout(timer)
			source.removeEventListener('change', onChange)
			source.close()
		}
	}, [revalidate])
}
