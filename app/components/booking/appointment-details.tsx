/**
 * One appointment, whole (docs/product.md, Booking › The appointment page), as its own page and as
 * the calendar's side panel: the client and how to reach them, what and when, its status and what
 * it was paid or still owes, the payments linked to it, its history, and the staff's actions.
 * Every action is a one-button form, cancelling and moving are steps of the address
 * (`step=cancel`, `step=move`), so everything works without JavaScript. The forms post to the
 * appointment's route; hidden fields say which view to come back to.
 */
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ConfirmCard } from '#app/components/forms/confirm-card.tsx'
import { SubmitButton } from '#app/components/forms/submit-button.tsx'
import { MailIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import type { AppointmentPage, HistoryEntry, PaidWay } from '#app/.server/booking/appointments.ts'
import type { AppointmentStatus } from '#app/lib/appointments.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { zoneName } from '#app/lib/format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

const STATUS_VARIANT: Record<AppointmentStatus, 'success' | 'warning' | 'destructive' | 'secondary' | 'outline'> = {
	confirmed: 'success',
	pending: 'warning',
	cancelled: 'destructive',
	completed: 'secondary',
	no_show: 'outline',
}

/** Where the appointment is shown, and so where its links and forms lead. */
export type AppointmentView = {
	/** This view's address (its query included), to which a step is added. */
	here: string
	/** The appointment's route, where the forms post. */
	action: string
	/** Hidden fields that bring a form's answer back to this view. */
	back: Record<string, string>
	/** The step the address asks for: the cancellation question or the move form. */
	step: 'cancel' | 'move' | null
	/** The move form's values (what was typed before a refusal, else the appointment's own). */
	move: { date: string; time: string; provider: string }
}

/** The view's address with one more query parameter. */
function withStep(here: string, step: string) {
	return `${here}${here.includes('?') ? '&' : '?'}step=${step}`
}

const selectClass = 'h-11 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs sm:h-9'
/** Links a finger taps on a phone: 44 px high there. */
const tapTarget = 'inline-flex min-h-11 items-center gap-2 text-primary underline-offset-4 hover:underline sm:min-h-0 wrap-anywhere'

/** The appointment: its summary and actions, the step asked for, its money, and its history. */
export function AppointmentDetails({ appointment: a, view }: { appointment: AppointmentPage; view: AppointmentView }) {
	return (
		<div className="grid min-w-0 gap-4">
			<Summary appointment={a} view={view} />
			{view.step === 'cancel' && a.changes.includes('cancel') ? <CancelStep appointment={a} view={view} /> : null}
			{view.step === 'move' && a.movable ? <MoveStep appointment={a} view={view} /> : null}
			<Payment appointment={a} view={view} />
			<History appointment={a} />
		</div>
	)
}

/** Hidden fields of every form: the intent and the way back. */
function Hidden({ intent, view }: { intent: string; view: AppointmentView }) {
	return (
		<>
			<input type="hidden" name="intent" value={intent} />
			{Object.entries(view.back).map(([name, value]) => (
				<input key={name} type="hidden" name={name} value={value} />
			))}
		</>
	)
}

function Summary({ appointment: a, view }: { appointment: AppointmentPage; view: AppointmentView }) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	const name = a.client?.name.trim() || a.guest.name.trim() || t('calendar.unknownClient')
	const owes = a.payment.open !== null || (Number(a.payment.owed) > 0 && a.status !== 'cancelled' && a.status !== 'no_show')
	return (
		<Card>
			<CardHeader>
				<CardTitle className="flex flex-wrap items-center gap-2">
					<h2 className="min-w-0 wrap-anywhere">
						{a.client ? (
							<Link to={`/app/clients/${a.client.id}`} className="underline underline-offset-4 hover:no-underline">
								{name}
							</Link>
						) : (
							name
						)}
					</h2>
					<Badge variant={STATUS_VARIANT[a.status]}>{t(`status.${a.status}`)}</Badge>
				</CardTitle>
				<CardDescription>
					{t('appointment.when', {
						date: fmt.date(a.date),
						start: fmt.time(a.startTime),
						end: fmt.time(a.endTime),
						timezone: zoneName(a.timezone, fmt.lng),
					})}
				</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				<dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
					<Detail label={t('appointment.email')}>
						{a.guest.email ? (
							<a href={`mailto:${a.guest.email}`} className={tapTarget}>
								<MailIcon aria-hidden="true" className="size-4 shrink-0" />
								{a.guest.email}
							</a>
						) : (
							<span className="text-muted-foreground">{t('appointment.noEmail')}</span>
						)}
					</Detail>
					<Detail label={t('appointment.phone')}>
						{a.guest.phone ? (
							<a href={`tel:${a.guest.phone.replace(/[^0-9+]/g, '')}`} className={tapTarget}>
								{a.guest.phone}
							</a>
						) : (
							<span className="text-muted-foreground">{t('appointment.noPhone')}</span>
						)}
					</Detail>
					<Detail label={t('appointment.service')}>{a.service?.name ?? t('calendar.noService')}</Detail>
					<Detail label={t('appointment.provider')}>{a.provider?.name ?? t('calendar.noProvider')}</Detail>
					<Detail label={t('appointment.price')}>{fmt.money(a.price)}</Detail>
					<Detail label={t('appointment.notes')}>
						{a.notes ? (
							<span className="whitespace-pre-line">{a.notes}</span>
						) : (
							<span className="text-muted-foreground">{t('appointment.noNotes')}</span>
						)}
					</Detail>
				</dl>
				<div className="flex flex-wrap gap-2" role="group" aria-label={t('appointment.actions')}>
					{a.changes
						.filter((change) => change !== 'cancel')
						.map((change) => (
							<AppForm key={change} method="post" action={view.action}>
								<Hidden intent="change-status" view={view} />
								<input type="hidden" name="change" value={change} />
								<Button type="submit" variant="outline">
									{t(`calendar.actions.${change}`)}
								</Button>
							</AppForm>
						))}
					{owes ? (
						<AppForm method="post" action={view.action}>
							<Hidden intent="mark-paid" view={view} />
							<Button type="submit" variant="outline">
								{t('appointment.markPaid')}
							</Button>
						</AppForm>
					) : null}
					{a.movable ? (
						<Button asChild variant="outline">
							<Link to={withStep(view.here, 'move')}>{t('appointment.move.open')}</Link>
						</Button>
					) : null}
					{a.changes.includes('cancel') ? (
						<Button asChild variant="outline">
							<Link to={withStep(view.here, 'cancel')}>{t('calendar.actions.cancel')}</Link>
						</Button>
					) : null}
				</div>
			</CardContent>
		</Card>
	)
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
	return (
		<div className="grid min-w-0 gap-0.5">
			<dt className="text-muted-foreground">{label}</dt>
			<dd className="min-w-0 font-medium wrap-anywhere">{children}</dd>
		</div>
	)
}

