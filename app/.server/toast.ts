import { createCookieSessionStorage, redirect } from 'react-router'
import { z } from 'zod'
import { env } from './env.ts'
import { secureCookies } from './security.ts'

/**
 * Flash toasts (Epic Stack's design): an action puts one message in a cookie session, the
 * next page's root loader reads it once. With JS it shows as a toast, without JS as a notice.
 * Messages are translation keys, translated where they are shown.
 */
const toastSchema = z.object({
	id: z.string().default(() => crypto.randomUUID()),
	type: z.enum(['success', 'error', 'info']).default('info'),
	title: z.string(),
	description: z.string().optional(),
	values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
})
export type Toast = z.infer<typeof toastSchema>
export type ToastInput = z.input<typeof toastSchema>

const KEY = 'toast'

type ToastData = { toast: Toast }
let storage: ReturnType<typeof createCookieSessionStorage<ToastData, ToastData>> | undefined
function toastStorage() {
	storage ??= createCookieSessionStorage<ToastData, ToastData>({
		cookie: {
			name: 'p2p_toast',
			sameSite: 'lax',
			path: '/',
			httpOnly: true,
			secrets: [env().SESSION_SECRET],
			secure: secureCookies(),
		},
	})
	return storage
}

export async function createToastHeaders(input: ToastInput) {
	const session = await toastStorage().getSession()
	session.flash(KEY, toastSchema.parse(input))
	return new Headers({ 'set-cookie': await toastStorage().commitSession(session) })
}

export async function redirectWithToast(url: string, input: ToastInput, init?: ResponseInit) {
	const headers = new Headers(init?.headers)
	for (const cookie of (await createToastHeaders(input)).getSetCookie()) headers.append('set-cookie', cookie)
	return redirect(url, { ...init, headers })
}

export async function getToast(request: Request) {
	const session = await toastStorage().getSession(request.headers.get('cookie'))
	const parsed = toastSchema.safeParse(session.get(KEY))
	return {
		toast: parsed.success ? parsed.data : null,
		headers: parsed.success ? new Headers({ 'set-cookie': await toastStorage().destroySession(session) }) : null,
	}
}
