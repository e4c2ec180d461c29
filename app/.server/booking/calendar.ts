/**
 * The staff calendar's screen (docs/product.md, Booking): what a day or a week shows (the week's
 * appointments, read at once, optionally of one provider; the day's list; the week's grid), the
 * appointment whose cancellation is being asked, the new-appointment form's choices and free
 * times, and booking from that form. The availability module (app/lib/availability.ts) spares
 * the database a start it would refuse; the database has the last word (staff.ts,
 * `staffCreateBooking`).
 */
import { addDays, format, parseISO, startOfWeek } from 'date-fns'
import { allowedChanges, COUNTED_STATUSES } from '#app/lib/appointments.ts'
import { clocksChangeOn, computeAvailability, offsetText, isSlotAvailable, WEEKDAYS } from '#app/lib/availability.ts'
import { blockSpan, gridRange, placeBlocks } from '#app/lib/calendar-week.ts'
import { dateIn, parseIsoDate } from '#app/lib/dates.ts'
import type { NewAppointmentValues } from '#app/lib/schemas/booking.ts'
import { asUser, sql } from '../db/index.ts'
import { getBookingChoices, getBookingSettings, getStaffAvailabilityInput, staffCreateBooking, type BookingSettings } from './staff.ts'

/** The seven dates (Monday to Sunday) of the week of a date. */
function weekOf(day: string) {
	const monday = startOfWeek(parseISO(day), { weekStartsOn: 1 })
	return Array.from({ length: 7 }, (_, i) => format(addDays(monday, i), 'yyyy-MM-dd'))
}

/**
 * The organization's providers (for the filter, inactive ones too: their appointments stay in the
 * calendar) and the week's appointments in time order, of the filtered provider when `provider`
 * names one of them (anything else: everyone's). One transaction, one statement for the week's
 * appointments whatever the view. On a day the clocks change, its times carry their UTC offset
 * ("01:30 (UTC-04:00)"), as the new-appointment list does: the same wall time can happen twice,
 * and an end can read earlier than its start.
 */
async function readWeek(userId: string, organizationId: string, timezone: string, week: string[], provider: string | null) {
	const found = await asUser(userId, async (trx) => {
		const providers = await trx
			.selectFrom('booking_providers')
			.select(['id', 'display_name as name'])
			.where('organization_id', '=', organizationId)
			.orderBy('display_name')
			.orderBy('id')
			.execute()
		// Only an id read back from the organization's providers reaches the query.
		const providerId = providers.find((p) => p.id === provider)?.id ?? null
		const appointments = await trx
			.selectFrom('booking_appointments as a')
			.leftJoin('booking_services as s', 's.id', 'a.service_id')
			.leftJoin('booking_providers as p', 'p.id', 'a.provider_id')
			.select([
				'a.id',
				sql<string>`to_char(a.appointment_date, 'YYYY-MM-DD')`.as('date'),
				sql<string>`to_char(a.start_time, 'HH24:MI')`.as('startTime'),
				sql<string>`to_char(a.end_time, 'HH24:MI')`.as('endTime'),
				'a.starts_at as startsAt',
				'a.ends_at as endsAt',
				'a.status',
				// Completing or marking a no-show waits for the start (app/lib/appointments.ts).
				sql<boolean>`a.starts_at <= now()`.as('started'),
				'a.guest_name as clientName',
				'a.guest_email as clientEmail',
				'a.guest_phone as clientPhone',
				'a.notes',
				'a.total_price as price',
				's.name as serviceName',
				's.color as serviceColor',
				'p.display_name as providerName',
			])
			.where('a.organization_id', '=', organizationId)
			.where('a.appointment_date', '>=', week[0]!)
			.where('a.appointment_date', '<=', week[6]!)
			.$if(providerId !== null, (q) => q.where('a.provider_id', '=', providerId!))
			.orderBy('a.starts_at')
			.orderBy('a.id')
			.execute()
		return { providers, providerId, appointments }
	})
	const changing = new Set(week.filter((d) => clocksChangeOn(d, timezone)))
	return {
		providers: found.providers,
		providerId: found.providerId,
		appointments: found.appointments.map(({ startsAt, endsAt, date, ...a }) => {
			const row = {
				...a,
				date,
				minutes: Math.round((endsAt.getTime() - startsAt.getTime()) / 60_000),
				clockStart: a.startTime,
				clockEnd: a.endTime,
			}
			if (!changing.has(date)) return row
			const start = offsetText(timezone, startsAt.getTime())
			const end = offsetText(timezone, endsAt.getTime())
			return { ...row, startTime: `${a.startTime} (UTC${start})`, endTime: end === start ? a.endTime : `${a.endTime} (UTC${end})` }
		}),
	}
}

