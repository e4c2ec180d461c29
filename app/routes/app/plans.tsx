import { parseWithZod } from '@conform-to/zod/v4'
import { CheckIcon, GemIcon, InfinityIcon, RefreshCwIcon, RepeatIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { z } from 'zod'
import { requireMember } from '#app/.server/auth/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { titleMeta } from '#app/lib/meta.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { plans } from '#app/lib/plans.ts'
import type { Route } from './+types/plans'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('plans')

/** The plan every organization is on for now (docs/product.md, Plans): Professional. */
const CURRENT_PLAN = 'professional'

const choosePlanSchema = z.object({ intent: z.literal('choosePlan'), plan: z.enum(['starter', 'professional', 'enterprise']) })

export async function action({ request, context }: Route.ActionArgs) {
	requireMember(context)
	const submission = parseWithZod(await request.formData(), { schema: choosePlanSchema })
	if (submission.status !== 'success') return data({ error: 'badRequest' as const }, { status: 400 })
	switch (submission.value.intent) {
		case 'choosePlan':
			// No billing yet: the choice is acknowledged, nothing changes (docs/product.md, Plans).
			return redirectWithToast('/app/plans', {
				type: 'info',
				title: `marketplace:plans.selected.${submission.value.plan}`,
			})
	}
}

export default function Plans() {
	const fmt = useFormat()
	const { t } = useTranslation(['marketplace', 'common'])
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
					<CardDescription>{t('plans.gearsExplained')}</CardDescription>
				</CardHeader>
			</Card>
			<ul className="grid gap-4 md:grid-cols-3">
				{plans.map((plan) => {
					const current = plan.id === CURRENT_PLAN
					return (
						<li key={plan.id} className="flex">
							<Card
								className={plan.isPopular ? 'w-full border-primary shadow-md' : 'w-full'}
								role="article"
								aria-labelledby={`plan-${plan.id}`}
							>
								<CardHeader>
									<div className="flex items-center justify-between gap-2">
										<CardTitle>
											<h2 id={`plan-${plan.id}`}>{t(`common:plans.${plan.id}.name`)}</h2>
										</CardTitle>
										{plan.isPopular ? <Badge>{t('common:plans.mostPopular')}</Badge> : null}
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
								<CardFooter className="mt-auto">
									{current ? (
										<Button className="w-full" disabled>
											{t('plans.current')}
										</Button>
									) : (
										<AppForm method="post" className="w-full">
											<input type="hidden" name="intent" value="choosePlan" />
											<input type="hidden" name="plan" value={plan.id} />
											<Button
												type="submit"
												variant="outline"
												className="w-full"
												aria-label={t('plans.chooseOf', { plan: t(`common:plans.${plan.id}.name`) })}
											>
												{t('plans.choose')}
											</Button>
										</AppForm>
									)}
								</CardFooter>
							</Card>
						</li>
					)
				})}
			</ul>
			<ul className="grid gap-4 md:grid-cols-3" aria-label={t('plans.benefits')}>
				<Benefit icon={RepeatIcon} title={t('plans.flexible.title')} text={t('plans.flexible.text')} />
				<Benefit icon={InfinityIcon} title={t('plans.noOverage.title')} text={t('plans.noOverage.text')} />
				<Benefit icon={RefreshCwIcon} title={t('plans.changeAnytime.title')} text={t('plans.changeAnytime.text')} />
			</ul>
		</div>
	)
}

function Benefit({ icon: Icon, title, text }: { icon: typeof GemIcon; title: string; text: string }) {
	return (
		<li className="grid gap-1 rounded-lg border p-4 text-sm">
			<p className="flex items-center gap-2 font-semibold">
				<Icon className="size-4" aria-hidden="true" />
				{title}
			</p>
			<p className="text-muted-foreground">{text}</p>
		</li>
	)
}
