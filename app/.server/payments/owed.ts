/**
 * Who still owes me (docs/product.md, Who still owes me): the organization's open deposits
 * (public bookings waiting for their deposit) and balances (completed appointments not fully
 * paid), grouped per client, oldest first, with what each still owes (its amount less the
 * payments matched to it), and the payment request a member mails to the client. A payment that
 * arrives clears its line by itself: the matching engine settles the expectation
 * (supabase/migrations/20261205001000_matching_engine.sql), and the list reads only open ones.
 */
import { formatMoney } from '#app/lib/format.ts'
import { dateTimeIn, isTimeZone } from '#app/lib/dates.ts'
import { oneLine } from '#app/lib/schemas/fields.ts'
import { asUser, dbErrorCode, sql } from '../db/index.ts'
import { tIn } from '../i18n.ts'
import { logError } from '../log.ts'
import { queueMail } from '../mail/index.ts'
import { MAX_PAGE } from '../query.ts'
import { allowEvent } from '../rate-limit.ts'
import { paymentInstructionLines } from './instructions.ts'
import { whenText } from '../booking/public/mail.ts'

/** Clients per page, and lines shown per client (the rest: "and N more", on the client's page). */
export const OWED_CLIENTS_PER_PAGE = 20
export const OWED_LINES_PER_CLIENT = 10

export type OwedKind = 'deposit' | 'balance'

/** One amount a client owes: an appointment's deposit or balance. */
export type OwedLine = {
	expectationId: string
	appointmentId: string
	kind: OwedKind
	/** The appointment's date and start in the organization's timezone (YYYY-MM-DD, HH:MM). */
	date: string
	time: string
	service: string | null
	/** What is still owed: the amount less the payments matched to it (numeric string). */
	remaining: string
	memoCode: string
	/** A deposit's hold, in the organization's timezone: unpaid by then, the booking is released. */
	dueAt: LocalTime | null
	/** The address a payment request goes to (the client's, else the booking's); null: none. */
	email: string | null
	/** The last payment request sent for this appointment, if any, in the organization's timezone. */
	requestedAt: LocalTime | null
}

/** A moment as the staff screens show it: the date (YYYY-MM-DD) and time (HH:MM) in the organization's timezone. */
export type LocalTime = { date: string; time: string }

/** A client (or, for a booking whose client was removed, its guest) and what they owe. */
export type OwedGroup = { clientId: string | null; name: string; total: string; lineCount: number; lines: OwedLine[] }

export type OwedPage = {
	totals: { owed: string; deposits: string; clients: number; lines: number }
	groups: OwedGroup[]
	page: number
	pageSize: number
}

type Row = {
	owed: string
	deposits: string
	group_count: number
	line_count: number
	group_key: string | null
	group_total: string | null
	group_lines: number | null
	expectation_id: string | null
	appointment_id: string
	kind: OwedKind
	client_id: string | null
	memo_code: string
	due_at: Date | string | null
	remaining: string
	appointment_date: string
	start_time: string
	guest_name: string
	guest_email: string | null
	service_name: string | null
	client_name: string | null
	client_email: string | null
	requested_at: Date | string | null
}

const localTime = (v: Date | string | null, timeZone: string): LocalTime | null =>
	v === null ? null : dateTimeIn(timeZone, v instanceof Date ? v : new Date(v))

/**
 * One page of what the organization is owed, in one statement, as the member (RLS): the totals
 * of every open deposit and balance, then the page's clients (oldest appointment first) with up
 * to OWED_LINES_PER_CLIENT lines each (oldest first), each line with its remaining amount and
 * the last payment request. A page past the last one comes back empty, with the totals.
 */
