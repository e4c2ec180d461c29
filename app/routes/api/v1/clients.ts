import { apiAnswer } from '#app/.server/api/http.ts'
import { listClients } from '#app/.server/api/v1.ts'
import type { Route } from './+types/clients'

/** GET /api/v1/clients: the token's organization's clients, newest first (docs/api.md). */
export function loader({ request, context }: Route.LoaderArgs) {
	return apiAnswer(request, context, 'clients:read', (holder) => listClients(holder, new URL(request.url).searchParams))
}
