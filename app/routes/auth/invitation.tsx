import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { z } from 'zod'
import { auth } from '#app/.server/auth/port.ts'
import { clientMeta, getOptionalUser, requireUser } from '#app/.server/auth/session.ts'
import { isVerified } from '#app/.server/auth/verification.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { acceptInvitation, findInvitation, joinWithInvitation } from '#app/.server/organizations/members.ts'
import { currentOrganizationCookie } from '#app/.server/organizations/current.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AuthCard } from '#app/components/shell/auth-card.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { FormAlert } from '#app/components/forms/form-alert.tsx'
import { PasswordInput } from '#app/components/forms/password-input.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { resetPasswordSchema } from '#app/lib/schemas/auth.ts'
import { CONTROL_CHARACTERS, isSingleLine } from '#app/lib/schemas/fields.ts'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/invitation'

export const meta = titleMeta('invitation')

/** The sign-up password rules (auth:errors), plus a full name. */
const schema = resetPasswordSchema.and(
	z.object({ fullName: z.string().trim().max(120).optional() }).superRefine((v, ctx) => {
		// One line of plain text, like every name (app/lib/schemas/fields.ts).
		if (v.fullName && !isSingleLine(v.fullName)) ctx.addIssue({ code: 'custom', message: CONTROL_CHARACTERS, path: [] })
	}),
)

function tokenOf(request: Request) {
	const token = new URL(request.url).searchParams.get('token') ?? ''
	return token.length > 20 && token.length < 100 ? token : ''
}

/**
 * The invitation link (docs/product.md, Settings › Members): a person without an account
 * chooses a password and lands in the organization's dashboard, without an organization of
 * their own; the account of the invited address accepts while signed in with it, once its
 * address is verified (docs/decisions/037-verified-addresses.md): signed in with another
 * address, the page says so; not verified yet, it asks to verify first. The link works once and
 * for 7 days.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const token = tokenOf(request)
	const invitation = token ? await findInvitation(token) : null
	const user = invitation ? await getOptionalUser(request) : null
	const verified = user ? await isVerified(user.userId) : false
	const url = new URL(request.url)
	return { token, invitation, signedInAs: user?.email ?? null, verified, here: url.pathname + url.search }
}

export async function action({ request, context }: Route.ActionArgs) {
	const formData = await request.formData()
	if (formData.get('intent') === 'join') return join(request, formData)
	const submission = parseWithZod(formData, { schema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }) }, { status: 400 })
	}
	const { token, password } = submission.value
	const invitation = await findInvitation(token)
	const accepted = await acceptInvitation(token, { fullName: submission.value.fullName ?? '', password, language: getLocale(context) })
	if (!accepted.ok || !invitation) {
		// The address got an account meanwhile: the page now offers to sign in with it.
		if (!accepted.ok && accepted.code === 'email_taken') {
			return redirectWithToast(invitationPath(token), { type: 'error', title: 'settings:errors.emailTaken' })
		}
		return redirectWithToast(invitationPath(token), { type: 'error', title: 'settings:members.invitation.invalid' })
	}
	// With Supabase the new account signs in through Supabase Auth (docs/decisions/019-supabase-adapters.md).
	const headers = await auth().signInNewAccount(
		request,
		{ userId: accepted.userId, email: invitation.email },
		{ password, ...clientMeta(request, context) },
	)
	return welcome(accepted, headers)
}

const JOIN_TOASTS = {
	invalid_token: 'settings:members.invitation.invalid',
	other_account: 'settings:members.invitation.notYours',
	unverified: 'settings:members.invitation.verifyFirstToast',
} as const

/** The signed-in, verified owner of the invited address joins; anyone else is told why not, and nothing changes. */
async function join(request: Request, formData: FormData) {
	const token = z.string().max(200).catch('').parse(formData.get('token'))
	const user = await requireUser(request)
	const joined = await joinWithInvitation(token, user)
	if (!joined.ok) return redirectWithToast(invitationPath(token), { type: 'error', title: JOIN_TOASTS[joined.code] })
	return welcome(joined, new Headers())
}

