import { useTranslation } from '#app/lib/use-translation.ts'
import { Form } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { confirmEmailChange, findEmailChange } from '#app/.server/account/email-change.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AuthCard } from '#app/components/shell/auth-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/confirm-email'

export const meta = titleMeta('confirmEmail')

/**
 * The link of the email-change mail (docs/product.md, Settings). Opening it shows the new
 * address and a button: the change happens on the post, so a mail scanner that fetches the
 * link changes nothing. Works signed in or not (the link may be opened on another device).
 */
export async function loader({ request }: Route.LoaderArgs) {
	const token = new URL(request.url).searchParams.get('token') ?? ''
	const change = token.length > 20 && token.length < 100 ? await findEmailChange(token) : null
	return { token, newEmail: change?.newEmail ?? null }
}

export async function action({ request }: Route.ActionArgs) {
	const token = String((await request.formData()).get('token') ?? '')
	const result = token.length > 20 && token.length < 100 ? await confirmEmailChange(token) : ({ ok: false, code: 'invalid_token' } as const)
	if (!result.ok) {
		return redirectWithToast('/auth', {
			type: 'error',
			title: result.code === 'email_taken' ? 'settings:errors.emailTaken' : 'settings:email.invalidLink',
		})
	}
	return redirectWithToast('/app/settings', { type: 'success', title: 'settings:email.changed', values: { email: result.email } })
}

export default function ConfirmEmail({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('settings')
	if (!loaderData.newEmail) {
		return (
			<AuthCard title={t('email.confirmTitle')} subtitle={t('email.invalidLink')}>
				<Button asChild variant="outline">
					<Link to="/app/settings">{t('email.backToSettings')}</Link>
				</Button>
			</AuthCard>
		)
	}
	return (
		<AuthCard title={t('email.confirmTitle')} subtitle={t('email.confirmSubtitle', { email: loaderData.newEmail })}>
			<Form method="post">
				<input type="hidden" name="token" value={loaderData.token} />
				<Button type="submit" className="w-full">
					{t('email.confirm')}
				</Button>
			</Form>
		</AuthCard>
	)
}
