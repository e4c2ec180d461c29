import { useTranslation } from '#app/lib/use-translation.ts'
import { Form } from 'react-router'
import { z } from 'zod'
import { Link } from '#app/components/link.tsx'
import { endSession } from '#app/.server/auth/session.ts'
import { findEmailRevert, REVERT_DAYS, revertEmailChange } from '#app/.server/account/email-change.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AuthCard } from '#app/components/shell/auth-card.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/revert-email'

export const meta = titleMeta('revertEmail')

const tokenSchema = z.string().min(21).max(99)

/**
 * The undo link of the "your sign-in email was changed" notice (docs/product.md, Settings),
 * mailed to the old address, valid 7 days. Opening it shows both addresses and a button; the
 * change is undone on the post (a mail scanner fetching the link changes nothing), signed in or
 * not: the old address comes back, every session ends and the password is cleared, and the page
 * goes on to "Reset your password" for the restored address.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const parsed = tokenSchema.safeParse(new URL(request.url).searchParams.get('token'))
	const token = parsed.success ? parsed.data : ''
	const revert = token ? await findEmailRevert(token) : null
	return { token, revert, days: REVERT_DAYS }
}

export async function action({ request }: Route.ActionArgs) {
	const parsed = tokenSchema.safeParse((await request.formData()).get('token'))
	const result = parsed.success ? await revertEmailChange(parsed.data) : ({ ok: false, code: 'invalid_token' } as const)
	if (!result.ok) {
		const title = result.code === 'email_taken' ? 'settings:errors.emailTaken' : 'settings:email.revert.invalid'
		return redirectWithToast('/auth', { type: 'error', title })
	}
	// This browser's session ended with all the others: its cookies go too.
	return redirectWithToast(
		'/auth/forgot-password',
		{
			type: 'success',
			title: 'settings:email.revert.done',
			description: 'settings:email.revert.resetNow',
			values: { email: result.email },
		},
		{ headers: await endSession(request) },
	)
}

export default function RevertEmail({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('settings')
	const { revert, token, days } = loaderData
	if (!revert) {
		return (
			<AuthCard title={t('email.revert.title')} subtitle={t('email.revert.invalid')}>
				<Button asChild variant="outline">
					<Link to="/auth/forgot-password">{t('email.revert.toReset')}</Link>
				</Button>
			</AuthCard>
		)
	}
	return (
		<AuthCard title={t('email.revert.title')} subtitle={t('email.revert.subtitle', { old: revert.oldEmail, new: revert.newEmail })}>
			<p className="text-sm text-muted-foreground">{t('email.revert.consequences', { days })}</p>
			<Form method="post" className="grid">
				<input type="hidden" name="token" value={token} />
				<SubmitButton label={t('email.revert.confirm', { email: revert.oldEmail })} pendingLabel={t('email.revert.reverting')} />
			</Form>
		</AuthCard>
	)
}
