import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect, useSubmit } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { getLocale } from '#app/.server/i18n.ts'
import { getClientAddress } from '#app/.server/auth/session.ts'
import { allowPublic, refusedParam } from '#app/.server/booking/public/bookings.ts'
import { stepUrl } from '#app/.server/booking/public/choices.ts'
import { resolveWizard } from '#app/.server/booking/public/wizard.ts'
import { slotView } from '#app/.server/booking/public/slots.ts'
import { RefusedNotice, STEP_HEADING, WizardNav, WizardProgress } from '#app/components/booking/book-wizard.tsx'
import { displayZones } from '#app/lib/timezones.ts'
import { cn } from '#app/lib/utils.ts'
import type { Route } from './+types/slot'

export async function loader({ request, params, context }: Route.LoaderArgs) {
	if (!(await allowPublic('slot_lookup', getClientAddress(request, context)))) throw data({ rateLimited: true }, { status: 429 })
	const w = await resolveWizard({ request, context, slug: params.orgSlug }, 'slot')
	const url = new URL(request.url)
	const view = slotView(w, getLocale(context))
	// A day asked for in the address (a shared or old link) that has no free time is said, rather
	// than listing another day's times under that address.
	const asked = url.searchParams.get('date')
	if (asked && 'day' in view && view.day && view.day !== asked && !refusedParam(request)) {
		throw redirect(`${stepUrl(w.org.slug, 'slot', { ...w.choices, date: undefined, more: undefined })}&refused=day_unavailable`)
	}
	return {
		view,
		hidden: [...url.searchParams.entries()].filter(([k]) => k !== 'tz' && k !== 'refused' && k !== 'more'),
		back: stepUrl(w.org.slug, 'service', w.choices),
		next: w.slot ? stepUrl(w.org.slug, 'details', w.choices) : null,
		refused: refusedParam(request),
	}
}

type Person = { id: string; name: string; bio: string | null; avatarUrl: string | null; link: string; selected?: boolean }

function PersonCard({ p }: { p: Person }) {
	return (
		<Link
			to={p.link}
			aria-current={p.selected ? 'true' : undefined}
			className={cn(
				'flex items-start gap-3 rounded-lg border bg-background p-4 hover:border-[var(--brand)]',
				p.selected && 'ring-2 ring-[var(--brand)]',
			)}
		>
			<Avatar name={p.name} url={p.avatarUrl} />
			<span className="grid gap-1">
				<span className="font-medium">{p.name}</span>
				{p.bio ? <span className="text-sm text-muted-foreground">{p.bio}</span> : null}
			</span>
		</Link>
	)
}

/**
 * The provider's picture over their initial: a picture that does not load leaves the initial
 * (an <img> would show the browser's broken-image icon, and only JavaScript could hide it).
 */
function Avatar({ name, url }: { name: string; url: string | null }) {
	return (
		<span
			aria-hidden="true"
			className="relative flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-full bg-muted font-semibold"
		>
			{name.slice(0, 1).toUpperCase()}
			{url ? <span className="absolute inset-0 bg-cover bg-center" style={{ backgroundImage: `url(${JSON.stringify(url)})` }} /> : null}
		</span>
	)
}

function DayPicker({ days }: { days: { date: string; label: string; current: boolean; link: string }[] }) {
	const { t } = useTranslation('book')
	return (
		<nav aria-label={t('slot.days')}>
			<ul className="flex gap-2 overflow-x-auto pb-1">
				{days.map((d) => (
					<li key={d.date}>
						<Link
							to={d.link}
							aria-current={d.current ? 'date' : undefined}
							className={cn(
								'block rounded-md border bg-background px-3 py-2 text-sm whitespace-nowrap',
								d.current && 'border-[var(--brand)] bg-[var(--brand)] text-white',
							)}
						>
							{d.label}
						</Link>
					</li>
				))}
			</ul>
		</nav>
	)
}

const SLOT = 'block rounded-md border bg-background px-3 py-2 text-center text-sm font-medium tabular-nums hover:border-[var(--brand)]'