function CancelStep({ appointment: a, view }: { appointment: AppointmentPage; view: AppointmentView }) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	return (
		<ConfirmCard
			id="appointment-cancel-title"
			title={t('calendar.cancel.title')}
			description={t('calendar.cancel.description', {
				time: t('calendar.range', { start: fmt.time(a.startTime), end: fmt.time(a.endTime) }),
				client: a.guest.name.trim() || t('calendar.unknownClient'),
			})}
			keep={{ to: view.here, label: t('calendar.cancel.keep') }}
		>
			<AppForm method="post" action={view.action}>
				<Hidden intent="change-status" view={view} />
				<input type="hidden" name="change" value="cancel" />
				<Button type="submit" variant="destructive">
					{t('calendar.cancel.confirm')}
				</Button>
			</AppForm>
		</ConfirmCard>
	)
}

function MoveStep({ appointment: a, view }: { appointment: AppointmentPage; view: AppointmentView }) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h3>{t('appointment.move.title')}</h3>
				</CardTitle>
				<CardDescription>{t('appointment.move.description', { timezone: zoneName(a.timezone, fmt.lng) })}</CardDescription>
			</CardHeader>
			<CardContent>
				<AppForm method="post" action={view.action} className="grid gap-4 sm:grid-cols-3">
					<Hidden intent="move" view={view} />
					<div className="grid gap-2">
						<Label htmlFor="move-date">{t('appointment.move.date')}</Label>
						<Input id="move-date" type="date" name="date" required defaultValue={view.move.date} className="h-11 sm:h-9" />
					</div>
					<div className="grid gap-2">
						<Label htmlFor="move-time">{t('appointment.move.time')}</Label>
						<Input id="move-time" type="time" name="time" required defaultValue={view.move.time} className="h-11 sm:h-9" />
					</div>
					<div className="grid gap-2">
						<Label htmlFor="move-provider">{t('appointment.move.provider')}</Label>
						<select id="move-provider" name="provider" defaultValue={view.move.provider} className={selectClass}>
							{a.providers.map((p) => (
								<option key={p.id} value={p.id}>
									{p.name}
								</option>
							))}
						</select>
					</div>
					<div className="flex flex-wrap gap-2 sm:col-span-3">
						<SubmitButton label={t('appointment.move.submit')} pendingLabel={t('appointment.move.pending')} intent="move" />
						<Button asChild variant="ghost">
							<Link to={view.here}>{t('appointment.move.keep')}</Link>
						</Button>
					</div>
				</AppForm>
			</CardContent>
		</Card>
	)
}

