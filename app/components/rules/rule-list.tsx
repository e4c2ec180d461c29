import { useNavigation } from 'react-router'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ArrowDownIcon, ArrowUpIcon, Trash2Icon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { MODULES } from '#app/lib/modules.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** A rule as the list shows it (app/.server/rules/rules.ts, Rule). */
export type RuleView = {
	id: string
	name: string
	enabled: boolean
	payer: string | null
	amountMin: string | null
	amountMax: string | null
	paymentMethod: string | null
	memoContains: string | null
	source: string | null
	setCategory: string | null
	setClientId: string | null
	clientName: string | null
	addTag: string | null
	notifyUserId: string | null
	notifyName: string | null
	hold: boolean
}

export type RuleLimitsView = {
	unlimited: boolean
	maxRules: number | null
	maxRunsPerMonth: number | null
	historyDays: number
	runsThisMonth: number
}

/** What the plan allows and what is used: rules, this month's runs, the history's days. */
export function RuleLimitsNote({ limits, ruleCount }: { limits: RuleLimitsView; ruleCount: number }) {
	const { t } = useTranslation('rules')
	const fmt = useFormat()
	if (limits.unlimited) return <p className="text-sm text-muted-foreground">{t('limits.unlimited')}</p>
	const runsOut = limits.maxRunsPerMonth !== null && limits.runsThisMonth >= limits.maxRunsPerMonth
	return (
		<div className="grid gap-1 text-sm text-muted-foreground" data-testid="rule-limits">
			<p>
				{[
					t('limits.rules', { used: ruleCount, max: limits.maxRules }),
					t('limits.runs', { used: fmt.number(limits.runsThisMonth), max: fmt.number(limits.maxRunsPerMonth ?? 0) }),
					t('limits.history', { days: limits.historyDays }),
				].join(' · ')}{' '}
				<Link to={`/app/modules/${MODULES.automation.id}`} className="text-primary underline-offset-4 hover:underline">
					{t('limits.upgrade')}
				</Link>
			</p>
			{runsOut ? <p className="text-destructive">{t('limits.runsOut')}</p> : null}
		</div>
	)
}

/** The "When …" and "Then …" sentences of a rule. */
export function useRuleSentences() {
	const { t } = useTranslation(['rules', 'transactions'])
	const fmt = useFormat()
	return (rule: RuleView) => {
		const when = [
			rule.payer ? t('conditions.payer', { value: rule.payer }) : null,
			rule.amountMin ? t('conditions.amountMin', { value: fmt.money(rule.amountMin) }) : null,
			rule.amountMax ? t('conditions.amountMax', { value: fmt.money(rule.amountMax) }) : null,
			rule.paymentMethod ? t('conditions.method', { value: t(`transactions:methods.${rule.paymentMethod}`) }) : null,
			rule.memoContains ? t('conditions.memo', { value: rule.memoContains }) : null,
			rule.source ? t('conditions.source', { value: t(`sources.${rule.source}`) }) : null,
		].filter((s): s is string => s !== null)
		const then = [
			rule.setCategory ? t('actions.category', { value: t(`categories.${rule.setCategory}`) }) : null,
			rule.setClientId ? t('actions.client', { value: rule.clientName ?? '' }) : null,
			rule.addTag ? t('actions.tag', { value: rule.addTag }) : null,
			rule.hold ? t('actions.hold') : null,
			rule.notifyUserId ? t('actions.notify', { value: rule.notifyName ?? '' }) : null,
		].filter((s): s is string => s !== null)
		return { when, then }
	}
}

/** The organization's rules in the order they run; owners and administrators move, turn off and delete them. */
export function RuleList({ rules, canManage }: { rules: RuleView[]; canManage: boolean }) {
	const { t } = useTranslation('rules')
	const sentences = useRuleSentences()
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting'
	return (
		<section aria-labelledby="rules-heading" className="grid gap-3">
			<h2 id="rules-heading" className="text-lg font-semibold">
				{t('list.heading')}
			</h2>
			{rules.length === 0 ? <p className="text-sm text-muted-foreground">{t('list.empty')}</p> : null}
			<ol className="grid gap-3">
				{rules.map((rule, i) => {
					const { when, then } = sentences(rule)
					return (
						<li key={rule.id} className="grid gap-2 rounded-md border p-4" aria-label={rule.name}>
							<div className="flex flex-wrap items-center gap-2">
								<span className="text-xs text-muted-foreground">{t('list.order', { n: i + 1 })}</span>
								<h3 className="font-semibold">{rule.name}</h3>
								{rule.enabled ? null : <Badge variant="secondary">{t('list.off')}</Badge>}
							</div>
							<p className="text-sm">
								<span className="font-medium">{t('list.when')}: </span>
								{when.join('; ')}
							</p>
							<p className="text-sm">
								<span className="font-medium">{t('list.then')}: </span>
								{then.join('; ')}
							</p>
							{canManage ? (
								<div className="flex flex-wrap items-center gap-2">
									{i > 0 ? (
										<RuleButton ruleId={rule.id} intent="move" extra={{ direction: 'up' }} disabled={busy} label={t('list.moveUp')}>
											<ArrowUpIcon aria-hidden="true" />
										</RuleButton>
									) : null}
									{i < rules.length - 1 ? (
										<RuleButton ruleId={rule.id} intent="move" extra={{ direction: 'down' }} disabled={busy} label={t('list.moveDown')}>
											<ArrowDownIcon aria-hidden="true" />
										</RuleButton>
									) : null}
									<RuleButton
										ruleId={rule.id}
										intent="toggle"
										extra={{ enabled: rule.enabled ? 'false' : 'true' }}
										disabled={busy}
										label={rule.enabled ? t('list.turnOff') : t('list.turnOn')}
									/>
									<details>
										<summary className="inline-flex min-h-11 cursor-pointer items-center gap-1 text-sm text-destructive sm:min-h-0">
											<Trash2Icon className="size-4" aria-hidden="true" />
											{t('list.delete')}
										</summary>
										<AppForm method="post" className="mt-2 grid gap-2 rounded-md border border-destructive/40 p-3">
											<input type="hidden" name="ruleId" value={rule.id} />
											<p className="text-sm">{t('list.deleteQuestion')}</p>
											<Button type="submit" name="intent" value="delete" variant="destructive" size="sm" className="w-fit" disabled={busy}>
												{t('list.delete')}
											</Button>
										</AppForm>
									</details>
								</div>
							) : null}
						</li>
					)
				})}
			</ol>
		</section>
	)
}

function RuleButton({
	ruleId,
	intent,
	extra,
	disabled,
	label,
	children,
}: {
	ruleId: string
	intent: string
	extra: Record<string, string>
	disabled: boolean
	label: string
	children?: React.ReactNode
}) {
	return (
		<AppForm method="post">
			<input type="hidden" name="ruleId" value={ruleId} />
			{Object.entries(extra).map(([name, value]) => (
				<input key={name} type="hidden" name={name} value={value} />
			))}
			<Button type="submit" name="intent" value={intent} variant="outline" size="sm" disabled={disabled}>
				{children}
				{label}
			</Button>
		</AppForm>
	)
}
