import { redirect } from 'react-router'
import { googleSignInAvailable } from '#app/.server/auth/google.ts'
import { auth } from '#app/.server/auth/port.ts'
import { safeRedirect } from '#app/.server/security.ts'
import type { Route } from './+types/google'

/** Off to Google: through Supabase Auth when it is the auth adapter, else through our own OAuth client (the port's startGoogle). */
export async function loader({ request }: Route.LoaderArgs) {
	if (!googleSignInAvailable()) return redirect('/auth?error=googleNotConfigured')
	const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'))
	const start = await auth().startGoogle(request, redirectTo)
	if (!start) return redirect('/auth?error=googleFailed')
	return redirect(start.url, { headers: start.headers })
}
