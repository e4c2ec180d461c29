import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { auth } from '#app/.server/auth/port.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { AuthCard } from '#app/components/shell/auth-card.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { forgotPasswordSchema } from '#app/lib/schemas/auth.ts'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/forgot-password'

export const meta = titleMeta('forgotPassword')

export async function action({ request, context }: Route.ActionArgs) {
	const submission = parseWithZod(await request.formData(), { schema: forgotPasswordSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(), sent: false }, { status: 400 })
	// The mail is in the page's language; the same answer whether or not the account exists.
	await auth().sendPasswordReset(request, { email: submission.value.email, language: getLocale(context) })
	return { result: submission.reply({ resetForm: true }), sent: true }
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
	const { t } = useTranslation('auth')
	const [form, fields] = useForm({
		id: 'forgot-password',
		lastResult: actionData?.result,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
		shouldValidate: 'onSubmit',
	})
	return (
		<AuthCard title={t('recovery.title')} subtitle={t('recovery.subtitle')}>
			{actionData?.sent ? (
				<Alert>
					<AlertTitle>{t('recovery.sentTitle')}</AlertTitle>
					<AlertDescription>{t('recovery.sentDescription')}</AlertDescription>
				</Alert>
			) : null}
			<Form method="post" {...getFormProps(form)} noValidate className="grid gap-4">
				<Field
					label={t('fields.email')}
					htmlFor={fields.email.id}
					errorId={fields.email.errorId}
					error={fields.email.errors ? t(`errors.${fields.email.errors[0]}.description`) : undefined}
				>
					<Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" />
				</Field>
				<SubmitButton label={t('recovery.submit')} pendingLabel={t('recovery.submitting')} />
			</Form>
			<Link to="/auth" className="text-center text-sm text-primary underline-offset-4 hover:underline">
				{t('recovery.backToLogin')}
			</Link>
		</AuthCard>
	)
}
