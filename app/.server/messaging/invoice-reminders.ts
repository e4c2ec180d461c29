/**
 * Invoice reminders (docs/product.md, Reminders & Messaging): for organizations with the module
 * and invoice reminders on, a mail to the client some days before an invoice's due date and some
 * days after it (messaging_settings: 3 before; 1, 7 and 14 after by default), at REMINDER_HOUR in
 * the organization's zone, from the organization's template in the invoice's language (else the
 * built-in one), with the pay link of the invoice's page and its memo code.
 *
 * Which: invoices sent, not void, with a balance (invoice_overview: sent, partly paid or
 * overdue), with a bill-to address that did not unsubscribe, sent before the reminder's time. A
 * payment stops them: a paid invoice gets no more, a partly paid one is reminded of its balance.
 *
 * The scheduler's job `invoice-reminders` (app/.server/scheduler.ts, docs/decisions/036-job-runner.md)
 * has one key per tick of each instance (a reminder's day is long: every instance may look, each
 * look is one statement, and a reminder made due in the middle of a minute goes at the next tick
 * of any instance); its run finds what is due with one statement, then, as the booking
 * reminders do (docs/decisions/041-reminder-links.md), claims each reminder in
 * private.job_runs under `{invoice}:{days}` (days negative before the due date), so two
 * instances send it once, and sends it through `deliverOnce`, so a run taken over never sends
 * it twice. Catch-up: a reminder whose time passed less than a day ago still goes (a missed
 * tick, a restart); an older one does not (the next one will come).
 */
import { formatDate, formatMoney } from '#app/lib/format.ts'
import type { MessageKind } from '#app/lib/schemas/messaging.ts'
import { sql, systemStatement } from '../db/index.ts'
import { invoicePageLink } from '../invoices/mail.ts'
import { openPageToken } from '../invoices/sending.ts'
import { logError } from '../log.ts'
import { sendMail } from '../mail/index.ts'
import { deliverOnce, registerJob, STALE_MINUTES, type ScheduledJob } from '../scheduler.ts'
import { clientMail } from './mail.ts'
import { renderMessage, type MessageValues, type Template } from './render.ts'
import { MESSAGING_MODULE_ID } from './settings.ts'
import { organizationTemplates, templateFor } from './templates.ts'
import { unsubscribeAddress } from './unsubscribe.ts'

export const INVOICE_REMINDERS_JOB = 'invoice-reminders'
/** The hour of the day, in the organization's zone, at which a day's reminders go. */
export const REMINDER_HOUR = 9

/** One reminder due: the invoice as its mail tells it, and the day it is for (negative: before the due date). */
export type DueInvoiceReminder = {
	key: string
	days: number
	invoiceId: string
	organizationId: string
	organizationName: string
	number: number
	language: string
	billToName: string
	email: string
	total: string
	balance: string
	dueDate: string
	memoCode: string | null
	sealedToken: string | null
}

type Row = {
	key: string
	days: number
	id: string
	organization_id: string
	organization_name: string
	number: number
	language: string
	bill_to_name: string | null
	bill_to_email: string
	total: string
	balance: string
	due_date: string
	memo_code: string | null
	sealed: string | null
}

/** A reminder's key: the invoice and the day. */
const KEY = sql`i.id::text || ':' || d.days::text`

/**
 * Every invoice reminder due at `now`, in ONE statement: for each organization with the module
 * and reminders on, each of its days (before: negative), the invoices sent whose due date is
 * that many days from the day whose REMINDER_HOUR (in the organization's zone) passed last (a
 * range of invoices_org_due_idx), still owing, with an address that did not unsubscribe, sent
 * before the reminder's time, whose reminder is not done nor under way (a claim left unfinished
 * past the stale time comes back, to be taken over).
 */
export async function dueInvoiceReminders(now: Date): Promise<DueInvoiceReminder[]> {
	const stale = new Date(now.getTime() - STALE_MINUTES * 60_000)
	const rows = await systemStatement(
		sql<Row>`
			select distinct on (i.id) ${KEY} as key, d.days, i.id, i.organization_id, o.name as organization_name, i.number, i.language,
				i.bill_to_name, i.bill_to_email, i.total::text as total, i.balance::text as balance, i.due_date::text as due_date,
				i.memo_code, t.sealed
			from public.organization_modules om
			join public.messaging_settings ms on ms.organization_id = om.organization_id and ms.invoice_reminders
			join public.booking_settings bs on bs.organization_id = om.organization_id
			cross join lateral (select -b as days from unnest(ms.days_before) b union select a from unnest(ms.days_after) a) d
			join public.invoice_overview i on i.organization_id = om.organization_id and i.status = 'sent'
				and i.due_date = ((${now}::timestamptz at time zone bs.timezone) - make_interval(hours => ${REMINDER_HOUR}))::date - d.days
			join public.organizations o on o.id = i.organization_id
			left join private.invoice_tokens t on t.invoice_id = i.id
			where om.module_id = ${MESSAGING_MODULE_ID}
				and i.state in ('sent', 'partly_paid', 'overdue') and i.balance > 0
				and nullif(btrim(i.bill_to_email), '') is not null
				and i.sent_at < ((i.due_date + d.days) + make_time(${REMINDER_HOUR}, 0, 0)) at time zone bs.timezone
				and not exists (select 1 from public.client_unsubscribes u
					where u.organization_id = i.organization_id and u.email = lower(btrim(i.bill_to_email)))
				and not exists (select 1 from private.job_runs r where r.job = ${INVOICE_REMINDERS_JOB} and r.run_key = ${KEY}
					and (r.finished_at is not null or r.started_at > ${stale}::timestamptz))
			order by i.id, d.days`,
	)
	return rows.map((r) => ({
		key: r.key,
		days: Number(r.days),
		invoiceId: r.id,
		organizationId: r.organization_id,
		organizationName: r.organization_name,
		number: Number(r.number),
		language: r.language,
		billToName: r.bill_to_name ?? '',
		email: r.bill_to_email.trim(),
		total: r.total,
		balance: r.balance,
		dueDate: r.due_date.slice(0, 10),
		memoCode: r.memo_code,
		sealedToken: r.sealed,
	}))
}

