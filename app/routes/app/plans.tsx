import { CheckIcon, GemIcon, MailIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { requireMember } from '#app/.server/auth/session.ts'
import { plansPageView } from '#app/.server/marketplace/plans.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { contactHref, plans, type Plan } from '#app/lib/plans.ts'
import type { Route } from './+types/plans'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('plans')

export async function loader({ context }: Route.LoaderArgs) {
	return plansPageView(requireMember(context))
}

/**
 * Plans (docs/product.md, Plans): the plan the organization has, then the plans that add gears
 * every month, which are not sold online: "Contact us" writes to the installation's owner, or a
 * sentence says so when there is no contact address. Nothing here changes anything.
 */
export default function Plans({ loaderData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation(['marketplace', 'common'])
	const { plan: current, contactEmail } = loaderData
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="grid gap-1">
				<h1 className="text-2xl font-semibold tracking-tight">{t('plans.title')}</h1>
				<p className="text-sm text-muted-foreground">{t('plans.subtitle')}</p>
			</div>
			<Card>
				<CardHeader>
					<CardTitle>
						<h2 className="flex items-center gap-2">
							<GemIcon className="size-5" aria-hidden="true" />
							{t('plans.whatAreGears')}
						</h2>
					</CardTitle>
					<CardDescription>
						{t('plans.gearsExplained')} {t('price.noRecurring')}
					</CardDescription>
				</CardHeader>
			</Card>
			{current === 'free' ? (
				<Card role="region" aria-labelledby="plan-free">
					<CardHeader>
						<div className="flex items-center justify-between gap-2">
							<CardTitle>
								<h2 id="plan-free">
									{t('plans.yourPlan')}: {t('plans.free.name')}
								</h2>
							</CardTitle>
							<Badge>{t('plans.current')}</Badge>
						</div>
						<CardDescription>{t('plans.free.description')}</CardDescription>
					</CardHeader>
					<CardContent>
						<p className="font-medium tabular-nums">{t('plans.gearsLeft', { remaining: fmt.number(loaderData.gearsRemaining) })}</p>
					</CardContent>
				</Card>
			) : null}
			<section aria-labelledby="more-gears" className="grid gap-3">
				<div className="grid gap-1">
					<h2 id="more-gears" className="text-lg font-semibold">
						{t('plans.more')}
					</h2>
					<p className="text-sm text-muted-foreground">{t('plans.moreDescription')}</p>
					{contactEmail ? null : <p className="text-sm">{t('plans.noContact')}</p>}
				</div>
				<ul className="grid gap-4 md:grid-cols-3">
					{plans.map((plan) => (
						<li key={plan.id} className="flex">
							<PlanCard plan={plan} current={plan.id === current} contactEmail={contactEmail} organization={loaderData.organizationName} />
						</li>
					))}
				</ul>
			</section>
		</div>
	)
}

/** One plan that adds gears every month: its price and allowance, and "Contact us" when there is an address. */
function PlanCard({
	plan,
	current,
	contactEmail,
	organization,
}: {
	plan: Plan
	current: boolean
	contactEmail: string | null
	organization: string
}) {
	const fmt = useFormat()
	const { t } = useTranslation(['marketplace', 'common'])
	const name = t(`common:plans.${plan.id}.name`)
	return (
		<Card className="w-full" role="article" aria-labelledby={`plan-${plan.id}`}>
			<CardHeader>
				<div className="flex items-center justify-between gap-2">
					<CardTitle>
						<h3 id={`plan-${plan.id}`}>{name}</h3>
					</CardTitle>
					{current ? <Badge>{t('plans.current')}</Badge> : null}
				</div>
				<CardDescription>{t(`common:plans.${plan.id}.description`)}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-3">
				<p>
					<span className="text-3xl font-bold">{fmt.wholeMoney(plan.price)}</span>{' '}
					<span className="text-muted-foreground">{t('common:plans.perMonth')}</span>
				</p>
				<p className="font-medium">{t(`common:plans.${plan.id}.gears`)}</p>
				<ul className="grid gap-1 text-sm">
					{plan.features.map((feature) => (
						<li key={feature} className="flex items-start gap-2">
							<CheckIcon className="mt-0.5 size-4 text-primary" aria-hidden="true" />
							{t(`common:plans.features.${feature}`)}
						</li>
					))}
				</ul>
			</CardContent>
			{contactEmail && !current ? (
				<CardFooter className="mt-auto">
					<Button asChild variant="outline" className="w-full">
						<a
							href={contactHref(contactEmail, t('plans.contactSubject', { plan: name, organization }))}
							aria-label={t('plans.contactOf', { plan: name })}
						>
							<MailIcon aria-hidden="true" />
							{t('plans.contact')}
						</a>
					</Button>
				</CardFooter>
			) : null}
		</Card>
	)
}
