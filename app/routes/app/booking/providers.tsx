import { requireBookingMember } from '#app/.server/booking.ts'
import { BookingTabPlaceholder } from '#app/components/booking-tab-placeholder.tsx'
import type { Route } from './+types/providers'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export async function loader({ context }: Route.LoaderArgs) {
	await requireBookingMember(context)
	return null
}

export default function Screen() {
	return <BookingTabPlaceholder tab="providers" />
}
