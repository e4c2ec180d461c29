/**
 * The calendar's side panel (docs/product.md, Booking › The appointment page): the appointment
 * whose link was followed (`appointment={id}` in the calendar's address), rendered by the server
 * beside the day's list or the week's grid on a wide screen, and over it, full width, on a
 * phone. Its forms post to the appointment's route and come back to the calendar as it was.
 */
import { useLocation } from 'react-router'
import type { AppointmentViewData } from '#app/.server/booking/appointments.ts'
import { AppointmentDetails } from '#app/components/booking/appointment-details.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { calendarBackFields, calendarPanelAddress, type CalendarPlace } from '#app/lib/appointment-view.ts'
import { calendarQuery } from '#app/lib/calendar-week.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** The calendar's address with an appointment's panel open, keeping the current day, view and provider filter. */
export function usePanelHref() {
	const params = new URLSearchParams(useLocation().search)
	return (appointmentId: string) => {
		const kept = new URLSearchParams()
		for (const name of ['view', 'day', 'provider']) {
			const value = params.get(name)
			if (value) kept.set(name, value)
		}
		kept.set('appointment', appointmentId)
		return `/app/booking/calendar?${kept.toString()}`
	}
}

/** `children` (the list or the grid) with the panel: after it on a wide screen, before it, full width, below `xl`. */
export function WithAppointmentPanel({
	panel,
	place,
	children,
}: {
	panel: AppointmentViewData | null
	place: CalendarPlace
	children: React.ReactNode
}) {
	if (!panel) return children
	return (
		<div className="grid min-w-0 gap-6 xl:grid-cols-[minmax(0,1fr)_26rem] xl:items-start">
			<AppointmentPanel panel={panel} place={place} />
			<div className="grid min-w-0 gap-6 xl:order-first">{children}</div>
		</div>
	)
}

function AppointmentPanel({ panel, place }: { panel: AppointmentViewData; place: CalendarPlace }) {
	const { t } = useTranslation('booking')
	const id = panel.appointment.id
	return (
		<aside aria-label={t('appointment.panel')} className="grid min-w-0 gap-3">
			<div className="flex flex-wrap items-center justify-between gap-2">
				<Button asChild variant="link" className="px-0">
					<Link to={`/app/booking/appointments/${id}`}>{t('appointment.openPage')}</Link>
				</Button>
				<Button asChild variant="ghost">
					<Link to={`/app/booking/calendar${calendarQuery(place)}`}>{t('appointment.close')}</Link>
				</Button>
			</div>
			<AppointmentDetails
				appointment={panel.appointment}
				view={{
					here: calendarPanelAddress(place, id),
					action: `/app/booking/appointments/${id}`,
					back: calendarBackFields(place),
					step: panel.step,
					move: panel.move,
				}}
			/>
		</aside>
	)
}
