import { useEffect, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { CheckIcon, ChevronLeftIcon, ChevronRightIcon, LanguagesIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from '#app/components/link.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { languageNames, supportedLanguages } from '#app/lib/i18n.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
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

/**
 * Back, the one control under a step (none on the first). A step's one primary action is its own:
 * choosing a card or a time moves on, the details form has Continue, the confirmation its button.
 */
export function WizardNav({ back }: { back: string | null }) {
	const { t } = useTranslation('book')
	if (!back) return null
	return (
		<div className="flex items-center border-t pt-4">
			<Link
				to={back}
				className="inline-flex h-11 items-center justify-center rounded-md border bg-background px-5 text-sm font-medium hover:bg-accent"
			>
				{t('nav.back')}
			</Link>
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

/** The steps whose times follow the visitor's zone (`tz` in the address). */
const ZONED_STEP = /\/book\/[^/]+\/(service|slot|details|confirm)$/

/** The browser's zone, with the names of UTC said one way; null when the browser does not say. */
function browserZone() {
	try {
		const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
		if (!zone) return null
		return /^(Etc\/)?(UTC|UCT|GMT|Zulu|Universal)$/.test(zone) ? 'UTC' : zone
	} catch {
		return null
	}
}

/**
 * With JavaScript, a visitor reads times in their own zone from the first step: an address
 * without `tz` is replaced (no history entry) by the same one with the browser's zone, which
 * then travels with every choice to the booking. Without JavaScript the organization's zone
 * stays, with the slot step's one-tap list of zones.
 */
export function useVisitorZone(orgTz: string) {
	const { pathname, search } = useLocation()
	const navigate = useNavigate()
	useEffect(() => {
		const params = new URLSearchParams(search)
		if (params.has('tz') || !ZONED_STEP.test(pathname)) return
		const zone = browserZone()
		if (!zone || zone === orgTz) return
		params.set('tz', zone)
		void navigate({ pathname, search: `?${params}` }, { replace: true, preventScrollReset: true })
	}, [pathname, search, orgTz, navigate])
}

/** The wizard's 2 px focus ring and phone-sized targets: the rules under `.book-wizard` in app/styles/app.css. */
export const WIZARD_ROOT = 'book-wizard'

/** The id of the details step's form, which the language menu posts there (`BookLanguageSwitcher`). */
export const DETAILS_FORM_ID = 'book-details'

/**
 * The language menu of the booking pages: the app's menu (a disclosure of submit buttons posting
 * to /preferences, so it works without JavaScript), with targets of 44 px; on the details step
 * its buttons post the details form instead (`formId`), so that the step comes back in the new
 * language with what was typed, nothing saved.
 */
export function BookLanguageSwitcher({ formId }: { formId?: string }) {
	const { t, i18n } = useTranslation()
	const location = useLocation()
	const current = i18n.language
	const currentName = languageNames[current as keyof typeof languageNames] ?? current
	return (
		<details data-menu key={current} className="group relative">
			<summary
				className="flex h-11 min-w-11 cursor-pointer list-none items-center justify-center gap-2 rounded-md border bg-background px-3 text-sm shadow-xs hover:bg-accent [&::-webkit-details-marker]:hidden"
				aria-label={`${t('language.label')}: ${currentName}`}
			>
				<LanguagesIcon className="size-4" aria-hidden="true" />
				<span className="max-sm:sr-only">{currentName}</span>
			</summary>
			<AppForm
				method="post"
				action="/preferences"
				className="absolute right-0 z-50 mt-1 grid min-w-48 gap-1 rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
			>
				<input type="hidden" name="intent" value="language" />
				<input type="hidden" name="redirectTo" value={location.pathname + location.search} />
				{supportedLanguages.map((lng) => (
					<button
						key={lng}
						type="submit"
						name={formId ? 'switchLanguage' : 'language'}
						value={lng}
						lang={lng}
						form={formId}
						formNoValidate={formId ? true : undefined}
						aria-current={lng === current ? 'true' : undefined}
						className="flex min-h-11 items-center justify-between gap-2 rounded-sm px-2 text-left text-sm hover:bg-accent"
					>
						{languageNames[lng]}
						{lng === current ? <CheckIcon className="size-4" aria-hidden="true" /> : null}
					</button>
				))}
			</AppForm>
		</details>
	)
}

export type StripDay = { date: string; label: string; current: boolean; link: string }

/**
 * The row of days with free times, the shown one first in view (the server starts the row at the
 * day before it), with previous and next arrows (links to the days either side). With JavaScript
 * the row is one Tab stop: the arrow keys, Home and End move within it, Enter follows (the WAI-ARIA
 * roving tabindex); without it every day is a link in the tab order.
 */
export function DayStrip({ days, previous, next }: { days: StripDay[]; previous: string | null; next: string | null }) {
	const { t } = useTranslation('book')
	const hydrated = useHydrated()
	const list = useRef<HTMLUListElement>(null)
	const current = days.find((d) => d.current)?.date
	// The one day in the tab order: the one the arrow keys moved to, else the shown one.
	// (Remembered with the day shown then: another day shown starts from it again.)
	const [focused, setFocused] = useState<{ date: string; shown: string | undefined } | null>(null)
	const tabbable = (focused?.shown === current ? focused?.date : undefined) ?? current ?? days[0]?.date
	useEffect(() => {
		// A row scrolled by hand before the choice: back to the shown day.
		const ul = list.current
		const el = ul?.querySelector<HTMLElement>('[aria-current="date"]')
		if (ul && el) ul.scrollLeft += el.getBoundingClientRect().left - ul.getBoundingClientRect().left - 4
	}, [current])
	const onKeyDown = (e: React.KeyboardEvent<HTMLAnchorElement>) => {
		const links = [...(list.current?.querySelectorAll<HTMLAnchorElement>('a') ?? [])]
		const at = links.indexOf(e.currentTarget)
		if (at < 0) return
		const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: links.length - 1 }[e.key]
		if (to === undefined) return
		e.preventDefault()
		const target = links[Math.max(0, Math.min(links.length - 1, to))]
		if (!target) return
		if (target.dataset.date) setFocused({ date: target.dataset.date, shown: current })
		target.focus()
	}
	const arrow = (to: string | null, label: string, Icon: typeof ChevronLeftIcon) =>
		to ? (
			<Link
				to={to}
				aria-label={label}
				className="flex size-11 shrink-0 items-center justify-center rounded-md border bg-background hover:border-[var(--brand)]"
			>
				<Icon className="size-5" aria-hidden="true" />
			</Link>
		) : (
			<span aria-hidden="true" className="size-11 shrink-0" />
		)
	return (
		<nav aria-label={t('slot.days')} className="flex items-center gap-2">
			{arrow(previous, t('slot.previousDay'), ChevronLeftIcon)}
			<ul ref={list} className="flex min-w-0 flex-1 gap-2 overflow-x-auto p-1">
				{days.map((d) => (
					<li key={d.date}>
						<Link
							to={d.link}
							preventScrollReset
							aria-current={d.current ? 'date' : undefined}
							data-date={d.date}
							tabIndex={hydrated ? (d.date === tabbable ? 0 : -1) : undefined}
							onKeyDown={hydrated ? onKeyDown : undefined}
							className={cn(
								'flex min-h-11 items-center rounded-md border bg-background px-3 text-sm whitespace-nowrap',
								d.current && 'border-[var(--brand)] bg-[var(--brand)] text-white',
							)}
						>
							{d.label}
						</Link>
					</li>
				))}
			</ul>
			{arrow(next, t('slot.nextDay'), ChevronRightIcon)}
		</nav>
	)
}
