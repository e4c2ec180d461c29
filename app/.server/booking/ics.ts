/**
 * Calendar files and links of a public booking (docs/product.md, Public booking): one .ics
 * event per booking, its UID stable for the booking's life (the appointment's id), in UTC, with
 * METHOD:REQUEST when booked or moved and METHOD:CANCEL when cancelled; SEQUENCE is the booking's
 * revision, which grows with every change, so a calendar applies the newest file.
 *
 * The file is written here rather than by a library, so that every value goes through the
 * escaping of RFC 5545 whatever it holds (docs/security.md, Text fields): names typed before the
 * control-character rule, or set by a Supabase user's own metadata, may carry line breaks, and
 * a line break that reached the file unescaped would start a property of the writer's choosing
 * (an attendee, an alarm) in every guest's calendar.
 */
import { oneLine } from '#app/lib/schemas/fields.ts'

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

/**
 * A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma escaped, every line break
 * (CR LF, CR, LF, NEL, U+2028, U+2029) written as `\n`, every other control character but tab
 * dropped (TEXT allows none).
 */
export function icsText(value: string) {
	return value
		.replace(/\r\n?|[\n\u0085\u2028\u2029]/g, '\n')
		.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
		.replace(/\\/g, '\\\\')
		.replace(/;/g, '\\;')
		.replace(/,/g, '\\,')
		.replace(/\n/g, '\\n')
}

/**
 * A parameter value such as ORGANIZER's CN (RFC 5545 §3.2): always quoted, so that `:`, `;` and
 * `,` stay inside it; a quoted value may hold neither a control character nor DQUOTE, so line
 * breaks and control characters become spaces and `"` becomes `'`.
 */
export function icsParam(value: string) {
	return `"${oneLine(value).replace(/"/g, "'").trim()}"`
}

/** A URI value: what the URL parser makes of it (percent-encoded), or nothing when it is not one. */
function icsUri(value: string) {
	if (!URL.canParse(value)) return null
	const href = new URL(value).href
	return /^[\u0021-\u007e]+$/.test(href) ? href : null
}

/** A UTC DATE-TIME (RFC 5545 §3.3.5, form 2): 20261201T150000Z. */
function icsUtc(instant: number) {
	return new Date(instant)
		.toISOString()
		.replace(/[-:]/g, '')
		.replace(/\.\d{3}/, '')
}

const encoder = new TextEncoder()

/**
 * One content line folded at 75 octets (RFC 5545 §3.1): each continuation starts with a space,
 * and a UTF-8 sequence is never cut.
 */
function fold(line: string) {
	const parts: string[] = []
	let current = ''
	let octets = 0
	for (const char of line) {
		const size = encoder.encode(char).length
		if (octets + size > (parts.length ? 74 : 75)) {
			parts.push(current)
			current = ''
			octets = 0
		}
		current += char
		octets += size
	}
	parts.push(current)
	return parts.join('\r\n ')
}

/** The booking's calendar file: one VEVENT in a VCALENDAR, CRLF line ends, folded lines. */
export function bookingIcs(b: CalendarBooking, now = new Date()): string {
	const url = b.url ? icsUri(b.url) : null
	const lines = [
		'BEGIN:VCALENDAR',
		'VERSION:2.0',
		'PRODID:-//P2P Transaction Tracker//Booking//EN',
		'CALSCALE:GREGORIAN',
		`METHOD:${b.cancelled ? 'CANCEL' : 'REQUEST'}`,
		'BEGIN:VEVENT',
		`UID:${icsText(bookingUid(b.id))}`,
		`DTSTAMP:${icsUtc(now.getTime())}`,
		`DTSTART:${icsUtc(Date.parse(b.startsAt))}`,
		`DTEND:${icsUtc(Date.parse(b.endsAt))}`,
		`SEQUENCE:${Math.max(0, Math.trunc(b.revision) || 0)}`,
		`SUMMARY:${icsText(b.title)}`,
		...(b.description ? [`DESCRIPTION:${icsText(b.description)}`] : []),
		...(url ? [`URL:${url}`] : []),
		`STATUS:${b.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
		`ORGANIZER;CN=${icsParam(b.organizerName)}:mailto:no-reply@localhost`,
		'END:VEVENT',
		'END:VCALENDAR',
	]
	return lines.map(fold).join('\r\n') + '\r\n'
}

/** A Google Calendar "add event" link for the booking, in UTC. */
export function googleCalendarUrl(b: Pick<CalendarBooking, 'startsAt' | 'endsAt' | 'title' | 'description'>) {
	const stamp = (iso: string) =>
		new Date(iso)
			.toISOString()
			.replace(/[-:]/g, '')
			.replace(/\.\d{3}/, '')
	const p = new URLSearchParams({
		action: 'TEMPLATE',
		text: b.title,
		dates: `${stamp(b.startsAt)}/${stamp(b.endsAt)}`,
		details: b.description,
	})
	return `https://calendar.google.com/calendar/render?${p}`
}
