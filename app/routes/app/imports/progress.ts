import { requireMember } from '#app/.server/auth/session.ts'
import { isProgressToken, readProgress } from '#app/.server/payments/imports/progress.ts'
import type { Route } from './+types/progress'

/** The progress of one import post of this organization (the bar of the import screens). */
export function loader({ params, context }: Route.LoaderArgs) {
	const { organization } = requireMember(context)
	const progress = isProgressToken(params.token) ? readProgress(params.token, organization.id) : null
	return Response.json(progress, { headers: { 'cache-control': 'no-store' } })
}