export async function listOwed(userId: string, organizationId: string, options: { page?: number; timezone: string }): Promise<OwedPage> {
	const page = Math.min(Math.max(1, Math.trunc(options.page ?? 1) || 1), MAX_PAGE)
	const pageSize = OWED_CLIENTS_PER_PAGE
	const { rows } = await asUser(userId, (trx) =>
		sql<Row>`
			with owed as (
				select e.id, e.kind, e.client_id, e.appointment_id, e.memo_code, e.due_at,
					e.amount_due - coalesce((select sum(m.amount) from public.payment_matches m where m.expectation_id = e.id), 0) as remaining,
					a.starts_at, a.appointment_date, a.start_time, a.guest_name, a.guest_email, svc.name as service_name,
					coalesce(e.client_id::text, 'appointment:' || a.id::text) as group_key
				from public.payment_expectations e
				join public.booking_appointments a on a.id = e.appointment_id
				left join public.booking_services svc on svc.id = a.service_id
				where e.organization_id = ${organizationId} and e.status = 'open' and e.kind in ('deposit', 'balance')
			),
			totals as (
				select coalesce(sum(remaining), 0)::text as owed,
					coalesce(sum(remaining) filter (where kind = 'deposit'), 0)::text as deposits,
					count(distinct group_key)::int as group_count, count(*)::int as line_count
				from owed
			),
			groups as (
				select group_key, min(starts_at) as oldest, sum(remaining)::text as group_total, count(*)::int as group_lines
				from owed group by group_key
				order by oldest, group_key
				limit ${pageSize} offset ${(page - 1) * pageSize}
			),
			lines as (
				select o.*, g.oldest, g.group_total, g.group_lines,
					row_number() over (partition by o.group_key order by o.starts_at, o.id) as n
				from owed o join groups g on g.group_key = o.group_key
			)
			select t.owed, t.deposits, t.group_count, t.line_count,
				l.group_key, l.group_total, l.group_lines, l.id as expectation_id, l.appointment_id, l.kind, l.client_id,
				l.memo_code, l.due_at, l.remaining::text as remaining, l.appointment_date::text as appointment_date,
				to_char(l.start_time, 'HH24:MI') as start_time, l.guest_name, l.guest_email, l.service_name,
				c.name as client_name, c.email as client_email,
				(select max(ev.at) from public.booking_appointment_events ev
					where ev.appointment_id = l.appointment_id and ev.kind = 'payment_requested') as requested_at
			from totals t
			left join lines l on l.n <= ${OWED_LINES_PER_CLIENT}
			left join public.clients c on c.id = l.client_id
			order by l.oldest, l.group_key, l.starts_at, l.id`.execute(trx),
	)
	const first = rows[0]
	const groups: OwedGroup[] = []
	for (const r of rows) {
		if (r.group_key === null || r.expectation_id === null) continue
		let group = groups.at(-1)
		if (!group || groupKeyOf(group) !== r.group_key) {
			group = {
				clientId: r.client_id,
				name: r.client_name ?? r.guest_name,
				total: r.group_total ?? '0',
				lineCount: r.group_lines ?? 0,
				lines: [],
			}
			groups.push(group)
		}
		group.lines.push({
			expectationId: r.expectation_id,
			appointmentId: r.appointment_id,
			kind: r.kind,
			date: r.appointment_date,
			time: r.start_time,
			service: r.service_name,
			remaining: r.remaining,
			memoCode: r.memo_code,
			dueAt: localTime(r.due_at, options.timezone),
			email: r.client_email?.trim() || r.guest_email?.trim() || null,
			requestedAt: localTime(r.requested_at, options.timezone),
		})
	}
	return {
		totals: {
			owed: first?.owed ?? '0',
			deposits: first?.deposits ?? '0',
			clients: first?.group_count ?? 0,
			lines: first?.line_count ?? 0,
		},
		groups,
		page,
		pageSize,
	}
}

function groupKeyOf(group: OwedGroup) {
	return group.clientId ?? `appointment:${group.lines[0]!.appointmentId}`
}

/** Why a payment request was not sent: the codes of public.request_payment, then the rate limits'. */
export const PAYMENT_REQUEST_REFUSALS = ['not_found', 'not_open', 'no_email', 'rate_limited', 'organization_limited'] as const
export type PaymentRequestRefusal = (typeof PAYMENT_REQUEST_REFUSALS)[number]

