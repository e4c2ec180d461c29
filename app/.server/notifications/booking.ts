import { formatZonedInstant } from '#app/lib/format.ts'
import { asSystem, sql } from '../db/index.ts'
import { logError } from '../log.ts'
import { onMailQueue } from '../mail/index.ts'
import { publicOrigin } from '../security.ts'
import { notifyMembers } from './send.ts'

export type BookingNotice = { organizationId: string; appointmentId: string; kind: 'booked' | 'cancelled' | 'rescheduled' }

/**
 * Mails the organization's staff about a booking made, cancelled or moved on the public pages
 * (the "Email notifications" preference; docs/product.md, Settings › Notifications): one mail
 * per member the booking module lets be told (its switch and visibility, then the member's
 * toggle: audience.ts), in the member's language, the time in the organization's timezone, with
 * the client's contact details (e-mail, phone, notes: what staff need to reach them) and the
 * link to the appointment's page.
 * Each mail goes through the mail queue (app/.server/mail/index.ts, `onMailQueue`), and the
 * call resolves once every one was handed to the mail port; a failure is logged, never thrown, so
 * the booking itself never fails because of a notification. Returns how many were sent.
 */
export async function notifyStaffOfBooking({ organizationId, appointmentId, kind }: BookingNotice): Promise<number> {
	const { rows } = await asSystem((trx) =>
		sql<{
			starts_at: Date
			guest_name: string
			guest_email: string | null
			guest_phone: string | null
			notes: string | null
			service: string | null
			provider: string | null
			timezone: string | null
		}>`
			select a.starts_at, a.guest_name, a.guest_email, a.guest_phone, a.notes, s.name as service, p.display_name as provider, bs.timezone
			from public.booking_appointments a
			left join public.booking_services s on s.id = a.service_id
			left join public.booking_providers p on p.id = a.provider_id
			left join public.booking_settings bs on bs.organization_id = a.organization_id
			where a.id = ${appointmentId} and a.organization_id = ${organizationId}`.execute(trx),
	)
	const appointment = rows[0]
	if (!appointment) return 0
	return notifyMembers(
		organizationId,
		'emailNotifications',
		(recipient, t) => {
			// Labelled with the organization's zone, as every staff booking time is (docs/product.md, Limits and formats).
			// In the language's one time format (app/lib/format.ts), the zone named in words.
			const when = formatZonedInstant(appointment.starts_at, appointment.timezone ?? 'UTC', recipient.language)
			const values = { client: appointment.guest_name, service: appointment.service ?? '—', provider: appointment.provider ?? '—', when }
			// One line each; notes keep their lines, indented under their label.
			const contact = [
				t('notifications.booking.email', { email: appointment.guest_email ?? '—' }),
				t('notifications.booking.phone', { phone: appointment.guest_phone ?? '—' }),
				...(appointment.notes ? [t('notifications.booking.notes', { notes: appointment.notes.replace(/\r?\n/g, '\n  ') })] : []),
			]
			const link = `${publicOrigin()}/app/booking/appointments/${appointmentId}`
			return {
				subject: t(`notifications.booking.${kind}.subject`, values),
				text: `${t(`notifications.booking.${kind}.body`, values)}\n\n${contact.join('\n')}\n\n${t('notifications.booking.openAppointment', { link })}`,
			}
		},
		{
			// On the mail queue, as the guest's own mails: one message at a time, after the response, waited for at shutdown.
			deliver: async (_recipient, send) => (await onMailQueue(send), true),
			onError: (error) => logError(error, { event: 'booking_notification_failed', organizationId, appointmentId }),
		},
	)
}
