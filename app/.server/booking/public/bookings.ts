/**
 * A guest's bookings on the public pages (docs/product.md, Public booking): booking a slot,
 * moving and cancelling it from the manage link, reading it by its token, the refusals the
 * pages explain, and the side effects of each change. Every database call runs as `anon`
 * through the public SQL functions, which make the same checks as the staff calendar's.
 */
import { randomBytes } from 'node:crypto'
import { isActiveStatus, type AppointmentStatus } from '#app/lib/appointments.ts'
import type { ContactValues } from '#app/lib/schemas/book.ts'
import { notifyBookingChange } from '../live-updates.ts'
import { BOOKING_REFUSALS } from '../staff.ts'
import { asAnon, dbErrorCode, sql } from '../../db/index.ts'
import { env } from '../../env.ts'
import { logError } from '../../log.ts'
import { notifyStaffOfBooking } from '../../notifications/index.ts'
import { allowEvent } from '../../rate-limit.ts'
import { open, seal, SecretsKeyMissing } from '../../secrets.ts'
import { getBookingDeposit } from './deposit.ts'
import { depositView, sendBookingMail } from './mail.ts'
import type { PublicOrganization } from './organization.ts'

/** A booking's manage token, as the booked page's and the reschedule's addresses carry it. */
export const MANAGE_TOKEN = /^[0-9a-f]{64}$/

/** What a booking's sealed manage token is bound to: opened for another booking's row, it fails. */
export const manageTokenContext = (appointmentId: string) => `booking-manage-token:${appointmentId}`

/**
 * A new booking's manage token sealed by the server's key, as private.booking_manage_tokens keeps
 * it for the reminders (docs/decisions/041-reminder-links.md); null on a server without the key
 * (its reminders then go without the manage links, and the booking itself is not refused).
 */
function sealManageToken(appointmentId: string, token: string): string | null {
	try {
		return seal(token, manageTokenContext(appointmentId))
	} catch (error) {
		if (error instanceof SecretsKeyMissing) return null
		throw error
	}
}

/**
 * The refusals the wizard explains: the booking functions' shared codes (the same checks as the
 * staff calendar's, app/.server/booking/staff.ts), then the public side's own (guests, limits, the
 * manage link).
 */
export const PUBLIC_REFUSALS = [
	...BOOKING_REFUSALS,
	'guest_booking_disabled',
	'too_many_bookings',
	'rate_limited',
	'booking_not_found',
	'already_cancelled',
	'not_cancellable',
	'too_late_to_cancel',
	'too_late_to_change',
	'organization_not_found',
	'honeypot',
	'day_unavailable',
] as const
export type PublicRefusal = (typeof PUBLIC_REFUSALS)[number]

/** Whether a value is one of the refusals the public pages explain. */
export function isRefusal(value: unknown): value is PublicRefusal {
	return typeof value === 'string' && (PUBLIC_REFUSALS as readonly string[]).includes(value)
}

/** The `refused` code of an address, when it is one of ours (anything else shows nothing). */
export function refusedParam(request: Request): PublicRefusal | null {
	const code = new URL(request.url).searchParams.get('refused')
	return isRefusal(code) ? code : null
}

function refusalOf(error: unknown): PublicRefusal {
	const code = dbErrorCode(error)
	if (code === '23P01') return 'slot_taken'
	if (isRefusal(code)) return code
	throw error
}

/** Per-address limits of the public pages (LIMITS, app/.server/rate-limit.ts; env-configurable). */
export async function allowPublic(kind: 'book_post' | 'slot_lookup', address: string) {
	return allowEvent(kind, address)
}

/** A confirm form's attempt key: random, URL-safe (`newBookingAttempt`). */
const ATTEMPT = /^[\w-]{20,100}$/

/** A fresh attempt key for one rendering of the confirm form. */
export function newBookingAttempt() {
	return randomBytes(18).toString('base64url')
}

const attemptContext = (attempt: string) => `booking-attempt:${attempt}`

/**
 * The booking a confirm form already made (its attempt key posted twice: a double tap with
 * JavaScript off, a retried request), as the address of its booked page; null when none.
 */
