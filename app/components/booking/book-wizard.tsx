import { CheckIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { cn } from '#app/lib/utils.ts'

export const WIZARD_STEPS = ['service', 'slot', 'details', 'confirm'] as const
export type WizardStep = (typeof WIZARD_STEPS)[number]

/** The four steps, each done, current (announced) or upcoming. */
export function WizardProgress({ step }: { step: WizardStep }) {
	const { t } = useTranslation('book')
	const current = WIZARD_STEPS.indexOf(step)
	return (
		<nav aria-label={t('progress.label')}>
			<ol className="grid grid-cols-4 gap-2">
				{WIZARD_STEPS.map((s, i) => {
					const state = i < current ? 'done' : i === current ? 'current' : 'upcoming'
					return (
						<li key={s} aria-current={state === 'current' ? 'step' : undefined} className="grid gap-1 text-center text-xs">
							<span
								className={cn(
									'mx-auto flex size-7 items-center justify-center rounded-full border-2 text-sm font-semibold',
									state === 'upcoming' ? 'border-muted-foreground/40 text-muted-foreground' : 'border-[var(--brand)]',
									state === 'done' && 'bg-[var(--brand)] text-white',
								)}
								aria-hidden="true"
							>
								{state === 'done' ? <CheckIcon className="size-4" /> : i + 1}
							</span>
							<span className={cn(state === 'current' ? 'font-semibold' : 'text-muted-foreground')}>
								{t(`steps.${s}`)}
								<span className="sr-only"> ({t(`progress.${state}`)})</span>
							</span>
						</li>
					)
				})}
			</ol>
		</nav>
	)
}

/** Back (disabled on the first step) and Next (hidden on confirmation, disabled until the step is complete). */
export function WizardNav({ back, next, step }: { back: string | null; next: string | null; step: WizardStep }) {
	const { t } = useTranslation('book')
	const base = 'inline-flex h-10 items-center justify-center rounded-md px-5 text-sm font-medium'
	return (
		<div className="flex items-center justify-between gap-4 border-t pt-4">
			{back ? (
				<Link to={back} className={cn(base, 'border bg-background hover:bg-accent')}>
					{t('nav.back')}
				</Link>
			) : (
				<button type="button" disabled className={cn(base, 'border bg-background opacity-50')}>
					{t('nav.back')}
				</button>
			)}
			{step === 'confirm' ? null : next ? (
				<Link to={next} className={cn(base, 'bg-[var(--brand)] text-white hover:opacity-90')}>
					{t('nav.next')}
				</Link>
			) : (
				<button type="button" disabled className={cn(base, 'bg-[var(--brand)] text-white opacity-50')}>
					{t('nav.next')}
				</button>
			)}
		</div>
	)
}

/** A refusal carried back in the address (`refused=…`), as a plain message. */
export function RefusedNotice({ code }: { code: string | null }) {
	const { t } = useTranslation('book')
	if (!code) return null
	return (
		<div role="alert" className="rounded-md border border-destructive/50 bg-destructive/5 px-4 py-3 text-sm text-destructive">
			{t(`refusals.${code}`, { defaultValue: t('refusals.unexpected') })}
		</div>
	)
}

export const STEP_HEADING = 'text-xl font-semibold tracking-tight'
