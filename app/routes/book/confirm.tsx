import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect } from 'react-router'
import { getClientAddress } from '#app/.server/auth/session.ts'
import { getLocale } from '#app/.server/i18n.ts'
import {
	allowPublic,
	bookedByAttempt,
	createPublicBooking,
	newBookingAttempt,
	refusedParam,
	reschedulePublicBooking,
} from '#app/.server/booking/public/bookings.ts'
import { bookedHeaders, bookedUrl, bookingAtChoices, stepUrl } from '#app/.server/booking/public/choices.ts'
import { chosenWhen, resolveWizard } from '#app/.server/booking/public/wizard.ts'
import { whenText } from '#app/.server/booking/public/mail.ts'
import { getDepositTerms } from '#app/.server/booking/public/deposit.ts'
import { RefusedNotice, STEP_HEADING, WizardNav, WizardProgress } from '#app/components/booking/book-wizard.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { formatMoney } from '#app/lib/format.ts'
import type { Route } from './+types/confirm'

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const done = await bookingAtChoices(request, params.orgSlug)
	if (done) {
		const moved = new URL(request.url).searchParams.has('reschedule')
		throw redirect(`${bookedUrl(params.orgSlug, done)}${moved ? '&done=rescheduled' : ''}`)
	}
	const w = await resolveWizard({ request, context, slug: params.orgSlug }, 'confirm')
	const service = w.service!
	const { cancellationHours } = w.catalogue.settings
	return {
		service: {
			name: service.name,
			description: service.description,
			durationMinutes: service.durationMinutes,
			price: formatMoney(service.price, getLocale(context)),
		},
		provider: w.provider!.displayName,
		when: chosenWhen(w, getLocale(context)),
		contact: w.reschedule ? null : w.contact,
		rescheduling: w.reschedule ? whenText(w.reschedule, getLocale(context), w.choices.tz ?? w.catalogue.settings.timezone) : null,
		back: stepUrl(w.org.slug, w.reschedule ? 'slot' : 'details', w.choices),
		refused: refusedParam(request),
		attempt: w.reschedule ? null : newBookingAttempt(),
		// Said before it is too late: a time inside the cancellation notice cannot be changed online afterwards.
		lockedHours: Date.parse(w.slot!.start) - Date.now() < cancellationHours * 3_600_000 ? cancellationHours : null,
		// Said before booking: the deposit this service asks (a move keeps the booking's own).
		deposit: w.reschedule ? null : await depositTerms(service.id, getLocale(context)),
	}
}

async function depositTerms(serviceId: string, language: string) {
	const terms = await getDepositTerms(serviceId)
	return terms ? { kind: terms.kind, amount: formatMoney(terms.amount, language) } : null
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const formData = await request.formData()
	// This form booked already (posted twice): its booking, not "slot taken".
	const earlier = await bookedByAttempt(formData.get('attempt'))
	if (earlier) throw redirect(bookedUrl(params.orgSlug, earlier), { headers: await bookedHeaders(params.orgSlug, earlier) })
	const w = await resolveWizard({ request, context, slug: params.orgSlug }, 'confirm')
	const retry = (code: string, status = 409) => data({ refused: code }, { status })
	if (formData.get('website')) return retry('honeypot', 400)
	if (!(await allowPublic('book_post', getClientAddress(request, context)))) return retry('rate_limited', 429)
	const language = getLocale(context)
	const provider = w.provider!
	const slot = w.slot!
	if (w.reschedule && w.choices.reschedule) {
		const moved = await reschedulePublicBooking(w.choices.reschedule, provider.id, slot.start, language)
		if (!moved.ok) {
			if (moved.code === 'slot_taken')
				throw redirect(`${stepUrl(w.org.slug, 'slot', { ...w.choices, start: undefined })}&refused=slot_taken`)
			return retry(moved.code)
		}
		throw redirect(`/book/${encodeURIComponent(w.org.slug)}/booked/${w.reschedule.id}?token=${w.choices.reschedule}&done=rescheduled`)
	}
	const booked = await createPublicBooking(
		w.org,
		{
			serviceId: w.service!.id,
			providerId: provider.id,
			start: slot.start,
			contact: w.contact!,
			attempt: formData.get('attempt'),
			timezone: w.choices.tz,
		},
		language,
	)
	if (!booked.ok) {
		if (booked.code === 'slot_taken') {
			// Plainly told, back at the slot choice: the slot is gone, the details are kept.
			throw redirect(`${stepUrl(w.org.slug, 'slot', { ...w.choices, start: undefined })}${w.choices.service ? '&' : '?'}refused=slot_taken`)
		}
		return retry(booked.code)
	}
	throw redirect(bookedUrl(w.org.slug, booked), { headers: await bookedHeaders(w.org.slug, booked) })
}

export default function ConfirmStep({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('book')
	const { service, provider, when, contact, rescheduling, back, refused, attempt, lockedHours, deposit } = loaderData
	const row = (label: string, value: React.ReactNode) => (
		<div className="grid gap-0.5 sm:grid-cols-[10rem_1fr]">
			<dt className="text-sm text-muted-foreground">{label}</dt>
			<dd>{value}</dd>
		</div>
	)
	return (
		<>
			<WizardProgress step="confirm" />
			<h1 className={STEP_HEADING}>{rescheduling ? t('confirm.rescheduleHeading') : t('confirm.heading')}</h1>
			<RefusedNotice code={actionData?.refused ?? refused} />
			<section aria-label={t('confirm.summary')} className="rounded-lg border bg-background p-4">
				<dl className="grid gap-3">
					{row(
						t('summary.service'),
						<>
							<span className="font-medium">{service.name}</span> · {t('minutes', { count: service.durationMinutes })} · {service.price}
							{service.description ? <span className="block text-sm text-muted-foreground">{service.description}</span> : null}
						</>,
					)}
					{row(t('summary.provider'), provider)}
					{rescheduling ? row(t('summary.previously'), <s>{rescheduling}</s>) : null}
					{row(t('summary.when'), when)}
					{contact ? row(t('summary.name'), contact.name) : null}
					{contact ? row(t('summary.email'), contact.email) : null}
					{contact?.phone ? row(t('summary.phone'), contact.phone) : null}
					{contact?.notes ? row(t('summary.notes'), <span className="whitespace-pre-wrap">{contact.notes}</span>) : null}
				</dl>
			</section>
			{deposit ? (
				<p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
					{t(`deposit.terms.${deposit.kind}`, { amount: deposit.amount })}
				</p>
			) : null}
			{lockedHours !== null ? (
				<p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
					{t('confirm.locked', { count: lockedHours })}
				</p>
			) : null}
			<Form method="post" className="grid">
				<input
					type="text"
					name="website"
					tabIndex={-1}
					autoComplete="off"
					aria-hidden="true"
					className="absolute -left-[9999px] h-px w-px"
				/>
				{attempt ? <input type="hidden" name="attempt" value={attempt} /> : null}
				<SubmitButton
					label={rescheduling ? t('confirm.reschedule') : t('confirm.submit')}
					pendingLabel={t('confirm.pending')}
					className="h-11 bg-[var(--brand)] text-base text-white"
				/>
			</Form>
			<WizardNav back={back} />
		</>
	)
}
