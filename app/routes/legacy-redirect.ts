import { redirect } from 'react-router'
import type { Route } from './+types/legacy-redirect'

/** The old top-level paths (/dashboard, /settings …) live under /app now; the query string is kept. */
export function loader({ request }: Route.LoaderArgs) {
	const url = new URL(request.url)
	return redirect(`/app${url.pathname}${url.search}`, 301)
}
