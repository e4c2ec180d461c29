import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { bookFromCalendar, getCalendarView } from '#app/.server/booking/calendar.ts'
import { changeAppointmentStatus, requireBookingMember } from '#app/.server/booking/staff.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppointmentList, CalendarDayNav, ConfirmCancel } from '#app/components/booking/calendar-day.tsx'
import { NewAppointment } from '#app/components/booking/new-appointment.tsx'
import { useLiveRefresh } from '#app/components/booking/use-live-refresh.ts'
import { isStatusChange } from '#app/lib/appointments.ts'
import { parseIsoDate } from '#app/lib/dates.ts'
import { errorResponse, invariantResponse } from '#app/lib/errors.ts'
import { newAppointmentSchema } from '#app/lib/schemas/booking.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/calendar'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = await requireBookingMember(context)
	const view = await getCalendarView(user.userId, organization.id, new URL(request.url).searchParams)
	if (!view) return errorResponse(404, 'notFound')
	return view
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = await requireBookingMember(context)
	const formData = await request.formData()
	const day = parseIsoDate(formData.get('day')) ?? ''
	const back = `/app/booking/calendar${day ? `?day=${day}` : ''}`
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
	const { day, today, week, counts, appointments, cancelling, booking, timezone } = loaderData
	useLiveRefresh()
	return (
		<div className="grid gap-6">
			<CalendarDayNav day={day} today={today} week={week} counts={counts} timezone={timezone} />
			{booking ? <NewAppointment day={day} booking={booking} timezone={timezone} result={actionData?.result} /> : null}
			{cancelling ? <ConfirmCancel day={day} appointment={cancelling} /> : null}
			<AppointmentList day={day} appointments={appointments} />
		</div>
	)
}
