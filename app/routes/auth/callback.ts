import { redirect } from 'react-router'
import { clearOauthCookie, finishGoogleSignIn, googleSignInAvailable } from '#app/.server/auth/google.ts'
import { signInWithGoogle } from '#app/.server/auth/local.ts'
import { startSession } from '#app/.server/auth/session.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { finishSupabaseCallback } from '#app/.server/auth/supabase.ts'
import { usesSupabase } from '#app/.server/env.ts'
import { log } from '#app/.server/log.ts'
import { languageAtSignIn } from '#app/.server/account/profile.ts'
import { safeRedirect } from '#app/.server/security.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import type { Route } from './+types/callback'

const welcome = { type: 'success', title: 'auth:toast.welcomeBack.title', description: 'auth:toast.welcomeBack.description' } as const

/**
 * Where the browser comes back signed in. With Supabase: from Google, an email confirmation or a
 * password reset link (a PKCE `code`, or a `token_hash` and `type`), and `next` says where to go;
 * the session cookies go out with the redirect (root middleware). Locally: from Google, through
 * our own OAuth client.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	if (usesSupabase()) {
		const url = new URL(request.url)
		const next = safeRedirect(url.searchParams.get('next'))
		const user = await finishSupabaseCallback(request).catch((error: unknown) => {
			log({ event: 'supabase_callback_failed', error: String(error) })
			return null
		})
		if (!user) {
			if (next.startsWith('/auth/reset-password')) return redirect('/auth/reset-password')
			return redirect(url.searchParams.get('via') === 'google' ? '/auth?error=googleFailed' : '/auth?error=emailLinkFailed')
		}
		return next.startsWith('/auth/reset-password') ? redirect(next) : redirectWithToast(next, welcome)
	}
	if (!googleSignInAvailable()) return redirect('/auth?error=googleNotConfigured')
	const profile = await finishGoogleSignIn(request).catch((error: unknown) => {
		log({ event: 'google_sign_in_failed', error: String(error) })
		return null
	})
	if (!profile) return redirect('/auth?error=googleFailed')
	const outcome = await signInWithGoogle(profile)
	if (!outcome.ok) return redirect('/auth?error=googleEmailNotVerified')
	const headers = await startSession(request, context, outcome.user.userId, await languageAtSignIn(outcome.user.userId, getLocale(context)))
	headers.append('set-cookie', await clearOauthCookie())
	return redirectWithToast(safeRedirect(profile.redirectTo), welcome, { headers })
}
