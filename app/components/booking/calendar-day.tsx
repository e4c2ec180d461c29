/**
 * The staff calendar's day (docs/product.md, Booking): its heading with the day's navigation and
 * its week's counts, the list of its appointments with the status changes each allows, and the
 * question before a cancellation. Every control is a link or a form, so it works without JavaScript.
 */
import { ArrowRightIcon, ChevronLeftIcon, ChevronRightIcon, PlusIcon, RefreshCwIcon } from '#app/components/icons.tsx'
import { parseISO } from 'date-fns'
import { Form } from 'react-router'
import type { CalendarAppointment } from '#app/.server/booking/calendar.ts'
import { usePanelHref } from '#app/components/booking/appointment-panel.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ConfirmCard } from '#app/components/forms/confirm-card.tsx'
import { Link } from '#app/components/link.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { allowedChanges, type AppointmentStatus } from '#app/lib/appointments.ts'
import { addDays as addIsoDays } from '#app/lib/dates.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

const STATUS_VARIANT: Record<AppointmentStatus, 'success' | 'warning' | 'destructive' | 'secondary' | 'outline'> = {
	confirmed: 'success',
	pending: 'warning',
	cancelled: 'destructive',
	completed: 'secondary',
	no_show: 'outline',
}

/**
 * The day's heading: the previous and next days, a date to go to, today, refresh, and the week with
 * each day's count. Every link and the date's form keep the provider filter (`provider`).
 */
export function CalendarDayNav({
	day,
	today,
	week,
	counts,
	timezone,
	provider = null,
}: {
	day: string
	today: string
	week: string[]
	counts: Record<string, number>
	timezone: string
	provider?: string | null
}) {
	const fmt = useFormat()
	const { t, i18n } = useTranslation('booking')
	const weekday = new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' })
	const query = provider ? `&provider=${provider}` : ''
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('calendar.title', { date: fmt.date(day) })}</h2>
				</CardTitle>
				<CardDescription>{t('calendar.timezone', { timezone })}</CardDescription>
				<CardAction>
					<Button asChild>
						<Link to={`?day=${day}&new=1${query}`}>
							<PlusIcon aria-hidden="true" />
							{t('calendar.new')}
						</Link>
					</Button>
				</CardAction>
			</CardHeader>
			<CardContent className="grid gap-4">
				<div className="flex flex-wrap items-end gap-2">
					{/* The day and its previous and next buttons stay on one line, on a phone too. */}
					<div className="flex w-full min-w-0 items-end gap-2 sm:w-auto">
						<Button asChild variant="outline" size="icon">
							<Link to={`?day=${addIsoDays(day, -1)}${query}`} aria-label={t('calendar.previousDay')}>
								<ChevronLeftIcon aria-hidden="true" />
							</Link>
						</Button>
						<Form method="get" className="flex min-w-0 flex-1 items-end gap-2">
							{provider ? <input type="hidden" name="provider" value={provider} /> : null}
							<div className="grid min-w-0 flex-1 gap-1">
								<Label htmlFor="calendar-day">{t('calendar.day')}</Label>
								<Input id="calendar-day" type="date" name="day" defaultValue={day} key={day} className="w-full sm:w-44" />
							</div>
							<Button type="submit" variant="outline" className="max-sm:size-9 max-sm:px-0">
								<ArrowRightIcon aria-hidden="true" className="sm:hidden" />
								<span className="max-sm:sr-only">{t('calendar.go')}</span>
							</Button>
						</Form>
						<Button asChild variant="outline" size="icon">
							<Link to={`?day=${addIsoDays(day, 1)}${query}`} aria-label={t('calendar.nextDay')}>
								<ChevronRightIcon aria-hidden="true" />
							</Link>
						</Button>
					</div>
					<Button asChild variant="ghost">
						<Link to={`?day=${today}${query}`}>{t('calendar.today')}</Link>
					</Button>
					<Button asChild variant="ghost">
						<Link to={`?day=${day}${query}`} reloadDocument>
							<RefreshCwIcon aria-hidden="true" />
							{t('calendar.refresh')}
						</Link>
					</Button>
				</div>
				<nav aria-label={t('calendar.week')} className="grid grid-cols-7 gap-1">
					{week.map((d) => (
						<Link
							key={d}
							to={`?day=${d}${query}`}
							aria-current={d === day ? 'date' : undefined}
							className="grid justify-items-center rounded-md border px-1 py-2 text-xs hover:bg-accent aria-[current=date]:border-primary aria-[current=date]:bg-primary/10"
						>
							<span className="font-medium">{weekday.format(parseISO(`${d}T12:00:00Z`))}</span>
							<span className="tabular-nums">{d.slice(8)}</span>
							{/* On a phone the seven days leave room for the number alone; the words stay for screen readers. */}
							<span className="text-foreground/70">
								<span aria-hidden="true" className="tabular-nums sm:hidden">
									{counts[d] ?? 0}
								</span>
								<span className="max-sm:sr-only">{t('calendar.count', { count: counts[d] ?? 0 })}</span>
							</span>
						</Link>
					))}
				</nav>
			</CardContent>
		</Card>
	)
}

