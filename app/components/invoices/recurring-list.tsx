import { useNavigation } from 'react-router'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { RepeatIcon, StoreIcon, Trash2Icon } from '#app/components/icons.tsx'
import { InvoiceStateBadge } from '#app/components/invoices/state-badge.tsx'
import { Link } from '#app/components/link.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import type { InvoiceState } from '#app/lib/invoices.ts'
import { MODULES } from '#app/lib/modules.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * The recurring invoice screens' parts (docs/product.md, Recurring invoices): the schedules'
 * table with pause, resume and delete (plain posts, so without JavaScript too), the upgrade's
 * notice, a schedule's status and summary, and the history of what it made.
 */

/** One schedule as the screens show it (app/.server/invoices/recurring.ts, ScheduleRow). */
export type ScheduleView = {
	id: string
	clientName: string | null
	cadence: 'weekly' | 'monthly' | 'yearly'
	startDate: string
	nextRun: string | null
	madeCount: number
	maxCount: number | null
	endDate: string | null
	active: boolean
	pausedReason: string | null
	total: string
}

export type ScheduleStatus = 'active' | 'paused' | 'ended'

/** Active, paused (by the member or by the database, with its reason), or ended (its count made, or past its end date). */
export function statusOf(s: Pick<ScheduleView, 'active' | 'nextRun'>): ScheduleStatus {
	if (!s.active) return 'paused'
	return s.nextRun ? 'active' : 'ended'
}

const VARIANT = { active: 'success', paused: 'warning', ended: 'secondary' } as const

export function ScheduleStatusBadge({ schedule }: { schedule: Pick<ScheduleView, 'active' | 'nextRun'> }) {
	const { t } = useTranslation('recurring')
	const status = statusOf(schedule)
	return <Badge variant={VARIANT[status]}>{t(`status.${status}`)}</Badge>
}

/** What the organization lacks to run schedules: the upgrade, with a link to it on the module's page. */
export function RecurringUpgradeNotice({ hasSchedules }: { hasSchedules: boolean }) {
	const { t } = useTranslation('recurring')
	const { invoicing } = MODULES
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('upgrade.title')}</h2>
				</CardTitle>
				<CardDescription>
					{t('upgrade.description')}
					{hasSchedules ? ` ${t('upgrade.existing')}` : ''}
				</CardDescription>
			</CardHeader>
			<CardContent>
				<Button asChild>
					<Link to={`/app/modules/${invoicing.id}?upgrade=${invoicing.upgrades.recurring.id}`}>
						<StoreIcon aria-hidden="true" />
						{t('upgrade.action')}
					</Link>
				</Button>
			</CardContent>
		</Card>
	)
}

export function RecurringEmpty() {
	const { t } = useTranslation('recurring')
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2 className="flex items-center gap-2">
						<RepeatIcon className="size-5 text-muted-foreground" aria-hidden="true" />
						{t('empty.title')}
					</h2>
				</CardTitle>
				<CardDescription>{t('empty.description')}</CardDescription>
			</CardHeader>
		</Card>
	)
}

/** "3 of 12", or "3" for a schedule without a count. */
function useMade() {
	const { t } = useTranslation('recurring')
	const fmt = useFormat()
	return (s: Pick<ScheduleView, 'madeCount' | 'maxCount'>) =>
		s.maxCount
			? t('made', { made: fmt.number(s.madeCount), limit: fmt.number(s.maxCount) })
			: t('madeOpen', { made: fmt.number(s.madeCount) })
}

