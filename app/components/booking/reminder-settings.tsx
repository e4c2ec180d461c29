import { getFormProps, getSelectProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Link } from '#app/components/link.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { MODULES } from '#app/lib/modules.ts'
import type { z } from 'zod'
import {
	REMINDER_CHOICES,
	REMINDER_FIELDS,
	reminderFieldsSchema,
	reminderSettingsSchema,
	reminderUnit,
	type ReminderOffsets,
} from '#app/lib/schemas/reminders.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * The booking settings' reminder times (docs/product.md, Booking reminders): up to three, each a
 * choice of times before the start, or none; a form of its own (intent `save-reminders`), so it
 * saves without the other settings. It says whether the organization has the upgrade that sends
 * them, with a link to it.
 */
export function ReminderSettings({
	offsets,
	active,
	result,
}: {
	offsets: number[]
	active: boolean
	result: SubmissionResult<string[]> | undefined
}) {
	const { t } = useTranslation('booking')
	const [form, fields] = useForm<z.input<typeof reminderSettingsSchema>, ReminderOffsets>({
		id: 'reminder-settings',
		lastResult: result,
		constraint: getZodConstraint(reminderFieldsSchema),
		defaultValue: { reminder1: offsets[0], reminder2: offsets[1], reminder3: offsets[2] },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: reminderSettingsSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const label = (minutes: number) => {
		const { unit, count } = reminderUnit(minutes)
		return t(`reminders.before.${unit}`, { count })
	}
	return (
		<Card id="reminders">
			<CardHeader>
				<CardTitle>
					<h2>{t('reminders.title')}</h2>
				</CardTitle>
				<CardDescription>{t('reminders.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				<p className="text-sm">
					{active ? (
						t('reminders.on')
					) : (
						<>
							{t('reminders.off')}{' '}
							<Link to={`/app/modules/${MODULES.booking.id}`} className="text-primary underline-offset-4 hover:underline">
								{t('reminders.upgrade')}
							</Link>
						</>
					)}
				</p>
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
					<input type="hidden" name="intent" value="save-reminders" />
					<fieldset className="grid gap-4 sm:grid-cols-3">
						<legend className="sr-only">{t('reminders.title')}</legend>
						{REMINDER_FIELDS.map((name, i) => {
							const field = fields[name]
							const current = offsets[i]
							const choices =
								current !== undefined && !(REMINDER_CHOICES as readonly number[]).includes(current)
									? [...REMINDER_CHOICES, current]
									: REMINDER_CHOICES
							return (
								<Field
									key={name}
									label={t(`reminders.fields.${name}`)}
									htmlFor={field.id}
									errorId={field.errorId}
									error={field.errors ? t(`reminders.errors.${field.errors[0]}`) : undefined}
								>
									<select
										{...getSelectProps(field)}
										className="h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs"
									>
										<option value="">{t('reminders.none')}</option>
										{[...choices]
											.sort((a, b) => b - a)
											.map((minutes) => (
												<option key={minutes} value={String(minutes)}>
													{label(minutes)}
												</option>
											))}
									</select>
								</Field>
							)
						})}
					</fieldset>
					<SubmitButton label={t('reminders.save')} pendingLabel={t('reminders.saving')} intent="save-reminders" className="w-fit" />
				</AppForm>
			</CardContent>
		</Card>
	)
}
