import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form } from 'react-router'
import { z } from 'zod'
import { auth } from '#app/.server/auth/port.ts'
import { clientMeta, startSession } from '#app/.server/auth/session.ts'
import { acceptInvitation, findInvitation } from '#app/.server/members.ts'
import { currentOrganizationCookie } from '#app/.server/organizations.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AuthCard } from '#app/components/auth-card.tsx'
import { Field } from '#app/components/field.tsx'
import { FormAlert } from '#app/components/form-alert.tsx'
import { PasswordInput } from '#app/components/password-input.tsx'
import { SubmitButton } from '#app/components/submit-button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { resetPasswordSchema } from '#app/lib/schemas/auth.ts'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/invitation'

export const meta = titleMeta('invitation')

/** The sign-up password rules (auth:errors), plus a full name. */
const schema = resetPasswordSchema.and(z.object({ fullName: z.string().trim().max(120).optional() }))

function tokenOf(request: Request) {
	const token = new URL(request.url).searchParams.get('token') ?? ''
	return token.length > 20 && token.length < 100 ? token : ''
}

/**
 * The invitation link (docs/product.md, Settings › Members): a person without an account
 * chooses a password and lands in the organization's dashboard, without an organization of
 * their own. The link works once and for 7 days.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const token = tokenOf(request)
	const invitation = token ? await findInvitation(token) : null
	return { token, invitation }
}

export async function action({ request, context }: Route.ActionArgs) {
	const submission = parseWithZod(await request.formData(), { schema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }) }, { status: 400 })
	}
	const invitation = await findInvitation(submission.value.token)
	const accepted = await acceptInvitation(submission.value.token, { fullName: submission.value.fullName ?? '', password: submission.value.password })
	if (!accepted.ok || !invitation) {
		const code = accepted.ok ? 'invalid_token' : accepted.code
		return redirectWithToast('/auth', { type: 'error', title: code === 'email_taken' ? 'settings:errors.emailTaken' : 'settings:members.invitation.invalid' })
	}
	// With Supabase the new account signs in through Supabase Auth (docs/decisions/019-supabase-adapters.md).
	const headers =
		auth().name === 'supabase'
			? await auth()
					.signIn(request, { email: invitation.email, password: submission.value.password, ...clientMeta(request, context) })
					.then((outcome) => (outcome.ok ? outcome.headers : new Headers()))
			: await startSession(request, context, accepted.userId)
	headers.append('set-cookie', await currentOrganizationCookie(accepted.organizationId))
	return redirectWithToast(
		'/app/dashboard',
		{ type: 'success', title: 'settings:members.invitation.welcome', values: { organization: accepted.organizationName } },
		{ headers },
	)
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('settings')
	const { t: ta } = useTranslation('auth')
	const { t: tc } = useTranslation()
	const [form, fields] = useForm({
		id: 'invitation',
		lastResult: actionData?.result,
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
		shouldValidate: 'onSubmit',
	})
	const { invitation } = loaderData
	if (!invitation) {
		return (
			<AuthCard title={tc('titles.invitation')} subtitle={t('members.invitation.invalid')}>
				<span />
			</AuthCard>
		)
	}
	return (
		<AuthCard
			title={t('members.invitation.title', { organization: invitation.organizationName })}
			subtitle={t('members.invitation.subtitle', { role: tc(`roles.${invitation.role}`) })}
		>
			<Form method="post" {...getFormProps(form)} noValidate className="grid gap-4">
				<input type="hidden" name="token" value={loaderData.token} />
				<FormAlert ns="auth" code={form.errors?.[0]} />
				<p className="text-sm text-muted-foreground">{invitation.email}</p>
				<Field label={t('members.invitation.fullName')} htmlFor={fields.fullName.id}>
					<Input {...getInputProps(fields.fullName, { type: 'text' })} autoComplete="name" />
				</Field>
				<Field label={t('members.invitation.password')} htmlFor={fields.password.id}>
					<PasswordInput {...getInputProps(fields.password, { type: 'password' })} autoComplete="new-password" />
				</Field>
				<Field label={t('members.invitation.confirmPassword')} htmlFor={fields.confirmPassword.id}>
					<PasswordInput {...getInputProps(fields.confirmPassword, { type: 'password' })} autoComplete="new-password" />
				</Field>
				<SubmitButton label={t('members.invitation.accept')} pendingLabel={ta('reset.submitting')} />
			</Form>
		</AuthCard>
	)
}
