/**
 * The visitor's mails of a public booking, in the language they booked in: confirmation,
 * update (rescheduled) and cancellation, each with the booking's .ics (same UID throughout) and
 * the manage link; while a deposit is awaited, how to pay it (docs/product.md, Deposits and
 * prepayment); and the mails the matching engine owes later (payment received, hold released:
 * app/.server/booking/deposits.ts sends them). Sent through the mail port after the request has
 * answered. Names go into the .ics through its RFC 5545 escaping (booking-calendar.ts) and into
 * the subject on one line.
 */
import type { AppointmentStatus } from '#app/lib/appointments.ts'
import { dateTimeIn, isTimeZone } from '#app/lib/dates.ts'
import { formatInstantRange, formatMoney, formatZonedInstant, zoneName } from '#app/lib/format.ts'
import { oneLine } from '#app/lib/schemas/fields.ts'
import { hasHandle, type PaymentHandles } from '#app/lib/schemas/payment-handles.ts'
import { bookingIcs, googleCalendarUrl } from '../ics.ts'
import { tIn } from '../../i18n.ts'
import { queueMail, type Mail } from '../../mail/index.ts'
import { payLinks, type PayLink } from '../../payments/handles.ts'
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
	/** The zone the visitor chose on the public page, if any (their mails and pages show their time in it). */
	guestTimezone?: string | null
}

/**
 * The booking's day and time range as its visitor reads it (docs/product.md, Public booking): in
 * `timeZone` (the zone they chose, `visitorZone`; the organization's by default), named in words,
 * and when that is not the organization's zone, the business's time too, named: "Saturday,
 * December 5, 2026, 7:00 AM–7:30 AM Pacific Time (Los Angeles) — 10:00 AM–10:30 AM at the
 * business, Eastern Time (New York)". Services have no in-person or online kind, so both are shown
 * whenever the zones differ. Times in the language's one format (formatInstant, app/lib/format.ts).
 */
