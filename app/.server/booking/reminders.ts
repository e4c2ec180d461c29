/**
 * Booking reminders (docs/product.md, Booking reminders): the upgrade "Booking Reminders" of the
 * booking module mails the booker before each upcoming appointment, at the organization's
 * reminder times (booking_settings.reminder_offsets_minutes; 24 hours and 1 hour by default), in
 * the booker's language and time zone (else the organization's), with the links of the booking's
 * manage page (docs/decisions/041-reminder-links.md).
 *
 * The scheduler's job `booking-reminders` (app/.server/scheduler.ts, docs/decisions/036-job-runner.md)
 * has one key a minute, so one instance runs each minute's tick. A tick (`sendDueReminders`):
 *
 * 1. finds every reminder whose time (the start less the offset) fell in the last
 *    REMINDER_CATCH_UP_MINUTES and that nobody claimed, with ONE statement (a range scan per
 *    distinct offset over booking_appointments_reminder_idx);
 * 2. claims them in one statement, one row of private.job_runs per reminder, keyed
 *    `{appointment}:{offset}:{start}` (the scheduler's claim rule: a claim left unfinished past
 *    STALE_MINUTES may be taken over), so two instances whose ticks overlap (clocks a minute
 *    apart) send each reminder once, and a moved appointment, with a new start, is reminded again;
 * 3. sends them twenty at a time: the group's deliveries recorded in one statement (the rows and
 *    rule of `deliverOnce`: recorded before the send, forgotten when it fails, so a takeover never
 *    sends a mail twice), the mails side by side, then the group's 'reminder_sent' events and
 *    finished claims in one statement; the provider's copy goes (through `deliverOnce`) when the
 *    provider is a member whom the "Email notifications" preference lets be told
 *    (notifications/audience.ts).
 *
 * Batched because a tick's reminders run into the thousands at 100,000 appointments a day
 * (bench/reminders.ts): a run of the scheduler per reminder cost four transactions each, plus
 * three for its `deliverOnce` (decision 036 foresaw it). Never for a cancelled, no-show or completed
 * appointment, one that has started, one booked after the reminder's time (its confirmation just
 * went), nor for an organization without the upgrade.
 *
 * With Reminders & Messaging active (docs/product.md, Reminders & Messaging), the booker's mail is
 * the organization's appointment-reminder template (or the module's built-in one) in the
 * booker's language, with the module's unsubscribe line and headers, and the deposit's payment
 * instructions after it while one is awaited; without the module, the built-in mail below. An
 * address that unsubscribed from the organization's reminders gets none, with or without it.
 */
import { MODULES } from '#app/lib/modules.ts'
import { isTimeZone } from '#app/lib/dates.ts'
import { formatInstant, formatZonedInstant } from '#app/lib/format.ts'
import type { PaymentHandles } from '#app/lib/schemas/payment-handles.ts'
import { oneLine } from '#app/lib/schemas/fields.ts'
import type { ReminderOffsets } from '#app/lib/schemas/reminders.ts'
import { asSystem, asUser, sql, systemStatement } from '../db/index.ts'
import { tIn, type Translate } from '../i18n.ts'
import { logError } from '../log.ts'
import { sendMail, type Mail } from '../mail/index.ts'
import { clientMail } from '../messaging/mail.ts'
import { escapeHtml, renderMessage, type Template } from '../messaging/render.ts'
import { MESSAGING_MODULE_ID } from '../messaging/settings.ts'
import { organizationTemplates, templateFor } from '../messaging/templates.ts'
import { notifyMembers } from '../notifications/send.ts'
import { paymentInstructionLines } from '../payments/instructions.ts'
import { deliverOnce, registerJob, STALE_MINUTES, type ScheduledJob } from '../scheduler.ts'
import { open } from '../secrets.ts'
import { publicOrigin } from '../security.ts'
import { manageTokenContext } from './public/bookings.ts'
import { stepUrl } from './public/choices.ts'
import { manageLink, whenText } from './public/mail.ts'

