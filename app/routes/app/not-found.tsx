import { log } from '#app/.server/log.ts'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/not-found'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('notFound')

/** An unknown path under /app: a 404 inside the shell, so the sidebar still leads somewhere. */
export function loader({ request }: Route.LoaderArgs) {
	log({ event: 'not_found', path: new URL(request.url).pathname })
	return errorResponse(404, 'notFound')
}

// Never rendered (the loader always throws), but it makes this a page, not a resource route.
export default function AppNotFound() {
	return null
}
