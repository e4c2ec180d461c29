import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/** True once React has hydrated in the browser: for enhancements that need JavaScript. */
export function useHydrated() {
	return useSyncExternalStore(
		subscribe,
		() => true,
		() => false,
	)
}