export const REMINDERS_JOB = 'booking-reminders'
/** The upgrade that turns reminders on (app/lib/modules.ts). */
export const REMINDERS_UPGRADE_ID = MODULES.booking.upgrades.reminders.id
/**
 * How far back a tick looks: a reminder whose time passed up to this long ago is still sent (a
 * tick missed, an instance restarting); older ones are not (the booker has been reminded by the
 * next one, or the appointment is near).
 */
export const REMINDER_CATCH_UP_MINUTES = 15

/** One reminder due: the appointment as its mail tells it, and the offset it is for. */
export type DueReminder = {
	key: string
	appointmentId: string
	organizationId: string
	offsetMinutes: number
	status: string
	startsAt: Date
	endsAt: Date
	guestName: string
	guestEmail: string
	language: string
	/** The booker's zone (the one they chose on the public page), else the organization's. */
	timeZone: string
	/** The organization's zone: its staff's copies say their time in it. */
	businessZone: string
	organizationName: string
	organizationSlug: string
	serviceId: string | null
	serviceName: string | null
	durationMinutes: number | null
	providerId: string | null
	providerName: string | null
	providerUserId: string | null
	cancellableUntil: Date
	allowGuestBooking: boolean
	sealedToken: string | null
	deposit: { remaining: string; code: string } | null
	handles: PaymentHandles
	/** Whether the organization has Reminders & Messaging: the mail is then its template. */
	messaging: boolean
}

type Row = {
	key: string
	id: string
	organization_id: string
	offset_minutes: number
	status: string
	starts_at: Date | string
	ends_at: Date | string
	guest_name: string
	guest_email: string
	guest_language: string | null
	guest_timezone: string | null
	organization_language: string | null
	timezone: string
	organization_name: string
	organization_slug: string
	service_id: string | null
	service_name: string | null
	duration_minutes: number | null
	provider_id: string | null
	provider_name: string | null
	provider_user_id: string | null
	cancellation_hours: number
	allow_guest_booking: boolean
	sealed_token: string | null
	deposit_remaining: string | null
	deposit_code: string | null
	zelle: string | null
	venmo: string | null
	cashapp: string | null
	paypal: string | null
	messaging: boolean
}

const date = (v: Date | string) => (v instanceof Date ? v : new Date(v))

function reminderOf(r: Row): DueReminder {
	const startsAt = date(r.starts_at)
	const language = r.guest_language ?? r.organization_language ?? 'en'
	const zone = r.guest_timezone && isTimeZone(r.guest_timezone) ? r.guest_timezone : r.timezone
	return {
		key: r.key,
		appointmentId: r.id,
		organizationId: r.organization_id,
		offsetMinutes: r.offset_minutes,
		status: r.status,
		startsAt,
		endsAt: date(r.ends_at),
		guestName: r.guest_name,
		guestEmail: r.guest_email,
		language,
		timeZone: isTimeZone(zone) ? zone : 'UTC',
		businessZone: isTimeZone(r.timezone) ? r.timezone : 'UTC',
		organizationName: r.organization_name,
		organizationSlug: r.organization_slug,
		serviceId: r.service_id,
		serviceName: r.service_name,
		durationMinutes: r.duration_minutes,
		providerId: r.provider_id,
		providerName: r.provider_name,
		providerUserId: r.provider_user_id,
		cancellableUntil: new Date(startsAt.getTime() - r.cancellation_hours * 3_600_000),
		allowGuestBooking: r.allow_guest_booking,
		sealedToken: r.sealed_token,
		deposit: r.deposit_remaining !== null && r.deposit_code !== null ? { remaining: r.deposit_remaining, code: r.deposit_code } : null,
		handles: { zelle: r.zelle, venmo: r.venmo, cashapp: r.cashapp, paypal: r.paypal },
		messaging: r.messaging,
	}
}

/**
 * What a reminder's mail reads of its appointment (`a`), its organization's settings (`s`) and the
 * rest, joined per row.
 */