/** A way the appointment was paid, in words. */
function usePaidWay() {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	return (way: PaidWay) =>
		way.how === 'marked'
			? way.by
				? t('appointment.paid.marked', { amount: fmt.money(way.amount), member: way.by })
				: t('appointment.paid.markedNobody', { amount: fmt.money(way.amount) })
			: t(`appointment.paid.${way.how}`, { amount: fmt.money(way.amount), code: way.code })
}

function Payment({ appointment: a, view }: { appointment: AppointmentPage; view: AppointmentView }) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	const paidWay = usePaidWay()
	const { open, paid } = a.payment
	const state = open
		? open.kind === 'deposit'
			? open.dueAt
				? t('appointment.payment.awaitingDeposit', {
						amount: fmt.money(open.amount),
						code: open.code,
						date: fmt.date(open.dueAt.date),
						time: open.dueAt.time,
					})
				: t('appointment.payment.awaitingDepositOpen', { amount: fmt.money(open.amount), code: open.code })
			: t('appointment.payment.owes', { amount: fmt.money(open.amount), code: open.code })
		: paid.length > 0
			? t('appointment.payment.paid')
			: Number(a.payment.owed) > 0 && a.status === 'completed'
				? t('appointment.payment.owesNoCode', { amount: fmt.money(a.payment.owed) })
				: t('appointment.payment.none')
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h3>{t('appointment.payment.title')}</h3>
				</CardTitle>
				<CardDescription className="text-base font-medium text-foreground">{state}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				{paid.length > 0 ? (
					<ul className="grid gap-1 text-sm" aria-label={t('appointment.payment.received')}>
						{paid.map((way, i) => (
							<li key={i}>{paidWay(way)}</li>
						))}
					</ul>
				) : null}
				<section aria-labelledby="appointment-payments" className="grid gap-2">
					<h4 id="appointment-payments" className="text-sm font-semibold">
						{t('appointment.payments.title')}
					</h4>
					{a.payments.length === 0 ? (
						<p className="text-sm text-muted-foreground">{t('appointment.payments.empty')}</p>
					) : (
						<ul className="grid gap-2">
							{a.payments.map((p) => (
								<li key={p.matchId} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm">
									<span className="grid gap-0.5">
										<span className="font-medium tabular-nums">
											{t('appointment.payments.line', { date: fmt.date(p.date), method: p.paymentMethod, amount: fmt.money(p.amount) })}
										</span>
										<span className="text-muted-foreground">{t(`appointment.payments.how.${p.how}`, { code: p.code })}</span>
									</span>
									<AppForm method="post" action={view.action}>
										<Hidden intent="unmatch" view={view} />
										<input type="hidden" name="match" value={p.matchId} />
										<Button
											type="submit"
											variant="outline"
											size="sm"
											aria-label={t('appointment.payments.undoLabel', { amount: fmt.money(p.amount), date: fmt.date(p.date) })}
										>
											{t('appointment.payments.undo')}
										</Button>
									</AppForm>
								</li>
							))}
						</ul>
					)}
				</section>
				{open ? <LinkPayment appointment={a} view={view} /> : null}
			</CardContent>
		</Card>
	)
}