export async function bookedByAttempt(attempt: unknown): Promise<{ id: string; token: string } | null> {
	if (typeof attempt !== 'string' || !ATTEMPT.test(attempt)) return null
	const row = await asAnon(
		async (trx) =>
			(
				await sql<{ appointment_id: string; sealed_token: string }>`
		select * from public.booking_attempt(${attempt})`.execute(trx)
			).rows[0],
	)
	if (!row) return null
	try {
		return { id: row.appointment_id, token: open(row.sealed_token, attemptContext(attempt)) }
	} catch {
		return null
	}
}

/**
 * Books a slot for a guest. With the confirm form's attempt key, the booking remembers it in
 * its own transaction, so the same form posted again finds this booking (`bookedByAttempt`).
 * The booking records the page's language and the zone the visitor chose (`timezone`, if any),
 * for the mails it may be owed later (supabase/migrations/20261205020000_deposits_visitor_side.sql).
 */
export async function createPublicBooking(
	org: PublicOrganization,
	input: { serviceId: string; providerId: string; start: string; contact: ContactValues; attempt?: unknown; timezone?: string },
	language: string,
): Promise<{ ok: true; id: string; token: string } | { ok: false; code: PublicRefusal }> {
	const attempt = typeof input.attempt === 'string' && ATTEMPT.test(input.attempt) ? input.attempt : null
	try {
		const row = await asAnon(async (trx) => {
			await sql`select set_config('app.booking_max_upcoming', ${String(env().BOOK_MAX_UPCOMING_PER_EMAIL)}, true),
				set_config('app.booking_guest_language', ${language}, true),
				set_config('app.booking_guest_timezone', ${input.timezone ?? ''}, true)`.execute(trx)
			const r = await sql<{ id: string; manage_token: string }>`
				select id, manage_token from public.create_booking(${org.id}, ${input.serviceId}, ${input.providerId},
					${input.start}::timestamptz, ${input.contact.name}, ${input.contact.email}, ${input.contact.phone ?? null}, ${input.contact.notes ?? null})`.execute(
				trx,
			)
			const booked = r.rows[0]!
			// Kept sealed, so the booking's reminders can carry its manage link (docs/decisions/041-reminder-links.md).
			const sealed = sealManageToken(booked.id, booked.manage_token)
			if (sealed) await sql`select public.remember_manage_token(${booked.id}, ${sealed})`.execute(trx)
			if (attempt) {
				await sql`select public.remember_booking_attempt(${attempt}, ${booked.id}, ${seal(booked.manage_token, attemptContext(attempt))})`.execute(
					trx,
				)
			}
			return booked
		})
		await afterBooked(org.id, row.manage_token, language)
		return { ok: true, id: row.id, token: row.manage_token }
	} catch (error) {
		const code = refusalOf(error)
		// The same form's other post won the slot a moment ago: that booking is this guest's.
		const twin = code === 'slot_taken' && attempt ? await bookedByAttempt(attempt) : null
		if (twin) return { ok: true, ...twin }
		return { ok: false, code }
	}
}

/** Cancels a booking from its manage link; a refusal comes back as its code. */
export async function cancelPublicBooking(token: string, language: string): Promise<{ ok: true } | { ok: false; code: PublicRefusal }> {
	try {
		await asAnon((trx) => sql`select * from public.cancel_booking(${token})`.execute(trx))
		await afterCancelled(token, language)
		return { ok: true }
	} catch (error) {
		return { ok: false, code: refusalOf(error) }
	}
}

/** Moves a booking from its manage link to another provider or start; a refusal comes back as its code. */
export async function reschedulePublicBooking(
	token: string,
	providerId: string,
	start: string,
	language: string,
): Promise<{ ok: true } | { ok: false; code: PublicRefusal }> {
	try {
		await asAnon((trx) => sql`select * from public.reschedule_booking(${token}, ${providerId}, ${start}::timestamptz)`.execute(trx))
		await afterRescheduled(token, language)
		return { ok: true }
	} catch (error) {
		return { ok: false, code: refusalOf(error) }
	}
}

/** Whether the visitor can still move or cancel a booking online. */
export function isChangeable(booking: Pick<ManagedBooking, 'status' | 'cancellableUntil'>, now = new Date()) {
	return isActiveStatus(booking.status) && Date.parse(booking.cancellableUntil) > now.getTime()
}