const DETAILS = sql`
	a.id, a.organization_id, a.status::text as status, a.starts_at, a.ends_at, a.guest_name, a.guest_email,
	a.guest_language, a.guest_timezone, s.timezone, s.cancellation_hours, s.allow_guest_booking,
	o.name as organization_name, o.slug as organization_slug,
	(select p.preferred_language from public.organization_members m join public.profiles p on p.user_id = m.user_id
		where m.organization_id = a.organization_id and m.role = 'owner' order by m.joined_at, m.user_id limit 1) as organization_language,
	a.service_id, svc.name as service_name, svc.duration_minutes, a.provider_id, pr.display_name as provider_name, pr.user_id as provider_user_id,
	t.sealed_token, dep.remaining::text as deposit_remaining, dep.memo_code as deposit_code,
	h.zelle, h.venmo, h.cashapp, h.paypal,
	exists (select 1 from public.organization_modules mm where mm.organization_id = a.organization_id and mm.module_id = ${MESSAGING_MODULE_ID}) as messaging`

const JOINS = sql`
	join public.organizations o on o.id = a.organization_id
	left join public.booking_services svc on svc.id = a.service_id
	left join public.booking_providers pr on pr.id = a.provider_id
	left join private.booking_manage_tokens t on t.appointment_id = a.id
	left join public.payment_handles h on h.organization_id = a.organization_id
	left join lateral (
		select e.memo_code, e.amount_due - coalesce((select sum(m.amount) from public.payment_matches m where m.expectation_id = e.id), 0) as remaining
		from public.payment_expectations e
		where e.appointment_id = a.id and e.kind = 'deposit' and e.status = 'open'
		order by e.opens_at, e.id limit 1
	) dep on true`

/** A reminder's run key: the appointment, the offset, and the start it is for (seconds since 1970). */
const KEY = sql`a.id::text || ':' || d.minutes::text || ':' || extract(epoch from a.starts_at)::bigint::text`

/**
 * Every reminder due at `now`, in ONE statement: for each reminder time any organization with the
 * upgrade uses, the appointments to come (pending or confirmed, with an address) that start
 * between that long after `now` less the catch-up and that long after `now` (a range of
 * booking_appointments_reminder_idx), of organizations with the upgrade and that time, booked
 * before the reminder's time, whose reminder is not done nor under way (private.job_runs: a
 * claim left unfinished past the stale time comes back, to be taken over).
 */
export async function dueReminders(now: Date, catchUpMinutes = REMINDER_CATCH_UP_MINUTES): Promise<DueReminder[]> {
	const from = new Date(now.getTime() - catchUpMinutes * 60_000)
	const stale = new Date(now.getTime() - STALE_MINUTES * 60_000)
	const { rows } = await asSystem((trx) =>
		sql<Row>`
			with offsets as (
				select distinct o.minutes
				from public.organization_module_upgrades u
				join public.booking_settings s on s.organization_id = u.organization_id
				cross join lateral unnest(s.reminder_offsets_minutes) as o (minutes)
				where u.upgrade_id = ${REMINDERS_UPGRADE_ID}
			)
			select ${KEY} as key, d.minutes as offset_minutes, ${DETAILS}
			from offsets d
			cross join lateral (
				-- One range of booking_appointments_reminder_idx per reminder time: "offset 0" keeps the
				-- planner from folding it into a join over every appointment to come.
				select x.* from public.booking_appointments x
				where x.starts_at > ${from}::timestamptz + make_interval(mins => d.minutes)
					and x.starts_at <= ${now}::timestamptz + make_interval(mins => d.minutes)
					and x.status in ('pending', 'confirmed') and x.guest_email is not null
				offset 0
			) a
			join public.booking_settings s on s.organization_id = a.organization_id and d.minutes = any (s.reminder_offsets_minutes)
			join public.organization_module_upgrades u on u.organization_id = a.organization_id and u.upgrade_id = ${REMINDERS_UPGRADE_ID}
			${JOINS}
			where a.starts_at > ${now}::timestamptz
				and a.created_at < a.starts_at - make_interval(mins => d.minutes)
				and not exists (select 1 from public.client_unsubscribes cu
					where cu.organization_id = a.organization_id and cu.email = lower(btrim(a.guest_email)))
				and not exists (select 1 from private.job_runs r where r.job = ${REMINDERS_JOB} and r.run_key = ${KEY}
					and (r.finished_at is not null or r.started_at > ${stale}::timestamptz))
			order by a.starts_at, a.id, d.minutes`.execute(trx),
	)
	return rows.map(reminderOf)
}

