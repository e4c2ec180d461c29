/**
 * One appointment, whole (docs/product.md, Booking › The appointment page): who booked it and how
 * to reach them, what and when, its status, what it was paid and what it still owes, the payments
 * linked to it and its history; and what staff do from there: change its status (the calendar's
 * rules, `changeAppointmentStatus` in staff.ts), move it (public.staff_move_booking), mark it paid,
 * link one of the client's payments by hand and undo a match (the matching engine's functions,
 * supabase/migrations/20261205001000_matching_engine.sql). Also a client's appointments, for the
 * client's page. Every read and write names the organization and runs as the member (RLS); the
 * functions refuse with stable codes, answered as `{ ok: false, code }` for the route to translate.
 */
import { allowedChanges, type AppointmentStatus } from '#app/lib/appointments.ts'
import { readAppointmentStep, readMoveValues } from '#app/lib/appointment-view.ts'
import { dateTimeIn } from '#app/lib/dates.ts'
import type { MoveAppointmentValues } from '#app/lib/schemas/booking.ts'
import { isUuid } from '#app/lib/uuid.ts'
import { asUser, dbErrorCode, sql, type Tx } from '../db/index.ts'
import { deliverGuestNoticesSoon } from './deposits.ts'
import { notifyBookingChange } from './live-updates.ts'
import { BOOKING_REFUSALS } from './staff.ts'

/** How a payment came to pay an appointment: the engine's two ways, or a member's link. */
export type MatchMethod = 'memo_code' | 'payer_amount' | 'manual'

/** One way an appointment was paid: a linked payment (with the code it carried), or marked paid by a member. */
export type PaidWay = { how: MatchMethod; amount: string; code: string } | { how: 'marked'; amount: string; by: string | null }

/**
 * What an appointment's money looks like: the expectation still open (a deposit the slot waits
 * for, or a balance it owes, each with its memo code), what was received and how, and what it
 * still owes in all (its price less what was received or marked paid; never below 0).
 */
export type PaymentState = {
	open: {
		id: string
		kind: 'deposit' | 'balance' | 'invoice'
		amount: string
		code: string
		dueAt: { date: string; time: string } | null
	} | null
	paid: PaidWay[]
	owed: string
}

/** One entry of an appointment's history, as its page says it. */
export type HistoryEntry = {
	id: number
	kind: string
	at: { date: string; time: string }
	actor: string | null
	status: string | null
	amount: string | null
	method: string | null
	code: string | null
	from: { date: string; time: string } | null
	to: { date: string; time: string } | null
	provider: string | null
}

type Row = {
	id: string
	status: AppointmentStatus
	started: boolean
	date: string
	start_time: string
	end_time: string
	guest_name: string
	guest_email: string | null
	guest_phone: string | null
	notes: string | null
	price: string
	client_id: string | null
	client_name: string | null
	service_name: string | null
	service_color: string | null
	provider_id: string | null
	provider_name: string | null
	timezone: string
}

type ExpectationRow = {
	id: string
	kind: 'deposit' | 'balance' | 'invoice'
	status: 'open' | 'paid' | 'released' | 'void'
	remaining: string
	memo_code: string
	due_at: Date | null
	marked_by_name: string | null
}

type MatchRow = {
	id: string
	expectation_id: string
	method: MatchMethod
	amount: string
	date: string
	payment_method: string
	description: string | null
}

type EventRow = { id: number; kind: string; at: Date; detail: Record<string, unknown>; actor: string | null }

/** The history kept on the page: the latest entries (a long-lived appointment's reminders add up). */
const HISTORY_LIMIT = 100
/** The client's recent payments offered to link by hand. */
const LINKABLE_LIMIT = 10

/** A member's name as the app shows it: the full name, else the e-mail. */
const memberName = (alias: string) => sql.raw(`coalesce(nullif(btrim(${alias}.full_name), ''), ${alias}.email)`)

/**
 * Everything the appointment's page (and the calendar's side panel) shows, or null when it is not
 * an appointment of the organization. Times are in the organization's timezone.
 */