export default function SlotStep({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('book')
	const { view, hidden, back, next, refused } = loaderData
	const zones = displayZones(view.orgTz, view.tz)
	const submit = useSubmit()
	return (
		<>
			<WizardProgress step="slot" />
			<h1 className={STEP_HEADING}>{t('slot.heading')}</h1>
			<RefusedNotice code={refused} />
			<nav aria-label={t('slot.modes')} className="grid grid-cols-2 rounded-md border bg-background p-1">
				{(['provider', 'time'] as const).map((m) => (
					<Link
						key={m}
						to={view.tabs[m]}
						aria-current={view.mode === m ? 'page' : undefined}
						className={cn('rounded px-3 py-2 text-center text-sm font-medium', view.mode === m && 'bg-[var(--brand)] text-white')}
					>
						{t(`slot.by.${m}`)}
					</Link>
				))}
			</nav>
			<Form method="get" className="flex flex-wrap items-end gap-2 text-sm" onChange={(e) => submit(e.currentTarget)}>
				{hidden.map(([k, v]) => (
					<input key={k} type="hidden" name={k} value={v} />
				))}
				<div className="grid gap-1">
					<label htmlFor="book-tz">{t('slot.timezone')}</label>
					<select id="book-tz" name="tz" defaultValue={view.tz} className="h-9 rounded-md border bg-background px-2">
						{zones.map((z) => (
							<option key={z} value={z}>
								{z === view.orgTz ? t('slot.orgZone', { zone: z }) : z}
							</option>
						))}
					</select>
				</div>
				<noscript>
					<button type="submit" className="h-9 rounded-md border bg-background px-3">
						{t('slot.showZone')}
					</button>
				</noscript>
			</Form>
			<p className="text-sm text-muted-foreground">{t('slot.timesIn', { zone: view.tz })}</p>

			{'providers' in view && view.providers ? (
				view.providers.length === 0 ? (
					<p className="rounded-md border bg-background p-6 text-center text-muted-foreground">{t('slot.noProviders')}</p>
				) : (
					<ul className="grid gap-3">
						{view.providers.map((p) => (
							<li key={p.id}>
								<PersonCard p={p} />
							</li>
						))}
					</ul>
				)
			) : null}

			{'chosen' in view && view.chosen ? (
				<>
					<div className="flex items-center justify-between gap-3 rounded-lg border bg-background p-3">
						<span className="flex items-center gap-3">
							<Avatar name={view.chosen.name} url={view.chosen.avatarUrl} />
							<span className="font-medium">{view.chosen.name}</span>
						</span>
						<Link to={view.chosen.change} className="text-sm underline underline-offset-4">
							{t('slot.changeProvider')}
						</Link>
					</div>
					<SlotList days={view.days} slots={view.slots} more={view.more} />
				</>
			) : null}

			{'times' in view && view.times ? (
				view.noProviders ? (
					<p className="rounded-md border bg-background p-6 text-center text-muted-foreground">{t('slot.noProviders')}</p>
				) : (
					<SlotList days={view.days} slots={view.times} more={view.more} />
				)
			) : null}

			{'chosenTime' in view && view.chosenTime ? (
				<>
					<div className="flex items-center justify-between gap-3 rounded-lg border bg-background p-3">
						<span className="font-medium">{view.chosenTime.label}</span>
						<Link to={view.chosenTime.change} className="text-sm underline underline-offset-4">
							{t('slot.changeTime')}
						</Link>
					</div>
					<h2 className="font-medium">{t('slot.freeThen')}</h2>
					{view.free.length === 0 ? (
						<p className="rounded-md border bg-background p-6 text-center text-muted-foreground">{t('slot.noSlots')}</p>
					) : (
						<ul className="grid gap-3">
							{view.free.map((p) => (
								<li key={p.id}>
									<PersonCard p={p} />
								</li>
							))}
						</ul>
					)}
				</>
			) : null}
			<WizardNav step="slot" back={back} next={next} />
		</>
	)
}

function SlotList({
	days,
	slots,
	more,
}: {
	days: { date: string; label: string; current: boolean; link: string }[]
	slots: { start: string; label: string; day?: string; link: string; count?: number; selected?: boolean }[]
	more: string | null
}) {
	const { t } = useTranslation('book')
	if (days.length === 0) return <p className="rounded-md border bg-background p-6 text-center text-muted-foreground">{t('slot.noSlots')}</p>
	return (
		<>
			<DayPicker days={days} />
			<ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" aria-label={t('slot.times')}>
				{slots.map((s) => (
					<li key={s.start}>
						<Link
							to={s.link}
							aria-current={s.selected ? 'true' : undefined}
							className={cn(SLOT, s.selected && 'ring-2 ring-[var(--brand)]')}
						>
							{s.day ? <span className="block text-xs font-normal">{s.day}</span> : null}
							{s.day ? ' ' : null}
							{s.label}
							{s.count !== undefined ? (
								<span className="block text-xs font-normal text-muted-foreground">{t('slot.available', { count: s.count })}</span>
							) : null}
						</Link>
					</li>
				))}
			</ul>
			{more ? (
				<Link to={more} className="justify-self-start text-sm underline underline-offset-4">
					{t('slot.more')}
				</Link>
			) : null}
		</>
	)
}
