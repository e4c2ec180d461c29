import { AppForm } from '#app/components/forms/app-form.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * The signed-in shell's reminder while the user's address is not verified
 * (docs/decisions/037-verified-addresses.md): where the link went, and a plain form that mails it
 * again (rate-limited on the server) and comes back to this page, with or without JavaScript.
 */
export function VerifyEmailBanner({ email, here }: { email: string; here: string }) {
	const { t } = useTranslation('auth')
	return (
		<section
			aria-label={t('verify.bannerLabel')}
			className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b bg-muted px-3 py-2 text-sm md:px-4"
		>
			<p className="min-w-0 flex-1 break-words">{t('verify.banner', { email })}</p>
			<AppForm method="post" action="/auth/verify-email">
				<input type="hidden" name="intent" value="resend" />
				<input type="hidden" name="redirectTo" value={here} />
				<Button type="submit" variant="outline" size="sm">
					{t('verify.resend')}
				</Button>
			</AppForm>
		</section>
	)
}