export async function getAppointmentPage(userId: string, organizationId: string, appointmentId: string) {
	const found = await asUser(userId, async (trx) => {
		const { rows } = await sql<Row>`
			select a.id, a.status, a.starts_at <= now() as started, to_char(a.appointment_date, 'YYYY-MM-DD') as date,
				to_char(a.start_time, 'HH24:MI') as start_time, to_char(a.end_time, 'HH24:MI') as end_time,
				a.guest_name, a.guest_email, a.guest_phone, a.notes, a.total_price::text as price, a.client_id,
				c.name as client_name, s.name as service_name, s.color as service_color, a.provider_id,
				p.display_name as provider_name, bs.timezone
			from public.booking_appointments a
			join public.booking_settings bs on bs.organization_id = a.organization_id
			left join public.clients c on c.id = a.client_id
			left join public.booking_services s on s.id = a.service_id
			left join public.booking_providers p on p.id = a.provider_id
			where a.organization_id = ${organizationId} and a.id = ${appointmentId}`.execute(trx)
		const row = rows[0]
		if (!row) return null
		const [expectations, matches, events, providers] = await Promise.all([
			sql<ExpectationRow>`
				select e.id, e.kind, e.status, e.memo_code, e.due_at,
					${memberName('pr')} as marked_by_name,
					(e.amount_due - coalesce((select sum(m.amount) from public.payment_matches m where m.expectation_id = e.id), 0))::text as remaining
				from public.payment_expectations e
				left join public.profiles pr on pr.user_id = e.marked_paid_by
				where e.organization_id = ${organizationId} and e.appointment_id = ${appointmentId}
				order by e.created_at, e.id`.execute(trx),
			sql<MatchRow>`
				select m.id, m.expectation_id, m.method, m.amount::text as amount, to_char(t.date_received, 'YYYY-MM-DD') as date,
					t.payment_method::text as payment_method, t.description
				from public.payment_matches m
				join public.payment_expectations e on e.id = m.expectation_id
				join public.transactions t on t.id = m.transaction_id
				where m.organization_id = ${organizationId} and e.appointment_id = ${appointmentId}
				order by t.date_received, m.created_at, m.id`.execute(trx),
			sql<EventRow>`
				select * from (
					select ev.id, ev.kind, ev.at, ev.detail, ${memberName('pr')} as actor
					from public.booking_appointment_events ev
					left join public.profiles pr on pr.user_id = ev.actor_id
					where ev.organization_id = ${organizationId} and ev.appointment_id = ${appointmentId}
					order by ev.at desc, ev.id desc
					limit ${HISTORY_LIMIT}
				) latest order by at, id`.execute(trx),
			trx
				.selectFrom('booking_providers')
				.select(['id', 'display_name as name', 'is_active as active'])
				.where('organization_id', '=', organizationId)
				.orderBy('display_name')
				.orderBy('id')
				.execute(),
		])
		const open = expectations.rows.find((e) => e.status === 'open')
		const linkable =
			open && row.client_id
				? (
						await sql<{ id: string; date: string; amount: string; payment_method: string; description: string | null }>`
							select t.id, to_char(t.date_received, 'YYYY-MM-DD') as date, t.amount::text as amount,
								t.payment_method::text as payment_method, t.description
							from public.transactions t
							where t.organization_id = ${organizationId} and t.client_id = ${row.client_id} and t.amount > 0
								and not exists (select 1 from public.payment_matches m where m.transaction_id = t.id)
							order by t.date_received desc, t.created_at desc, t.id
							limit ${LINKABLE_LIMIT}`.execute(trx)
					).rows
				: []
		return { row, expectations: expectations.rows, matches: matches.rows, events: events.rows, providers, linkable }
	})
	if (!found) return null
	const { row, expectations, matches, events, providers, linkable } = found
	const tz = row.timezone
	// An instant of a move's detail (a status event's `from` is a status, not a time).
	const at = (value: unknown) => {
		const instant = typeof value === 'string' ? new Date(value) : null
		return instant && !Number.isNaN(instant.getTime()) ? dateTimeIn(tz, instant) : null
	}
	const providerName = (id: unknown) => providers.find((p) => p.id === id)?.name ?? null
	return {
		id: row.id,
		status: row.status,
		started: row.started,
		changes: allowedChanges(row.status, row.started),
		// Moving keeps the slot's rules: only an appointment that still holds its slot moves.
		movable: row.status === 'pending' || row.status === 'confirmed',
		date: row.date,
		startTime: row.start_time,
		endTime: row.end_time,
		timezone: tz,
		price: row.price,
		notes: row.notes,
		service: row.service_name === null ? null : { name: row.service_name, color: row.service_color },
		provider: row.provider_id === null ? null : { id: row.provider_id, name: row.provider_name ?? '' },
		guest: { name: row.guest_name, email: row.guest_email, phone: row.guest_phone },
		client: row.client_id === null ? null : { id: row.client_id, name: row.client_name ?? '' },
		payment: paymentState(row.price, expectations, matches, tz),
		payments: matches.map((m) => ({
			matchId: m.id,
			date: m.date,
			paymentMethod: m.payment_method,
			amount: m.amount,
			how: m.method,
			code: expectations.find((e) => e.id === m.expectation_id)?.memo_code ?? '',
		})),
		history: events.map((e): HistoryEntry => ({
			id: Number(e.id),
			kind: e.kind,
			at: dateTimeIn(tz, new Date(e.at)),
			actor: e.actor,
			status: typeof e.detail.status === 'string' ? e.detail.status : null,
			amount: e.detail.amount === undefined || e.detail.amount === null ? null : String(e.detail.amount),
			method: typeof e.detail.method === 'string' ? e.detail.method : null,
			code: typeof e.detail.code === 'string' ? e.detail.code : null,
			from: e.kind === 'moved' ? at(e.detail.from) : null,
			to: e.kind === 'moved' ? at(e.detail.to) : null,
			provider: e.detail.provider_to ? providerName(e.detail.provider_to) : null,
		})),
		providers: providers.filter((p) => p.active || p.id === row.provider_id).map(({ id, name }) => ({ id, name })),
		linkable: linkable.map((t) => ({
			id: t.id,
			date: t.date,
			amount: t.amount,
			paymentMethod: t.payment_method,
			description: t.description,
		})),
	}
}

