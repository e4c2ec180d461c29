import { bookingIcs } from '#app/.server/booking/ics.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { getManagedBooking } from '#app/.server/booking/public/bookings.ts'
import { calendarOf, manageLink } from '#app/.server/booking/public/mail.ts'
import type { Route } from './+types/booked-ics'

/** The booking's calendar file, by its manage token. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
	const token = new URL(request.url).searchParams.get('token') ?? ''
	const booking = await getManagedBooking(token)
	if (!booking || booking.id !== params.id || booking.organizationSlug !== params.orgSlug) return new Response('Not found', { status: 404 })
	const ics = bookingIcs(calendarOf(booking, getLocale(context), manageLink(booking, token)))
	return new Response(ics, {
		headers: {
			'content-type': 'text/calendar; charset=utf-8',
			'content-disposition': 'attachment; filename="booking.ics"',
			'cache-control': 'no-store',
		},
	})
}
