/**
 * Deposits and prepayment, the app's side of the matching engine (docs/product.md, Deposits and
 * prepayment; the rules themselves are SQL: supabase/migrations/20261205001000_matching_engine.sql):
 *
 * - the mails the engine owes the visitor: events with a `guest_notice` (payment received, hold
 *   released) not sent yet are claimed and stamped in one statement (`for update skip locked`),
 *   so each goes once whatever the number of instances or runs at once, then sent; a send that
 *   fails is unstamped, for the next run (`deliverGuestNotices`);
 * - the hold expiry: unpaid deposits past their deadline are released (the slot is free again,
 *   the visitor is owed a mail), every minute by the scheduler (`depositsJob`), and at once when
 *   the visitor opens the page of a booking whose deadline has passed (`settleExpiredHold`).
 *
 * Notices are sent right after the payments that may settle a deposit come in: an email sync run
 * or an import commit (`onImportCommitted`, registered at start-up), a typed payment saved; and
 * by the job, which picks up anything left (a failed send, a member marking a deposit paid).
 */
import { MODULES } from '#app/lib/modules.ts'
import { notifyBookingChange } from './live-updates.ts'
import { manageTokenContext } from './public/bookings.ts'
import { holdReleasedMail, manageLink, paymentReceivedMail, type NoticeBooking, type VisitorDeposit } from './public/mail.ts'
import { asSystem, asUser, sql } from '../db/index.ts'
import { forgetSharedReads } from '../db/shared-reads.ts'
import { logError } from '../log.ts'
import { onMailQueue, sendMail } from '../mail/index.ts'
import type { ScheduledJob } from '../scheduler.ts'
import { open } from '../secrets.ts'

/** The upgrade without which no deposit is asked (private.deposit_for checks it too). */
export const DEPOSITS_UPGRADE = { moduleId: MODULES.booking.id, upgradeId: MODULES.booking.upgrades.deposits.id } as const

/** Whether the organization owns the Deposits & Prepayment upgrade: without it, the services' deposits are not asked. */
export async function ownsDepositsUpgrade(userId: string, organizationId: string): Promise<boolean> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_module_upgrades')
			.select('id')
			.where('organization_id', '=', organizationId)
			.where('upgrade_id', '=', DEPOSITS_UPGRADE.upgradeId)
			.executeTakeFirst(),
	)
	return row !== undefined
}

// ---------------------------------------------------------------------------------------------
// Holds that expire
// ---------------------------------------------------------------------------------------------

/**
 * Releases every unpaid deposit due by `now` (private.release_expired_holds: the booking is
 * cancelled, its history says why, the visitor is owed a mail); the public pages forget the busy
 * times they kept and the staff calendars refresh. Returns the appointments released.
 */
export async function releaseExpiredHolds(now: Date): Promise<string[]> {
	const released = await asSystem(async (trx) => {
		const { rows } = await sql<{ id: string; organization_id: string }>`
			select a.id, a.organization_id from private.release_expired_holds(${now}) r(id)
			join public.booking_appointments a on a.id = r.id`.execute(trx)
		return rows
	})
	if (released.length) {
		// On the embedded database no NOTIFY tells the kept reads (docs/decisions/024-public-booking-reads.md).
		forgetSharedReads()
		for (const organizationId of new Set(released.map((r) => r.organization_id))) notifyBookingChange(organizationId)
	}
	return released.map((r) => r.id)
}

/**
 * The manage page of a booking whose deposit deadline has passed shows it released, not
 * "awaiting payment" until the next minute's run: the same release as the job's, then its mail.
 * True when the deposit was due (the caller reads the booking again).
 */
export async function settleExpiredHold(deposit: VisitorDeposit | null, organizationId: string, now = new Date()): Promise<boolean> {
	if (!deposit || deposit.status !== 'open' || !deposit.dueAt || Date.parse(deposit.dueAt) > now.getTime()) return false
	await releaseExpiredHolds(now)
	// The page answers at once; the mail follows.
	deliverGuestNoticesSoon(organizationId)
	return true
}