export type AppointmentPage = NonNullable<Awaited<ReturnType<typeof getAppointmentPage>>>

/**
 * An appointment as a view shows it: the page's data, the step its address asks for (the
 * cancellation question, the move form) and the move form's values. For the appointment's own
 * page and for the calendar's side panel (`appointment={id}` in the calendar's address); null
 * when the id is not one of the organization's appointments.
 */
export async function getAppointmentView(userId: string, organizationId: string, appointmentId: unknown, params: URLSearchParams) {
	if (!isUuid(appointmentId)) return null
	const appointment = await getAppointmentPage(userId, organizationId, appointmentId)
	if (!appointment) return null
	return {
		appointment,
		step: readAppointmentStep(params),
		move: readMoveValues(params, { date: appointment.date, time: appointment.startTime, provider: appointment.provider?.id ?? '' }),
	}
}

export type AppointmentViewData = NonNullable<Awaited<ReturnType<typeof getAppointmentView>>>

/** Cents of a numeric text ("12.50" → 1250), so sums of money stay exact. */
function cents(amount: string) {
	return Math.round(Number(amount) * 100)
}

/** The payment state of an appointment from its expectations and matches (see PaymentState). */
function paymentState(price: string, expectations: ExpectationRow[], matches: MatchRow[], timezone: string): PaymentState {
	const open = expectations.find((e) => e.status === 'open') ?? null
	const paid: PaidWay[] = []
	let received = 0
	for (const e of expectations) {
		const own = matches.filter((m) => m.expectation_id === e.id)
		for (const m of own) {
			paid.push({ how: m.method, amount: m.amount, code: e.memo_code })
			received += cents(m.amount)
		}
		// Marked paid by hand: what its payments had left (the member may have left since: then the mark stands, nameless).
		if (e.status === 'paid' && cents(e.remaining) > 0) {
			paid.push({ how: 'marked', amount: e.remaining, by: e.marked_by_name })
			received += cents(e.remaining)
		}
	}
	const owed = Math.max(0, cents(price) - received)
	return {
		open: open && {
			id: open.id,
			kind: open.kind,
			amount: open.remaining,
			code: open.memo_code,
			dueAt: open.due_at ? dateTimeIn(timezone, new Date(open.due_at)) : null,
		},
		paid,
		owed: (owed / 100).toFixed(2),
	}
}

/** The refusals of the appointment's actions (the functions' codes), each translated under booking:refusals. */
export const APPOINTMENT_REFUSALS = [
	...BOOKING_REFUSALS,
	'not_found',
	'not_movable',
	'already_matched',
	'not_open',
	'nothing_owed',
] as const
export type AppointmentRefusal = (typeof APPOINTMENT_REFUSALS)[number]

type Outcome<T = undefined> = { ok: true; value: T } | { ok: false; code: AppointmentRefusal }

