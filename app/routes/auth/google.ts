import { redirect } from 'react-router'
import { googleConfigured, startGoogleSignIn } from '#app/.server/auth/google.ts'
import { safeRedirect } from '#app/.server/security.ts'
import type { Route } from './+types/google'

export async function loader({ request }: Route.LoaderArgs) {
	if (!googleConfigured()) return redirect('/auth?error=googleNotConfigured')
	const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'))
	const { url, cookie } = await startGoogleSignIn(request, redirectTo)
	return redirect(url, { headers: { 'set-cookie': cookie } })
}
