/**
 * The visitor's mails of a public booking, in the language they booked in: confirmation,
 * update (rescheduled) and cancellation, each with the booking's .ics (same UID throughout) and
 * the manage link. Sent through the mail port after the request has answered. Names go into the
 * .ics through its RFC 5545 escaping (booking-calendar.ts) and into the subject on one line.
 */
import type { AppointmentStatus } from '#app/lib/appointments.ts'
import { oneLine } from '#app/lib/schemas/fields.ts'
import { bookingIcs, googleCalendarUrl } from '../ics.ts'
import { tIn } from '../../i18n.ts'
import { queueMail } from '../../mail/index.ts'
import { publicOrigin } from '../../security.ts'

export type BookingMailKind = 'booked' | 'rescheduled' | 'cancelled'

/**
 * What the mails and the .ics say of a booking: the fields of the guest's booking (`ManagedBooking`,
 * bookings.ts) they read, named here so that the mails depend on no booking code.
 */
export type MailedBooking = {
	id: string
	status: AppointmentStatus
	startsAt: string
	endsAt: string
	timezone: string
	serviceName: string | null
	durationMinutes: number | null
	providerName: string | null
	guestName: string
	guestEmail: string
	revision: number
	organizationName: string
	organizationSlug: string
}

/** The booking's date and time range in its organization's timezone, in the given language. */
export function whenText(b: Pick<MailedBooking, 'startsAt' | 'endsAt' | 'timezone'>, language: string, timeZone = b.timezone) {
	const day = new Intl.DateTimeFormat(language, { dateStyle: 'full', timeZone }).format(new Date(b.startsAt))
	const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone })
	return `${day}, ${time.format(new Date(b.startsAt))}–${time.format(new Date(b.endsAt))} (${timeZone})`
}

/** The booking as a calendar event (its .ics and Google Calendar link), in the guest's language. */
export function calendarOf(b: MailedBooking, language: string, manage?: string) {
	const t = tIn(language, 'book')
	return {
		id: b.id,
		startsAt: b.startsAt,
		endsAt: b.endsAt,
		title: t('mail.eventTitle', { service: b.serviceName ?? '', organization: b.organizationName }),
		description: [b.providerName ? t('mail.with', { provider: b.providerName }) : '', manage ?? ''].filter(Boolean).join('\n'),
		revision: b.revision,
		cancelled: b.status === 'cancelled',
		organizerName: b.organizationName,
		url: manage,
	}
}

/** The booking page's address with its manage token: the link the mails carry. */
export function manageLink(b: Pick<MailedBooking, 'id' | 'organizationSlug'>, token: string) {
	return `${publicOrigin()}/book/${encodeURIComponent(b.organizationSlug)}/booked/${b.id}?token=${token}`
}

/** Queues the guest's mail of a booking made, moved or cancelled (the mail queue: sent after the response). */
export function sendBookingMail(kind: BookingMailKind, b: MailedBooking, token: string, language: string) {
	const t = tIn(language, 'book')
	const manage = manageLink(b, token)
	const event = calendarOf(b, language, manage)
	const lines = [
		t(`mail.${kind}.intro`, { name: b.guestName, organization: b.organizationName }),
		'',
		`${t('summary.service')}: ${b.serviceName ?? ''}${b.durationMinutes ? ` (${t('minutes', { count: b.durationMinutes })})` : ''}`,
		`${t('summary.provider')}: ${b.providerName ?? ''}`,
		`${t('summary.when')}: ${whenText(b, language)}`,
		...(kind === 'booked' && b.status === 'pending' ? ['', t('booked.pending')] : []),
		'',
		...(kind === 'cancelled' ? [] : [t('mail.manage'), manage, '', t('mail.google'), googleCalendarUrl(event)]),
	]
	queueMail({
		to: b.guestEmail,
		// One line whatever the organization's name holds (a name saved before the rule of fields.ts).
		subject: oneLine(t(`mail.${kind}.subject`, { organization: b.organizationName })),
		text: lines.join('\n'),
		attachments: [
			{
				filename: 'booking.ics',
				content: bookingIcs(event),
				contentType: `text/calendar; charset=utf-8; method=${event.cancelled ? 'CANCEL' : 'REQUEST'}`,
			},
		],
	})
}
