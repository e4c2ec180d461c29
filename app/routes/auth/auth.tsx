import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect, useSearchParams } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { googleSignInAvailable } from '#app/.server/auth/google.ts'
import { appendLanguage, auth } from '#app/.server/auth/port.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { newOrganizationZone } from '#app/.server/organizations/current.ts'
import { clientMeta, getOptionalUser } from '#app/.server/auth/session.ts'
import { isVerified } from '#app/.server/auth/verification.ts'
import { languageAtSignIn } from '#app/.server/account/profile.ts'
import { safeRedirect } from '#app/.server/security.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AuthCard } from '#app/components/shell/auth-card.tsx'
import { Field } from '#app/components/forms/field.tsx'
import { FormAlert } from '#app/components/forms/form-alert.tsx'
import { GoogleButton } from '#app/components/shell/google-button.tsx'
import { PasswordInput } from '#app/components/forms/password-input.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { NewOrganizationZone } from '#app/components/forms/timezone-select.tsx'
import { loginSchema, signUpSchema } from '#app/lib/schemas/auth.ts'
import { pageMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/auth'

export const meta: Route.MetaFunction = (args) =>
	pageMeta(args, new URLSearchParams(args.location.search).get('mode') === 'signup' ? 'signUp' : 'auth')

export async function loader({ request }: Route.LoaderArgs) {
	const url = new URL(request.url)
	if (await getOptionalUser(request)) throw redirect(safeRedirect(url.searchParams.get('redirectTo')))
	// Without Google credentials the button would only lead to an error: it is left out.
	return { googleError: url.searchParams.get('error'), google: googleSignInAvailable() }
}

export async function action({ request, context }: Route.ActionArgs) {
	const formData = await request.formData()
	switch (formData.get('intent')) {
		case 'signup':
			return handleSignUp(request, context, formData)
		case 'login':
			return handleLogin(request, context, formData)
		default:
			return data({ result: null, formError: 'unknownIntent' }, { status: 400 })
	}
}

const LOGIN_ERRORS = {
	too_many_attempts: 'tooManyAttempts',
	invalid_credentials: 'loginFailed',
	email_not_confirmed: 'emailNotConfirmed',
} as const

async function handleLogin(request: Request, context: Route.ActionArgs['context'], formData: FormData) {
	const submission = parseWithZod(formData, { schema: loginSchema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: ['password'] }), formError: undefined }, { status: 400 })
	}
	const { email, password, redirectTo } = submission.value
	const outcome = await auth().signIn(request, { email, password, ...clientMeta(request, context) })
	if (!outcome.ok) {
		const status = outcome.code === 'too_many_attempts' ? 429 : 400
		const formError = LOGIN_ERRORS[outcome.code]
		return data({ result: submission.reply({ hideFields: ['password'] }), formError }, { status })
	}
	const headers = await appendLanguage(outcome.headers, await languageAtSignIn(outcome.user.userId, getLocale(context)))
	return redirectWithToast(
		safeRedirect(redirectTo),
		{ type: 'success', title: 'auth:toast.welcomeBack.title', description: 'auth:toast.welcomeBack.description' },
		{ headers },
	)
}

async function handleSignUp(request: Request, context: Route.ActionArgs['context'], formData: FormData) {
	const submission = parseWithZod(formData, { schema: signUpSchema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), formError: undefined }, { status: 400 })
	}
	// The new organization's zone: the browser's, or the one picked without JavaScript; one outside the list creates nothing.
	const zone = newOrganizationZone(formData.get('timezone'))
	if (!zone.ok) {
		return data(
			{ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), formError: 'timezoneInvalid' },
			{ status: 400 },
		)
	}
	const { email, password, fullName } = submission.value
	const outcome = await auth().signUp(request, {
		email,
		password,
		fullName: fullName ?? '',
		language: getLocale(context),
		timezone: zone.zone,
		...clientMeta(request, context),
	})
	if (!outcome.ok) {
		const throttled = outcome.code === 'too_many_attempts'
		const formError = throttled ? 'tooManySignUps' : outcome.code === 'weak_password' ? 'passwordRefused' : 'signupFailed'
		return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), formError }, { status: throttled ? 429 : 400 })
	}
	// A Supabase project with "Confirm email" on: the account exists, the session comes with the emailed link.
	if (!outcome.signedIn) {
		return redirectWithToast('/auth', {
			type: 'info',
			title: 'auth:toast.confirmEmail.title',
			description: 'auth:toast.confirmEmail.description',
		})
	}
	// Signed in at once, in their own organization; an address not verified yet (locally, always) gets its link by mail.
	const toast = (await isVerified(outcome.user.userId)) ? 'auth:toast.accountCreated' : 'auth:toast.accountCreatedVerify'
	return redirectWithToast(
		'/app/dashboard',
		{ type: 'success', title: `${toast}.title`, description: `${toast}.description`, values: { email: outcome.user.email } },
		{ headers: outcome.headers },
	)
}

