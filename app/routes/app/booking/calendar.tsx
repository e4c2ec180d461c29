import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { addDays, format, parseISO, startOfWeek } from 'date-fns'
import { ArrowRightIcon, ChevronLeftIcon, ChevronRightIcon, PlusIcon, RefreshCwIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { data, Form, useNavigation, useRevalidator } from 'react-router'
import { Link } from '#app/components/link.tsx'
import type { z } from 'zod'
import {
	changeAppointmentStatus,
	getBookingChoices,
	getBookingSettings,
	getCalendarDay,
	getStaffAvailabilityInput,
	requireBookingMember,
	staffCreateBooking,
} from '#app/.server/booking/staff.ts'
import { allowedChanges, isStatusChange, type AppointmentStatus } from '#app/lib/appointment-status.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Alert, AlertDescription } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { computeAvailability, isSlotAvailable } from '#app/lib/availability.ts'
import { addDays as addIsoDays, dateIn, dateTimeIn, parseIsoDate } from '#app/lib/dates.ts'
import { errorResponse, invariantResponse } from '#app/lib/errors.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { newAppointmentSchema } from '#app/lib/schemas/booking.ts'
import type { Route } from './+types/calendar'
import { ConfirmCard } from '#app/components/forms/confirm-card.tsx'
import { isUuid } from '#app/lib/uuid.ts'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

function weekOf(day: string) {
	const monday = startOfWeek(parseISO(day), { weekStartsOn: 1 })
	return Array.from({ length: 7 }, (_, i) => format(addDays(monday, i), 'yyyy-MM-dd'))
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = await requireBookingMember(context)
	const settings = await getBookingSettings(user.userId, organization.id)
	if (!settings) return errorResponse(404, 'notFound')
	const params = new URL(request.url).searchParams
	const today = dateIn(settings.timezone)
	const day = parseIsoDate(params.get('day')) ?? today
	const week = weekOf(day)
	const { appointments, counts } = await getCalendarDay(user.userId, organization.id, settings.timezone, day, { from: week[0]!, to: week[6]! })
	const cancelId = params.get('cancel')
	// The question is asked only of an appointment that can still be cancelled (not once it is, on Back).
	const cancelling = cancelId ? (appointments.find((a) => a.id === cancelId && allowedChanges(a.status, a.started).includes('cancel')) ?? null) : null

	let booking = null
	if (params.get('new') === '1') {
		const choices = await getBookingChoices(user.userId, organization.id)
		const service = choices.services.find((s) => s.id === params.get('service'))
		const provider = choices.providers.find((p) => p.id === params.get('provider'))
		const date = parseIsoDate(params.get('date')) ?? day
		let slots: { start: string; label: string }[] | null = null
		if (service && provider) {
			const input = await getStaffAvailabilityInput(user.userId, organization.id, settings, service, provider, date, new Date())
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
			const v = submission.value
			const settings = await getBookingSettings(user.userId, organization.id)
			const { services, providers } = await getBookingChoices(user.userId, organization.id)
			const service = services.find((s) => s.id === v.service)
			const provider = providers.find((p) => p.id === v.provider)
			if (!settings || !service || !provider) {
				return data({ result: submission.reply({ formErrors: [service ? 'provider_unavailable' : 'service_unavailable'] }) }, { status: 409 })
			}
			const now = new Date()
			const date = dateIn(settings.timezone, new Date(v.start))
			const input = await getStaffAvailabilityInput(user.userId, organization.id, settings, service, provider, date, now)
			const check = isSlotAvailable({ ...input, providerId: provider.id, start: v.start })
			// The database is the last word; the module only spares it a start it would refuse.
			if (!check.ok && check.reason !== 'outside_business_hours') {
				return data({ result: submission.reply({ formErrors: [check.reason] }) }, { status: 409 })
			}
			const booked = await staffCreateBooking(user.userId, organization.id, {
				serviceId: service.id,
				providerId: provider.id,
				start: v.start,
				clientName: v.clientName,
				clientEmail: v.clientEmail,
				clientPhone: v.clientPhone,
				notes: v.notes,
			})
			if (!booked.ok) return data({ result: submission.reply({ formErrors: [booked.code] }) }, { status: 409 })
			return redirectWithToast(`/app/booking/calendar?day=${date}`, { type: 'success', title: 'booking:calendar.created' })
		}
		default:
			return errorResponse(400, 'badRequest')
	}
}

const STATUS_VARIANT: Record<AppointmentStatus, 'success' | 'warning' | 'destructive' | 'secondary' | 'outline'> = {
	confirmed: 'success',
	pending: 'warning',
	cancelled: 'destructive',
	completed: 'secondary',
	no_show: 'outline',
}

export default function Calendar({ loaderData, actionData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t, i18n } = useTranslation('booking')
	const { day, today, week, counts, appointments, cancelling, booking } = loaderData
	const weekday = new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' })
	useLiveRefresh()
	return (
		<div className="grid gap-6">
			<Card>
				<CardHeader>
					<CardTitle>
						<h2>{t('calendar.title', { date: fmt.date(day) })}</h2>
					</CardTitle>
					<CardDescription>{t('calendar.timezone', { timezone: loaderData.timezone })}</CardDescription>
					<CardAction>
						<Button asChild>
							<Link to={`?day=${day}&new=1`}>
								<PlusIcon aria-hidden="true" />
								{t('calendar.new')}
							</Link>
						</Button>
					</CardAction>
				</CardHeader>
				<CardContent className="grid gap-4">
					<div className="flex flex-wrap items-end gap-2">
						{/* The day and its previous and next buttons stay on one line, on a phone too. */}
						<div className="flex w-full min-w-0 items-end gap-2 sm:w-auto">
							<Button asChild variant="outline" size="icon">
								<Link to={`?day=${addIsoDays(day, -1)}`} aria-label={t('calendar.previousDay')}>
									<ChevronLeftIcon aria-hidden="true" />
								</Link>
							</Button>
							<Form method="get" className="flex min-w-0 flex-1 items-end gap-2">
								<div className="grid min-w-0 flex-1 gap-1">
									<Label htmlFor="calendar-day">{t('calendar.day')}</Label>
									<Input id="calendar-day" type="date" name="day" defaultValue={day} key={day} className="w-full sm:w-44" />
								</div>
								<Button type="submit" variant="outline" className="max-sm:size-9 max-sm:px-0">
									<ArrowRightIcon aria-hidden="true" className="sm:hidden" />
									<span className="max-sm:sr-only">{t('calendar.go')}</span>
								</Button>
							</Form>
							<Button asChild variant="outline" size="icon">
								<Link to={`?day=${addIsoDays(day, 1)}`} aria-label={t('calendar.nextDay')}>
									<ChevronRightIcon aria-hidden="true" />
								</Link>
							</Button>
						</div>
						<Button asChild variant="ghost">
							<Link to={`?day=${today}`}>{t('calendar.today')}</Link>
						</Button>
						<Button asChild variant="ghost">
							<Link to={`?day=${day}`} reloadDocument>
								<RefreshCwIcon aria-hidden="true" />
								{t('calendar.refresh')}
							</Link>
						</Button>
					</div>
					<nav aria-label={t('calendar.week')} className="grid grid-cols-7 gap-1">
						{week.map((d) => (
							<Link
								key={d}
								to={`?day=${d}`}
								aria-current={d === day ? 'date' : undefined}
								className="grid justify-items-center rounded-md border px-1 py-2 text-xs hover:bg-accent aria-[current=date]:border-primary aria-[current=date]:bg-primary/10"
							>
								<span className="font-medium">{weekday.format(parseISO(`${d}T12:00:00Z`))}</span>
								<span className="tabular-nums">{d.slice(8)}</span>
								{/* On a phone the seven days leave room for the number alone; the words stay for screen readers. */}
								<span className="text-foreground/70">
									<span aria-hidden="true" className="tabular-nums sm:hidden">
										{counts[d] ?? 0}
									</span>
									<span className="max-sm:sr-only">{t('calendar.count', { count: counts[d] ?? 0 })}</span>
								</span>
							</Link>
						))}
					</nav>
				</CardContent>
			</Card>
			{booking ? <NewAppointment day={day} booking={booking} timezone={loaderData.timezone} result={actionData?.result} /> : null}
			{cancelling ? <ConfirmCancel day={day} appointment={cancelling} /> : null}
			<section aria-label={t('calendar.listLabel')} className="grid gap-3">
				{appointments.length === 0 ? (
					<p className="rounded-md border p-6 text-center text-sm text-muted-foreground">{t('calendar.empty')}</p>
				) : (
					<ul className="grid gap-3">
						{appointments.map((a) => (
							<li
								key={a.id}
								className="grid gap-2 rounded-md border p-4 sm:grid-cols-[8rem_1fr_auto] sm:items-center"
								aria-label={t('calendar.itemLabel', {
									start: a.startTime,
									end: a.endTime,
									client: a.clientName.trim() || t('calendar.unknownClient'),
								})}
							>
								<div className="font-medium tabular-nums">{t('calendar.range', { start: a.startTime, end: a.endTime })}</div>
								{/* min-w-0 and wrap-anywhere: a name of one long word wraps instead of widening the page. */}
								<div className="grid min-w-0 gap-0.5 text-sm wrap-anywhere">
									<div className="flex flex-wrap items-center gap-2">
										<span aria-hidden="true" className="size-2.5 shrink-0 rounded-full" style={{ backgroundColor: a.serviceColor ?? '#64748b' }} />
										<span className="min-w-0 font-medium">{a.serviceName ?? t('calendar.noService')}</span>
										<Badge variant={STATUS_VARIANT[a.status]}>{t(`status.${a.status}`)}</Badge>
									</div>
									<div>{a.clientName.trim() || t('calendar.unknownClient')}</div>
									<div className="text-muted-foreground">{t('calendar.with', { provider: a.providerName ?? t('calendar.noProvider') })}</div>
								</div>
								<StatusActions day={day} id={a.id} status={a.status} started={a.started} />
							</li>
						))}
					</ul>
				)}
			</section>
		</div>
	)
}

function StatusActions({ day, id, status, started }: { day: string; id: string; status: AppointmentStatus; started: boolean }) {
	const { t } = useTranslation('booking')
	const changes = allowedChanges(status, started)
	if (changes.length === 0) return <div />
	return (
		<div className="flex flex-wrap gap-2">
			{changes.map((change) =>
				change === 'cancel' ? (
					<Button key={change} asChild variant="outline" size="sm">
						<Link to={`?day=${day}&cancel=${id}`}>{t('calendar.actions.cancel')}</Link>
					</Button>
				) : (
					<AppForm key={change} method="post">
						<input type="hidden" name="intent" value="change-status" />
						<input type="hidden" name="id" value={id} />
						<input type="hidden" name="day" value={day} />
						<input type="hidden" name="change" value={change} />
						<Button type="submit" variant="outline" size="sm">
							{t(`calendar.actions.${change}`)}
						</Button>
					</AppForm>
				),
			)}
		</div>
	)
}

function ConfirmCancel({ day, appointment }: { day: string; appointment: { id: string; startTime: string; endTime: string; clientName: string } }) {
	const { t } = useTranslation('booking')
	return (
		<ConfirmCard
			id="cancel-title"
			title={t('calendar.cancel.title')}
			description={t('calendar.cancel.description', {
				time: t('calendar.range', { start: appointment.startTime, end: appointment.endTime }),
				client: appointment.clientName.trim() || t('calendar.unknownClient'),
			})}
			keep={{ to: `?day=${day}`, label: t('calendar.cancel.keep') }}
		>
			<AppForm method="post">
				<input type="hidden" name="intent" value="change-status" />
				<input type="hidden" name="id" value={appointment.id} />
				<input type="hidden" name="day" value={day} />
				<input type="hidden" name="change" value="cancel" />
				<Button type="submit" variant="destructive">
					{t('calendar.cancel.confirm')}
				</Button>
			</AppForm>
		</ConfirmCard>
	)
}

type Booking = NonNullable<Route.ComponentProps['loaderData']['booking']>

/**
 * The start of a new appointment. The list follows changes made elsewhere (the live refresh);
 * a start chosen here that another booking took meanwhile stays chosen, marked as no longer
 * free, so that Book is refused with its reason instead of booking the next time in the list.
 * The same holds for a refused start sent back without JavaScript (`initial`), whose label is
 * its time in the organization's zone; its reason is then said above the form (`explained`).
 */
function StartSelect({
	id,
	name,
	initial,
	timezone,
	explained,
	slots,
	className,
}: {
	id: string
	name: string
	initial: string | undefined
	timezone: string
	explained: boolean
	slots: { start: string; label: string }[]
	className: string
}) {
	const { t } = useTranslation('booking')
	const slotOf = (start: string | undefined) => slots.find((s) => s.start === start)
	// The chosen start with its label, which stays known after the start leaves the list.
	const [chosen, setChosen] = useState(() => slotOf(initial) ?? refusedStart(initial, timezone) ?? slots[0] ?? { start: '', label: '' })
	const gone = chosen.start !== '' && !slotOf(chosen.start)
	// A start picked while the page's scripts were still loading is kept: the next render would
	// otherwise put the rendered one back.
	const selectRef = useRef<HTMLSelectElement>(null)
	useLayoutEffect(() => {
		const picked = slots.find((s) => s.start === selectRef.current?.value)
		if (picked) setChosen((current) => (current.start === picked.start ? current : picked))
		// eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the page comes alive
	}, [])
	return (
		<>
			<select
				ref={selectRef}
				id={id}
				name={name}
				value={chosen.start}
				onChange={(event) => setChosen(slotOf(event.target.value) ?? chosen)}
				className={className}
				aria-describedby={gone && !explained ? `${id}-gone` : undefined}
			>
				{gone ? <option value={chosen.start}>{t('calendar.startGoneOption', { time: chosen.label })}</option> : null}
				{slots.map((s) => (
					<option key={s.start} value={s.start}>
						{s.label}
					</option>
				))}
			</select>
			{gone && !explained ? (
				<p id={`${id}-gone`} role="alert" className="text-sm text-destructive">
					{t('calendar.startGone', { time: chosen.label })}
				</p>
			) : null}
		</>
	)
}

/** A start sent back with a refused form, labelled with its time in the zone; none when unreadable. */
function refusedStart(start: string | undefined, timezone: string) {
	if (!start) return undefined
	const instant = new Date(start)
	return Number.isNaN(instant.getTime()) ? undefined : { start, label: dateTimeIn(timezone, instant).time }
}

function NewAppointment({ day, booking, timezone, result }: { day: string; booking: Booking; timezone: string; result: SubmissionResult<string[]> | undefined }) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	const [form, fields] = useForm<z.input<typeof newAppointmentSchema>>({
		id: 'new-appointment',
		lastResult: result,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: newAppointmentSchema }),
		shouldValidate: 'onSubmit',
	})
	const error = (errors: string[] | undefined) => (errors ? t(`errors.${errors[0]}`) : undefined)
	const selectClass = 'h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs'
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('calendar.newTitle')}</h2>
				</CardTitle>
				<CardDescription>{t('calendar.newDescription')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-6">
				{booking.choices.services.length === 0 || booking.choices.providers.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('calendar.nothingToBook')}</p>
				) : (
					<Form method="get" className="grid items-end gap-3 sm:grid-cols-4">
						<input type="hidden" name="day" value={day} />
						<input type="hidden" name="new" value="1" />
						<div className="grid gap-2">
							<Label htmlFor="new-service">{t('calendar.fields.service')}</Label>
							<select id="new-service" name="service" defaultValue={booking.serviceId} className={selectClass}>
								{booking.choices.services.map((s) => (
									<option key={s.id} value={s.id}>
										{t('calendar.serviceOption', { name: s.name, minutes: s.durationMinutes })}
									</option>
								))}
							</select>
						</div>
						<div className="grid gap-2">
							<Label htmlFor="new-provider">{t('calendar.fields.provider')}</Label>
							<select id="new-provider" name="provider" defaultValue={booking.providerId} className={selectClass}>
								{booking.choices.providers.map((p) => (
									<option key={p.id} value={p.id}>
										{p.displayName}
									</option>
								))}
							</select>
						</div>
						<div className="grid gap-2">
							<Label htmlFor="new-date">{t('calendar.fields.date')}</Label>
							<Input id="new-date" type="date" name="date" defaultValue={booking.date} />
						</div>
						<Button type="submit" variant="outline">
							{t('calendar.findTimes')}
						</Button>
					</Form>
				)}
				{booking.slots === null ? null : booking.slots.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t(booking.past ? 'calendar.pastDay' : 'calendar.noTimes', { date: fmt.date(booking.date) })}</p>
				) : (
					<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
						<input type="hidden" name="intent" value="create-appointment" />
						<input type="hidden" name="day" value={day} />
						<input type="hidden" name="service" value={booking.serviceId} />
						<input type="hidden" name="provider" value={booking.providerId} />
						{form.errors ? (
							<Alert variant="destructive" id={form.errorId}>
								<AlertDescription>{t(`refusals.${form.errors[0]}`, { defaultValue: t('refusals.unknown') })}</AlertDescription>
							</Alert>
						) : null}
						<Field label={t('calendar.fields.start')} htmlFor={fields.start.id} errorId={fields.start.errorId} error={error(fields.start.errors)}>
							<StartSelect
								// Another service, provider or day is another list: nothing chosen in it yet.
								key={`${booking.serviceId}:${booking.providerId}:${booking.date}`}
								id={fields.start.id}
								name={fields.start.name}
								initial={fields.start.initialValue}
								timezone={timezone}
								explained={Boolean(form.errors)}
								slots={booking.slots}
								className={`${selectClass} sm:w-60`}
							/>
						</Field>
						<div className="grid gap-4 sm:grid-cols-3">
							<Field
								label={t('calendar.fields.clientName')}
								htmlFor={fields.clientName.id}
								errorId={fields.clientName.errorId}
								error={error(fields.clientName.errors)}
							>
								<Input {...getInputProps(fields.clientName, { type: 'text' })} />
							</Field>
							<Field
								label={t('calendar.fields.clientEmail')}
								htmlFor={fields.clientEmail.id}
								errorId={fields.clientEmail.errorId}
								error={error(fields.clientEmail.errors)}
							>
								<Input {...getInputProps(fields.clientEmail, { type: 'email' })} />
							</Field>
							<Field
								label={t('calendar.fields.clientPhone')}
								htmlFor={fields.clientPhone.id}
								errorId={fields.clientPhone.errorId}
								error={error(fields.clientPhone.errors)}
							>
								<Input {...getInputProps(fields.clientPhone, { type: 'tel' })} />
							</Field>
						</div>
						<Field label={t('calendar.fields.notes')} htmlFor={fields.notes.id} errorId={fields.notes.errorId} error={error(fields.notes.errors)}>
							<Textarea {...getTextareaProps(fields.notes)} rows={3} />
						</Field>
						<div className="flex gap-2">
							<SubmitButton label={t('calendar.book')} pendingLabel={t('calendar.booking')} intent="create-appointment" />
							<Button asChild variant="ghost">
								<Link to={`?day=${day}`}>{t('calendar.close')}</Link>
							</Button>
						</div>
					</AppForm>
				)}
			</CardContent>
		</Card>
	)
}