const translators = new Map<string, Translate>()

/**
 * The `book` texts of a language, each written once per key and values: a tick writes thousands
 * of mails, and i18next's fixed `t` copies its options on every call. Bounded: names and amounts
 * make new entries.
 */
function textsIn(language: string): Translate {
	let made = translators.get(language)
	if (!made) {
		const t = tIn(language, 'book')
		const kept = new Map<string, string>()
		made = (key, options) => {
			const id = options ? `${key}\u0000${JSON.stringify(options)}` : key
			let text = kept.get(id)
			if (text === undefined) {
				text = t(key, options)
				if (kept.size < 10_000) kept.set(id, text)
			}
			return text
		}
		// The languages are the database's three (booking_appointments.guest_language, profiles).
		if (translators.size < 10) translators.set(language, made)
	}
	return made
}

/** The appointment's day and time range in the booker's zone, named, and the business's when it differs, as the booking mails write it (`whenText`, ./public/mail.ts). */
function whenLine(r: DueReminder) {
	return whenText({ startsAt: r.startsAt.toISOString(), endsAt: r.endsAt.toISOString(), timezone: r.businessZone }, r.language, r.timeZone)
}

/** The booking's manage link, opened from its sealed token; null without one (a staff booking, an older one, another key). */
function manageOf(r: DueReminder): string | null {
	if (!r.sealedToken) return null
	try {
		return manageLink(
			{ id: r.appointmentId, organizationSlug: r.organizationSlug },
			open(r.sealedToken, manageTokenContext(r.appointmentId)),
		)
	} catch {
		return null
	}
}

/**
 * The reminder mail, in the booker's language and zone: the appointment; while it is pending,
 * how to confirm it (its deposit, with the handles and the code; else that the organization will);
 * and its links: confirm (pending), move (while the public page takes bookings) and cancel, until
 * the cancellation notice; after it, or without a manage link, to contact the organization.
 */
export function reminderMail(r: DueReminder, now: Date): Mail {
	const t = textsIn(r.language)
	const manage = manageOf(r)
	const token = manage ? new URL(manage).searchParams.get('token') : null
	const changeable = r.cancellableUntil.getTime() > now.getTime()
	const short = formatInstant(r.startsAt, r.timeZone, r.language)
	const pending = r.status === 'pending'
	const lines = [
		t('reminder.intro', { name: r.guestName, organization: r.organizationName }),
		'',
		`${t('summary.service')}: ${r.serviceName ?? '—'}${r.durationMinutes ? ` (${t('minutes', { count: r.durationMinutes })})` : ''}`,
		...(r.providerName ? [`${t('summary.provider')}: ${r.providerName}`] : []),
		`${t('summary.when')}: ${whenLine(r)}`,
		'',
	]
	if (pending && r.deposit) {
		lines.push(
			t('reminder.pendingDeposit'),
			...paymentInstructionLines(t, r.language, {
				handles: r.handles,
				amount: r.deposit.remaining,
				code: r.deposit.code,
				organization: r.organizationName,
			}),
			'',
		)
	} else if (pending) {
		lines.push(t('reminder.pending', { organization: r.organizationName }), '')
	}
	if (manage && token && changeable) {
		lines.push(pending ? t('reminder.confirm') : t('reminder.view'), manage, '')
		if (r.allowGuestBooking && r.serviceId) {
			const move = stepUrl(r.organizationSlug, 'slot', {
				mode: 'provider',
				service: r.serviceId,
				provider: r.providerId ?? undefined,
				reschedule: token,
			})
			lines.push(t('reminder.move'), `${publicOrigin()}${move}`, '')
		}
		lines.push(t('reminder.cancel'), `${manage}&cancel=1`)
	} else if (manage) {
		lines.push(t('reminder.view'), manage, '', t('reminder.tooLate', { organization: r.organizationName }))
	} else {
		lines.push(t('reminder.contact', { organization: r.organizationName }))
	}
	return {
		to: r.guestEmail,
		subject: oneLine(t('reminder.subject', { service: r.serviceName ?? '', organization: r.organizationName, when: short })),
		text: lines.join('\n'),
	}
}