type WeekAppointment = Awaited<ReturnType<typeof readWeek>>['appointments'][number]

/**
 * The week grid: its rows (the earliest opening of the week's open days to the latest closing,
 * widened to hold every appointment) and, per day, the blocks of the appointments that were not
 * cancelled (as the week strip counts them), placed by app/lib/calendar-week.ts.
 */
function weekGrid(week: string[], today: string, businessHours: BookingSettings['businessHours'], appointments: WeekAppointment[]) {
	const shown = appointments
		.filter((a) => a.status !== 'cancelled')
		.map((a) => ({ a, span: blockSpan(a.clockStart, a.clockEnd, a.minutes) }))
	const open = WEEKDAYS.map((d) => businessHours[d]).filter((h) => h.enabled)
	const range = gridRange(
		open,
		shown.map((s) => s.span),
	)
	return {
		from: range.from,
		to: range.to,
		days: week.map((date) => {
			const ofDay = shown.filter((s) => s.a.date === date)
			const placed = placeBlocks(
				ofDay.map((s) => s.span),
				range,
			)
			return {
				date,
				today: date === today,
				blocks: ofDay.map(({ a }, i) => ({
					id: a.id,
					startTime: a.startTime,
					endTime: a.endTime,
					clientName: a.clientName,
					serviceName: a.serviceName,
					serviceColor: a.serviceColor,
					providerName: a.providerName,
					status: a.status,
					...placed[i]!,
				})),
			}
		}),
	}
}

/**
 * Everything the calendar shows for the address's `day` (today in the organization's zone when
 * absent or unreadable): with `view=week`, the grid of its week (Monday to Sunday), else its
 * day; with `provider`, only that provider's appointments (an id that is not one of the
 * organization's providers is ignored); with `cancel`, the appointment to ask about, when it can
 * still be cancelled; with `new=1`, the form's services and providers and, once both are chosen,
 * the chosen provider's free starts on the chosen date. The week view carries the day's list
 * too: below the `md` breakpoint it shows that instead of the grid. Null when the organization
 * has no booking settings.
 */
export async function getCalendarView(userId: string, organizationId: string, params: URLSearchParams) {
	const settings = await getBookingSettings(userId, organizationId)
	if (!settings) return null
	const today = dateIn(settings.timezone)
	const day = parseIsoDate(params.get('day')) ?? today
	const mode: 'day' | 'week' = params.get('view') === 'week' ? 'week' : 'day'
	const week = weekOf(day)
	const read = await readWeek(userId, organizationId, settings.timezone, week, params.get('provider'))
	const counts: Record<string, number> = {}
	for (const a of read.appointments) if ((COUNTED_STATUSES as string[]).includes(a.status)) counts[a.date] = (counts[a.date] ?? 0) + 1
	const appointments = read.appointments
		.filter((a) => a.date === day)
		.map(({ date: _date, minutes: _minutes, clockStart: _start, clockEnd: _end, ...a }) => a)
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
	return {
		mode,
		today,
		day,
		week,
		counts,
		appointments,
		cancelling,
		booking,
		timezone: settings.timezone,
		providers: read.providers,
		provider: read.providerId,
		grid: mode === 'week' ? weekGrid(week, today, settings.businessHours, read.appointments) : null,
	}
}

export type CalendarView = NonNullable<Awaited<ReturnType<typeof getCalendarView>>>
export type CalendarAppointment = CalendarView['appointments'][number]
/** The week view's grid (`getCalendarView` with `view=week`). */
export type CalendarWeekGrid = NonNullable<CalendarView['grid']>
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
