import { redirect } from 'react-router'
import type { Route } from './+types/index'

/** /book/{slug} is the first step. */
export function loader({ request, params }: Route.LoaderArgs) {
	const { search } = new URL(request.url)
	return redirect(`/book/${encodeURIComponent(params.orgSlug)}/service${search}`)
}
