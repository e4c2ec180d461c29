/**
 * Report automation, the job's side (docs/product.md, Reports › Automation): each day at 08:00 in
 * the organization's zone, for each organization that owns the Automation upgrade and set
 * something up (./automation.ts), one run of the scheduler (app/.server/scheduler.ts,
 * docs/decisions/036-job-runner.md) that mails the chosen members, each in their language:
 *
 * - on Mondays, the weekly report of the week before (Monday to Sunday), as a PDF attachment;
 * - on the 1st, the monthly report of the month before, as a PDF attachment;
 * - "received more than $X this week": once per week, when the week so far (to yesterday) passed it;
 * - on Mondays, "a client has not paid for N weeks": the clients with past payments whose last
 *   payment passed N weeks during the week before (each client once per lapse).
 *
 * Once across instances: the run key (organization and day) is claimed once by the scheduler, and
 * each mail is recorded before it goes under its period (`mailOnce`: the rule of the scheduler's
 * `deliverOnce`, keyed by the week or month rather than the run), so a run taken over, two
 * instances, or the runs of two days mail each member once per report and alert period. A run is due for 24 hours after
 * 08:00: a server down that morning catches up later that day, never an older day. Recipients are
 * read when the run goes: a member who left the organization is not mailed.
 */
import { addDays, addMonths, dateIn, monthStart } from '#app/lib/dates.ts'
import { formatDate, formatLanguage, formatMoney } from '#app/lib/format.ts'
import type { Language } from '#app/lib/i18n.ts'
import { getReport } from '../payments/analytics.ts'
import { asSystem, sql } from '../db/index.ts'
import { tIn } from '../i18n.ts'
import { logError } from '../log.ts'
import { sendMail } from '../mail/index.ts'
import { localEightOClock } from '../notifications/weekly-report.ts'
import { registerJob, type ScheduledJob } from '../scheduler.ts'
import { publicOrigin } from '../security.ts'
import { AUTOMATION_UPGRADE_ID, overviewDocument } from './overview-document.ts'
import { renderReportPdf } from './pdf.ts'

export const REPORT_AUTOMATION_JOB = 'report-automation'
const CATCH_UP_MS = 24 * 3_600_000
/** The most clients one alert names (the rest are counted). */
const DORMANT_LISTED = 20

/** The local day whose 08:00 run is due at `now` in `timeZone` (today after 08:00, else yesterday's within 24 hours), or null. */
export function dueDay(now: Date, timeZone: string): string | null {
	const today = dateIn(timeZone, now)
	for (const day of [today, addDays(today, -1)]) {
		const at = localEightOClock(day, timeZone).getTime()
		if (now.getTime() >= at && now.getTime() < at + CATCH_UP_MS) return day
	}
	return null
}

/**
 * The run keys due at `now` ("organization:day"): organizations with the upgrade, something set
 * up and someone to tell. `organizationId` narrows it to one (tests run the job on their own data).
 */
export async function dueAutomationKeys(now: Date, options: { organizationId?: string } = {}): Promise<string[]> {
	const { rows } = await asSystem((trx) =>
		sql<{ id: string; timezone: string | null }>`
			select a.organization_id as id, bs.timezone from public.report_automations a
			left join public.booking_settings bs on bs.organization_id = a.organization_id
			where (a.weekly_report or a.monthly_report or a.revenue_threshold is not null or a.dormant_weeks is not null)
			  and cardinality(a.recipients) > 0
			  and exists (select 1 from public.organization_module_upgrades u
			    where u.organization_id = a.organization_id and u.upgrade_id = ${AUTOMATION_UPGRADE_ID})
			  ${options.organizationId ? sql`and a.organization_id = ${options.organizationId}` : sql``}
			order by a.organization_id`.execute(trx),
	)
	return rows.flatMap((r) => {
		const day = dueDay(now, r.timezone ?? 'UTC')
		return day ? [`${r.id}:${day}`] : []
	})
}

type Recipient = { userId: string; email: string; language: Language }
type Settings = {
	name: string
	weekly_report: boolean
	monthly_report: boolean
	revenue_threshold: string | null
	dormant_weeks: number | null
	timezone: string
}

