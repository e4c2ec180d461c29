import { useTranslation } from '#app/lib/use-translation.ts'
import { Form } from 'react-router'
import { z } from 'zod'
import { Link } from '#app/components/link.tsx'
import { auth } from '#app/.server/auth/port.ts'
import { getOptionalUser, requireUser } from '#app/.server/auth/session.ts'
import { confirmVerification, findVerification, isVerified } from '#app/.server/auth/verification.ts'
import { getLocale } from '#app/.server/i18n.ts'
import { safeRedirect } from '#app/.server/security.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AuthCard } from '#app/components/shell/auth-card.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { errorResponse } from '#app/lib/errors.ts'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/verify-email'

export const meta = titleMeta('verifyEmail')

const tokenSchema = z.string().min(21).max(99)

function tokenOf(value: FormDataEntryValue | string | null) {
	const parsed = tokenSchema.safeParse(value)
	return parsed.success ? parsed.data : ''
}

/**
 * The link of the verification mail (docs/decisions/037-verified-addresses.md). Opening it shows
 * the address and, to the account it was sent for, a button: the address is verified on the post,
 * so a mail scanner fetching the link changes nothing. Signed out, the page asks to sign in first
 * (and comes back); signed in as another account, it says so. A person who gets the mail for an
 * account they did not create cannot verify it for its creator: they would need its password
 * (a password reset gives the account to them instead).
 */
export async function loader({ request }: Route.LoaderArgs) {
	const url = new URL(request.url)
	const token = tokenOf(url.searchParams.get('token'))
	const [link, user] = await Promise.all([token ? findVerification(token) : null, getOptionalUser(request)])
	const verified = user ? await isVerified(user.userId) : false
	return {
		token,
		email: link?.email ?? null,
		mine: Boolean(link && user && link.userId === user.userId),
		signedInAs: user?.email ?? null,
		verified,
		here: url.pathname + url.search,
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const formData = await request.formData()
	const user = await requireUser(request)
	switch (formData.get('intent')) {
		case 'verify': {
			const token = tokenOf(formData.get('token'))
			const outcome = token ? await confirmVerification(token, user.userId) : ({ ok: false, code: 'invalid_token' } as const)
			if (!outcome.ok) {
				const title = outcome.code === 'other_account' ? 'auth:verify.otherAccountToast' : 'auth:verify.invalid'
				return redirectWithToast(token ? verifyPath(token) : '/auth/verify-email', { type: 'error', title })
			}
			return redirectWithToast('/app/dashboard', { type: 'success', title: 'auth:verify.done', values: { email: outcome.email } })
		}
		case 'resend': {
			const back = safeRedirect(formData.get('redirectTo'))
			const outcome = await auth().resendVerification(request, user, getLocale(context))
			if (!outcome.ok) {
				const title = outcome.code === 'already_verified' ? 'auth:verify.alreadyVerified' : 'auth:verify.tooMany'
				return redirectWithToast(back, { type: outcome.code === 'already_verified' ? 'info' : 'error', title })
			}
			return redirectWithToast(back, { type: 'success', title: 'auth:verify.sent', values: { email: outcome.email } })
		}
		default:
			return errorResponse(400, 'badRequest')
	}
}

function verifyPath(token: string) {
	return `/auth/verify-email?${new URLSearchParams({ token })}`
}

export default function VerifyEmail({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('auth')
	const { token, email, mine, signedInAs, verified, here } = loaderData
	const signIn = `/auth?${new URLSearchParams({ redirectTo: here })}`
	if (!email) {
		return (
			<AuthCard title={t('verify.title')} subtitle={verified ? t('verify.alreadyVerified') : t('verify.invalid')}>
				{signedInAs && !verified ? <ResendForm here={here} /> : null}
				<Button asChild variant="outline">
					<Link to={signedInAs ? '/app/dashboard' : '/auth'}>{signedInAs ? t('verify.toApp') : t('verify.toSignIn')}</Link>
				</Button>
			</AuthCard>
		)
	}
	if (mine) {
		return (
			<AuthCard title={t('verify.title')} subtitle={t('verify.confirmSubtitle', { email })}>
				<Form method="post" className="grid">
					<input type="hidden" name="intent" value="verify" />
					<input type="hidden" name="token" value={token} />
					<SubmitButton intent="verify" label={t('verify.confirm')} pendingLabel={t('verify.confirming')} />
				</Form>
			</AuthCard>
		)
	}
	if (signedInAs) {
		return (
			<AuthCard title={t('verify.title')} subtitle={t('verify.otherAccount', { email, other: signedInAs })}>
				<Form method="post" action="/auth/sign-out" className="grid">
					<input type="hidden" name="redirectTo" value={signIn} />
					<SubmitButton label={t('verify.switchAccount')} pendingLabel={t('verify.confirming')} />
				</Form>
			</AuthCard>
		)
	}
	return (
		<AuthCard title={t('verify.title')} subtitle={t('verify.signInSubtitle', { email })}>
			<Button asChild>
				<Link to={signIn}>{t('verify.signIn')}</Link>
			</Button>
			<p className="text-center text-sm text-muted-foreground">{t('verify.notYou')}</p>
		</AuthCard>
	)
}

function ResendForm({ here }: { here: string }) {
	const { t } = useTranslation('auth')
	return (
		<Form method="post" className="grid">
			<input type="hidden" name="intent" value="resend" />
			<input type="hidden" name="redirectTo" value={here} />
			<SubmitButton intent="resend" label={t('verify.resend')} pendingLabel={t('verify.resending')} />
		</Form>
	)
}