const LIVE_REFRESH_DELAY_MS = 300

/**
 * With JavaScript, the calendar loads its data again whenever the organization's appointments
 * change elsewhere (server-sent events from /app/booking/events); without it, the Refresh link.
 */
function useLiveRefresh() {
	const revalidator = useRevalidator()
	const revalidate = revalidator.revalidate
	// A change while a navigation or a form is under way (often the staff's own, told back by the
	// server) waits for it to end: revalidating would interrupt it, and the redirect of a form
	// carries the flash message that its toast shows.
	const idle = useNavigation().state === 'idle'
	const navigating = useRef(false)
	const missed = useRef(false)
	useEffect(() => {
		navigating.current = !idle
		if (idle && missed.current) {
			missed.current = false
			void revalidate()
		}
	}, [idle, revalidate])
	useEffect(() => {
		if (typeof EventSource === 'undefined') return
		const source = new EventSource('/app/booking/events')
		// Changes are taken a moment after they are told: a burst of them loads once, and the staff's
		// own change (told while its form's redirect is still loading) is seen as a navigation under
		// way once React has rendered it, instead of interrupting that load and its toast.
		let timer: ReturnType<typeof setTimeout> | undefined
		const onChange = () => {
			clearTimeout(timer)
			timer = setTimeout(() => {
				if (navigating.current) missed.current = true
				else void revalidate()
			}, LIVE_REFRESH_DELAY_MS)
		}
		source.addEventListener('change', onChange)
		return () => {
			clearTimeout(timer)
			source.removeEventListener('change', onChange)
			source.close()
		}
	}, [revalidate])
}