type RequestDetails = {
	appointment_id: string
	email: string
	language: string
	/** The booker's zone, else the organization's (request_payment). */
	time_zone: string
	/** The organization's zone, read beside: the mail says the business's time too when it differs. */
	business_zone?: string | null
	guest_name: string
	organization_name: string
	service_name: string | null
	starts_at: Date | string
	ends_at: Date | string
	kind: OwedKind
	amount: string
	memo_code: string
	zelle: string | null
	venmo: string | null
	cashapp: string | null
	paypal: string | null
}

/**
 * Mails the client of an open deposit or balance a request to pay it, in the booker's language
 * (else the organization's), with the organization's handles, the amount and the memo code, and
 * writes the appointment's 'payment_requested' event (public.request_payment, which also checks
 * the member and the expectation). Limited per expectation and per organization (LIMITS); a
 * refusal changes nothing and comes back as its code. The mail leaves after the response.
 */
export async function requestPayment(
	userId: string,
	organizationId: string,
	expectationId: string,
): Promise<{ ok: true; email: string; amount: string } | { ok: false; code: PaymentRequestRefusal }> {
	if (!(await allowEvent('payment-request-organization', organizationId))) return { ok: false, code: 'organization_limited' }
	if (!(await allowEvent('payment-request', `${organizationId}:${expectationId}`))) return { ok: false, code: 'rate_limited' }
	let details: RequestDetails
	try {
		details = await asUser(userId, async (trx) => {
			// The member's current organization only: an expectation of another of their organizations is not this page's.
			const owner = await trx
				.selectFrom('payment_expectations')
				.select('id')
				.where('id', '=', expectationId)
				.where('organization_id', '=', organizationId)
				.executeTakeFirst()
			if (!owner) throw Object.assign(new Error('not_found'), { code: 'P0001' })
			const { rows } = await sql<RequestDetails>`select * from public.request_payment(${expectationId})`.execute(trx)
			const settings = await trx
				.selectFrom('booking_settings')
				.select('timezone')
				.where('organization_id', '=', organizationId)
				.executeTakeFirst()
			return { ...rows[0]!, business_zone: settings?.timezone ?? null }
		})
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'not_found' || code === 'not_open' || code === 'no_email') return { ok: false, code }
		throw error
	}
	sendPaymentRequestMail(details)
	return { ok: true, email: details.email, amount: details.amount }
}

/** The payment request mail (queued: sent after the response; a failure is logged). */
function sendPaymentRequestMail(d: RequestDetails) {
	const t = tIn(d.language, 'book')
	const timeZone = isTimeZone(d.time_zone) ? d.time_zone : 'UTC'
	const amount = formatMoney(d.amount, d.language)
	const business = d.business_zone && isTimeZone(d.business_zone) ? d.business_zone : timeZone
	const iso = (v: Date | string) => new Date(v).toISOString()
	// The booker's time and zone in words, and the business's when it differs (as every visitor mail: ../booking/public/mail.ts).
	const when = whenText({ startsAt: iso(d.starts_at), endsAt: iso(d.ends_at), timezone: business }, d.language, timeZone)
	const lines = [
		t('paymentRequest.intro', { name: d.guest_name, organization: d.organization_name, amount }),
		'',
		`${t('summary.service')}: ${d.service_name ?? '—'}`,
		`${t('summary.when')}: ${when}`,
		'',
		t(`paymentRequest.${d.kind}`),
		'',
		...paymentInstructionLines(t, d.language, {
			handles: { zelle: d.zelle, venmo: d.venmo, cashapp: d.cashapp, paypal: d.paypal },
			amount: d.amount,
			code: d.memo_code,
			organization: d.organization_name,
		}),
		'',
		t('paymentRequest.thanks'),
	]
	try {
		queueMail({
			to: d.email,
			subject: oneLine(t('paymentRequest.subject', { organization: d.organization_name, amount })),
			text: lines.join('\n'),
		})
	} catch (error) {
		logError(error, { event: 'payment_request_mail_failed', appointmentId: d.appointment_id })
	}
}
