import { differenceInCalendarDays, parseISO } from 'date-fns'
import { CalendarCheckIcon, CheckCircle2Icon, DollarSignIcon, ReceiptIcon, UserXIcon, UsersIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Form } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { dateIn } from '#app/lib/dates.ts'
import { getBookingAnalytics, getBookingSettings, requireBookingMember, type BookingFigures } from '#app/.server/booking/staff.ts'
import { StatCard } from '#app/components/stat-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { addDays as addIsoDays, parseIsoDate } from '#app/lib/dates.ts'
import { errorResponse } from '#app/lib/errors.ts'
import { useFormat } from '#app/lib/use-format.ts'
import type { Route } from './+types/analytics'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

/** The longest period the tab compares (two years), so a typo cannot ask for centuries. */
const MAX_DAYS = 731
const PRESETS = [7, 30, 90] as const

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = await requireBookingMember(context)
	const settings = await getBookingSettings(user.userId, organization.id)
	if (!settings) return errorResponse(404, 'notFound')
	const params = new URL(request.url).searchParams
	const today = dateIn(settings.timezone)
	// What the address asked for and could not have (an edited link) is said, never silently replaced.
	const unreadable = (name: 'from' | 'to') => {
		const raw = params.get(name)?.trim()
		return raw && parseIsoDate(raw) === null ? raw.slice(0, 40) : null
	}
	const [badFrom, badTo] = [unreadable('from'), unreadable('to')]
	let notice: { key: 'unreadableFrom' | 'unreadableTo'; value: string } | { key: 'swapped' | 'tooLong' } | null =
		badTo !== null ? { key: 'unreadableTo', value: badTo } : badFrom !== null ? { key: 'unreadableFrom', value: badFrom } : null
	let to = parseIsoDate(params.get('to')) ?? today
	let from = parseIsoDate(params.get('from')) ?? addIsoDays(to, -29)
	if (from > to) {
		;[from, to] = [to, from]
		notice ??= { key: 'swapped' }
	}
	if (differenceInCalendarDays(parseISO(to), parseISO(from)) + 1 > MAX_DAYS) {
		from = addIsoDays(to, -(MAX_DAYS - 1))
		notice ??= { key: 'tooLong' }
	}
	const days = differenceInCalendarDays(parseISO(to), parseISO(from)) + 1
	const analytics = await getBookingAnalytics(user.userId, organization.id, settings.timezone, from, to)
	return { today, from, to, days, notice, previousFrom: addIsoDays(from, -days), previousTo: addIsoDays(from, -1), ...analytics }
}

