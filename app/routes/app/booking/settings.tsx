import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import type { z } from 'zod'
import { dateIn } from '#app/lib/dates.ts'
import {
	addDateOverride,
	deleteDateOverride,
	getBookingSettings,
	listDateOverrides,
	requireBookingMember,
	saveBookingSettings,
} from '#app/.server/booking/staff.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { TimezoneSelect } from '#app/components/forms/timezone-select.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { errorResponse, invariantResponse } from '#app/lib/errors.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { bookingSettingsSchema, dateOverrideSchema, SETTINGS_LIMITS } from '#app/lib/schemas/booking.ts'
import { Button } from '#app/components/ui/button.tsx'
import { WeeklyHoursFieldset, weeklyHoursDefaults } from '#app/components/booking/weekly-hours-fieldset.tsx'
import { DepositHoldFieldset, depositHoldDefaults } from '#app/components/booking/deposit-hold-fieldset.tsx'
import { getReminderSettings, saveReminderOffsets } from '#app/.server/booking/reminders.ts'
import { ReminderSettings } from '#app/components/booking/reminder-settings.tsx'
import { reminderSettingsSchema } from '#app/lib/schemas/reminders.ts'
import type { Route } from './+types/settings'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export async function loader({ context }: Route.LoaderArgs) {
	const { user, organization } = await requireBookingMember(context)
	const settings = await getBookingSettings(user.userId, organization.id)
	if (!settings) return errorResponse(404, 'notFound')
	const today = dateIn(settings.timezone)
	const [reminders, overrides] = await Promise.all([
		getReminderSettings(user.userId, organization.id),
		listDateOverrides(user.userId, organization.id, today),
	])
	return { settings, today, reminders, ...overrides }
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = await requireBookingMember(context)
	const formData = await request.formData()
	const intent = formData.get('intent')
	switch (intent) {
		case 'save-settings': {
			const submission = parseWithZod(formData, {
				schema: bookingSettingsSchema,
			})
			if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
			const saved = await saveBookingSettings(user.userId, organization.id, submission.value)
			if (!saved) errorResponse(404, 'notFound')
			return redirectWithToast('/app/booking/settings', { type: 'success', title: 'booking:settings.saved' })
		}
		case 'save-reminders': {
			const submission = parseWithZod(formData, { schema: reminderSettingsSchema })
			if (submission.status !== 'success') return data({ reminderResult: submission.reply() }, { status: 400 })
			if (!(await saveReminderOffsets(user.userId, organization.id, submission.value))) errorResponse(404, 'notFound')
			return redirectWithToast('/app/booking/settings', { type: 'success', title: 'booking:reminders.saved' })
		}
		case 'add-override': {
			const submission = parseWithZod(formData, { schema: dateOverrideSchema })
			if (submission.status !== 'success') return data({ overrideResult: submission.reply() }, { status: 400 })
			const added = await addDateOverride(user.userId, organization.id, submission.value, dateIn(organization.timezone))
			if (added.refused)
				return data({ overrideResult: submission.reply({ fieldErrors: { [added.refused.field]: [added.refused.code] } }) }, { status: 400 })
			if (added.booked > 0) {
				return redirectWithToast('/app/booking/settings', {
					type: 'info',
					title: 'booking:overrides.added',
					description: 'booking:overrides.stillBooked',
					values: { count: added.booked },
				})
			}
			return redirectWithToast('/app/booking/settings', { type: 'success', title: 'booking:overrides.added' })
		}
		case 'delete-override': {
			const id = String(formData.get('id') ?? '')
			invariantResponse(/^[0-9a-f-]{36}$/i.test(id), 400)
			const deleted = await deleteDateOverride(user.userId, organization.id, id)
			return redirectWithToast(
				'/app/booking/settings',
				deleted ? { type: 'success', title: 'booking:overrides.deleted' } : { type: 'error', title: 'booking:overrides.notFound' },
			)
		}
		default:
			return errorResponse(400, 'badRequest')
	}
}

