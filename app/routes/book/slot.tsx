import { useTranslation } from '#app/lib/use-translation.ts'
import { data, redirect } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { getLocale } from '#app/.server/i18n.ts'
import { getClientAddress } from '#app/.server/auth/session.ts'
import { allowPublic, refusedParam } from '#app/.server/booking/public/bookings.ts'
import { stepUrl } from '#app/.server/booking/public/choices.ts'
import { resolveWizard } from '#app/.server/booking/public/wizard.ts'
import { slotView } from '#app/.server/booking/public/slots.ts'
import { DayStrip, RefusedNotice, STEP_HEADING, WizardNav, WizardProgress, type StripDay } from '#app/components/booking/book-wizard.tsx'
import { cn } from '#app/lib/utils.ts'
import type { Route } from './+types/slot'

export async function loader({ request, params, context }: Route.LoaderArgs) {
	if (!(await allowPublic('slot_lookup', getClientAddress(request, context)))) throw data({ rateLimited: true }, { status: 429 })
	const w = await resolveWizard({ request, context, slug: params.orgSlug }, 'slot')
	const url = new URL(request.url)
	const view = slotView(w, getLocale(context), request.headers.get('accept-language'))
	// A day asked for in the address (a shared or old link) that has no free time is said, rather
	// than listing another day's times under that address.
	const asked = url.searchParams.get('date')
	if (asked && 'day' in view && view.day && view.day !== asked && !refusedParam(request)) {
		throw redirect(`${stepUrl(w.org.slug, 'slot', { ...w.choices, date: undefined, more: undefined })}&refused=day_unavailable`)
	}
	return {
		view,
		back: stepUrl(w.org.slug, 'service', w.choices),
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

const SLOT =
	'block min-h-11 rounded-md border bg-background px-3 py-2 text-center text-sm font-medium tabular-nums hover:border-[var(--brand)]'
/** A text link sized as a phone's target (44 px high). */
const TEXT_LINK = 'inline-flex min-h-11 items-center text-sm underline underline-offset-4'

type Zone = { zone: string; label: string; org: boolean; current: boolean; link: string }

/**
 * The zone the times are in, in words, and the others as one-tap links (no select, no "Show"
 * button): the organization's, the one shown and those of the visitor's languages first, the
 * rest folded.
 */
function ZonePicker({ zones }: { zones: { label: string; likely: Zone[]; others: Zone[] } }) {
	const { t } = useTranslation('book')
	const item = (z: Zone) => (
		<li key={z.zone}>
			<Link
				to={z.link}
				preventScrollReset
				aria-current={z.current ? 'true' : undefined}
				className={cn(
					'flex min-h-11 items-center rounded-md border bg-background px-3 text-sm hover:border-[var(--brand)]',
					z.current && 'border-[var(--brand)] font-medium ring-1 ring-[var(--brand)]',
				)}
			>
				{z.org ? t('slot.orgZone', { zone: z.label }) : z.label}
			</Link>
		</li>
	)
	return (
		<div className="grid gap-2 text-sm">
			<p className="font-medium">{t('slot.timesIn', { zone: zones.label })}</p>
			<nav aria-label={t('slot.timezone')} className="grid gap-2">
				<ul className="flex flex-wrap gap-2">{zones.likely.map(item)}</ul>
				{zones.others.length > 0 ? (
					<details>
						<summary className="inline-flex min-h-11 cursor-pointer items-center underline underline-offset-4">
							{t('slot.otherZones')}
						</summary>
						<ul className="mt-2 flex flex-wrap gap-2">{zones.others.map(item)}</ul>
					</details>
				) : null}
			</nav>
		</div>
	)
}

export default function SlotStep({ loaderData }: Route.ComponentProps) {
	const { t } = useTranslation('book')
	const { view, back, refused } = loaderData
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
						className={cn(
							'flex min-h-11 items-center justify-center rounded px-3 text-center text-sm font-medium',
							view.mode === m && 'bg-[var(--brand)] text-white',
						)}
					>
						{t(`slot.by.${m}`)}
					</Link>
				))}
			</nav>
			<ZonePicker zones={view.zones} />

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
						<Link to={view.chosen.change} className={TEXT_LINK}>
							{t('slot.changeProvider')}
						</Link>
					</div>
					<SlotList strip={view.strip} slots={view.slots} more={view.more} />
				</>
			) : null}

			{'times' in view && view.times ? (
				view.noProviders ? (
					<p className="rounded-md border bg-background p-6 text-center text-muted-foreground">{t('slot.noProviders')}</p>
				) : (
					<SlotList strip={view.strip} slots={view.times} more={view.more} />
				)
			) : null}

			{'chosenTime' in view && view.chosenTime ? (
				<>
					<div className="flex items-center justify-between gap-3 rounded-lg border bg-background p-3">
						<span className="font-medium">{view.chosenTime.label}</span>
						<Link to={view.chosenTime.change} className={TEXT_LINK}>
							{t('slot.changeTime')}
						</Link>
					</div>
					<h2 className="font-medium">{t('slot.freeThen')}</h2>
					{view.free.length === 0 ? (
						<p className="rounded-md border bg-background p-6 text-center text-muted-foreground">{t('slot.noSlots')}</p>
					) : (
						<ul className="grid gap-3">
							{view.firstAvailable ? (
								<li>
									<Link
										to={view.firstAvailable}
										className="grid gap-1 rounded-lg border-2 border-[var(--brand)] bg-background p-4 hover:bg-accent"
									>
										<span className="font-medium">{t('slot.firstAvailable')}</span>
										<span className="text-sm text-muted-foreground">{t('slot.firstAvailableHint')}</span>
									</Link>
								</li>
							) : null}
							{view.free.map((p) => (
								<li key={p.id}>
									<PersonCard p={p} />
								</li>
							))}
						</ul>
					)}
				</>
			) : null}
			<WizardNav back={back} />
		</>
	)
}

function SlotList({
	strip,
	slots,
	more,
}: {
	strip: { days: StripDay[]; previous: string | null; next: string | null; heading: string | null }
	slots: { start: string; label: string; day?: string; link: string; count?: number; selected?: boolean }[]
	more: string | null
}) {
	const { t } = useTranslation('book')
	if (strip.days.length === 0)
		return <p className="rounded-md border bg-background p-6 text-center text-muted-foreground">{t('slot.noSlots')}</p>
	return (
		<>
			<DayStrip days={strip.days} previous={strip.previous} next={strip.next} />
			{strip.heading ? <h2 className="font-medium">{strip.heading}</h2> : null}
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
				<Link to={more} className={cn(TEXT_LINK, 'justify-self-start')}>
					{t('slot.more')}
				</Link>
			) : null}
		</>
	)
}