/** The day's appointments in time order, each with its status and the changes it allows; or the empty day's line. */
export function AppointmentList({ day, appointments }: { day: string; appointments: CalendarAppointment[] }) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	// The client's name opens the appointment in the calendar's side panel (appointment-panel.tsx).
	const panelHref = usePanelHref()
	return (
		<section aria-label={t('calendar.listLabel')} className="grid gap-3">
			{appointments.length === 0 ? (
				<p className="rounded-md border p-6 text-center text-sm text-muted-foreground">{t('calendar.empty')}</p>
			) : (
				<ul className="grid gap-3">
					{appointments.map((a) => (
						<li
							key={a.id}
							className="grid gap-2 rounded-md border p-4 sm:grid-cols-[8rem_1fr_auto] sm:items-center"
							aria-label={t('calendar.itemLabel', {
								start: fmt.time(a.startTime),
								end: fmt.time(a.endTime),
								client: a.clientName.trim() || t('calendar.unknownClient'),
							})}
						>
							<div className="font-medium tabular-nums">
								{t('calendar.range', { start: fmt.time(a.startTime), end: fmt.time(a.endTime) })}
							</div>
							{/* min-w-0 and wrap-anywhere: a name of one long word wraps instead of widening the page. */}
							<div className="grid min-w-0 gap-0.5 text-sm wrap-anywhere">
								<div className="flex flex-wrap items-center gap-2">
									<span
										aria-hidden="true"
										className="size-2.5 shrink-0 rounded-full"
										style={{ backgroundColor: a.serviceColor ?? '#64748b' }}
									/>
									<span className="min-w-0 font-medium">{a.serviceName ?? t('calendar.noService')}</span>
									<Badge variant={STATUS_VARIANT[a.status]}>{t(`status.${a.status}`)}</Badge>
								</div>
								<div>
									<Link to={panelHref(a.id)} className="font-medium underline underline-offset-4 hover:no-underline">
										{a.clientName.trim() || t('calendar.unknownClient')}
									</Link>
								</div>
								<div className="text-muted-foreground">{t('calendar.with', { provider: a.providerName ?? t('calendar.noProvider') })}</div>
							</div>
							<StatusActions day={day} id={a.id} status={a.status} started={a.started} />
						</li>
					))}
				</ul>
			)}
		</section>
	)
}

/** The status changes an appointment allows as buttons; cancelling first asks (`ConfirmCancel`). */
function StatusActions({ day, id, status, started }: { day: string; id: string; status: AppointmentStatus; started: boolean }) {
	const { t } = useTranslation('booking')
	const changes = allowedChanges(status, started)
	if (changes.length === 0) return <div />
	return (
		<div className="flex flex-wrap gap-2">
			{changes.map((change) =>
				change === 'cancel' ? (
					<Button key={change} asChild variant="outline" size="sm">
						<Link to={`?day=${day}&cancel=${id}`}>{t('calendar.actions.cancel')}</Link>
					</Button>
				) : (
					<AppForm key={change} method="post">
						<input type="hidden" name="intent" value="change-status" />
						<input type="hidden" name="id" value={id} />
						<input type="hidden" name="day" value={day} />
						<input type="hidden" name="change" value={change} />
						<Button type="submit" variant="outline" size="sm">
							{t(`calendar.actions.${change}`)}
						</Button>
					</AppForm>
				),
			)}
		</div>
	)
}

/** The question before cancelling an appointment, on a page of its own (a link), answered by a form. */
export function ConfirmCancel({
	day,
	appointment,
}: {
	day: string
	appointment: { id: string; startTime: string; endTime: string; clientName: string }
}) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	return (
		<ConfirmCard
			id="cancel-title"
			title={t('calendar.cancel.title')}
			description={t('calendar.cancel.description', {
				time: t('calendar.range', { start: fmt.time(appointment.startTime), end: fmt.time(appointment.endTime) }),
				client: appointment.clientName.trim() || t('calendar.unknownClient'),
			})}
			keep={{ to: `?day=${day}`, label: t('calendar.cancel.keep') }}
		>
			<AppForm method="post">
				<input type="hidden" name="intent" value="change-status" />
				<input type="hidden" name="id" value={appointment.id} />
				<input type="hidden" name="day" value={day} />
				<input type="hidden" name="change" value="cancel" />
				<Button type="submit" variant="destructive">
					{t('calendar.cancel.confirm')}
				</Button>
			</AppForm>
		</ConfirmCard>
	)
}