/** Runs a write as the member; a refusal of one of the functions (or a taken slot) comes back as its code. */
async function attempt<T>(userId: string, organizationId: string, fn: (trx: Tx) => Promise<T | AppointmentRefusal>): Promise<Outcome<T>> {
	try {
		const value = await asUser(userId, async (trx) => {
			const result = await fn(trx)
			// A refusal found before any write: thrown so that nothing of the transaction stays.
			if (typeof result === 'string' && (APPOINTMENT_REFUSALS as readonly string[]).includes(result))
				throw new Refused(result as AppointmentRefusal)
			return result as T
		})
		notifyBookingChange(organizationId)
		return { ok: true, value }
	} catch (error) {
		if (error instanceof Refused) return { ok: false, code: error.code }
		const code = dbErrorCode(error)
		if (code === '23P01') return { ok: false, code: 'slot_taken' }
		if ((APPOINTMENT_REFUSALS as readonly string[]).includes(code ?? '')) return { ok: false, code: code as AppointmentRefusal }
		throw error
	}
}

class Refused extends Error {
	constructor(readonly code: AppointmentRefusal) {
		super(code)
	}
}

/** Whether the appointment is one of the organization's (the functions below find it by id alone). */
async function ownAppointment(trx: Tx, organizationId: string, appointmentId: string) {
	const row = await trx
		.selectFrom('booking_appointments')
		.select('id')
		.where('organization_id', '=', organizationId)
		.where('id', '=', appointmentId)
		.executeTakeFirst()
	return row !== undefined
}

/** Whether an id names an appointment of the organization (an action's first check: else a 404). */
export function isOrganizationAppointment(userId: string, organizationId: string, appointmentId: string) {
	return asUser(userId, (trx) => ownAppointment(trx, organizationId, appointmentId))
}

/**
 * Moves the appointment to a local date and start time (in the organization's timezone: PostgreSQL
 * reads the wall time there, on the day the clocks change too) and a provider, with the checks of
 * a staff booking. Answers its new local date.
 */
export function moveAppointment(userId: string, organizationId: string, appointmentId: string, values: MoveAppointmentValues) {
	return attempt<string>(userId, organizationId, async (trx) => {
		const { rows } = await sql<{ date: string }>`
			select to_char(public.staff_move_booking(${organizationId}, ${appointmentId}, ${values.provider},
				(${values.date}::date + ${values.time}::time) at time zone s.timezone), 'YYYY-MM-DD') as date
			from public.booking_settings s where s.organization_id = ${organizationId}`.execute(trx)
		return rows[0]?.date ?? 'not_found'
	})
}

/**
 * Marks the appointment paid by hand (cash, a payment outside the app): its open expectation, or a
 * balance of what it owes. A deposit marked paid owes its visitor the "payment received" mail: sent
 * at once, in the background.
 */
export async function markAppointmentPaid(userId: string, organizationId: string, appointmentId: string) {
	const outcome = await attempt(userId, organizationId, async (trx) => {
		if (!(await ownAppointment(trx, organizationId, appointmentId))) return 'not_found'
		await sql`select public.mark_appointment_paid(${appointmentId})`.execute(trx)
		return undefined
	})
	if (outcome.ok) deliverGuestNoticesSoon(organizationId)
	return outcome
}

/**
 * Links a payment of the organization to the appointment's open expectation (the oldest, when a
 * deposit and a balance are both open): not_open when none is.
 */
export async function linkPayment(userId: string, organizationId: string, appointmentId: string, transactionId: string) {
	const outcome = await attempt(userId, organizationId, async (trx) => {
		if (!(await ownAppointment(trx, organizationId, appointmentId))) return 'not_found'
		const open = await trx
			.selectFrom('payment_expectations')
			.select('id')
			.where('organization_id', '=', organizationId)
			.where('appointment_id', '=', appointmentId)
			.where('status', '=', 'open')
			.orderBy('opens_at')
			.orderBy('id')
			.executeTakeFirst()
		if (!open) return 'not_open'
		const transaction = await trx
			.selectFrom('transactions')
			.select('id')
			.where('organization_id', '=', organizationId)
			.where('id', '=', transactionId)
			.executeTakeFirst()
		if (!transaction) return 'not_found'
		await sql`select public.match_payment(${open.id}, ${transaction.id})`.execute(trx)
		return undefined
	})
	// A deposit paid by this link owes its visitor a mail, as when the engine matches it.
	if (outcome.ok) deliverGuestNoticesSoon(organizationId)
	return outcome
}