export default function Analytics({ loaderData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	const { current, previous, from, to, today } = loaderData
	const change = (cur: number | null, prev: number | null) => {
		if (cur === null || prev === null || prev === 0) return t('analytics.noComparison')
		const ratio = (cur - prev) / prev
		return t('analytics.change', { change: `${ratio > 0 ? '+' : ''}${fmt.percent(ratio)}` })
	}
	const pointChange = (cur: number | null, prev: number | null) => {
		if (cur === null || prev === null) return t('analytics.noComparison')
		const points = (cur - prev) * 100
		return t('analytics.pointChange', { change: `${points > 0 ? '+' : ''}${fmt.number(Math.round(points * 10) / 10)}` })
	}
	const num = (f: BookingFigures, key: 'revenue' | 'averagePrice') => (f[key] === null ? null : Number(f[key]))
	return (
		<div className="grid gap-6">
			<Card>
				<CardHeader>
					<CardTitle>
						<h2>{t('analytics.title')}</h2>
					</CardTitle>
					<CardDescription>
						{t('analytics.period', {
							from: fmt.date(from),
							to: fmt.date(to),
							previousFrom: fmt.date(loaderData.previousFrom),
							previousTo: fmt.date(loaderData.previousTo),
						})}
					</CardDescription>
					{loaderData.notice ? (
						<p role="status" className="text-sm text-amber-700 dark:text-amber-400">
							{t(`analytics.notice.${loaderData.notice.key}`, {
								value: 'value' in loaderData.notice ? loaderData.notice.value : '',
								from: fmt.date(from),
								to: fmt.date(to),
							})}
						</p>
					) : null}
				</CardHeader>
				<CardContent className="flex flex-wrap items-end gap-3">
					<Form method="get" className="flex flex-wrap items-end gap-2">
						<div className="grid gap-1">
							<Label htmlFor="analytics-from">{t('analytics.from')}</Label>
							<Input id="analytics-from" type="date" name="from" defaultValue={from} key={`f${from}`} className="w-44" />
						</div>
						<div className="grid gap-1">
							<Label htmlFor="analytics-to">{t('analytics.to')}</Label>
							<Input id="analytics-to" type="date" name="to" defaultValue={to} key={`t${to}`} className="w-44" />
						</div>
						<Button type="submit" variant="outline">
							{t('analytics.apply')}
						</Button>
					</Form>
					{PRESETS.map((n) => (
						<Button key={n} asChild variant="ghost" size="sm">
							<Link to={`?from=${addIsoDays(today, -(n - 1))}&to=${today}`}>{t('analytics.lastDays', { count: n })}</Link>
						</Button>
					))}
				</CardContent>
			</Card>
			<section className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label={t('analytics.title')}>
				<StatCard
					icon={CalendarCheckIcon}
					title={t('analytics.cards.appointments')}
					value={fmt.number(current.appointments)}
					hint={change(current.appointments, previous.appointments)}
				/>
				<StatCard
					icon={DollarSignIcon}
					title={t('analytics.cards.revenue')}
					value={fmt.money(current.revenue)}
					hint={change(num(current, 'revenue'), num(previous, 'revenue'))}
				/>
				<StatCard
					icon={ReceiptIcon}
					title={t('analytics.cards.averagePrice')}
					value={current.averagePrice === null ? t('analytics.none') : fmt.money(current.averagePrice)}
					hint={change(num(current, 'averagePrice'), num(previous, 'averagePrice'))}
				/>
				<StatCard
					icon={UsersIcon}
					title={t('analytics.cards.uniqueClients')}
					value={fmt.number(current.uniqueClients)}
					hint={change(current.uniqueClients, previous.uniqueClients)}
				/>
				<StatCard
					icon={CheckCircle2Icon}
					title={t('analytics.cards.completionRate')}
					value={current.completionRate === null ? t('analytics.none') : fmt.percent(current.completionRate)}
					hint={pointChange(current.completionRate, previous.completionRate)}
				/>
				<StatCard
					icon={UserXIcon}
					title={t('analytics.cards.noShowRate')}
					value={current.noShowRate === null ? t('analytics.none') : fmt.percent(current.noShowRate)}
					hint={pointChange(current.noShowRate, previous.noShowRate)}
				/>
			</section>
			<Card>
				<CardHeader>
					<CardTitle>
						<h2>{t('analytics.activity.title')}</h2>
					</CardTitle>
					<CardDescription>{t('analytics.activity.description')}</CardDescription>
				</CardHeader>
				<CardContent>
					{loaderData.activity.length === 0 ? (
						<p className="text-sm text-muted-foreground">{t('analytics.activity.empty')}</p>
					) : (
						<ul className="grid gap-2 text-sm" aria-label={t('analytics.activity.title')}>
							{loaderData.activity.map((e) => (
								<li key={`${e.kind}-${e.id}`}>
									{t(`analytics.activity.${e.kind}`, {
										client: e.client.trim() || t('calendar.unknownClient'),
										service: e.service ?? t('calendar.noService'),
										date: fmt.date(e.date),
										time: fmt.time(e.time),
										status: t(`status.${e.status}`),
									})}
								</li>
							))}
						</ul>
					)}
				</CardContent>
			</Card>
		</div>
	)
}