export default function AuthScreen({ loaderData, actionData }: Route.ComponentProps) {
	const { t } = useTranslation('auth')
	const [searchParams] = useSearchParams()
	const mode = searchParams.get('mode') === 'signup' ? 'signup' : 'login'
	const redirectTo = searchParams.get('redirectTo') ?? ''
	const toggle = new URLSearchParams(searchParams)
	toggle.set('mode', mode === 'signup' ? 'login' : 'signup')
	return (
		<AuthCard
			title={mode === 'signup' ? t('signup.title') : t('login.title')}
			subtitle={mode === 'signup' ? t('signup.subtitle') : t('login.subtitle')}
		>
			{loaderData.googleError ? <FormAlert ns="auth" code={googleErrorCode(loaderData.googleError)} /> : null}
			{mode === 'signup' ? (
				<SignUpForm key="signup" lastResult={actionData?.result} formError={actionData?.formError} />
			) : (
				<LoginForm key="login" lastResult={actionData?.result} formError={actionData?.formError} redirectTo={redirectTo} />
			)}
			{loaderData.google ? (
				<>
					<div className="flex items-center gap-3 text-xs text-muted-foreground uppercase">
						<span className="h-px flex-1 bg-border" />
						{t('or')}
						<span className="h-px flex-1 bg-border" />
					</div>
					<GoogleButton redirectTo={redirectTo} />
				</>
			) : null}
			<p className="text-center text-sm text-muted-foreground">
				{mode === 'signup' ? t('signup.haveAccount') : t('login.noAccount')}{' '}
				<Link to={`?${toggle}`} className="font-medium text-primary underline-offset-4 hover:underline">
					{mode === 'signup' ? t('signup.toLogin') : t('login.toSignup')}
				</Link>
			</p>
		</AuthCard>
	)
}

function googleErrorCode(code: string) {
	return ['googleNotConfigured', 'googleFailed', 'googleEmailNotVerified', 'emailLinkFailed'].includes(code) ? code : 'googleFailed'
}

type FormResult = Route.ComponentProps['actionData'] extends infer A ? (A extends { result: infer R } ? R : never) : never

function LoginForm({ lastResult, formError, redirectTo }: { lastResult: FormResult | undefined; formError?: string; redirectTo: string }) {
	const { t } = useTranslation('auth')
	const [form, fields] = useForm({
		id: 'login',
		lastResult,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
		shouldValidate: 'onSubmit',
	})
	const error = formError ?? form.errors?.[0]
	return (
		<Form method="post" {...getFormProps(form)} noValidate className="grid gap-4" aria-describedby={error ? 'login-error' : undefined}>
			<input type="hidden" name="intent" value="login" />
			<input type="hidden" name="redirectTo" value={redirectTo} />
			<FormAlert ns="auth" code={error} id="login-error" />
			<Field label={t('fields.email')} htmlFor={fields.email.id}>
				<Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" placeholder={t('fields.emailPlaceholder')} />
			</Field>
			<Field label={t('fields.password')} htmlFor={fields.password.id}>
				<PasswordInput {...getInputProps(fields.password, { type: 'password' })} autoComplete="current-password" />
			</Field>
			{/* After the password, so Tab goes from the email to the password. */}
			<Link to="/auth/forgot-password" className="-mt-2 justify-self-end text-sm text-primary underline-offset-4 hover:underline">
				{t('login.forgot')}
			</Link>
			<SubmitButton intent="login" label={t('login.submit')} pendingLabel={t('login.submitting')} className="w-full" />
		</Form>
	)
}

function SignUpForm({ lastResult, formError }: { lastResult: FormResult | undefined; formError?: string }) {
	const { t } = useTranslation('auth')
	const [form, fields] = useForm({
		id: 'signup',
		lastResult,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: signUpSchema }),
		shouldValidate: 'onSubmit',
	})
	const error = formError ?? form.errors?.[0]
	return (
		<Form method="post" {...getFormProps(form)} noValidate className="grid gap-4" aria-describedby={error ? 'signup-error' : undefined}>
			<input type="hidden" name="intent" value="signup" />
			<FormAlert ns="auth" code={error} id="signup-error" />
			<Field label={t('fields.fullName')} htmlFor={fields.fullName.id}>
				<Input {...getInputProps(fields.fullName, { type: 'text' })} autoComplete="name" placeholder={t('fields.fullNamePlaceholder')} />
			</Field>
			<Field label={t('fields.email')} htmlFor={fields.email.id}>
				<Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" placeholder={t('fields.emailPlaceholder')} />
			</Field>
			<Field label={t('fields.password')} htmlFor={fields.password.id}>
				<PasswordInput {...getInputProps(fields.password, { type: 'password' })} autoComplete="new-password" />
			</Field>
			<Field label={t('fields.confirmPassword')} htmlFor={fields.confirmPassword.id}>
				<PasswordInput {...getInputProps(fields.confirmPassword, { type: 'password' })} autoComplete="new-password" />
			</Field>
			<NewOrganizationZone
				label={t('fields.timezone')}
				error={formError === 'timezoneInvalid' ? t('errors.timezoneInvalid.description') : undefined}
			/>
			<SubmitButton intent="signup" label={t('signup.submit')} pendingLabel={t('signup.submitting')} className="w-full" />
		</Form>
	)
}
