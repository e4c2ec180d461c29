import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { WEEKDAYS, type Weekday } from '#app/lib/availability.ts'

type DayFields = { enabled?: boolean; start?: string; end?: string }

/**
 * Opening hours per weekday: a checkbox, a start and an end time on each line, the error under
 * the line. Used by the organization's business hours and by a provider's own hours, so both
 * read the same way. Error keys are under booking:errors.
 */
export function WeeklyHoursFieldset({ hours, legend }: { hours: FieldMetadata<Record<Weekday, DayFields> | undefined>; legend: string }) {
	const { t } = useTranslation('booking')
	const days = hours.getFieldset()
	const error = (field: FieldMetadata<unknown>) => (field.errors ? t(`errors.${field.errors[0]}`) : undefined)
	return (
		<fieldset className="grid min-w-0 grid-cols-1 gap-3">
			<legend className="mb-2 text-sm font-medium">{legend}</legend>
			{WEEKDAYS.map((day) => {
				const dayFields = days[day].getFieldset()
				const dayError = error(dayFields.start) ?? error(dayFields.end)
				return (
					<div key={day} className="grid gap-1">
						<div className="flex min-w-0 flex-wrap items-center gap-3">
							<div className="flex w-full items-center gap-2 sm:w-36">
								<input {...getInputProps(dayFields.enabled, { type: 'checkbox' })} className="size-4 accent-primary" />
								<Label htmlFor={dayFields.enabled.id}>{t(`weekdays.${day}`)}</Label>
							</div>
							{/* The two times stay on one line together, under the day on a phone, shrinking to fit it. */}
							<div className="flex w-full min-w-0 items-center gap-2 sm:w-auto">
								<Input
									{...getInputProps(dayFields.start, { type: 'time' })}
									aria-label={t('settings.hours.opens', { day: t(`weekdays.${day}`) })}
									className="min-w-0 flex-1 max-sm:px-2 sm:w-auto sm:flex-none"
								/>
								<span aria-hidden="true" className="shrink-0 text-sm text-muted-foreground">
									{t('settings.hours.to')}
								</span>
								<Input
									{...getInputProps(dayFields.end, { type: 'time' })}
									aria-label={t('settings.hours.closes', { day: t(`weekdays.${day}`) })}
									className="min-w-0 flex-1 max-sm:px-2 sm:w-auto sm:flex-none"
								/>
							</div>
						</div>
						{dayError ? (
							<p id={dayFields.end.errorId} className="text-sm text-destructive">
								{dayError}
							</p>
						) : null}
					</div>
				)
			})}
		</fieldset>
	)
}

/** The form's default values for `hours`: conform's strings, 'on' for a checked day. */
export function weeklyHoursDefaults(hours: Record<Weekday, Required<DayFields>>) {
	return Object.fromEntries(
		WEEKDAYS.map((day) => [day, { enabled: hours[day].enabled ? 'on' : undefined, start: hours[day].start, end: hours[day].end }]),
	)
}