/** The schedules of a page: client (opening the schedule), amount, cadence, next date, made, status, and their actions. */
export function ScheduleTable({ rows, canResume }: { rows: ScheduleView[]; canResume: boolean }) {
	const { t } = useTranslation('recurring')
	const fmt = useFormat()
	const made = useMade()
	const label = {
		client: t('columns.client'),
		amount: t('columns.amount'),
		cadence: t('columns.cadence'),
		next: t('columns.next'),
		made: t('columns.made'),
		status: t('columns.status'),
		actions: t('columns.actions'),
	}
	return (
		<div className="rounded-md border">
			<Table cards={[label.client, label.amount, label.cadence, label.next, label.made, label.status, label.actions]}>
				<caption className="sr-only">{t('title')}</caption>
				<TableHeader>
					<TableRow>
						<TableHead scope="col">{label.client}</TableHead>
						<TableHead scope="col" className="text-right">
							{label.amount}
						</TableHead>
						<TableHead scope="col">{label.cadence}</TableHead>
						<TableHead scope="col">{label.next}</TableHead>
						<TableHead scope="col">{label.made}</TableHead>
						<TableHead scope="col">{label.status}</TableHead>
						<TableHead scope="col">
							<span className="sr-only">{label.actions}</span>
						</TableHead>
					</TableRow>
				</TableHeader>
				<TableBody>
					{rows.map((s) => {
						const client = s.clientName || t('noClient')
						return (
							<TableRow key={s.id}>
								<TableCell className="font-medium card-title">
									<Link
										to={`/app/invoices/recurring/${s.id}`}
										className="inline-flex min-h-11 items-center underline underline-offset-4 hover:no-underline sm:min-h-0"
									>
										{client}
									</Link>
								</TableCell>
								<TableCell className="text-right tabular-nums card-meta">{fmt.money(s.total)}</TableCell>
								<TableCell className="card-meta">{t(`cadence.${s.cadence}`)}</TableCell>
								<TableCell className="tabular-nums card-meta">
									{s.active && s.nextRun ? fmt.date(s.nextRun) : '—'}
									{s.endDate ? (
										<span className="block text-xs text-muted-foreground">{t('until', { date: fmt.date(s.endDate) })}</span>
									) : null}
								</TableCell>
								<TableCell className="tabular-nums card-meta">{made(s)}</TableCell>
								<TableCell className="card-subtitle">
									<ScheduleStatusBadge schedule={s} />
									{s.pausedReason ? (
										<span className="mt-1 block max-w-56 text-xs whitespace-normal text-muted-foreground">
											{t(`pausedReasons.${s.pausedReason}`)}
										</span>
									) : null}
								</TableCell>
								<TableCell className="card-actions">
									<ScheduleActions schedule={s} client={client} canResume={canResume} deleteHref={`?delete=${s.id}`} />
								</TableCell>
							</TableRow>
						)
					})}
				</TableBody>
			</Table>
		</div>
	)
}

/** Pause or resume (a post of its own), and delete (a link to the question, which posts). */
export function ScheduleActions({
	schedule,
	client,
	canResume,
	deleteHref,
}: {
	schedule: Pick<ScheduleView, 'id' | 'active' | 'nextRun'>
	client: string
	canResume: boolean
	deleteHref: string
}) {
	const { t } = useTranslation('recurring')
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting' && navigation.formData?.get('scheduleId') === schedule.id
	const status = statusOf(schedule)
	return (
		<div className="flex flex-wrap items-center gap-1">
			{status === 'active' || (status === 'paused' && canResume) ? (
				<AppForm method="post">
					<input type="hidden" name="scheduleId" value={schedule.id} />
					<Button
						type="submit"
						name="intent"
						value={status === 'active' ? 'pause' : 'resume'}
						variant="outline"
						size="sm"
						disabled={busy}
						aria-label={t(status === 'active' ? 'actions.pauseOf' : 'actions.resumeOf', { client })}
					>
						{t(status === 'active' ? 'actions.pause' : 'actions.resume')}
					</Button>
				</AppForm>
			) : null}
			<Button asChild variant="ghost" size="sm">
				<Link to={deleteHref} aria-label={t('actions.deleteOf', { client })} preventScrollReset>
					<Trash2Icon aria-hidden="true" />
					{t('actions.delete')}
				</Link>
			</Button>
		</div>
	)
}

/** The question a deletion asks first: a post that deletes, or back. */
export function ConfirmDelete({ scheduleId, client, cancelHref }: { scheduleId: string; client: string; cancelHref: string }) {
	const { t } = useTranslation('recurring')
	return (
		<Alert variant="destructive" role="alertdialog" aria-labelledby="delete-schedule-title">
			<AlertTitle id="delete-schedule-title">{t('confirmDelete.title', { client })}</AlertTitle>
			<AlertDescription>
				<p>{t('confirmDelete.description')}</p>
				<div className="mt-3 flex flex-wrap gap-2">
					<AppForm method="post">
						<input type="hidden" name="scheduleId" value={scheduleId} />
						<Button type="submit" name="intent" value="delete" variant="destructive" size="sm">
							<Trash2Icon aria-hidden="true" />
							{t('confirmDelete.confirm')}
						</Button>
					</AppForm>
					<Button asChild variant="outline" size="sm">
						<Link to={cancelHref}>{t('confirmDelete.cancel')}</Link>
					</Button>
				</div>
			</AlertDescription>
		</Alert>
	)
}

