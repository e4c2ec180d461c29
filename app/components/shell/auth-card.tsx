import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { LanguageSwitcher } from '#app/components/shell/language-switcher.tsx'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { MAIN_ID } from '#app/components/shell/skip-link.tsx'

/** The /auth card (docs/product.md, Sign-in and sign-up): the P2P badge, a title and subtitle, the form, and a footer. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: React.ReactNode }) {
	const { t } = useTranslation('auth')
	return (
		<main id={MAIN_ID} tabIndex={-1} className="flex min-h-svh flex-col items-center justify-center bg-muted/40 p-4">
			<div className="mb-4 flex w-full max-w-md justify-end">
				<LanguageSwitcher />
			</div>
			<Card className="w-full max-w-md">
				<CardHeader className="items-center text-center">
					<Link
						to="/"
						className="mx-auto mb-2 flex size-12 items-center justify-center rounded-xl bg-primary text-lg font-bold text-primary-foreground"
						aria-label={t('common:appName')}
					>
						{t('common:badge')}
					</Link>
					<CardTitle className="text-2xl">
						<h1>{title}</h1>
					</CardTitle>
					<CardDescription>{subtitle}</CardDescription>
				</CardHeader>
				<CardContent className="grid gap-4">{children}</CardContent>
				<CardFooter className="justify-center text-center text-xs text-muted-foreground">{t('footer')}</CardFooter>
			</Card>
		</main>
	)
}