/** The template kind of a reminder: before the due date, or after it. */
export const reminderKind = (days: number): MessageKind => (days < 0 ? 'invoice_before' : 'invoice_after')

/** What a reminder's placeholders say, in the invoice's language. */
export function invoiceReminderValues(r: DueInvoiceReminder): MessageValues {
	const token = r.sealedToken ? openPageToken(r.invoiceId, r.sealedToken) : null
	return {
		client_name: r.billToName,
		invoice_number: String(r.number),
		amount: formatMoney(r.total, r.language),
		balance: formatMoney(r.balance, r.language),
		due_date: formatDate(r.dueDate, r.language),
		pay_link: token ? invoicePageLink(token) : '',
		memo_code: r.memoCode ?? '',
		organization_name: r.organizationName,
	}
}

/**
 * Claims the reminders for this run in one statement, with the scheduler's rule (a key nobody
 * holds, or whose holder went stale); returns the keys this run may send.
 */
async function claim(keys: string[], at: Date): Promise<Set<string>> {
	const stale = new Date(at.getTime() - STALE_MINUTES * 60_000)
	const rows = await systemStatement(
		sql<{ run_key: string }>`
			insert into private.job_runs (job, run_key, started_at)
			select ${INVOICE_REMINDERS_JOB}, k, ${at}::timestamptz from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as k
			on conflict (job, run_key) do update set started_at = excluded.started_at
			where private.job_runs.finished_at is null and private.job_runs.started_at < ${stale}::timestamptz
			returning run_key`,
	)
	return new Set(rows.map((r) => r.run_key))
}

/** Marks claims done, those still this run's (not taken over since). */
async function finish(keys: string[], claimedAt: Date, at: Date) {
	if (!keys.length) return
	await systemStatement(sql`
		update private.job_runs set finished_at = ${at}::timestamptz
		where job = ${INVOICE_REMINDERS_JOB} and run_key in (select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb))
			and started_at = ${claimedAt}::timestamptz and finished_at is null`)
}

/**
 * One run: the reminders due at `now`, claimed, each sent once (a failed one stays claimed and
 * unfinished, for a takeover after the stale time). Stops between mails when `signal` fires.
 * Returns how many were due and how many mails went.
 */
export async function sendDueInvoiceReminders(
	now: Date,
	{ signal }: { signal?: AbortSignal } = {},
): Promise<{ due: number; sent: number }> {
	const from = performance.now()
	const clock = () => new Date(now.getTime() + Math.round(performance.now() - from))
	const due = await dueInvoiceReminders(now)
	if (!due.length) return { due: 0, sent: 0 }
	const claimedAt = clock()
	const claimed = await claim(
		due.map((r) => r.key),
		claimedAt,
	)
	const mine = due.filter((r) => claimed.has(r.key))
	const organizations = mine.map((r) => r.organizationId)
	const templates = new Map<MessageKind, Map<string, Template>>([
		['invoice_before', await organizationTemplates(organizations, 'invoice_before')],
		['invoice_after', await organizationTemplates(organizations, 'invoice_after')],
	])
	let sent = 0
	const done: string[] = []
	try {
		for (const r of mine) {
			signal?.throwIfAborted()
			const kind = reminderKind(r.days)
			const message = renderMessage(kind, templateFor(templates.get(kind)!, r.organizationId, kind, r.language), invoiceReminderValues(r))
			try {
				const went = await deliverOnce(INVOICE_REMINDERS_JOB, r.key, unsubscribeAddress(r.email).slice(0, 254), () =>
					sendMail(
						clientMail({
							organizationId: r.organizationId,
							organizationName: r.organizationName,
							to: r.email,
							language: r.language,
							message,
						}),
					),
				)
				if (went) sent++
				done.push(r.key)
			} catch (error) {
				logError(error, { event: 'invoice_reminder_failed', invoiceId: r.invoiceId })
			}
		}
	} finally {
		await finish(done, claimedAt, clock())
	}
	return { due: due.length, sent }
}

/**
 * Claims of ticks finished over an hour ago, and of reminders finished over three days ago: their
 * day and its catch-up are long past, so no run asks for them again.
 */
async function pruneClaims(now: Date) {
	await systemStatement(
		sql`delete from private.job_runs where job = ${INVOICE_REMINDERS_JOB}
			and finished_at < ${now}::timestamptz - case when run_key like 'tick:%' then interval '1 hour' else interval '3 days' end`,
	)
}

/** The scheduler's job: a key per tick, whose run sends what is due; on the hour, old claims go. */
export const invoiceRemindersJob: ScheduledJob = {
	name: INVOICE_REMINDERS_JOB,
	deadlineMs: 3 * 60_000,
	due: (now) => [`tick:${now.toISOString()}`],
	run: async (_key, { now, signal }) => {
		await sendDueInvoiceReminders(now, { signal })
		if (now.getUTCMinutes() === 0) await pruneClaims(now)
	},
}

/** Registers the invoice reminders with the scheduler (at start-up). */
export function registerInvoiceReminders() {
	registerJob(invoiceRemindersJob)
}
