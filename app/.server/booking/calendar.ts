/**
 * The staff calendar's screen (docs/product.md, Booking): what a day shows (its appointments,
 * its week, the appointment whose cancellation is being asked, the new-appointment form's
 * choices and free times), and booking from that form. The availability module
 * (app/lib/availability.ts) spares the database a start it would refuse; the database has the
 * last word (staff.ts, `staffCreateBooking`).
 */
import { addDays, format, parseISO, startOfWeek } from 'date-fns'
import { allowedChanges } from '#app/lib/appointments.ts'
import { computeAvailability, isSlotAvailable } from '#app/lib/availability.ts'
import { dateIn, parseIsoDate } from '#app/lib/dates.ts'
import type { NewAppointmentValues } from '#app/lib/schemas/booking.ts'
import { getBookingChoices, getBookingSettings, getCalendarDay, getStaffAvailabilityInput, staffCreateBooking } from './staff.ts'

/** The seven dates (Monday to Sunday) of the week of a date. */
function weekOf(day: string) {
	const monday = startOfWeek(parseISO(day), { weekStartsOn: 1 })
	return Array.from({ length: 7 }, (_, i) => format(addDays(monday, i), 'yyyy-MM-dd'))
}

/**
 * Everything the calendar shows for the address's `day` (today in the organization's zone when
 * absent or unreadable): with `cancel`, the appointment to ask about, when it can still be
 * cancelled; with `new=1`, the form's services and providers and, once both are chosen, the
 * chosen provider's free starts on the chosen date. Null when the organization has no booking settings.
 */
export async function getCalendarView(userId: string, organizationId: string, params: URLSearchParams) {
	const settings = await getBookingSettings(userId, organizationId)
	if (!settings) return null
	const today = dateIn(settings.timezone)
	const day = parseIsoDate(params.get('day')) ?? today
	const week = weekOf(day)
	const { appointments, counts } = await getCalendarDay(userId, organizationId, settings.timezone, day, { from: week[0]!, to: week[6]! })
	const cancelId = params.get('cancel')
	// The question is asked only of an appointment that can still be cancelled (not once it is, on Back).
	const cancelling = cancelId
		? (appointments.find((a) => a.id === cancelId && allowedChanges(a.status, a.started).includes('cancel')) ?? null)
		: null

	let booking = null
	if (params.get('new') === '1') {
		const choices = await getBookingChoices(userId, organizationId)
		const service = choices.services.find((s) => s.id === params.get('service'))
		const provider = choices.providers.find((p) => p.id === params.get('provider'))
		const date = parseIsoDate(params.get('date')) ?? day
		let slots: { start: string; label: string }[] | null = null
		if (service && provider) {
			const input = await getStaffAvailabilityInput(userId, organizationId, settings, service, provider, date, new Date())
			const [listed] = computeAvailability({ ...input, fromDate: date, days: 1 })
			slots = (listed?.slots ?? []).filter((s) => s.providerIds.includes(provider.id)).map((s) => ({ start: s.start, label: s.label }))
		}
		booking = {
			choices: { services: choices.services, providers: choices.providers.map((p) => ({ id: p.id, displayName: p.displayName })) },
			serviceId: service?.id ?? '',
			providerId: provider?.id ?? '',
			date,
			slots,
			// A day already gone has no free times: said as such, not as a full day.
			past: date < today,
		}
	}
	return { today, day, week, counts, appointments, cancelling, booking, timezone: settings.timezone }
}

export type CalendarView = NonNullable<Awaited<ReturnType<typeof getCalendarView>>>
export type CalendarAppointment = CalendarView['appointments'][number]
/** The new-appointment form's choices and free times (`getCalendarView` with `new=1`). */
export type NewAppointmentView = NonNullable<CalendarView['booking']>

/**
 * Books the new-appointment form's values: the service and provider must be active ones of the
 * organization, and the start free for the provider by the availability module, a start outside
 * the business hours left to the database to judge. Answers the booking's local date, for the
 * calendar to show, or the refusal's code.
 */
export async function bookFromCalendar(
	userId: string,
	organizationId: string,
	values: NewAppointmentValues,
): Promise<{ ok: true; date: string } | { ok: false; code: string }> {
	const settings = await getBookingSettings(userId, organizationId)
	const { services, providers } = await getBookingChoices(userId, organizationId)
	const service = services.find((s) => s.id === values.service)
	const provider = providers.find((p) => p.id === values.provider)
	if (!settings || !service || !provider) return { ok: false, code: service ? 'provider_unavailable' : 'service_unavailable' }
	const now = new Date()
	const date = dateIn(settings.timezone, new Date(values.start))
	const input = await getStaffAvailabilityInput(userId, organizationId, settings, service, provider, date, now)
	const check = isSlotAvailable({ ...input, providerId: provider.id, start: values.start })
	// The database is the last word; the module only spares it a start it would refuse.
	if (!check.ok && check.reason !== 'outside_business_hours') return { ok: false, code: check.reason }
	const booked = await staffCreateBooking(userId, organizationId, {
		serviceId: service.id,
		providerId: provider.id,
		start: values.start,
		clientName: values.clientName,
		clientEmail: values.clientEmail,
		clientPhone: values.clientPhone,
		notes: values.notes,
	})
	return booked.ok ? { ok: true, date } : { ok: false, code: booked.code }
}
