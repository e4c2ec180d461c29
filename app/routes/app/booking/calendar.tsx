import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { getAppointmentView } from '#app/.server/booking/appointments.ts'
import { bookFromCalendar, getCalendarView } from '#app/.server/booking/calendar.ts'
import { changeAppointmentStatus, requireBookingMember } from '#app/.server/booking/staff.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { WithAppointmentPanel } from '#app/components/booking/appointment-panel.tsx'
import { AppointmentList, CalendarDayNav, ConfirmCancel } from '#app/components/booking/calendar-day.tsx'
import { CalendarViewBar, CalendarWeekNav, WeekGrid } from '#app/components/booking/calendar-week.tsx'
import { NewAppointment } from '#app/components/booking/new-appointment.tsx'
import { useLiveRefresh } from '#app/components/booking/use-live-refresh.ts'
import { isStatusChange } from '#app/lib/appointments.ts'
import { calendarQuery } from '#app/lib/calendar-week.ts'
import { parseIsoDate } from '#app/lib/dates.ts'
import { errorResponse, invariantResponse } from '#app/lib/errors.ts'
import { newAppointmentSchema } from '#app/lib/schemas/booking.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/calendar'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = await requireBookingMember(context)
	const params = new URL(request.url).searchParams
	const view = await getCalendarView(user.userId, organization.id, params)
	if (!view) return errorResponse(404, 'notFound')
	// The side panel of the appointment whose link was followed (`appointment={id}`; docs/product.md, Booking).
	return { ...view, panel: await getAppointmentView(user.userId, organization.id, params.get('appointment'), params) }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = await requireBookingMember(context)
	const formData = await request.formData()
	const day = parseIsoDate(formData.get('day')) ?? ''
	// Back to the view and the provider filter the form was posted from (its address carries them).
	const params = new URL(request.url).searchParams
	const provider = params.get('provider')
	const back = `/app/booking/calendar${day ? calendarQuery({ week: params.get('view') === 'week', day, provider: isUuid(provider) ? provider : null }) : ''}`
	const intent = formData.get('intent')
	switch (intent) {
		case 'change-status': {
			const id = String(formData.get('id') ?? '')
			const change = String(formData.get('change') ?? '')
			invariantResponse(isUuid(id) && isStatusChange(change), 400)
			const outcome = await changeAppointmentStatus(user.userId, organization.id, id, change)
			return redirectWithToast(
				back,
				outcome === 'done'
					? { type: 'success', title: `booking:calendar.changed.${change}` }
					: { type: 'error', title: outcome === 'notStarted' ? 'booking:calendar.notStarted' : 'booking:calendar.changeRefused' },
			)
		}
		case 'create-appointment': {
			const submission = parseWithZod(formData, { schema: newAppointmentSchema })
			if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
			const booked = await bookFromCalendar(user.userId, organization.id, submission.value)
			if (!booked.ok) return data({ result: submission.reply({ formErrors: [booked.code] }) }, { status: 409 })
			return redirectWithToast(`/app/booking/calendar?day=${booked.date}`, { type: 'success', title: 'booking:calendar.created' })
		}
		default:
			return errorResponse(400, 'badRequest')
	}
}

export default function Calendar({ loaderData, actionData }: Route.ComponentProps) {
	const { mode, day, today, week, counts, appointments, cancelling, booking, timezone, providers, provider, grid, panel } = loaderData
	const place = { day, week: mode === 'week', provider }
	useLiveRefresh()
	const bar = <CalendarViewBar week={mode === 'week'} day={day} provider={provider} providers={providers} />
	if (grid)
		return (
			<div className="grid gap-6">
				{bar}
				<CalendarWeekNav day={day} today={today} week={week} timezone={timezone} provider={provider} />
				<WithAppointmentPanel panel={panel} place={place}>
					<WeekGrid grid={grid} provider={provider} />
					{/* Below md the week gives way to the day view of the chosen day, its week strip included. */}
					<div className="grid gap-6 md:hidden">
						<CalendarDayNav day={day} today={today} week={week} counts={counts} timezone={timezone} provider={provider} />
						<AppointmentList day={day} appointments={appointments} />
					</div>
				</WithAppointmentPanel>
			</div>
		)
	return (
		<div className="grid gap-6">
			{bar}
			<CalendarDayNav day={day} today={today} week={week} counts={counts} timezone={timezone} provider={provider} />
			{booking ? <NewAppointment day={day} booking={booking} timezone={timezone} result={actionData?.result} /> : null}
			{cancelling ? <ConfirmCancel day={day} appointment={cancelling} /> : null}
			<WithAppointmentPanel panel={panel} place={place}>
				<AppointmentList day={day} appointments={appointments} />
			</WithAppointmentPanel>
		</div>
	)
}