/** A schedule's figures: its next invoice, how many it made, how it repeats and ends. */
export function ScheduleSummary({ schedule }: { schedule: ScheduleView }) {
	const { t } = useTranslation('recurring')
	const fmt = useFormat()
	const made = useMade()
	const ends = schedule.endDate
		? t('summary.endsOn', { date: fmt.date(schedule.endDate) })
		: schedule.maxCount
			? t('summary.endsAfter', { count: schedule.maxCount })
			: t('summary.endsNever')
	const items: [string, string][] = [
		[t('summary.next'), schedule.active && schedule.nextRun ? fmt.date(schedule.nextRun) : t('summary.nextNone')],
		[t('summary.made'), made(schedule)],
		[t('summary.repeats'), `${t(`cadence.${schedule.cadence}`)} · ${t('summary.since', { date: fmt.date(schedule.startDate) })}`],
		[t('form.ends'), ends],
	]
	return (
		<section aria-labelledby="schedule-summary" className="grid gap-3">
			<div className="flex flex-wrap items-center gap-3">
				<h2 id="schedule-summary" className="text-lg font-semibold">
					{t('summary.title')}
				</h2>
				<ScheduleStatusBadge schedule={schedule} />
			</div>
			{schedule.pausedReason ? <p className="text-sm text-muted-foreground">{t(`pausedReasons.${schedule.pausedReason}`)}</p> : null}
			<dl className="grid gap-x-8 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
				{items.map(([label, value]) => (
					<div key={label} className="grid gap-0.5">
						<dt className="text-muted-foreground">{label}</dt>
						<dd className="font-medium tabular-nums">{value}</dd>
					</div>
				))}
			</dl>
		</section>
	)
}

export type HistoryRow = {
	periodDate: string
	invoiceId: string
	number: number | null
	state: string
	total: string
	balance: string
}

/** The invoices a schedule made, latest first, each opening its invoice's page. */
export function ScheduleHistory({ rows, nextRun }: { rows: HistoryRow[]; nextRun: string | null }) {
	const { t } = useTranslation('recurring')
	const fmt = useFormat()
	const label = {
		period: t('history.period'),
		invoice: t('history.invoice'),
		state: t('history.state'),
		total: t('history.total'),
		balance: t('history.balance'),
	}
	return (
		<section aria-labelledby="schedule-history" className="grid min-w-0 gap-3">
			<h2 id="schedule-history" className="text-lg font-semibold">
				{t('history.title')}
			</h2>
			{rows.length === 0 ? (
				<p className="text-sm text-muted-foreground">
					{nextRun ? t('history.emptyNext', { date: fmt.date(nextRun) }) : t('history.empty')}
				</p>
			) : (
				<div className="rounded-md border">
					<Table cards={[label.period, label.invoice, label.state, label.total, label.balance]}>
						<caption className="sr-only">{t('history.caption')}</caption>
						<TableHeader>
							<TableRow>
								<TableHead scope="col">{label.period}</TableHead>
								<TableHead scope="col">{label.invoice}</TableHead>
								<TableHead scope="col">{label.state}</TableHead>
								<TableHead scope="col" className="text-right">
									{label.total}
								</TableHead>
								<TableHead scope="col" className="text-right">
									{label.balance}
								</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{rows.map((r) => (
								<TableRow key={r.invoiceId}>
									<TableCell className="tabular-nums card-meta">{fmt.date(r.periodDate)}</TableCell>
									<TableCell className="font-medium card-title">
										<Link
											to={`/app/invoices/${r.invoiceId}`}
											className="inline-flex min-h-11 items-center underline underline-offset-4 hover:no-underline sm:min-h-0"
										>
											{r.number === null ? '—' : t('history.numbered', { number: r.number })}
										</Link>
									</TableCell>
									<TableCell className="card-subtitle">
										<InvoiceStateBadge state={r.state as InvoiceState} />
									</TableCell>
									<TableCell className="text-right tabular-nums card-meta">{fmt.money(r.total)}</TableCell>
									<TableCell className="text-right tabular-nums card-meta">{fmt.money(r.balance)}</TableCell>
								</TableRow>
							))}
						</TableBody>
					</Table>
				</div>
			)}
		</section>
	)
}
