import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'

import { AppForm } from '#app/components/app-form.tsx'
import { Field } from '#app/components/field.tsx'
import { SubmitButton } from '#app/components/submit-button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { firstError } from './field-error.ts'
import { emailChangeSchema } from '#app/lib/schemas/settings.ts'

/** The email card of the profile tab: the current address and the form that requests a change. */
export function EmailChangeCard({ email, lastResult }: { email: string; lastResult: Parameters<typeof useForm>[0]['lastResult'] }) {
	const { t } = useTranslation('settings')
	const [form, fields] = useForm({
		id: 'email-change',
		lastResult,
		constraint: getZodConstraint(emailChangeSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: emailChangeSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('email.title')}</h2>
				</CardTitle>
				<CardDescription>{t('email.current', { email })}</CardDescription>
			</CardHeader>
			<CardContent>
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
					<input type="hidden" name="intent" value="email-change" />
					<Field
						label={t('email.newEmail')}
						htmlFor={fields.email.id}
						errorId={fields.email.errorId}
						error={firstError(fields.email.errors) ? t(`errors.${firstError(fields.email.errors)}`) : undefined}
					>
						<Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" />
					</Field>
					<p className="text-xs text-muted-foreground">{t('email.hint')}</p>
					<SubmitButton intent="email-change" label={t('email.send')} pendingLabel={t('email.sending')} className="w-fit" />
				</AppForm>
			</CardContent>
		</Card>
	)
}
