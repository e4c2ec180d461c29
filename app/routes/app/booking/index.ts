import { redirect } from 'react-router'

/** The calendar is the booking page's default tab (docs/product.md, Booking). */
export function loader() {
	return redirect('/app/booking/calendar')
}
