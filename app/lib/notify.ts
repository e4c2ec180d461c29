import { toast } from 'sonner'

let onScreen: string | number | undefined
let made = 0

/**
 * Shows a message as a toast, one at a time (the Toaster shows one): the message on screen leaves
 * as the next comes in. Each message has an id of its own. Under one shared id, a message that
 * came while the last was leaving (the fifth of a second after its four) was taken for it and
 * left with it, never shown. Shown again under its own id, a message updates in place.
 */
export function notify(kind: 'success' | 'error' | 'info', title: string, options: { id?: string; description?: string } = {}) {
	const id = options.id ?? `notice-${++made}`
	if (onScreen !== undefined && onScreen !== id) toast.dismiss(onScreen)
	const show = kind === 'error' ? toast.error : kind === 'success' ? toast.success : toast
	onScreen = show(title, { ...options, id })
}
