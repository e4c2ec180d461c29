import { parseWithZod } from '@conform-to/zod/v4'
import {
	getAppointmentView,
	isOrganizationAppointment,
	linkPayment,
	markAppointmentPaid,
	moveAppointment,
	undoMatch,
	type AppointmentRefusal,
} from '#app/.server/booking/appointments.ts'
import { changeAppointmentStatus, requireBookingMember } from '#app/.server/booking/staff.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppointmentDetails } from '#app/components/booking/appointment-details.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { ArrowLeftIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { isStatusChange } from '#app/lib/appointments.ts'
import { appointmentBackAddress } from '#app/lib/appointment-view.ts'
import { errorResponse, invariantResponse } from '#app/lib/errors.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { moveAppointmentSchema } from '#app/lib/schemas/booking.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { Route } from './+types/appointment'

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'appointment', args.loaderData?.appointment.guest.name)

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const { user, organization } = await requireBookingMember(context)
	// Not a uuid, or an appointment of another organization: simply not found here.
	const view = await getAppointmentView(user.userId, organization.id, params.appointmentId, new URL(request.url).searchParams)
	invariantResponse(view, 404)
	return view
}

/** The toast of an action's refusal: its code's message under booking:refusals. */
const refused = (code: AppointmentRefusal) => ({ type: 'error' as const, title: `booking:refusals.${code}` })

export async function action({ request, params, context }: Route.ActionArgs) {
	const { user, organization } = await requireBookingMember(context)
	const id = params.appointmentId
	invariantResponse(isUuid(id) && (await isOrganizationAppointment(user.userId, organization.id, id)), 404)
	const form = await request.formData()
	const back = (options?: Parameters<typeof appointmentBackAddress>[2]) => appointmentBackAddress(form, id, options)
	const intent = form.get('intent')
	switch (intent) {
		case 'change-status': {
			const change = String(form.get('change') ?? '')
			invariantResponse(isStatusChange(change), 400)
			const outcome = await changeAppointmentStatus(user.userId, organization.id, id, change)
			return redirectWithToast(
				back(),
				outcome === 'done'
					? { type: 'success', title: `booking:calendar.changed.${change}` }
					: { type: 'error', title: outcome === 'notStarted' ? 'booking:calendar.notStarted' : 'booking:calendar.changeRefused' },
			)
		}
		case 'move': {
			const submission = parseWithZod(form, { schema: moveAppointmentSchema })
			if (submission.status !== 'success')
				return redirectWithToast(back({ query: { step: 'move' } }), { type: 'error', title: 'booking:appointment.move.invalid' })
			const moved = await moveAppointment(user.userId, organization.id, id, submission.value)
			if (!moved.ok) {
				const typed = { moveDate: submission.value.date, moveTime: submission.value.time, moveProvider: submission.value.provider }
				return redirectWithToast(back({ query: { step: 'move', ...typed } }), refused(moved.code))
			}
			return redirectWithToast(back({ day: moved.value }), { type: 'success', title: 'booking:appointment.done.move' })
		}
		case 'mark-paid': {
			const marked = await markAppointmentPaid(user.userId, organization.id, id)
			return redirectWithToast(back(), marked.ok ? { type: 'success', title: 'booking:appointment.done.markPaid' } : refused(marked.code))
		}
		case 'link-payment': {
			const transaction = form.get('transaction')
			invariantResponse(isUuid(transaction), 400)
			const linked = await linkPayment(user.userId, organization.id, id, transaction)
			return redirectWithToast(back(), linked.ok ? { type: 'success', title: 'booking:appointment.done.link' } : refused(linked.code))
		}
		case 'unmatch': {
			const match = form.get('match')
			invariantResponse(isUuid(match), 400)
			const undone = await undoMatch(user.userId, organization.id, id, match)
			return redirectWithToast(back(), undone.ok ? { type: 'success', title: 'booking:appointment.done.unmatch' } : refused(undone.code))
		}
		default:
			return errorResponse(400, 'badRequest')
	}
}

export default function AppointmentScreen({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('booking')
	const { appointment, step, move } = loaderData
	const here = `/app/booking/appointments/${appointment.id}`
	return (
		<div className="grid min-w-0 max-w-3xl gap-4">
			<Link
				to={`/app/booking/calendar?day=${appointment.date}`}
				className="inline-flex min-h-11 w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground sm:min-h-0"
			>
				<ArrowLeftIcon className="size-4" aria-hidden="true" />
				{t('appointment.backToCalendar')}
			</Link>
			<AppointmentDetails appointment={appointment} view={{ here, action: here, back: {}, step, move }} />
		</div>
	)
}

export function ErrorBoundary() {
	return <GeneralErrorBoundary statusHandlers={{ 404: () => <AppointmentNotFound /> }} />
}

function AppointmentNotFound() {
	const { t } = useTranslation('booking')
	return (
		<div className="grid gap-4">
			<h2 className="text-xl font-semibold">{t('appointment.notFound.title')}</h2>
			<p className="text-muted-foreground">{t('appointment.notFound.description')}</p>
			<Link to="/app/booking/calendar" className="w-fit text-primary underline-offset-4 hover:underline">
				{t('appointment.backToCalendar')}
			</Link>
		</div>
	)
}
