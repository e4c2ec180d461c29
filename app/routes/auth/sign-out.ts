import { redirect } from 'react-router'
import { endSession } from '#app/.server/auth/session.ts'
import type { Route } from './+types/sign-out'

export async function action({ request }: Route.ActionArgs) {
	return redirect('/', { headers: await endSession(request) })
}

export async function loader() {
	return redirect('/')
}