// ---------------------------------------------------------------------------------------------
// The mails the engine owes the visitor
// ---------------------------------------------------------------------------------------------

/** Notices older than this are never sent (a mail about a payment of last week helps nobody; a failing address is not retried forever). */
export const NOTICE_MAX_AGE_HOURS = 48
/** Notices claimed per statement. */
const NOTICE_BATCH = 100

type NoticeRow = {
	id: string
	organization_id: string
	guest_notice: 'payment_received' | 'hold_released'
	detail: Record<string, unknown>
	appointment_id: string
	status: NoticeBooking['status']
	starts_at: Date | string
	ends_at: Date | string
	guest_name: string
	guest_email: string | null
	guest_language: string | null
	guest_timezone: string | null
	updated_at: Date | string
	created_at: Date | string
	organization_name: string
	organization_slug: string
	timezone: string | null
	service_name: string | null
	duration_minutes: number | null
	provider_name: string | null
	deposit: { amount: string; code: string; due_at: string | null } | null
	/** The booking's manage token, sealed (kept for its reminders: private.booking_manage_tokens), when the server kept it. */
	sealed_token: string | null
}

/**
 * Claims the visitor notices not sent yet (of one organization, or all) and stamps them, in one
 * statement: rows another run holds are skipped, not waited for, and a stamped row is never
 * claimed again, so each notice is claimed once.
 */
async function claimNotices(organizationId: string | undefined, limit: number): Promise<NoticeRow[]> {
	const scope = organizationId ? sql`and ev.organization_id = ${organizationId}` : sql``
	return asSystem(async (trx) => {
		const { rows } = await sql<NoticeRow>`
			with picked as (
				select ev.id from public.booking_appointment_events ev
				where ev.guest_notice is not null and ev.guest_notified_at is null
					and ev.at > now() - make_interval(hours => ${NOTICE_MAX_AGE_HOURS}) ${scope}
				order by ev.id
				limit ${limit}
				for update skip locked
			)
			update public.booking_appointment_events ev set guest_notified_at = now()
			from picked, public.booking_appointments a
				join public.organizations o on o.id = a.organization_id
				left join public.booking_settings bs on bs.organization_id = a.organization_id
				left join public.booking_services s on s.id = a.service_id
				left join public.booking_providers p on p.id = a.provider_id
			where ev.id = picked.id and a.id = ev.appointment_id
			returning ev.id::text, ev.organization_id, ev.guest_notice, ev.detail, a.id as appointment_id, a.status::text,
				a.starts_at, a.ends_at, a.guest_name, a.guest_email, a.guest_language, a.guest_timezone, a.updated_at, a.created_at,
				o.name as organization_name, o.slug as organization_slug, bs.timezone, s.name as service_name, s.duration_minutes,
				p.display_name as provider_name,
				(select t.sealed_token from private.booking_manage_tokens t where t.appointment_id = a.id) as sealed_token,
				(select jsonb_build_object('amount', e.amount_due::text, 'code', e.memo_code, 'due_at', e.due_at)
					from public.payment_expectations e where e.appointment_id = a.id and e.kind = 'deposit'
					order by e.created_at desc, e.id desc limit 1) as deposit`.execute(trx)
		return rows
	})
}

function bookingOf(row: NoticeRow): NoticeBooking {
	const at = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString()
	return {
		id: row.appointment_id,
		status: row.status,
		startsAt: at(row.starts_at),
		endsAt: at(row.ends_at),
		timezone: row.timezone ?? 'UTC',
		serviceName: row.service_name,
		durationMinutes: row.duration_minutes,
		providerName: row.provider_name,
		guestName: row.guest_name,
		guestEmail: row.guest_email ?? '',
		revision: Math.max(0, Math.floor((Date.parse(at(row.updated_at)) - Date.parse(at(row.created_at))) / 100)),
		organizationName: row.organization_name,
		organizationSlug: row.organization_slug,
		guestLanguage: row.guest_language,
		guestTimezone: row.guest_timezone,
	}
}

