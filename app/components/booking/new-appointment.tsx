/**
 * The staff calendar's new-appointment form (docs/product.md, Booking): a first form (GET) picks
 * the service, provider and date; the second books one of that day's free starts for a client.
 * Both work without JavaScript; with it, the booking form validates before it posts.
 */
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useLayoutEffect, useRef, useState } from 'react'
import { Form } from 'react-router'
import type { z } from 'zod'
import type { NewAppointmentView } from '#app/.server/booking/calendar.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Link } from '#app/components/link.tsx'
import { Alert, AlertDescription } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Textarea } from '#app/components/ui/textarea.tsx'
import { dateTimeIn } from '#app/lib/dates.ts'
import { newAppointmentSchema } from '#app/lib/schemas/booking.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

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
	const fmt = useFormat()
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
				{gone ? <option value={chosen.start}>{t('calendar.startGoneOption', { time: fmt.time(chosen.label) })}</option> : null}
				{slots.map((s) => (
					<option key={s.start} value={s.start}>
						{fmt.time(s.label)}
					</option>
				))}
			</select>
			{gone && !explained ? (
				<p id={`${id}-gone`} role="alert" className="text-sm text-destructive">
					{t('calendar.startGone', { time: fmt.time(chosen.label) })}
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

/** The new-appointment card: the choice of service, provider and date, then the day's free starts and the client's details. */
export function NewAppointment({
	day,
	booking,
	timezone,
	result,
}: {
	day: string
	booking: NewAppointmentView
	timezone: string
	result: SubmissionResult<string[]> | undefined
}) {
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
					<p className="text-sm text-muted-foreground">
						{t(booking.past ? 'calendar.pastDay' : 'calendar.noTimes', { date: fmt.date(booking.date) })}
					</p>
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
						<Field
							label={t('calendar.fields.start')}
							htmlFor={fields.start.id}
							errorId={fields.start.errorId}
							error={error(fields.start.errors)}
						>
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
						<Field
							label={t('calendar.fields.notes')}
							htmlFor={fields.notes.id}
							errorId={fields.notes.errorId}
							error={error(fields.notes.errors)}
						>
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