/** Undoes one of the appointment's matches: the payment is free again and never matched to that expectation by the engine again. */
export function undoMatch(userId: string, organizationId: string, appointmentId: string, matchId: string) {
	return attempt(userId, organizationId, async (trx) => {
		const match = await trx
			.selectFrom('payment_matches as m')
			.innerJoin('payment_expectations as e', 'e.id', 'm.expectation_id')
			.select('m.id')
			.where('m.organization_id', '=', organizationId)
			.where('m.id', '=', matchId)
			.where('e.appointment_id', '=', appointmentId)
			.executeTakeFirst()
		if (!match) return 'not_found'
		await sql`select public.unmatch_payment(${match.id})`.execute(trx)
		return undefined
	})
}

/**
 * A client's appointments for their page: the upcoming ones (not yet ended, still holding their
 * slot) soonest first, then the others latest first, each with what it still owes or waits for.
 * At most `limit` of each.
 */
export async function listClientAppointments(userId: string, organizationId: string, clientId: string, limit = 20) {
	const rows = await asUser(userId, async (trx) => {
		const { rows } = await sql<{
			id: string
			upcoming: boolean
			date: string
			start_time: string
			status: AppointmentStatus
			service_name: string | null
			price: string
			open_kind: 'deposit' | 'balance' | 'invoice' | null
			open_amount: string | null
			received: string
		}>`
			select a.id, a.upcoming, to_char(a.appointment_date, 'YYYY-MM-DD') as date, to_char(a.start_time, 'HH24:MI') as start_time,
				a.status, s.name as service_name, a.total_price::text as price, open.kind as open_kind, open.amount::text as open_amount,
				(coalesce((select sum(m.amount) from public.payment_matches m join public.payment_expectations e on e.id = m.expectation_id
					where e.appointment_id = a.id), 0)
				+ coalesce((select sum(greatest(e.amount_due - coalesce((select sum(m.amount) from public.payment_matches m
					where m.expectation_id = e.id), 0), 0)) from public.payment_expectations e
					where e.appointment_id = a.id and e.status = 'paid'), 0))::text as received
			from (
				(select x.*, true as upcoming from public.booking_appointments x
				where x.organization_id = ${organizationId} and x.client_id = ${clientId}
					and x.ends_at > now() and x.status in ('pending', 'confirmed')
				order by x.starts_at, x.id limit ${limit})
				union all
				(select x.*, false from public.booking_appointments x
				where x.organization_id = ${organizationId} and x.client_id = ${clientId}
					and not (x.ends_at > now() and x.status in ('pending', 'confirmed'))
				order by x.starts_at desc, x.id desc limit ${limit})
			) a
			left join public.booking_services s on s.id = a.service_id
			left join lateral (
				select e.kind, e.amount_due - coalesce((select sum(m.amount) from public.payment_matches m where m.expectation_id = e.id), 0) as amount
				from public.payment_expectations e
				where e.appointment_id = a.id and e.status = 'open'
				order by e.opens_at, e.id limit 1
			) open on true
			order by a.upcoming desc, case when a.upcoming then a.starts_at end, a.starts_at desc, a.id`.execute(trx)
		return rows
	})
	const shaped = rows.map((r) => {
		const received = cents(r.received)
		const payment: ClientAppointmentPayment = r.open_kind
			? { state: r.open_kind === 'deposit' ? 'awaitingDeposit' : 'owes', amount: r.open_amount ?? '0.00' }
			: received > 0 && received >= cents(r.price)
				? { state: 'paid', amount: r.received }
				: r.status === 'completed' && cents(r.price) > received
					? { state: 'owes', amount: ((cents(r.price) - received) / 100).toFixed(2) }
					: received > 0
						? { state: 'paid', amount: r.received }
						: { state: 'none', amount: '0.00' }
		return { id: r.id, date: r.date, startTime: r.start_time, status: r.status, serviceName: r.service_name, price: r.price, payment }
	})
	return {
		upcoming: shaped.filter((_, i) => rows[i]!.upcoming),
		past: shaped.filter((_, i) => !rows[i]!.upcoming),
	}
}

/** What a client's appointment shows of its money on the client's page. */
export type ClientAppointmentPayment = { state: 'none' | 'awaitingDeposit' | 'owes' | 'paid'; amount: string }
export type ClientAppointments = Awaited<ReturnType<typeof listClientAppointments>>