/**
 * The reminder mail of an organization with Reminders & Messaging: its appointment-reminder
 * `template` in the booker's language, whose time is the built-in mail's (the booker's zone,
 * named, and the business's when it differs) and whose link is the booking's manage page (else
 * the sentence that says to contact the organization); while a deposit is awaited, how to pay it
 * follows; then the module's unsubscribe line and headers (app/.server/messaging/mail.ts).
 */
export function templatedReminderMail(r: DueReminder, template: Template): Mail {
	const t = textsIn(r.language)
	const message = renderMessage('appointment_reminder', template, {
		client_name: r.guestName,
		service: r.serviceName ?? '—',
		start_time: whenLine(r),
		manage_link: manageOf(r) ?? t('reminder.contact', { organization: r.organizationName }),
		organization_name: r.organizationName,
	})
	if (r.status === 'pending' && r.deposit) {
		const lines = [
			t('reminder.pendingDeposit'),
			...paymentInstructionLines(t, r.language, {
				handles: r.handles,
				amount: r.deposit.remaining,
				code: r.deposit.code,
				organization: r.organizationName,
			}),
		]
		message.text = `${message.text.trimEnd()}\n\n${lines.join('\n')}`
		message.html = `${message.html}\n<p style="margin:0 0 12px">${lines.map(escapeHtml).join('<br>')}</p>`
	}
	return clientMail({
		organizationId: r.organizationId,
		organizationName: r.organizationName,
		to: r.guestEmail,
		language: r.language,
		message,
	})
}

/** The booker's mail: the organization's template with Reminders & Messaging, else the built-in one. */
function bookerMail(r: DueReminder, own: Map<string, Template>, now: Date): Mail {
	return r.messaging
		? templatedReminderMail(r, templateFor(own, r.organizationId, 'appointment_reminder', r.language))
		: reminderMail(r, now)
}

/** Reminders sent at once within a tick (at most this many connections to an SMTP relay), recorded by one statement before (deliveries) and one after (events and claims). */
const GROUP = 20

/**
 * Claims reminders for this tick in one statement, with the scheduler's rule (a key nobody holds,
 * or whose holder went stale); returns the keys this tick may send.
 */
async function claimReminders(keys: string[], at: Date): Promise<Set<string>> {
	const stale = new Date(at.getTime() - STALE_MINUTES * 60_000)
	const rows = await systemStatement(
		sql<{ run_key: string }>`
			insert into private.job_runs (job, run_key, started_at)
			select ${REMINDERS_JOB}, k, ${at}::timestamptz from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as k
			on conflict (job, run_key) do update set started_at = excluded.started_at
			where private.job_runs.finished_at is null and private.job_runs.started_at < ${stale}::timestamptz
			returning run_key`,
	)
	return new Set(rows.map((r) => r.run_key))
}

/**
 * `deliverOnce` (app/.server/scheduler.ts) for a group of reminders, in one statement: the
 * booker's delivery of each is recorded before it is sent, in the same rows, so a takeover finds
 * it and sends it not again. Returns the keys recorded now (the others were sent before).
 */
async function recordDeliveries(group: DueReminder[]): Promise<Set<string>> {
	const rows = await systemStatement(
		sql<{ run_key: string }>`
			insert into private.job_deliveries (job, run_key, recipient)
			select ${REMINDERS_JOB}, d.key, d.recipient
			from jsonb_to_recordset(${JSON.stringify(group.map((r) => ({ key: r.key, recipient: recipientOf(r) })))}::jsonb) as d (key text, recipient text)
			on conflict do nothing
			returning run_key`,
	)
	return new Set(rows.map((r) => r.run_key))
}

