import { apiAnswer } from '#app/.server/api/http.ts'
import { listPayments } from '#app/.server/api/v1.ts'
import type { Route } from './+types/payments'

/** GET /api/v1/payments: the token's organization's payments, newest first (docs/api.md). */
export function loader({ request, context }: Route.LoaderArgs) {
	return apiAnswer(request, context, 'payments:read', (holder) => listPayments(holder, new URL(request.url).searchParams))
}