function LinkPayment({ appointment: a, view }: { appointment: AppointmentPage; view: AppointmentView }) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	return (
		<section aria-labelledby="appointment-link" className="grid gap-2">
			<h4 id="appointment-link" className="text-sm font-semibold">
				{t('appointment.link.title')}
			</h4>
			{a.linkable.length === 0 ? (
				<p className="text-sm text-muted-foreground">{t('appointment.link.none')}</p>
			) : (
				<AppForm method="post" action={view.action} className="flex flex-wrap items-end gap-2">
					<Hidden intent="link-payment" view={view} />
					<div className="grid min-w-0 flex-1 gap-2">
						<Label htmlFor="link-transaction">{t('appointment.link.field')}</Label>
						<select id="link-transaction" name="transaction" className={selectClass}>
							{a.linkable.map((p) => (
								<option key={p.id} value={p.id}>
									{t('appointment.payments.line', { date: fmt.date(p.date), method: p.paymentMethod, amount: fmt.money(p.amount) })}
									{p.description ? ` · ${p.description}` : ''}
								</option>
							))}
						</select>
					</div>
					<SubmitButton label={t('appointment.link.submit')} pendingLabel={t('appointment.link.pending')} intent="link-payment" />
				</AppForm>
			)}
		</section>
	)
}

/** A history entry in words. */
function useHistorySentence() {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	const when = (at: { date: string; time: string } | null) => (at ? fmt.dateTime(at) : '—')
	return (h: HistoryEntry) => {
		const amount = h.amount === null ? '' : fmt.money(h.amount)
		switch (h.kind) {
			case 'created':
				return t('appointment.history.created', { status: t(`status.${h.status ?? 'pending'}`) })
			case 'status':
				return t('appointment.history.status', { status: t(`status.${h.status ?? 'pending'}`) })
			case 'moved':
				return h.provider
					? t('appointment.history.movedWith', { from: when(h.from), to: when(h.to), provider: h.provider })
					: t('appointment.history.moved', { from: when(h.from), to: when(h.to) })
			case 'payment_matched':
				return t(`appointment.history.matched.${h.method === 'memo_code' || h.method === 'payer_amount' ? h.method : 'manual'}`, {
					amount,
					code: h.code ?? '',
				})
			case 'payment_unmatched':
				return t('appointment.history.unmatched', { amount })
			case 'marked_paid':
				return t('appointment.history.markedPaid', { amount })
			case 'hold_released':
				return t('appointment.history.holdReleased')
			case 'reminder_sent':
				return t('appointment.history.reminderSent')
			case 'payment_requested':
				return t('appointment.history.paymentRequested')
			default:
				return t('appointment.history.changed')
		}
	}
}

function History({ appointment: a }: { appointment: AppointmentPage }) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	const sentence = useHistorySentence()
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h3 id="appointment-history">{t('appointment.history.title')}</h3>
				</CardTitle>
			</CardHeader>
			<CardContent>
				{a.history.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('appointment.history.empty')}</p>
				) : (
					<ol aria-labelledby="appointment-history" className="grid gap-3 text-sm">
						{a.history.map((h) => (
							<li key={h.id} className="grid gap-0.5 border-l-2 pl-3">
								<span className="font-medium">{sentence(h)}</span>
								<span className="text-muted-foreground tabular-nums">
									{h.actor ? t('appointment.history.atBy', { at: fmt.dateTime(h.at), name: h.actor }) : fmt.dateTime(h.at)}
								</span>
							</li>
						))}
					</ol>
				)}
			</CardContent>
		</Card>
	)
}
