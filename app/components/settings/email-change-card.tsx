import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import type { Reauthentication } from '#app/lib/schemas/auth.ts'
import { emailChangeFormSchema } from '#app/lib/schemas/settings.ts'
import { firstError } from './field-error.ts'

/** The email card of the profile tab: the current address and the form that requests a change. */
export function EmailChangeCard({
	email,
	reauthentication,
	lastResult,
}: {
	email: string
	reauthentication: Reauthentication
	lastResult: Parameters<typeof useForm>[0]['lastResult']
}) {
	const { t } = useTranslation('settings')
	const schema = emailChangeFormSchema(reauthentication)
	const [form, fields] = useForm({
		id: 'email-change',
		lastResult,
		constraint: getZodConstraint(schema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const error = (errors: unknown) => {
		const key = firstError(errors)
		return key ? t(`errors.${key}`) : undefined
	}
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('email.title')}</h2>
				</CardTitle>
				<CardDescription>{t('email.current', { email })}</CardDescription>
			</CardHeader>
			<CardContent>
				{reauthentication === 'stale' ? (
					// An account without a password proves it is its holder by signing in again (then comes back here).
					<AppForm method="post" action="/auth/sign-out" className="grid gap-4">
						<p className="text-sm text-muted-foreground">{t('email.signInAgain')}</p>
						<input type="hidden" name="redirectTo" value={`/auth?${new URLSearchParams({ redirectTo: '/app/settings' })}`} />
						<Button type="submit" variant="outline" className="w-fit">
							{t('email.signInAgainButton')}
						</Button>
					</AppForm>
				) : (
					<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
						<input type="hidden" name="intent" value="email-change" />
						<Field label={t('email.newEmail')} htmlFor={fields.email.id} errorId={fields.email.errorId} error={error(fields.email.errors)}>
							<Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" />
						</Field>
						{reauthentication === 'password' ? (
							<Field
								label={t('email.password')}
								htmlFor={fields.currentPassword.id}
								errorId={fields.currentPassword.errorId}
								error={error(fields.currentPassword.errors)}
							>
								<Input {...getInputProps(fields.currentPassword, { type: 'password' })} autoComplete="current-password" />
							</Field>
						) : null}
						<p className="text-xs text-muted-foreground">{t('email.hint')}</p>
						<SubmitButton intent="email-change" label={t('email.send')} pendingLabel={t('email.sending')} className="w-fit" />
					</AppForm>
				)}
			</CardContent>
		</Card>
	)
}