export function whenText(b: Pick<MailedBooking, 'startsAt' | 'endsAt' | 'timezone'>, language: string, timeZone = b.timezone) {
	const own = `${formatInstantRange(b.startsAt, b.endsAt, timeZone, language)} ${zoneName(timeZone, language)}`
	if (timeZone === b.timezone) return own
	const start = new Date(b.startsAt)
	const sameDay = dateTimeIn(timeZone, start).date === dateTimeIn(b.timezone, start).date
	const business = formatInstantRange(b.startsAt, b.endsAt, b.timezone, language, { date: sameDay ? 'none' : 'medium' })
	return `${own} — ${tIn(language, 'book')('when.atBusiness', { time: business, zone: zoneName(b.timezone, language) })}`
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

/** The booking's service, provider and time (in the visitor's zone, `whenText`), one line each: what every mail of it says first. */
function summaryLines(b: MailedBooking, language: string, timeZone = visitorZone(b.guestTimezone, b.timezone)) {
	const t = tIn(language, 'book')
	return [
		`${t('summary.service')}: ${b.serviceName ?? ''}${b.durationMinutes ? ` (${t('minutes', { count: b.durationMinutes })})` : ''}`,
		`${t('summary.provider')}: ${b.providerName ?? ''}`,
		`${t('summary.when')}: ${whenText(b, language, timeZone)}`,
	]
}

/** Queues the guest's mail of a booking made, moved or cancelled (the mail queue: sent after the response). */
export function sendBookingMail(kind: BookingMailKind, b: MailedBooking, token: string, language: string, deposit?: DepositView | null) {
	const t = tIn(language, 'book')
	const manage = manageLink(b, token)
	const event = calendarOf(b, language, manage)
	const awaiting = kind !== 'cancelled' && deposit?.status === 'open'
	const lines = [
		t(`mail.${kind}.intro`, { name: b.guestName, organization: b.organizationName }),
		'',
		...summaryLines(b, language),
		...(awaiting ? ['', ...depositLines(deposit, language, b.organizationName)] : []),
		...(kind === 'booked' && b.status === 'pending' && !awaiting ? ['', t('booked.pending')] : []),
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

// ---------------------------------------------------------------------------------------------
// Deposits (docs/product.md, Deposits and prepayment)
// ---------------------------------------------------------------------------------------------

/** A booking's deposit as get_public_booking_deposit returns it (app/.server/booking/deposits.ts reads it). */
export type VisitorDeposit = {
	status: 'open' | 'paid' | 'released' | 'void'
	amount: string
	code: string
	dueAt: string | null
	paidAt: string | null
	/** The zone the visitor chose on the public page, if any. */
	guestTimezone: string | null
	handles: PaymentHandles
}

/** What the booked page and the mails show of a deposit, written in the visitor's language. */
export type DepositView = {
	status: VisitorDeposit['status']
	amount: string
	code: string
	/** "Dec 1, 2026, 4:30 PM Eastern Time (New York)": when the unpaid slot is released. */
	deadline: string | null
	/** The ways to pay, in a fixed order; none: "pay the organization directly". */
	links: PayLink[]
}

/** The visitor's zone when they chose one the server knows, else the organization's. */
export function visitorZone(guestTimezone: string | null | undefined, organizationZone: string) {
	return guestTimezone && isTimeZone(guestTimezone) ? guestTimezone : organizationZone
}

/** An instant as a date and time in a zone and a language, the zone named in words: "Dec 1, 2026, 4:30 PM Eastern Time (New York)". */
export function instantText(instant: string, language: string, timeZone: string) {
	return formatZonedInstant(instant, timeZone, language)
}

/** A deposit as the visitor reads it, in their language and zone (else the organization's). */
export function depositView(deposit: VisitorDeposit, language: string, organizationZone: string): DepositView {
	const zone = visitorZone(deposit.guestTimezone, organizationZone)
	return {
		status: deposit.status,
		amount: formatMoney(deposit.amount, language),
		code: deposit.code,
		deadline: deposit.dueAt ? instantText(deposit.dueAt, language, zone) : null,
		links: hasHandle(deposit.handles) ? payLinks(deposit.handles, deposit.amount) : [],
	}
}

/** "Awaiting payment" in a mail: the amount, the code for the memo, the deadline, and each way to pay. */
function depositLines(d: DepositView, language: string, organization: string) {
	const t = tIn(language, 'book')
	return [
		t('deposit.awaiting'),
		t('deposit.amount', { amount: d.amount }),
		t('deposit.codeLine', { code: d.code }),
		...(d.deadline ? [t('deposit.deadline', { deadline: d.deadline })] : []),
		'',
		...(d.links.length
			? [
					t('deposit.howToPay'),
					...d.links.map((link) => `- ${t(`deposit.via.${link.kind}`, { handle: link.handle })}${link.href ? `: ${link.href}` : ''}`),
				]
			: [t('deposit.payDirectly', { organization })]),
	]
}

/** What the owed mails read of their booking: the booking's own fields and the visitor's language and zone. */
export type NoticeBooking = MailedBooking & { guestLanguage: string | null; guestTimezone: string | null }

/**
 * The mail the engine owes the visitor when their deposit is seen (matched, or marked paid by
 * staff): the amount, the code, the booking, which is now confirmed, and its manage link when
 * the server kept the booking's token (else where to find it).
 */
export function paymentReceivedMail(
	b: NoticeBooking,
	deposit: { amount: string | null; code: string | null },
	manage: string | null,
): Mail {
	const language = b.guestLanguage ?? 'en'
	const t = tIn(language, 'book')
	const zone = visitorZone(b.guestTimezone, b.timezone)
	return {
		to: b.guestEmail,
		subject: oneLine(t('mail.paymentReceived.subject', { organization: b.organizationName })),
		text: [
			t('mail.paymentReceived.intro', { name: b.guestName, organization: b.organizationName }),
			...(deposit.amount ? [t('deposit.received', { amount: formatMoney(deposit.amount, language) })] : []),
			...(deposit.code ? [t('deposit.reference', { code: deposit.code })] : []),
			'',
			...summaryLines(b, language, zone),
			'',
			...(manage ? [t('mail.manage'), manage] : [t('mail.paymentReceived.manage')]),
		].join('\n'),
	}
}

/** The mail the engine owes the visitor when an unpaid hold is released: the time is free again; how to book anew. */
export function holdReleasedMail(b: NoticeBooking, dueAt: string | null): Mail {
	const language = b.guestLanguage ?? 'en'
	const t = tIn(language, 'book')
	const zone = visitorZone(b.guestTimezone, b.timezone)
	return {
		to: b.guestEmail,
		subject: oneLine(t('mail.holdReleased.subject', { organization: b.organizationName })),
		text: [
			t('mail.holdReleased.intro', { name: b.guestName, organization: b.organizationName }),
			...(dueAt ? [t('mail.holdReleased.why', { deadline: instantText(dueAt, language, zone) })] : []),
			'',
			...summaryLines(b, language, zone),
			'',
			t('mail.holdReleased.again'),
			`${publicOrigin()}/book/${encodeURIComponent(b.organizationSlug)}`,
			'',
			t('mail.holdReleased.paidAlready', { organization: b.organizationName }),
		].join('\n'),
	}
}
