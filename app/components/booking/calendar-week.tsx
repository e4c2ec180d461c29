/**
 * The staff calendar's week (docs/product.md, Booking) and the controls both views share: the
 * day/week switch and the provider filter (a GET form), the week's heading with its navigation,
 * and the grid of the week's appointments, each a link to its page. The grid's places come
 * worked out from the server (app/lib/calendar-week.ts); every control is a link or a form, so
 * it works without JavaScript. Below the `md` breakpoint the week gives way to the day view of
 * the chosen day (the route renders both; CSS shows one).
 */
import { ChevronLeftIcon, ChevronRightIcon, PlusIcon, RefreshCwIcon } from '#app/components/icons.tsx'
import { Form } from 'react-router'
import type { CalendarWeekGrid } from '#app/.server/booking/calendar.ts'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { calendarQuery } from '#app/lib/calendar-week.ts'
import { calendarPanelAddress } from '#app/lib/appointment-view.ts'
import { addDays } from '#app/lib/dates.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** One hour of the grid, in rem. */
const HOUR_REM = 3

/** The day/week switch and the provider filter, above either view. */
export function CalendarViewBar({
	week,
	day,
	provider,
	providers,
}: {
	week: boolean
	day: string
	provider: string | null
	providers: { id: string; name: string }[]
}) {
	const { t } = useTranslation('booking')
	const tab =
		'rounded px-3 py-1.5 text-sm font-medium hover:bg-accent aria-[current=page]:bg-primary aria-[current=page]:text-primary-foreground'
	return (
		<div className="flex flex-wrap items-end justify-between gap-3">
			<nav aria-label={t('calendar.weekView.switch')} className="inline-flex rounded-md border p-0.5">
				<Link to={calendarQuery({ day, provider })} aria-current={week ? undefined : 'page'} className={tab}>
					{t('calendar.weekView.day')}
				</Link>
				<Link to={calendarQuery({ week: true, day, provider })} aria-current={week ? 'page' : undefined} className={tab}>
					{t('calendar.weekView.week')}
				</Link>
			</nav>
			<Form method="get" className="flex min-w-0 items-end gap-2">
				{week ? <input type="hidden" name="view" value="week" /> : null}
				<input type="hidden" name="day" value={day} />
				<div className="grid min-w-0 gap-1">
					<Label htmlFor="calendar-provider">{t('calendar.weekView.filter')}</Label>
					<select
						id="calendar-provider"
						name="provider"
						defaultValue={provider ?? ''}
						key={provider ?? ''}
						className="h-9 w-full max-w-56 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs"
					>
						<option value="">{t('calendar.weekView.everyone')}</option>
						{providers.map((p) => (
							<option key={p.id} value={p.id}>
								{p.name}
							</option>
						))}
					</select>
				</div>
				<Button type="submit" variant="outline">
					{t('calendar.weekView.apply')}
				</Button>
			</Form>
		</div>
	)
}

/**
 * The week's heading from `md` up: its dates, the previous and next weeks, today's week, refresh
 * and a new appointment. Below `md` the route shows the day view of the chosen day instead.
 */
export function CalendarWeekNav({
	day,
	today,
	week,
	timezone,
	provider,
}: {
	day: string
	today: string
	week: string[]
	timezone: string
	provider: string | null
}) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	const at = (d: string) => calendarQuery({ week: true, day: d, provider })
	return (
		<Card className="max-md:hidden">
			<CardHeader>
				<CardTitle>
					<h2>{t('calendar.weekView.title', { from: fmt.date(week[0]), to: fmt.date(week[6]) })}</h2>
				</CardTitle>
				<CardDescription>{t('calendar.timezone', { timezone })}</CardDescription>
				<CardAction>
					<Button asChild>
						<Link to={`?day=${day}&new=1${provider ? `&provider=${provider}` : ''}`}>
							<PlusIcon aria-hidden="true" />
							{t('calendar.new')}
						</Link>
					</Button>
				</CardAction>
			</CardHeader>
			<CardContent className="flex flex-wrap gap-2">
				<Button asChild variant="outline" size="icon">
					<Link to={at(addDays(day, -7))} aria-label={t('calendar.weekView.previous')}>
						<ChevronLeftIcon aria-hidden="true" />
					</Link>
				</Button>
				<Button asChild variant="outline" size="icon">
					<Link to={at(addDays(day, 7))} aria-label={t('calendar.weekView.next')}>
						<ChevronRightIcon aria-hidden="true" />
					</Link>
				</Button>
				<Button asChild variant="ghost">
					<Link to={at(today)}>{t('calendar.today')}</Link>
				</Button>
				<Button asChild variant="ghost">
					<Link to={at(day)} reloadDocument>
						<RefreshCwIcon aria-hidden="true" />
						{t('calendar.refresh')}
					</Link>
				</Button>
			</CardContent>
		</Card>
	)
}

