import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { googleCalendarUrl } from '#app/.server/booking/ics.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { cancelPublicBooking, getManagedBooking, isChangeable, refusedParam } from '#app/.server/booking/public/bookings.ts'
import { bookedUrl, stepUrl } from '#app/.server/booking/public/choices.ts'
import { organizationFor } from '#app/.server/booking/public/organization.ts'
import { calendarOf, depositView, visitorZone, whenText } from '#app/.server/booking/public/mail.ts'
import { settleExpiredHold } from '#app/.server/booking/deposits.ts'
import { getBookingDeposit } from '#app/.server/booking/public/deposit.ts'
import { DepositNotice } from '#app/components/booking/deposit-notice.tsx'
import { RefusedNotice, STEP_HEADING } from '#app/components/booking/book-wizard.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { isActiveStatus } from '#app/lib/appointments.ts'
import { UrlDialog } from '#app/components/url-dialog.tsx'
import type { Route } from './+types/booked'

async function bookingOf(request: Request, params: { orgSlug: string; id: string }) {
	const token = new URL(request.url).searchParams.get('token') ?? ''
	const booking = await getManagedBooking(token)
	if (!booking || booking.id !== params.id || booking.organizationSlug !== params.orgSlug)
		throw data({ bookingNotFound: true }, { status: 404 })
	return { token, booking }
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const found = await bookingOf(request, params)
	const token = found.token
	let booking = found.booking
	let deposit = await getBookingDeposit(token)
	// Past its deadline and unpaid: released now, as the next minute's job would (docs/product.md, Deposits and prepayment).
	if (await settleExpiredHold(deposit, booking.organizationId)) {
		booking = (await bookingOf(request, params)).booking
		deposit = await getBookingDeposit(token)
	}
	const language = getLocale(context)
	const url = new URL(request.url)
	const live = isActiveStatus(booking.status)
	const changeable = isChangeable(booking)
	return {
		status: booking.status,
		deposit: deposit ? depositView(deposit, language, booking.timezone) : null,
		organization: booking.organizationName,
		bookAgain: `/book/${encodeURIComponent(booking.organizationSlug)}`,
		// In the zone the visitor chose (and the business's, when it differs): docs/product.md, Public booking.
		when: whenText(booking, language, visitorZone(booking.guestTimezone, booking.timezone)),
		service: booking.serviceName,
		durationMinutes: booking.durationMinutes,
		provider: booking.providerName,
		email: booking.guestEmail,
		live,
		changeable,
		ics: `/book/${encodeURIComponent(booking.organizationSlug)}/booked/${booking.id}/calendar.ics?token=${token}`,
		google: googleCalendarUrl(calendarOf(booking, language)),
		// With the public page closed (decision 007) the booking can still be cancelled, not moved.
		reschedule:
			booking.serviceId && (await organizationFor(context, params.orgSlug))?.catalogue.settings.allowGuestBooking
				? stepUrl(booking.organizationSlug, 'slot', {
						mode: 'provider',
						service: booking.serviceId,
						provider: booking.providerId ?? undefined,
						reschedule: token,
					})
				: null,
		done: url.searchParams.get('done'),
		// Cancelling asks first, on a page of its own (works without JavaScript).
		confirmCancel: changeable && url.searchParams.get('cancel') === '1',
		self: bookedUrl(booking.organizationSlug, { id: booking.id, token }),
		refused: refusedParam(request),
	}
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const { token, booking } = await bookingOf(request, params)
	const result = await cancelPublicBooking(token, getLocale(context))
	const back = bookedUrl(booking.organizationSlug, { id: booking.id, token })
	return redirect(result.ok ? `${back}&done=cancelled` : `${back}&refused=${result.code}`)
}