async function welcome(joined: { organizationId: string; organizationName: string }, headers: Headers) {
	headers.append('set-cookie', await currentOrganizationCookie(joined.organizationId))
	return redirectWithToast(
		'/app/dashboard',
		{ type: 'success', title: 'settings:members.invitation.welcome', values: { organization: joined.organizationName } },
		{ headers },
	)
}

function invitationPath(token: string) {
	return `/auth/invitation?${new URLSearchParams({ token })}`
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
	const { invitation, token, signedInAs, verified } = loaderData
	if (!invitation) {
		return (
			<AuthCard title={tc('titles.invitation')} subtitle={t('members.invitation.invalid')}>
				<p className="text-center text-sm text-muted-foreground">{t('members.invitation.askAgain')}</p>
				<Button asChild variant="outline">
					<Link to="/auth">{t('members.invitation.toSignIn')}</Link>
				</Button>
			</AuthCard>
		)
	}
	const values = { organization: invitation.organizationName, role: tc(`roles.${invitation.role}`), email: invitation.email }
	if (invitation.hasAccount) {
		const invitee = signedInAs?.toLowerCase() === invitation.email
		const subtitle = !invitee
			? 'members.invitation.signInSubtitle'
			: verified
				? 'members.invitation.joinSubtitle'
				: 'members.invitation.verifyFirst'
		return (
			<AuthCard title={t('members.invitation.title', values)} subtitle={t(subtitle, values)}>
				{invitee && verified ? (
					<Form method="post" className="grid">
						<input type="hidden" name="token" value={token} />
						<input type="hidden" name="intent" value="join" />
						<SubmitButton label={t('members.invitation.join', values)} pendingLabel={t('members.invitation.joining')} />
					</Form>
				) : invitee ? (
					// The verification link is mailed again; once it is used, this link works.
					<Form method="post" action="/auth/verify-email" className="grid">
						<input type="hidden" name="intent" value="resend" />
						<input type="hidden" name="redirectTo" value={loaderData.here} />
						<SubmitButton label={ta('verify.resend')} pendingLabel={ta('verify.resending')} />
					</Form>
				) : signedInAs ? (
					<Form method="post" action="/auth/sign-out" className="grid gap-3">
						<p className="text-sm text-muted-foreground">{t('members.invitation.otherAccount', { email: signedInAs })}</p>
						<input type="hidden" name="redirectTo" value={`/auth?${new URLSearchParams({ redirectTo: loaderData.here })}`} />
						<SubmitButton label={t('members.invitation.switchAccount')} pendingLabel={t('members.invitation.joining')} />
					</Form>
				) : (
					<>
						<Button asChild>
							<Link to={`/auth?${new URLSearchParams({ redirectTo: loaderData.here })}`}>{t('members.invitation.signIn')}</Link>
						</Button>
						{/* Whoever created that account may not be the address's owner: a reset through the address gives it to its owner. */}
						<p className="text-center text-sm text-muted-foreground">
							{t('members.invitation.forgotHint')}{' '}
							<Link to="/auth/forgot-password" className="font-medium text-primary underline-offset-4 hover:underline">
								{ta('login.forgot')}
							</Link>
						</p>
					</>
				)}
			</AuthCard>
		)
	}
	return (
		<AuthCard title={t('members.invitation.title', values)} subtitle={t('members.invitation.subtitle', values)}>
			<Form method="post" {...getFormProps(form)} noValidate className="grid gap-4">
				<input type="hidden" name="token" value={token} />
				<FormAlert ns="auth" code={form.errors?.[0]} />
				<p className="text-sm text-muted-foreground">{invitation.email}</p>
				{signedInAs ? <p className="text-sm">{t('members.invitation.newAccountNote', { email: signedInAs })}</p> : null}
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
