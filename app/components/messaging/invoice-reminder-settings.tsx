import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { reminderSettingsSchema } from '#app/lib/schemas/messaging.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

export type ReminderSettingsView = { invoiceReminders: boolean; daysBefore: number[]; daysAfter: number[] }

/**
 * When invoice reminders go (docs/product.md, Reminders & Messaging): on or off, the days before
 * the due date and the days after it, as lists of whole days ("1, 7, 14"). A form of its own
 * (intent `save-settings`); owners and administrators save it, the others read it.
 */
export function InvoiceReminderSettings({
	settings,
	canEdit,
	result,
}: {
	settings: ReminderSettingsView
	canEdit: boolean
	result: SubmissionResult<string[]> | undefined
}) {
	const { t } = useTranslation('messaging')
	const [form, fields] = useForm({
		id: 'invoice-reminder-settings',
		lastResult: result,
		defaultValue: {
			invoiceReminders: settings.invoiceReminders ? 'on' : undefined,
			daysBefore: settings.daysBefore.join(', '),
			daysAfter: settings.daysAfter.join(', '),
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema: reminderSettingsSchema, disableAutoCoercion: true }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const error = (errors: string[] | undefined) => (errors?.length ? t(`errors.${errors[0]}`) : undefined)
	return (
		<Card id="reminders">
			<CardHeader>
				<CardTitle>
					<h2>{t('settings.title')}</h2>
				</CardTitle>
				<CardDescription>{t('settings.description')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				{canEdit ? null : <p className="text-sm text-muted-foreground">{t('settings.readOnly')}</p>}
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
					<input type="hidden" name="intent" value="save-settings" />
					<fieldset disabled={!canEdit} className="grid gap-4">
						<legend className="sr-only">{t('settings.title')}</legend>
						<div className="flex items-center gap-2">
							<input {...getInputProps(fields.invoiceReminders, { type: 'checkbox' })} className="size-4" />
							<Label htmlFor={fields.invoiceReminders.id}>{t('settings.enabled')}</Label>
						</div>
						<div className="grid gap-4 sm:grid-cols-2">
							<Field
								label={t('settings.daysBefore')}
								htmlFor={fields.daysBefore.id}
								errorId={fields.daysBefore.errorId}
								error={error(fields.daysBefore.errors)}
							>
								<Input
									{...getInputProps(fields.daysBefore, { type: 'text' })}
									inputMode="numeric"
									aria-describedby={`${fields.daysBefore.id}-hint ${fields.daysBefore.errorId}`}
								/>
								<p id={`${fields.daysBefore.id}-hint`} className="text-xs text-muted-foreground">
									{t('settings.daysBeforeHint')}
								</p>
							</Field>
							<Field
								label={t('settings.daysAfter')}
								htmlFor={fields.daysAfter.id}
								errorId={fields.daysAfter.errorId}
								error={error(fields.daysAfter.errors)}
							>
								<Input
									{...getInputProps(fields.daysAfter, { type: 'text' })}
									inputMode="numeric"
									aria-describedby={`${fields.daysAfter.id}-hint ${fields.daysAfter.errorId}`}
								/>
								<p id={`${fields.daysAfter.id}-hint`} className="text-xs text-muted-foreground">
									{t('settings.daysAfterHint')}
								</p>
							</Field>
						</div>
					</fieldset>
					{canEdit ? (
						<SubmitButton label={t('settings.save')} pendingLabel={t('settings.saving')} intent="save-settings" className="w-fit" />
					) : null}
				</AppForm>
			</CardContent>
		</Card>
	)
}