/** The organization's automation and its chosen recipients who are members today, with their address and language. */
async function readRun(organizationId: string): Promise<{ settings: Settings; recipients: Recipient[] } | null> {
	return asSystem(async (trx) => {
		const { rows } = await sql<Settings>`
			select o.name, a.weekly_report, a.monthly_report, a.revenue_threshold::text as revenue_threshold, a.dormant_weeks,
			  coalesce(bs.timezone, 'UTC') as timezone
			from public.report_automations a join public.organizations o on o.id = a.organization_id
			left join public.booking_settings bs on bs.organization_id = a.organization_id
			where a.organization_id = ${organizationId}
			  and exists (select 1 from public.organization_module_upgrades u
			    where u.organization_id = a.organization_id and u.upgrade_id = ${AUTOMATION_UPGRADE_ID})`.execute(trx)
		const settings = rows[0]
		if (!settings) return null
		const { rows: people } = await sql<{ user_id: string; email: string; preferred_language: string | null }>`
			select m.user_id, u.email, p.preferred_language
			from public.report_automations a
			join public.organization_members m on m.organization_id = a.organization_id and m.user_id = any (a.recipients)
			join auth.users u on u.id = m.user_id and u.deleted_at is null and u.email is not null
			left join public.profiles p on p.user_id = m.user_id
			where a.organization_id = ${organizationId}
			order by m.joined_at, m.user_id`.execute(trx)
		return {
			settings,
			recipients: people.map((p) => ({ userId: p.user_id, email: p.email, language: formatLanguage(p.preferred_language) })),
		}
	})
}

type MailKind = 'weekly' | 'monthly' | 'revenue' | 'dormant'

/**
 * Calls `send` only if no mail of this kind and period went to the member, recording it first (a
 * crash between the record and the send loses that mail rather than sending it twice); a send that
 * throws removes the record, so a later run retries it. Keyed by the period, not by the run: two
 * instances, a run taken over, or the runs of two days never mail a member twice for one period.
 */
async function mailOnce(organizationId: string, kind: MailKind, period: string, userId: string, send: () => Promise<void>) {
	const { rows } = await asSystem((trx) =>
		sql<{ user_id: string }>`insert into private.report_automation_mails (organization_id, kind, period, user_id)
			values (${organizationId}, ${kind}, ${period}, ${userId}) on conflict do nothing returning user_id`.execute(trx),
	)
	if (!rows.length) return false
	try {
		await send()
		return true
	} catch (error) {
		await asSystem((trx) =>
			sql`delete from private.report_automation_mails
				where organization_id = ${organizationId} and kind = ${kind} and period = ${period} and user_id = ${userId}`.execute(trx),
		)
		throw error
	}
}

/** The Monday of the week (Monday to Sunday) holding `day`. */
function mondayOf(day: string) {
	const weekday = new Date(`${day}T00:00:00Z`).getUTCDay()
	return addDays(day, -((weekday + 6) % 7))
}

/** The clients whose last payment is in [from, to): they passed N weeks without paying in the week before the run. */
async function lapsedClients(organizationId: string, from: string, to: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ name: string; last: string; total: string }>`
			select coalesce(nullif(c.name, ''), '—') as name, to_char(max(t.date_received), 'YYYY-MM-DD') as last, sum(t.amount)::text as total
			from public.transactions t join public.clients c on c.id = t.client_id
			where t.organization_id = ${organizationId}
			group by c.id, c.name
			having max(t.date_received) >= ${from} and max(t.date_received) < ${to}
			order by max(t.date_received), c.name`.execute(trx),
	)
	return rows
}

/**
 * Runs one organization's day: the reports and alerts that day calls for (see the top of this
 * file), each mailed once per member and period. Figures are read as a recipient (RLS: they are a
 * member), the same figures for all; each recipient's mail and PDF in their own language.
 */
