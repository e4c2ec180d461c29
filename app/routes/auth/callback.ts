import { redirect } from 'react-router'
import { auth, type CallbackOutcome } from '#app/.server/auth/port.ts'
import { clientMeta } from '#app/.server/auth/session.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import type { Route } from './+types/callback'

const welcome = { type: 'success', title: 'auth:toast.welcomeBack.title', description: 'auth:toast.welcomeBack.description' } as const

/** Where each failure sends the browser: the sign-in page and the reason, or a reset link's form (which says the link did not work). */
const FAILURES: Record<Extract<CallbackOutcome, { ok: false }>['code'], string> = {
	google_not_configured: '/auth?error=googleNotConfigured',
	google_failed: '/auth?error=googleFailed',
	google_email_not_verified: '/auth?error=googleEmailNotVerified',
	email_link_failed: '/auth?error=emailLinkFailed',
	reset_link_failed: '/auth/reset-password',
}

/**
 * Where the browser comes back signed in. With Supabase: from Google, an email confirmation or a
 * password reset link (a PKCE `code`, or a `token_hash` and `type`), and `next` says where to go;
 * the session cookies go out with the redirect (root middleware). Locally: from Google, through
 * our own OAuth client. The auth port's finishCallback tells them apart.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const outcome = await auth().finishCallback(request, { ...clientMeta(request, context), language: getLocale(context) })
	if (!outcome.ok) return redirect(FAILURES[outcome.code])
	// A reset link lands on the new-password form, signed in by the link.
	if (!outcome.welcome) return redirect(outcome.redirectTo, { headers: outcome.headers })
	return redirectWithToast(outcome.redirectTo, welcome, { headers: outcome.headers })
}