export default function BookingSettingsTab({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('booking')
	const { settings } = loaderData
	const [form, fields] = useForm({
		id: 'booking-settings',
		lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
		constraint: getZodConstraint(bookingSettingsSchema),
		defaultValue: {
			minAdvanceHours: String(settings.minAdvanceHours),
			maxAdvanceDays: String(settings.maxAdvanceDays),
			bufferMinutes: String(settings.bufferMinutes),
			cancellationHours: String(settings.cancellationHours),
			autoConfirm: settings.autoConfirm ? 'on' : undefined,
			allowGuestBooking: settings.allowGuestBooking ? 'on' : undefined,
			requirePhone: settings.requirePhone ? 'on' : undefined,
			timezone: settings.timezone,
			hours: weeklyHoursDefaults(settings.businessHours),
			...depositHoldDefaults(settings),
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema: bookingSettingsSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const error = (field: FieldMetadata<unknown>) => (field.errors ? t(`errors.${field.errors[0]}`) : undefined)
	const numberField = (name: 'minAdvanceHours' | 'maxAdvanceDays' | 'bufferMinutes' | 'cancellationHours') => {
		const field = fields[name]
		return (
			<Field label={t(`settings.fields.${name}`)} htmlFor={field.id} errorId={field.errorId} error={error(field)}>
				<Input
					{...getInputProps(field, { type: 'number' })}
					min={SETTINGS_LIMITS[name].min}
					max={SETTINGS_LIMITS[name].max}
					step={1}
					inputMode="numeric"
				/>
				<p className="text-xs text-muted-foreground">{t(`settings.hints.${name}`)}</p>
			</Field>
		)
	}
	const toggle = (name: 'autoConfirm' | 'allowGuestBooking' | 'requirePhone') => {
		const field = fields[name]
		return (
			<div className="flex items-start gap-3">
				<input {...getInputProps(field, { type: 'checkbox' })} className="mt-0.5 size-4 shrink-0 accent-primary" />
				<div className="grid gap-1">
					<Label htmlFor={field.id}>{t(`settings.fields.${name}`)}</Label>
					<p className="text-xs text-muted-foreground">{t(`settings.hints.${name}`)}</p>
				</div>
			</div>
		)
	}
	return (
		<div className="grid gap-6">
			<Card>
				<CardHeader>
					<CardTitle>
						<h2>{t('settings.title')}</h2>
					</CardTitle>
					<CardDescription>{t('settings.description')}</CardDescription>
				</CardHeader>
				<CardContent>
					<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-6">
						<input type="hidden" name="intent" value="save-settings" />
						<div className="grid gap-4 sm:grid-cols-2">
							{numberField('minAdvanceHours')}
							{numberField('maxAdvanceDays')}
							{numberField('bufferMinutes')}
							{numberField('cancellationHours')}
						</div>
						<div className="grid gap-4">
							{toggle('autoConfirm')}
							{toggle('allowGuestBooking')}
							{toggle('requirePhone')}
						</div>
						<Field
							label={t('settings.fields.timezone')}
							htmlFor={fields.timezone.id}
							errorId={fields.timezone.errorId}
							error={error(fields.timezone)}
						>
							<TimezoneSelect field={fields.timezone} />
						</Field>
						<WeeklyHoursFieldset hours={fields.hours} legend={t('settings.hours.title')} />
						<DepositHoldFieldset
							hold={fields.depositHold}
							unit={fields.depositHoldUnit}
							beforeStart={fields.depositHoldBeforeStartHours}
							error={error}
						/>
						<SubmitButton label={t('settings.save')} pendingLabel={t('settings.saving')} intent="save-settings" className="w-fit" />
					</AppForm>
				</CardContent>
			</Card>
			<ReminderSettings
				offsets={loaderData.reminders.offsets}
				active={loaderData.reminders.active}
				result={actionData && 'reminderResult' in actionData ? actionData.reminderResult : undefined}
			/>
			<DateOverrides
				today={loaderData.today}
				overrides={loaderData.overrides}
				providers={loaderData.providers}
				result={actionData && 'overrideResult' in actionData ? actionData.overrideResult : undefined}
			/>
		</div>
	)
}

type LoaderData = Route.ComponentProps['loaderData']

function DateOverrides({
	today,
	overrides,
	providers,
	result,
}: {
	today: string
	overrides: LoaderData['overrides']
	providers: LoaderData['providers']
	result: SubmissionResult<string[]> | undefined
}) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	const [form, fields] = useForm<z.input<typeof dateOverrideSchema>>({
		id: 'date-override',
		lastResult: result,
		defaultValue: { date: today },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: dateOverrideSchema }),
		shouldValidate: 'onSubmit',
	})
	const error = (errors: string[] | undefined) => (errors ? t(`errors.${errors[0]}`) : undefined)
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('overrides.title')}</h2>
				</CardTitle>
				<CardDescription>{t('overrides.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-6">
				{overrides.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('overrides.empty')}</p>
				) : (
					<ul className="grid gap-2" aria-label={t('overrides.title')}>
						{overrides.map((o) => (
							<li key={o.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm">
								<span>
									{t('overrides.line', {
										date: fmt.date(o.date),
										who: o.providerName ?? t('overrides.everyone'),
										what: o.closed
											? t('overrides.closed')
											: t('overrides.hours', { start: fmt.time(o.start ?? ''), end: fmt.time(o.end ?? '') }),
									})}
									{o.note ? <span className="text-muted-foreground">{t('overrides.note', { note: o.note })}</span> : null}
								</span>
								<AppForm method="post">
									<input type="hidden" name="intent" value="delete-override" />
									<input type="hidden" name="id" value={o.id} />
									<Button type="submit" variant="outline" size="sm">
										{t('overrides.remove')}
									</Button>
								</AppForm>
							</li>
						))}
					</ul>
				)}
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
					<input type="hidden" name="intent" value="add-override" />
					<div className="grid gap-4 sm:grid-cols-3">
						<Field
							label={t('overrides.fields.date')}
							htmlFor={fields.date.id}
							errorId={fields.date.errorId}
							error={error(fields.date.errors)}
						>
							<Input {...getInputProps(fields.date, { type: 'date' })} />
						</Field>
						<Field
							label={t('overrides.fields.provider')}
							htmlFor={fields.provider.id}
							errorId={fields.provider.errorId}
							error={error(fields.provider.errors)}
						>
							<select
								{...getSelectProps(fields.provider)}
								className="h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs"
							>
								<option value="">{t('overrides.everyone')}</option>
								{providers.map((p) => (
									<option key={p.id} value={p.id}>
										{p.displayName}
									</option>
								))}
							</select>
						</Field>
						<Field
							label={t('overrides.fields.note')}
							htmlFor={fields.note.id}
							errorId={fields.note.errorId}
							error={error(fields.note.errors)}
						>
							<Input {...getInputProps(fields.note, { type: 'text' })} />
						</Field>
					</div>
					{/* On a phone: "Closed all day" on its own line, then the two times side by side. */}
					<div className="grid gap-4 sm:flex sm:flex-wrap sm:items-start">
						<div className="flex items-center gap-2 sm:pt-7">
							<input {...getInputProps(fields.closed, { type: 'checkbox' })} className="size-4 accent-primary" />
							<Label htmlFor={fields.closed.id}>{t('overrides.fields.closed')}</Label>
						</div>
						<div className="grid grid-cols-2 gap-4 sm:flex">
							<Field
								label={t('overrides.fields.start')}
								htmlFor={fields.start.id}
								errorId={fields.start.errorId}
								error={error(fields.start.errors)}
							>
								<Input {...getInputProps(fields.start, { type: 'time' })} className="w-full sm:w-auto" />
							</Field>
							<Field
								label={t('overrides.fields.end')}
								htmlFor={fields.end.id}
								errorId={fields.end.errorId}
								error={error(fields.end.errors)}
							>
								<Input {...getInputProps(fields.end, { type: 'time' })} className="w-full sm:w-auto" />
							</Field>
						</div>
					</div>
					<SubmitButton label={t('overrides.add')} pendingLabel={t('overrides.adding')} intent="add-override" className="w-fit" />
				</AppForm>
			</CardContent>
		</Card>
	)
}
