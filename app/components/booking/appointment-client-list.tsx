/**
 * A client's appointments on the client's page (docs/product.md, Clients from bookings): the
 * upcoming ones soonest first, then the past ones latest first, each with its date and time,
 * service, status and what it was paid or still owes, leading to the appointment's page.
 */
import type { ClientAppointmentPayment, ClientAppointments } from '#app/.server/booking/appointments.ts'
import { Link } from '#app/components/link.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import type { AppointmentStatus } from '#app/lib/appointments.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

const STATUS_VARIANT: Record<AppointmentStatus, 'success' | 'warning' | 'destructive' | 'secondary' | 'outline'> = {
	confirmed: 'success',
	pending: 'warning',
	cancelled: 'destructive',
	completed: 'secondary',
	no_show: 'outline',
}

export function ClientAppointmentList({ appointments }: { appointments: ClientAppointments }) {
	const { t } = useTranslation('booking')
	return (
		<section aria-labelledby="client-appointments" className="grid min-w-0 gap-3">
			<h2 id="client-appointments" className="text-lg font-semibold">
				{t('clientAppointments.title')}
			</h2>
			{appointments.upcoming.length === 0 && appointments.past.length === 0 ? (
				<p className="text-sm text-muted-foreground">{t('clientAppointments.empty')}</p>
			) : (
				<>
					<Group label={t('clientAppointments.upcoming')} items={appointments.upcoming} />
					<Group label={t('clientAppointments.past')} items={appointments.past} />
				</>
			)}
		</section>
	)
}

function Group({ label, items }: { label: string; items: ClientAppointments['upcoming'] }) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	if (items.length === 0) return null
	return (
		<div className="grid gap-2">
			<h3 className="text-sm font-medium text-muted-foreground">{label}</h3>
			<ul className="grid gap-2" aria-label={label}>
				{items.map((a) => (
					<li key={a.id} className="grid gap-1 rounded-md border p-3 text-sm sm:grid-cols-[10rem_1fr_auto] sm:items-center">
						<Link
							to={`/app/booking/appointments/${a.id}`}
							className="inline-flex min-h-11 items-center font-medium tabular-nums underline underline-offset-4 hover:no-underline sm:min-h-0"
						>
							{t('clientAppointments.when', { date: fmt.date(a.date), time: fmt.time(a.startTime) })}
						</Link>
						<span className="flex min-w-0 flex-wrap items-center gap-2 wrap-anywhere">
							<span>{a.serviceName ?? t('calendar.noService')}</span>
							<Badge variant={STATUS_VARIANT[a.status]}>{t(`status.${a.status}`)}</Badge>
						</span>
						<PaymentLine payment={a.payment} />
					</li>
				))}
			</ul>
		</div>
	)
}

function PaymentLine({ payment }: { payment: ClientAppointmentPayment }) {
	const fmt = useFormat()
	const { t } = useTranslation('booking')
	return (
		<span
			className={payment.state === 'owes' || payment.state === 'awaitingDeposit' ? 'font-medium text-destructive' : 'text-muted-foreground'}
		>
			{t(`clientAppointments.payment.${payment.state}`, { amount: fmt.money(payment.amount) })}
		</span>
	)
}
