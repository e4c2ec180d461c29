import { redirect } from 'react-router'
import { googleSignInAvailable, startGoogleSignIn } from '#app/.server/auth/google.ts'
import { startSupabaseGoogle } from '#app/.server/auth/supabase.ts'
import { usesSupabase } from '#app/.server/env.ts'
import { log } from '#app/.server/log.ts'
import { safeRedirect } from '#app/.server/security.ts'
import type { Route } from './+types/google'

/** Off to Google: through Supabase Auth when it is the auth adapter, else through our own OAuth client. */
export async function loader({ request }: Route.LoaderArgs) {
	if (!googleSignInAvailable()) return redirect('/auth?error=googleNotConfigured')
	const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'))
	if (usesSupabase()) {
		// The PKCE verifier cookie the client writes goes out with this redirect (root middleware).
		const url = await startSupabaseGoogle(request, redirectTo).catch((error: unknown) => {
			log({ event: 'google_sign_in_failed', error: String(error) })
			return null
		})
		return redirect(url ?? '/auth?error=googleFailed')
	}
	const { url, cookie } = await startGoogleSignIn(request, redirectTo)
	return redirect(url, { headers: { 'set-cookie': cookie } })
}