export default function Booked({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('book')
	const d = loaderData
	const released = d.status === 'cancelled' && d.deposit?.status === 'released'
	const awaiting = d.status === 'pending' && d.deposit?.status === 'open'
	const heading = released
		? t('booked.releasedHeading')
		: d.status === 'cancelled'
			? t('booked.cancelledHeading')
			: awaiting
				? t('deposit.heading')
				: d.done === 'rescheduled'
					? t('booked.rescheduledHeading')
					: t('booked.heading')
	return (
		<>
			<h1 className={STEP_HEADING}>{heading}</h1>
			<RefusedNotice code={d.refused} />
			<section className="grid gap-3 rounded-lg border bg-background p-4">
				<p className="text-lg font-medium">{d.when}</p>
				<p>
					{d.service}
					{d.durationMinutes ? ` · ${t('minutes', { count: d.durationMinutes })}` : ''}
				</p>
				{d.provider ? <p>{t('booked.with', { provider: d.provider })}</p> : null}
				{d.status === 'pending' && !awaiting ? <p className="font-medium text-amber-700">{t('booked.pending')}</p> : null}
				{d.live ? <p className="text-sm text-muted-foreground">{t('booked.emailSent', { email: d.email })}</p> : null}
			</section>
			{d.deposit && d.live ? <DepositNotice deposit={d.deposit} organization={d.organization} /> : null}
			{released ? (
				<section className="grid gap-2 rounded-lg border bg-background p-4">
					<p>{d.deposit?.deadline ? t('booked.released', { deadline: d.deposit.deadline }) : t('booked.releasedNoDeadline')}</p>
					<Link to={d.bookAgain} className="w-fit rounded-md border px-4 py-2 text-sm">
						{t('booked.bookAgain')}
					</Link>
				</section>
			) : null}
			{d.live ? (
				<section className="grid gap-2">
					<h2 className="font-medium">{t('booked.addToCalendar')}</h2>
					<div className="flex flex-wrap gap-3">
						<a href={d.ics} download="booking.ics" className="rounded-md border bg-background px-4 py-2 text-sm">
							{t('booked.downloadIcs')}
						</a>
						<a href={d.google} target="_blank" rel="noreferrer" className="rounded-md border bg-background px-4 py-2 text-sm">
							{t('booked.google')}
						</a>
					</div>
				</section>
			) : null}
			{d.live ? (
				<section className="grid gap-2 rounded-lg border bg-background p-4">
					<h2 className="font-medium">{t('booked.manage')}</h2>
					{d.changeable ? (
						<div className="flex flex-wrap items-center gap-3">
							{d.reschedule ? (
								<Link to={d.reschedule} className="rounded-md border px-4 py-2 text-sm">
									{t('booked.reschedule')}
								</Link>
							) : null}
							<Link to={`${d.self}&cancel=1`} className="rounded-md border px-4 py-2 text-sm">
								{t('booked.cancel')}
							</Link>
						</div>
					) : (
						<p className="text-sm text-muted-foreground">{t('booked.tooLate')}</p>
					)}
				</section>
			) : null}
			{d.confirmCancel ? <ConfirmCancel when={d.when} keep={d.self} /> : null}
		</>
	)
}

/** "Cancel this booking?", opened by `&cancel=1` (works without JavaScript; with it, a dialog for the keyboard). */
function ConfirmCancel({ when, keep }: { when: string; keep: string }) {
	const { t } = useTranslation('book')
	return (
		<UrlDialog
			role="alertdialog"
			close={keep}
			openKey="cancel"
			labelledBy="confirm-cancel-title"
			className="grid gap-3 rounded-lg border border-destructive/40 bg-background p-4"
		>
			<h2 id="confirm-cancel-title" className="font-medium">
				{t('booked.confirmCancel.title')}
			</h2>
			<p className="text-sm text-muted-foreground">{t('booked.confirmCancel.description', { when })}</p>
			<div className="flex flex-wrap items-center gap-3">
				<Form method="post">
					<SubmitButton
						label={t('booked.confirmCancel.confirm')}
						pendingLabel={t('booked.cancelling')}
						className="bg-destructive text-white"
					/>
				</Form>
				<Link to={keep} className="rounded-md border px-4 py-2 text-sm">
					{t('booked.confirmCancel.keep')}
				</Link>
			</div>
		</UrlDialog>
	)
}