/**
 * The week's grid from `md` up: a column per day (its heading a link to the day's view), rows by
 * the hour, each appointment a link to its page, placed by its start and length and coloured by
 * its service. Days and their appointments come in time order, as Tab reaches them.
 */
export function WeekGrid({ grid, provider }: { grid: CalendarWeekGrid; provider: string | null }) {
	const fmt = useFormat()
	const { t, i18n } = useTranslation('booking')
	const heading = new Intl.DateTimeFormat(i18n.language, { weekday: 'short', month: 'numeric', day: 'numeric', timeZone: 'UTC' })
	const hours = Array.from({ length: (grid.to - grid.from) / 60 }, (_, i) => grid.from / 60 + i)
	const height = { height: `${hours.length * HOUR_REM}rem` }
	const head = 'flex h-12 items-end justify-center border-b px-1 pb-1 text-center text-xs'
	return (
		<section aria-label={t('calendar.weekView.grid')} className="hidden grid-cols-[4rem_repeat(7,minmax(0,1fr))] rounded-md border md:grid">
			<div aria-hidden="true">
				<div className={head} />
				<div className="relative text-right text-xs text-muted-foreground tabular-nums" style={height}>
					{hours.map((h, i) => (
						<span key={h} className="absolute right-1 -translate-y-1/2 first:translate-y-0" style={{ top: `${i * HOUR_REM}rem` }}>
							{fmt.time(`${String(h).padStart(2, '0')}:00`)}
						</span>
					))}
				</div>
			</div>
			{grid.days.map((d) => (
				<section key={d.date} aria-labelledby={`week-${d.date}`} className="min-w-0 border-l">
					<h3 id={`week-${d.date}`} className={head}>
						<Link
							to={calendarQuery({ day: d.date, provider })}
							aria-current={d.today ? 'date' : undefined}
							className="rounded px-1 font-medium hover:underline aria-[current=date]:bg-primary aria-[current=date]:text-primary-foreground"
						>
							{heading.format(new Date(`${d.date}T12:00:00Z`))}
						</Link>
					</h3>
					<ul
						className="relative bg-[linear-gradient(to_bottom,var(--color-border)_1px,transparent_1px)]"
						style={{ ...height, backgroundSize: `100% ${HOUR_REM}rem` }}
					>
						{d.blocks.length === 0 ? <li className="sr-only">{t('calendar.weekView.empty')}</li> : null}
						{d.blocks.map((b) => {
							const client = b.clientName.trim() || t('calendar.unknownClient')
							const service = b.serviceName ?? t('calendar.noService')
							const color = /^#[0-9a-f]{6}$/i.test(b.serviceColor ?? '') ? b.serviceColor! : '#64748b'
							return (
								<li
									key={b.id}
									className="absolute p-px"
									style={{ top: `${b.top}%`, height: `${b.height}%`, left: `${(b.lane / b.lanes) * 100}%`, width: `${100 / b.lanes}%` }}
								>
									<Link
										to={calendarPanelAddress({ day: d.date, week: true, provider }, b.id)}
										aria-label={t('calendar.weekView.block', {
											time: t('calendar.range', { start: fmt.time(b.startTime), end: fmt.time(b.endTime) }),
											client,
											service,
											provider: b.providerName ?? t('calendar.noProvider'),
											status: t(`status.${b.status}`),
										})}
										className="block h-full overflow-hidden rounded-sm border-l-4 px-1 text-xs leading-tight wrap-anywhere hover:brightness-95 data-[status=pending]:border-dashed"
										data-status={b.status}
										style={{ borderLeftColor: color, backgroundColor: `color-mix(in srgb, ${color} 18%, var(--background))` }}
									>
										{/* Spaces between the lines, so the words read as the label says them (WCAG 2.5.3). */}
										<span className="block font-medium tabular-nums">
											{t('calendar.range', { start: fmt.time(b.startTime), end: fmt.time(b.endTime) })}
										</span>{' '}
										<span className="block">{client}</span> <span className="block">{service}</span>
									</Link>
								</li>
							)
						})}
					</ul>
				</section>
			))}
		</section>
	)
}