/** The booking's manage link, when its token was kept and opens with this server's key; else none (the mail says where to find it). */
function manageLinkOf(row: NoticeRow, booking: NoticeBooking) {
	if (!row.sealed_token) return null
	try {
		return manageLink(booking, open(row.sealed_token, manageTokenContext(row.appointment_id)))
	} catch {
		return null
	}
}

function mailOf(row: NoticeRow) {
	const booking = bookingOf(row)
	if (row.guest_notice === 'hold_released') return holdReleasedMail(booking, row.deposit?.due_at ?? null)
	const paid = row.detail.amount
	return paymentReceivedMail(
		booking,
		{
			amount: typeof paid === 'string' || typeof paid === 'number' ? String(paid) : (row.deposit?.amount ?? null),
			code: typeof row.detail.code === 'string' ? row.detail.code : (row.deposit?.code ?? null),
		},
		manageLinkOf(row, booking),
	)
}

/**
 * Sends the visitor notices not sent yet (of one organization, or of all), each once: claimed and
 * stamped first, then mailed on the mail queue; a mail that fails is unstamped, so the next run
 * sends it. A booking without an e-mail address (a walk-in) is stamped and skipped. The staff
 * calendars of the organizations concerned refresh (a payment confirms a booking). Returns how
 * many mails were sent.
 */
export async function deliverGuestNotices({ organizationId }: { organizationId?: string } = {}): Promise<number> {
	let sent = 0
	const organizations = new Set<string>()
	for (;;) {
		const rows = await claimNotices(organizationId, NOTICE_BATCH)
		for (const row of rows) {
			organizations.add(row.organization_id)
			if (!row.guest_email) continue
			try {
				const mail = mailOf(row)
				await onMailQueue(() => sendMail(mail))
				sent++
			} catch (error) {
				logError(error, { event: 'guest_notice_failed', notice: row.guest_notice, appointmentId: row.appointment_id })
				await asSystem((trx) =>
					sql`update public.booking_appointment_events set guest_notified_at = null where id = ${row.id}::bigint`.execute(trx),
				).catch((unstamp: unknown) => logError(unstamp, { event: 'guest_notice_unstamp_failed', id: row.id }))
			}
		}
		if (rows.length < NOTICE_BATCH) break
	}
	for (const id of organizations) notifyBookingChange(id)
	return sent
}

/**
 * The same in the background, for the paths where payments arrive (a sync run, an import, a
 * typed payment): the member's page never waits for the mails, and a failure is only logged.
 */
export function deliverGuestNoticesSoon(organizationId: string) {
	void deliverGuestNotices({ organizationId }).catch((error: unknown) => logError(error, { event: 'guest_notices_failed', organizationId }))
}

// ---------------------------------------------------------------------------------------------
// The job
// ---------------------------------------------------------------------------------------------

/**
 * One minute's work: release the holds due by `now`, then send what the visitors are owed
 * (every organization's, or one's: the tests keep to their own).
 */
export async function runDepositDuties(now: Date, scope: { organizationId?: string } = {}) {
	const released = await releaseExpiredHolds(now)
	const sent = await deliverGuestNotices(scope)
	return { released, sent }
}

const JOB = 'booking-deposits'

/** Every minute (app/.server/scheduler.ts): the hold expiry and the visitor notices, once per minute across instances. */
export const depositsJob: ScheduledJob = {
	name: JOB,
	due: (now) => [now.toISOString().slice(0, 16)],
	run: async (_key, { now }) => {
		await runDepositDuties(now)
		// A key a minute: the claims of yesterday's minutes are of no more use.
		await asSystem((trx) =>
			sql`delete from private.job_runs where job = ${JOB} and finished_at < ${now}::timestamptz - interval '1 day'`.execute(trx),
		)
	},
	deadlineMs: 2 * 60_000,
}
