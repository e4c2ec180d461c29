import { ArrowLeftRightIcon, BarChart3Icon, CalendarDaysIcon, CheckIcon, PuzzleIcon, UsersIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { getOptionalUser } from '#app/.server/auth/session.ts'
import { getInstance } from '#app/.server/i18n.ts'
import { displayName } from '#app/.server/organizations/current.ts'
import { LanguageSwitcher } from '#app/components/shell/language-switcher.tsx'
import { MAIN_ID } from '#app/components/shell/skip-link.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { pageMeta } from '#app/lib/meta.ts'
import { plans } from '#app/lib/plans.ts'
import { useFormat } from '#app/lib/use-format.ts'
import type { Route } from './+types/landing'

export const meta: Route.MetaFunction = (args) => [
	...pageMeta(args, null),
	{ name: 'description', content: args.loaderData?.description ?? '' },
]

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = await getOptionalUser(request)
	return {
		signedIn: user !== null,
		// A signed-in visitor is greeted and sent to the app, not offered a sign-up.
		greeting: user ? await displayName(user) : null,
		description: getInstance(context).t('landing.subheadline'),
	}
}

const features = [
	{ key: 'tracking', icon: ArrowLeftRightIcon },
	{ key: 'clients', icon: UsersIcon },
	{ key: 'reports', icon: BarChart3Icon },
	{ key: 'modules', icon: PuzzleIcon },
	{ key: 'booking', icon: CalendarDaysIcon },
] as const

export default function Landing({ loaderData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation()
	return (
		<div className="min-h-svh">
			<header className="mx-auto flex max-w-6xl items-center justify-between gap-4 p-4">
				<Link to="/" className="flex items-center gap-2 font-semibold">
					<span
						aria-hidden="true"
						className="flex size-8 items-center justify-center rounded-lg bg-primary text-sm font-bold text-primary-foreground"
					>
						{t('badge')}
					</span>
					{/* On a phone the badge alone, so the language menu and the buttons keep their room; the name is still read. */}
					<span className="sr-only sm:not-sr-only">{t('appName')}</span>
				</Link>
				<nav aria-label={t('landing.navLabel')} className="flex items-center gap-2">
					<LanguageSwitcher />
					{loaderData.signedIn ? (
						<Button asChild>
							<Link to="/app/dashboard">{t('landing.openApp')}</Link>
						</Button>
					) : (
						<>
							<Button variant="ghost" asChild>
								<Link to="/auth">{t('landing.signIn')}</Link>
							</Button>
							<Button asChild className="hidden sm:inline-flex">
								<Link to="/auth?mode=signup">{t('landing.signUp')}</Link>
							</Button>
						</>
					)}
				</nav>
			</header>
			<main id={MAIN_ID} tabIndex={-1}>
				<section className="mx-auto grid max-w-4xl gap-6 px-4 py-16 text-center md:py-24">
					<h1 className="text-4xl font-bold tracking-tight md:text-5xl">{t('landing.headline')}</h1>
					<p className="text-lg text-muted-foreground">{t('landing.subheadline')}</p>
					{loaderData.greeting ? (
						<div className="grid justify-items-center gap-3">
							<p className="text-base font-medium">{t('landing.welcomeBack', { name: loaderData.greeting })}</p>
							<Button size="lg" asChild>
								<Link to="/app/dashboard">{t('landing.openApp')}</Link>
							</Button>
						</div>
					) : (
						<div className="flex flex-wrap justify-center gap-3">
							<Button size="lg" asChild>
								<Link to="/auth?mode=signup">{t('landing.cta')}</Link>
							</Button>
							<Button size="lg" variant="outline" asChild>
								<Link to="/auth">{t('landing.signIn')}</Link>
							</Button>
						</div>
					)}
				</section>
				<section aria-labelledby="features-heading" className="bg-muted/40 py-16">
					<div className="mx-auto max-w-6xl px-4">
						<h2 id="features-heading" className="mb-8 text-center text-2xl font-semibold">
							{t('landing.featuresTitle')}
						</h2>
						<ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
							{features.map(({ key, icon: Icon }) => (
								<li key={key}>
									<Card className="h-full">
										<CardHeader>
											<Icon className="size-6 text-primary" aria-hidden="true" />
											<CardTitle>
												<h3>{t(`landing.features.${key}.title`)}</h3>
											</CardTitle>
											<CardDescription>{t(`landing.features.${key}.description`)}</CardDescription>
										</CardHeader>
									</Card>
								</li>
							))}
						</ul>
					</div>
				</section>
				<section aria-labelledby="plans-heading" className="mx-auto max-w-6xl px-4 py-16">
					<h2 id="plans-heading" className="text-center text-2xl font-semibold">
						{t('landing.plansTitle')}
					</h2>
					<p className="mx-auto mt-2 mb-8 max-w-2xl text-center text-muted-foreground">{t('landing.plansSubtitle')}</p>
					<ul className="grid gap-4 md:grid-cols-3">
						{plans.map((plan) => (
							<li key={plan.id}>
								<Card className={plan.isPopular ? 'h-full border-primary shadow-md' : 'h-full'}>
									<CardHeader>
										<div className="flex items-center justify-between gap-2">
											<CardTitle>
												<h3>{t(`plans.${plan.id}.name`)}</h3>
											</CardTitle>
											{plan.isPopular ? <Badge>{t('plans.mostPopular')}</Badge> : null}
										</div>
										<CardDescription>{t(`plans.${plan.id}.description`)}</CardDescription>
									</CardHeader>
									<CardContent className="grid gap-3">
										<p>
											<span className="text-3xl font-bold">{fmt.wholeMoney(plan.price)}</span>{' '}
											<span className="text-muted-foreground">{t('plans.perMonth')}</span>
										</p>
										<p className="font-medium">{t(`plans.${plan.id}.gears`)}</p>
										<ul className="grid gap-1 text-sm">
											{plan.features.map((feature) => (
												<li key={feature} className="flex items-start gap-2">
													<CheckIcon className="mt-0.5 size-4 text-primary" aria-hidden="true" />
													{t(`plans.features.${feature}`)}
												</li>
											))}
										</ul>
									</CardContent>
									<CardFooter>
										<Button className="w-full" variant={plan.isPopular ? 'default' : 'outline'} asChild>
											{loaderData.signedIn ? (
												<Link to="/app/plans">{t('landing.seePlan')}</Link>
											) : (
												<Link to="/auth?mode=signup">{t('landing.cta')}</Link>
											)}
										</Button>
									</CardFooter>
								</Card>
							</li>
						))}
					</ul>
				</section>
			</main>
			<footer className="border-t py-6 text-center text-sm text-muted-foreground">{t('landing.footer')}</footer>
		</div>
	)
}