/** A booking as its guest sees it through the manage link. */
export type ManagedBooking = {
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
	guestPhone: string | null
	notes: string | null
	totalPrice: string
	organizationName: string
	organizationSlug: string
	organizationId: string
	serviceId: string | null
	providerId: string | null
	cancellableUntil: string
	revision: number
	/** The zone the visitor chose when booking (a name the database knows), else null: their pages and mails show times in it. */
	guestTimezone: string | null
	/** The language the visitor booked in, else null. */
	guestLanguage: string | null
}

/** The booking of a manage token, or null when the token is malformed or names none. */
export async function getManagedBooking(token: string): Promise<ManagedBooking | null> {
	if (!MANAGE_TOKEN.test(token)) return null
	const row = await asAnon((trx) =>
		sql<Record<string, unknown>>`select * from public.get_public_booking(${token})`.execute(trx).then((r) => r.rows[0]),
	)
	if (!row) return null
	const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString()
	return {
		id: String(row.id),
		status: row.status as AppointmentStatus,
		startsAt: iso(row.starts_at),
		endsAt: iso(row.ends_at),
		timezone: String(row.timezone),
		serviceName: (row.service_name as string | null) ?? null,
		durationMinutes: (row.duration_minutes as number | null) ?? null,
		providerName: (row.provider_name as string | null) ?? null,
		guestName: String(row.guest_name),
		guestEmail: String(row.guest_email),
		guestPhone: (row.guest_phone as string | null) ?? null,
		notes: (row.notes as string | null) ?? null,
		totalPrice: String(row.total_price),
		organizationName: String(row.organization_name),
		organizationSlug: String(row.organization_slug),
		organizationId: String(row.organization_id),
		serviceId: (row.service_id as string | null) ?? null,
		providerId: (row.provider_id as string | null) ?? null,
		cancellableUntil: iso(row.cancellable_until),
		revision: Number(row.revision ?? 0),
		guestTimezone: (row.guest_timezone as string | null) ?? null,
		guestLanguage: (row.guest_language as string | null) ?? null,
	}
}

// ---------------------------------------------------------------------------------------------
// After a booking changes: every side effect in one place per event. The staff notification
// mails (the settings' notification preference) belong here too.
// ---------------------------------------------------------------------------------------------

/** After a booking is made: the staff calendar's live refresh, the guest's mail (with the deposit it awaits, if any), the staff's notice. */
export async function afterBooked(organizationId: string, token: string, language: string) {
	notifyBookingChange(organizationId)
	const booking = await getManagedBooking(token)
	if (!booking) return
	sendBookingMail('booked', booking, token, language, await depositOf(booking, token, language))
	notifyStaff(booking, 'booked')
}

/** The deposit a booking awaits, as its mails show it; null when it awaits none. */
async function depositOf(booking: ManagedBooking, token: string, language: string) {
	const deposit = await getBookingDeposit(token)
	return deposit?.status === 'open' ? depositView(deposit, language, booking.timezone) : null
}

/** After a booking is cancelled: the same three, for the cancellation. */
export async function afterCancelled(token: string, language: string) {
	const booking = await getManagedBooking(token)
	if (!booking) return
	notifyBookingChange(booking.organizationId)
	sendBookingMail('cancelled', booking, token, language)
	notifyStaff(booking, 'cancelled')
}

/** After a booking is moved: the same three, for the update. */
export async function afterRescheduled(token: string, language: string) {
	const booking = await getManagedBooking(token)
	if (!booking) return
	notifyBookingChange(booking.organizationId)
	sendBookingMail('rescheduled', booking, token, language, await depositOf(booking, token, language))
	notifyStaff(booking, 'rescheduled')
}

/**
 * The staff's mail of the booking (their "Email notifications" preference, docs/product.md,
 * Settings): sent in the background, so the visitor's page never waits for it or fails by it.
 */
function notifyStaff(booking: ManagedBooking, kind: 'booked' | 'cancelled' | 'rescheduled') {
	void notifyStaffOfBooking({ organizationId: booking.organizationId, appointmentId: booking.id, kind }).catch((error: unknown) =>
		logError(error, { where: 'staff booking notice', appointmentId: booking.id }),
	)
}
