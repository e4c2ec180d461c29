/**
 * The visitor's mails of a public booking, in the language they booked in: confirmation,
 * update (rescheduled) and cancellation, each with the booking's .ics (same UID throughout) and
 * the manage link. Sent through the mail port after the request has answered. Names go into the
 * .ics through its RFC 5545 escaping (booking-calendar.ts) and into the subject on one line.
 */
import type { TFunction } from 'i18next'
import { fallbackLanguage, isLanguage } from '#app/lib/i18n.ts'
import { oneLine } from '#app/lib/schemas/fields.ts'
import { bookingIcs, googleCalendarUrl } from '../ics.ts'
import { instanceFor } from '../../i18n.ts'
import { queueMail } from '../../mail/index.ts'
import type { ManagedBooking } from './wizard.ts'
import { publicOrigin } from '../../security.ts'

export type BookingMailKind = 'booked' | 'rescheduled' | 'cancelled'

/** A `book` namespace translator for a language outside any request (mails). */
export function bookT(language: string): TFunction {
	const lng = isLanguage(language) ? language : fallbackLanguage
	return instanceFor(lng).getFixedT(lng, 'book')
}

/** The booking's date and time range in its organization's timezone, in the given language. */
export function whenText(b: Pick<ManagedBooking, 'startsAt' | 'endsAt' | 'timezone'>, language: string, timeZone = b.timezone) {
	const day = new Intl.DateTimeFormat(language, { dateStyle: 'full', timeZone }).format(new Date(b.startsAt))
	const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone })
	return `${day}, ${time.format(new Date(b.startsAt))}–${time.format(new Date(b.endsAt))} (${timeZone})`
}

export function calendarOf(b: ManagedBooking, language: string, manage?: string) {
	const t = bookT(language)
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

export function manageLink(b: Pick<ManagedBooking, 'id' | 'organizationSlug'>, token: string) {
	return `${publicOrigin()}/book/${encodeURIComponent(b.organizationSlug)}/booked/${b.id}?token=${token}`
}

export function sendBookingMail(kind: BookingMailKind, b: ManagedBooking, token: string, language: string) {
	const t = bookT(language)
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
		attachments: [{ filename: 'booking.ics', content: bookingIcs(event), contentType: `text/calendar; charset=utf-8; method=${event.cancelled ? 'CANCEL' : 'REQUEST'}` }],
	})
}
