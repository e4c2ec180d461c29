/**
 * The addresses of an appointment's views (docs/product.md, Booking › The appointment page): its
 * own page, `/app/booking/appointments/{id}`, and the calendar's side panel, the calendar's address
 * with `appointment={id}`. Both take the same steps in their query (`step=cancel`, `step=move`,
 * and the move form's values sent back after a refusal), read here for the loaders, and the
 * appointment's actions answer with a redirect built here, never from a posted address.
 */
import { calendarQuery } from './calendar-week.ts'
import { parseIsoDate } from './dates.ts'
import { isUuid } from './uuid.ts'

export type AppointmentStep = 'cancel' | 'move' | null

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/

/** The step an address asks for. */
export function readAppointmentStep(params: URLSearchParams): AppointmentStep {
	const step = params.get('step')
	return step === 'cancel' || step === 'move' ? step : null
}

/** The move form's values: those sent back after a refusal when readable, else the appointment's own. */
export function readMoveValues(params: URLSearchParams, own: { date: string; time: string; provider: string }) {
	const provider = params.get('moveProvider')
	const time = params.get('moveTime')
	return {
		date: parseIsoDate(params.get('moveDate')) ?? own.date,
		time: time && CLOCK.test(time) ? time : own.time,
		provider: isUuid(provider) ? provider : own.provider,
	}
}

/** Where the calendar was when its side panel posted: its day, view and provider filter. */
export type CalendarPlace = { day: string; week: boolean; provider: string | null }

/** The hidden fields a side panel's forms carry to come back to the calendar as it was. */
export function calendarBackFields(place: CalendarPlace): Record<string, string> {
	return {
		back: 'calendar',
		backDay: place.day,
		backView: place.week ? 'week' : 'day',
		...(place.provider ? { backProvider: place.provider } : {}),
	}
}

/** The calendar's address with the appointment's panel open. */
export function calendarPanelAddress(place: CalendarPlace, appointmentId: string) {
	return `/app/booking/calendar${calendarQuery(place)}&appointment=${appointmentId}`
}

/**
 * Where an appointment's action answers: the view it was posted from (the calendar's panel, read
 * from the posted fields, each checked; else the appointment's page), on `day` when the action
 * moved the appointment there, with extra query parameters (`step=move` and the typed values
 * after a refused move).
 */
export function appointmentBackAddress(
	form: FormData,
	appointmentId: string,
	options: { day?: string; query?: Record<string, string> } = {},
) {
	const extra = new URLSearchParams(options.query ?? {}).toString()
	const day = options.day ?? parseIsoDate(form.get('backDay'))
	if (form.get('back') === 'calendar' && day) {
		const provider = form.get('backProvider')
		const address = calendarPanelAddress(
			{ day, week: form.get('backView') === 'week', provider: isUuid(provider) ? provider : null },
			appointmentId,
		)
		return extra ? `${address}&${extra}` : address
	}
	return `/app/booking/appointments/${appointmentId}${extra ? `?${extra}` : ''}`
}
