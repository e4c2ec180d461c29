import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { FormAlert } from '#app/components/forms/form-alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { passwordSchema } from '#app/lib/schemas/settings.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { firstError } from './field-error.ts'

/** The password card of the profile tab: current, new and confirmation; the button waits for all three once JavaScript runs. */
export function PasswordCard({ lastResult }: { lastResult: Parameters<typeof useForm>[0]['lastResult'] }) {
	const { t } = useTranslation('settings')
	const hydrated = useHydrated()
	const [filled, setFilled] = useState({ currentPassword: false, newPassword: false, confirmPassword: false })
	const [form, fields] = useForm({
		id: 'password',
		lastResult,
		constraint: getZodConstraint(passwordSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: passwordSchema }),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
	})
	const error = (errors: unknown) => {
		const key = firstError(errors)
		return key ? t(`errors.${key}`) : undefined
	}
	const ready = filled.currentPassword && filled.newPassword && filled.confirmPassword
	const field = (name: 'currentPassword' | 'newPassword' | 'confirmPassword', autoComplete: string) => (
		<Field label={t(`password.fields.${name}`)} htmlFor={fields[name].id} errorId={fields[name].errorId} error={error(fields[name].errors)}>
			<Input
				{...getInputProps(fields[name], { type: 'password' })}
				autoComplete={autoComplete}
				onChange={(e) => {
					const hasValue = e.currentTarget.value.length > 0
					setFilled((f) => ({ ...f, [name]: hasValue }))
				}}
			/>
		</Field>
	)
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('password.title')}</h2>
				</CardTitle>
				<CardDescription>{t('password.description')}</CardDescription>
			</CardHeader>
			<CardContent>
				<AppForm method="post" {...getFormProps(form)} noValidate className="grid gap-4">
					<input type="hidden" name="intent" value="password" />
					<FormAlert ns="settings" code={firstError(form.errors)} id={form.errorId} />
					{field('currentPassword', 'current-password')}
					{field('newPassword', 'new-password')}
					{field('confirmPassword', 'new-password')}
					{/* Without JavaScript the button stays enabled; the server enforces the same rule. */}
					<Button type="submit" className="w-fit" disabled={hydrated && !ready}>
						{t('password.update')}
					</Button>
				</AppForm>
			</CardContent>
		</Card>
	)
}
