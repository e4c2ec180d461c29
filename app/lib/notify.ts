import { toast } from 'sonner'

/** How long a toast shows (the Toaster's `duration`, app/root.tsx); hovering it pauses it. */
export const TOAST_MS = 4_000

let onScreen: { id: string | number; text: string; at: number } | undefined
let made = 0

/**
 * Shows a message as a toast, one at a time (the Toaster shows one): the message on screen leaves
 * as the next comes in. Each message has an id of its own. Under one shared id, a message that
 * came while the last was leaving (the fifth of a second after its four) was taken for it and
 * left with it, never shown. The same words again, well before the one on screen can have begun
 * to leave, update it in place (its time starts over) rather than show it twice; shown again
 * under its own id, a message updates in place too.
 */
export function notify(kind: 'success' | 'error' | 'info', title: string, options: { id?: string; description?: string } = {}) {
	const text = `${kind}|${title}|${options.description ?? ''}`
	const now = Date.now()
	const sameAgain = onScreen && onScreen.text === text && now - onScreen.at < TOAST_MS - 1_000
	const id = sameAgain ? onScreen!.id : (options.id ?? `notice-${++made}`)
	if (onScreen !== undefined && onScreen.id !== id) toast.dismiss(onScreen.id)
	const show = kind === 'error' ? toast.error : kind === 'success' ? toast.success : toast
	onScreen = { id: show(title, { ...options, id }), text, at: now }
}
