import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { auth } from '#app/.server/auth/port.ts'
import { clientMeta } from '#app/.server/auth/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AuthCard } from '#app/components/shell/auth-card.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { FormAlert } from '#app/components/forms/form-alert.tsx'
import { PasswordInput } from '#app/components/forms/password-input.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { resetPasswordSchema } from '#app/lib/schemas/auth.ts'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/reset-password'

export const meta = titleMeta('resetPassword')

/** The reset link this form stands for (the adapter's: a token locally, the session the link made with Supabase Auth). */
export async function loader({ request }: Route.LoaderArgs) {
	return auth().passwordResetLink(request)
}

const RESET_ERRORS = { invalid_link: 'invalidResetLink', weak_password: 'passwordRefused' } as const

export async function action({ request, context }: Route.ActionArgs) {
	const submission = parseWithZod(await request.formData(), { schema: resetPasswordSchema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), formError: undefined }, { status: 400 })
	}
	const { token, password } = submission.value
	const reset = await auth().resetPassword(request, { token, password, ...clientMeta(request, context) })
	if (!reset.ok) return data({ result: submission.reply(), formError: RESET_ERRORS[reset.code] }, { status: 400 })
	return redirectWithToast('/app/dashboard', { type: 'success', title: 'auth:toast.passwordUpdated.title' }, { headers: reset.headers })
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('auth')
	const [form, fields] = useForm({
		id: 'reset-password',
		lastResult: actionData?.result,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
		shouldValidate: 'onSubmit',
	})
	if (!loaderData.valid) {
		return (
			<AuthCard title={t('reset.title')} subtitle={t('reset.subtitle')}>
				<FormAlert ns="auth" code="invalidResetLink" />
				<Link to="/auth/forgot-password" className="text-center text-sm text-primary underline-offset-4 hover:underline">
					{t('reset.requestAgain')}
				</Link>
			</AuthCard>
		)
	}
	return (
		<AuthCard title={t('reset.title')} subtitle={t('reset.subtitle')}>
			<Form method="post" {...getFormProps(form)} noValidate className="grid gap-4">
				<input type="hidden" name="token" value={loaderData.token} />
				<FormAlert ns="auth" code={actionData?.formError ?? form.errors?.[0]} />
				<Field label={t('reset.newPassword')} htmlFor={fields.password.id}>
					<PasswordInput {...getInputProps(fields.password, { type: 'password' })} autoComplete="new-password" />
				</Field>
				<Field label={t('fields.confirmPassword')} htmlFor={fields.confirmPassword.id}>
					<PasswordInput {...getInputProps(fields.confirmPassword, { type: 'password' })} autoComplete="new-password" />
				</Field>
				<SubmitButton label={t('reset.submit')} pendingLabel={t('reset.submitting')} />
			</Form>
		</AuthCard>
	)
}