/** The deliveries of mails that could not be sent are forgotten, as `deliverOnce` does: a takeover sends them. */
async function forgetDeliveries(failed: DueReminder[]) {
	if (!failed.length) return
	await systemStatement(sql`
		delete from private.job_deliveries d
		using jsonb_to_recordset(${JSON.stringify(failed.map((r) => ({ key: r.key, recipient: recipientOf(r) })))}::jsonb) as f (key text, recipient text)
		where d.job = ${REMINDERS_JOB} and d.run_key = f.key and d.recipient = f.recipient`)
}

/** The booker as a delivery's recipient (the column holds 254 characters, as an address does). */
const recipientOf = (r: DueReminder) => r.guestEmail.slice(0, 254)

/** After a group: the events of the reminders it sent, and its claims finished (those still this tick's), in one statement. */
async function recordGroup(sent: DueReminder[], done: DueReminder[], claimedAt: Date, at: Date) {
	const events = sent.map((r) => ({
		organization_id: r.organizationId,
		appointment_id: r.appointmentId,
		detail: { offset_minutes: r.offsetMinutes, starts_at: r.startsAt.toISOString(), to: r.guestEmail },
	}))
	await systemStatement(sql`
		with events as (
			insert into public.booking_appointment_events (organization_id, appointment_id, kind, detail)
			select e.organization_id, e.appointment_id, 'reminder_sent', e.detail
			from jsonb_to_recordset(${JSON.stringify(events)}::jsonb) as e (organization_id uuid, appointment_id uuid, detail jsonb)
			returning 1)
		update private.job_runs set finished_at = ${at}::timestamptz
		where job = ${REMINDERS_JOB} and run_key in (select jsonb_array_elements_text(${JSON.stringify(done.map((r) => r.key))}::jsonb))
			and started_at = ${claimedAt}::timestamptz and finished_at is null`)
}

/**
 * One group: deliveries recorded, the mails of those recorded now sent side by side, the failed
 * ones forgotten (their claims stay unfinished: a later tick takes them over), the providers'
 * copies, then the events and the claims. Returns the reminders sent now.
 */
async function sendGroup(group: DueReminder[], now: Date, claimedAt: Date, clock: () => Date): Promise<number> {
	const recorded = await recordDeliveries(group)
	const own = await organizationTemplates(
		group.filter((r) => r.messaging).map((r) => r.organizationId),
		'appointment_reminder',
	)
	const outcomes = await Promise.all(
		group.map(async (r) => {
			if (!recorded.has(r.key)) return { r, went: false, failed: false }
			try {
				await sendMail(bookerMail(r, own, now))
				return { r, went: true, failed: false }
			} catch (error) {
				logError(error, { event: 'reminder_failed', appointmentId: r.appointmentId })
				return { r, went: false, failed: true }
			}
		}),
	)
	await forgetDeliveries(outcomes.filter((o) => o.failed).map((o) => o.r))
	for (const { r, failed } of outcomes) if (!failed && r.providerUserId) await sendProviderCopy(r)
	const went = outcomes.filter((o) => o.went).map((o) => o.r)
	await recordGroup(
		went,
		outcomes.filter((o) => !o.failed).map((o) => o.r),
		claimedAt,
		clock(),
	)
	return went.length
}

/**
 * The provider's copy of a reminder, when the provider is a member whom the "Email notifications"
 * preference lets be told of bookings (the module's switch and visibility, then their own toggle:
 * audience.ts); once, like the reminder. A failure is logged: the booker's reminder stands.
 */
