import { redirect } from 'react-router'
import { clearOauthCookie, finishGoogleSignIn, googleConfigured } from '#app/.server/auth/google.ts'
import { signInWithGoogle } from '#app/.server/auth/local.ts'
import { startSession } from '#app/.server/auth/session.ts'
import { log } from '#app/.server/log.ts'
import { safeRedirect } from '#app/.server/security.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import type { Route } from './+types/callback'

export async function loader({ request, context }: Route.LoaderArgs) {
	if (!googleConfigured()) return redirect('/auth?error=googleNotConfigured')
	const profile = await finishGoogleSignIn(request).catch((error: unknown) => {
		log({ event: 'google_sign_in_failed', error: String(error) })
		return null
	})
	if (!profile) return redirect('/auth?error=googleFailed')
	const outcome = await signInWithGoogle(profile)
	if (!outcome.ok) return redirect('/auth?error=googleEmailNotVerified')
	const headers = await startSession(request, context, outcome.user.userId)
	headers.append('set-cookie', await clearOauthCookie())
	return redirectWithToast(
		safeRedirect(profile.redirectTo),
		{ type: 'success', title: 'auth:toast.welcomeBack.title', description: 'auth:toast.welcomeBack.description' },
		{ headers },
	)
}
