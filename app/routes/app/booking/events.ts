import { requireBookingMember } from '#app/.server/booking/staff.ts'
import { bookingEventStream } from '#app/.server/booking/live-updates.ts'
import type { Route } from './+types/events'

/**
 * Server-sent events for the calendar (docs/product.md, Booking): a `change` event whenever the
 * organization's appointments change; the page then loads its data again. The stream ends when
 * its session or the member's access to the module ends, and a user holds only a few at once
 * (docs/security.md, Live refresh; app/.server/booking/live-updates.ts).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
	const { organization, user } = await requireBookingMember(context)
	return bookingEventStream({ request, userId: user.userId, organizationId: organization.id })
}
