/**
 * Calendar files and links of a public booking (docs/product.md, Public booking): one .ics
 * event per booking, its UID stable for the booking's life (the appointment's id), in UTC, with
 * METHOD:REQUEST when booked or moved and METHOD:CANCEL when cancelled; SEQUENCE is the booking's
 * revision, which grows with every change, so a calendar applies the newest file.
 */
import { createEvent } from 'ics'

export type CalendarBooking = {
	id: string
	startsAt: string
	endsAt: string
	title: string
	description: string
	revision: number
	cancelled: boolean
	organizerName: string
	url?: string
}

export function bookingUid(id: string) {
	return `${id}@p2p-booking`
}

export function bookingIcs(b: CalendarBooking): string {
	const { error, value } = createEvent({
		uid: bookingUid(b.id),
		method: b.cancelled ? 'CANCEL' : 'REQUEST',
		sequence: b.revision,
		start: Date.parse(b.startsAt),
		startInputType: 'utc',
		startOutputType: 'utc',
		end: Date.parse(b.endsAt),
		endInputType: 'utc',
		endOutputType: 'utc',
		title: b.title,
		description: b.description,
		status: b.cancelled ? 'CANCELLED' : 'CONFIRMED',
		organizer: { name: b.organizerName, email: 'no-reply@localhost' },
		productId: 'p2p-transaction-tracker/booking',
		...(b.url ? { url: b.url } : {}),
	})
	if (error || !value) throw error ?? new Error('ics: no value')
	return value
}

/** A Google Calendar "add event" link for the booking, in UTC. */
export function googleCalendarUrl(b: Pick<CalendarBooking, 'startsAt' | 'endsAt' | 'title' | 'description'>) {
	const stamp = (iso: string) => new Date(iso).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
	const p = new URLSearchParams({ action: 'TEMPLATE', text: b.title, dates: `${stamp(b.startsAt)}/${stamp(b.endsAt)}`, details: b.description })
	return `https://calendar.google.com/calendar/render?${p}`
}
