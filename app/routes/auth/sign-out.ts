import { redirect } from 'react-router'
import { endSession } from '#app/.server/auth/session.ts'
import { safeRedirect } from '#app/.server/security.ts'
import type { Route } from './+types/sign-out'

/** Signs out and goes home, or to a same-site `redirectTo` (the invitation page's "sign in with another account"). */
export async function action({ request }: Route.ActionArgs) {
	const formData = await request.formData()
	return redirect(safeRedirect(formData.get('redirectTo'), '/'), { headers: await endSession(request) })
}

export async function loader() {
	return redirect('/')
}