export async function runAutomationKey(runKey: string, context: { signal?: AbortSignal } = {}) {
	const [organizationId, day] = runKey.split(':') as [string, string]
	const run = await readRun(organizationId)
	if (!run || run.recipients.length === 0) return
	const { settings, recipients } = run
	const reader = recipients[0]!.userId
	const isMonday = mondayOf(day) === day
	const link = `${publicOrigin()}/app/reports/automation`

	const mailReport = async (kind: 'weekly' | 'monthly', from: string, to: string) => {
		const report = await getReport(reader, organizationId, new URLSearchParams({ range: 'custom', from, to }), {
			timezone: settings.timezone,
		})
		if (!report.ok) return
		for (const recipient of recipients) {
			context.signal?.throwIfAborted()
			const t = tIn(recipient.language, 'automation')
			const values = {
				organization: settings.name,
				from: formatDate(from, recipient.language),
				to: formatDate(to, recipient.language),
				total: formatMoney(report.totals.amount, recipient.language),
				count: report.totals.count,
			}
			const title = t(`mail.${kind}.title`, values)
			await mailOnce(organizationId, kind, from, recipient.userId, async () => {
				const pdf = await renderReportPdf(overviewDocument(report, settings.name, recipient.language, day, { title }))
				await sendMail({
					to: recipient.email,
					subject: t(`mail.${kind}.subject`, values),
					text: `${t(`mail.${kind}.body`, values)}\n\n${t('mail.why', { organization: settings.name, link })}`,
					attachments: [{ filename: `${kind}-report-${from}.pdf`, content: Buffer.from(pdf), contentType: 'application/pdf' }],
				})
			})
		}
	}

	// The reports, of the period that ended yesterday.
	if (settings.weekly_report && isMonday) await mailReport('weekly', addDays(day, -7), addDays(day, -1))
	if (settings.monthly_report && day.endsWith('-01')) {
		const first = monthStart(addMonths(day, -1))
		await mailReport('monthly', first, addDays(day, -1))
	}

	// Received more than the threshold this week (the week of yesterday, up to yesterday): once per week.
	if (settings.revenue_threshold !== null) {
		const monday = mondayOf(addDays(day, -1))
		const week = await getReport(reader, organizationId, new URLSearchParams({ range: 'custom', from: monday, to: addDays(day, -1) }), {
			timezone: settings.timezone,
		})
		if (week.ok && Number(week.totals.amount) > Number(settings.revenue_threshold)) {
			for (const recipient of recipients) {
				const t = tIn(recipient.language, 'automation')
				const values = {
					organization: settings.name,
					total: formatMoney(week.totals.amount, recipient.language),
					threshold: formatMoney(settings.revenue_threshold, recipient.language),
					from: formatDate(monday, recipient.language),
					count: week.totals.count,
				}
				await mailOnce(organizationId, 'revenue', monday, recipient.userId, () =>
					sendMail({
						to: recipient.email,
						subject: t('mail.revenue.subject', values),
						text: `${t('mail.revenue.body', values)}\n\n${t('mail.why', { organization: settings.name, link })}`,
					}),
				)
			}
		}
	}

	// Clients who passed N weeks without paying during the week before: on Mondays, once per week.
	if (settings.dormant_weeks !== null && isMonday) {
		const weeks = settings.dormant_weeks
		const clients = await lapsedClients(organizationId, addDays(day, -7 * weeks - 7), addDays(day, -7 * weeks))
		if (clients.length) {
			for (const recipient of recipients) {
				const t = tIn(recipient.language, 'automation')
				const lines = clients
					.slice(0, DORMANT_LISTED)
					.map(
						(c) =>
							`• ${c.name}: ${t('mail.dormant.line', { date: formatDate(c.last, recipient.language), total: formatMoney(c.total, recipient.language) })}`,
					)
				if (clients.length > DORMANT_LISTED) lines.push(t('mail.dormant.more', { count: clients.length - DORMANT_LISTED }))
				const values = { organization: settings.name, weeks, count: clients.length }
				await mailOnce(organizationId, 'dormant', day, recipient.userId, () =>
					sendMail({
						to: recipient.email,
						subject: t('mail.dormant.subject', values),
						text: `${t('mail.dormant.body', values)}\n\n${lines.join('\n')}\n\n${t('mail.why', { organization: settings.name, link })}`,
					}),
				)
			}
		}
	}
}

/** The scheduler's job: one key per organization and day (see the top of this file). */
export const automationJob: ScheduledJob = {
	name: REPORT_AUTOMATION_JOB,
	deadlineMs: 4 * 60_000,
	due: (now) => dueAutomationKeys(now),
	run: (key, context) =>
		runAutomationKey(key, context).catch((error: unknown) => {
			logError(error, { event: 'report_automation_failed', key })
			throw error
		}),
}

/** Registers the report automation job with the scheduler (at start-up). */
export function registerReportAutomation() {
	registerJob(automationJob)
}