async function sendProviderCopy(r: DueReminder) {
	const values = { client: r.guestName, service: r.serviceName ?? '—', provider: r.providerName ?? '—' }
	const link = `${publicOrigin()}/app/booking/appointments/${r.appointmentId}`
	await notifyMembers(
		r.organizationId,
		'emailNotifications',
		(recipient, t) => {
			// The staff's time: the organization's zone, whatever zone the booker chose.
			const when = formatZonedInstant(r.startsAt, r.businessZone, recipient.language)
			return {
				subject: t('notifications.booking.reminder.subject', { ...values, when }),
				text: `${t('notifications.booking.reminder.body', { ...values, when })}\n\n${t('notifications.booking.openAppointment', { link })}`,
			}
		},
		{
			deliver: (recipient, send) =>
				recipient.userId === r.providerUserId
					? deliverOnce(REMINDERS_JOB, r.key, `member:${recipient.userId}`, send)
					: Promise.resolve(false),
			onError: (error) => logError(error, { event: 'reminder_copy_failed', appointmentId: r.appointmentId }),
		},
	)
}

/**
 * One tick (see the top of this file): the reminders due at `now`, claimed, sent a group at a
 * time, recorded. Stops between groups when `signal` fires (what is left stays claimed and
 * unfinished, for a takeover). Returns how many were due and how many mails went.
 */
export async function sendDueReminders(now: Date, { signal }: { signal?: AbortSignal } = {}): Promise<{ due: number; sent: number }> {
	// Claims are stamped on the tick's clock, as the scheduler stamps its own (and pruned by it).
	const from = performance.now()
	const clock = () => new Date(now.getTime() + Math.round(performance.now() - from))
	const due = await dueReminders(now)
	if (!due.length) return { due: 0, sent: 0 }
	const claimedAt = clock()
	const claimed = await claimReminders(
		due.map((r) => r.key),
		claimedAt,
	)
	const mine = due.filter((r) => claimed.has(r.key))
	let sent = 0
	for (let i = 0; i < mine.length; i += GROUP) {
		signal?.throwIfAborted()
		sent += await sendGroup(mine.slice(i, i + GROUP), now, claimedAt, clock)
	}
	return { due: due.length, sent }
}

/** Claims of reminders finished over a day ago: their time and its catch-up are long past, so no tick asks for them again. */
async function pruneClaims(now: Date) {
	await systemStatement(
		sql`delete from private.job_runs where job = ${REMINDERS_JOB} and finished_at < ${now}::timestamptz - interval '1 day'`,
	)
}

/** The scheduler's job: a key a minute, whose run is that minute's tick; on the hour, yesterday's claims go. */
export const remindersJob: ScheduledJob = {
	name: REMINDERS_JOB,
	deadlineMs: 3 * 60_000,
	due: (now) => [`tick:${now.toISOString().slice(0, 16)}`],
	run: async (_key, { now, signal }) => {
		await sendDueReminders(now, { signal })
		if (now.getUTCMinutes() === 0) await pruneClaims(now)
	},
}

/** Registers the reminders job with the scheduler (at start-up). */
export function registerBookingReminders() {
	registerJob(remindersJob)
}

/** The reminder settings as the booking settings tab shows them: the times, and whether the upgrade is there to send them. */
export async function getReminderSettings(userId: string, organizationId: string): Promise<{ offsets: number[]; active: boolean }> {
	return asUser(userId, async (trx) => {
		const settings = await trx
			.selectFrom('booking_settings')
			.select('reminder_offsets_minutes')
			.where('organization_id', '=', organizationId)
			.executeTakeFirst()
		const upgrade = await trx
			.selectFrom('organization_module_upgrades')
			.select('id')
			.where('organization_id', '=', organizationId)
			.where('upgrade_id', '=', REMINDERS_UPGRADE_ID)
			.executeTakeFirst()
		return { offsets: [...(settings?.reminder_offsets_minutes ?? [])].sort((a, b) => b - a), active: upgrade !== undefined }
	})
}

/** Saves the reminder times (already checked by reminderSettingsSchema), as the member (RLS); false when no row was updated. */
export async function saveReminderOffsets(userId: string, organizationId: string, offsets: ReminderOffsets): Promise<boolean> {
	const result = await asUser(userId, (trx) =>
		trx
			.updateTable('booking_settings')
			.set({ reminder_offsets_minutes: offsets })
			.where('organization_id', '=', organizationId)
			.executeTakeFirst(),
	)
	return result.numUpdatedRows > 0n
}
