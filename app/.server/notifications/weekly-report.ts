import { TZDate } from '@date-fns/tz'
import { addDays, dateIn } from '#app/lib/dates.ts'
import { formatDate, formatMoney } from '#app/lib/format.ts'
import { asSystem, sql } from '../db/index.ts'
import { deliverOnce, type ScheduledJob } from '../scheduler.ts'
import { notifyMembers } from './send.ts'

/**
 * The weekly report (docs/product.md, Settings › Notifications): each Monday at 08:00 in the
 * organization's timezone (its booking settings; UTC by default), a mail to each member with
 * "Weekly reports" on whom the payments' module lets be told (audience.ts): last week's (Monday
 * to Sunday) total, count, top clients, and the change against the week before, in the member's
 * language. An occurrence is due for 24 hours after 08:00, so a server that was down at 08:00
 * still sends it later that day, and only once.
 */
export const WEEKLY_REPORT_JOB = 'weekly-report'
export const REPORT_HOUR = 8
const CATCH_UP_MS = 24 * 3_600_000
const TOP_CLIENTS = 3

/** The instant of 08:00 on the local date `iso` in `timeZone`: DST-aware (08:00 EDT or EST). */
export function localEightOClock(iso: string, timeZone: string) {
	const [y, m, d] = iso.split('-').map(Number) as [number, number, number]
	return new Date(new TZDate(y, m - 1, d, REPORT_HOUR, 0, 0, timeZone).getTime())
}

/** The Monday (local date) whose 08:00 report is due at `now`, or null. */
export function dueMonday(now: Date, timeZone: string): string | null {
	const today = dateIn(timeZone, now)
	const weekday = new Date(`${today}T00:00:00Z`).getUTCDay() // 0 = Sunday
	const monday = addDays(today, -((weekday + 6) % 7))
	for (const candidate of [monday, addDays(monday, -7)]) {
		const at = localEightOClock(candidate, timeZone).getTime()
		if (now.getTime() >= at && now.getTime() < at + CATCH_UP_MS) return candidate
	}
	return null
}

async function dueKeys(now: Date): Promise<string[]> {
	const { rows } = await asSystem((trx) =>
		sql<{ id: string; timezone: string | null }>`
			select o.id, bs.timezone from public.organizations o
			left join public.booking_settings bs on bs.organization_id = o.id
			where exists (select 1 from private.notification_preferences np where np.organization_id = o.id and np.weekly_reports)
			order by o.id`.execute(trx),
	)
	return rows.flatMap((r) => {
		const monday = dueMonday(now, r.timezone ?? 'UTC')
		return monday ? [`${r.id}:${monday}`] : []
	})
}

export type WeekFigures = { total: string; count: number; previousTotal: string; topClients: Array<{ name: string; total: string }> }

/** Totals of the 7 days before `monday` and of the 7 before those, and the week's top clients. */
export async function weekFigures(organizationId: string, monday: string): Promise<WeekFigures> {
	const from = addDays(monday, -7)
	const before = addDays(monday, -14)
	return asSystem(async (trx) => {
		const totals = await sql<{ total: string; count: number; previous_total: string }>`
			select coalesce(sum(amount) filter (where date_received >= ${from}), 0)::text as total,
			  count(*) filter (where date_received >= ${from})::int as count,
			  coalesce(sum(amount) filter (where date_received < ${from}), 0)::text as previous_total
			from public.transactions
			where organization_id = ${organizationId} and date_received >= ${before} and date_received < ${monday}`.execute(trx)
		const top = await sql<{ name: string; total: string }>`
			select coalesce(nullif(c.name, ''), '—') as name, sum(t.amount)::text as total
			from public.transactions t join public.clients c on c.id = t.client_id
			where t.organization_id = ${organizationId} and t.date_received >= ${from} and t.date_received < ${monday}
			group by c.id, c.name order by sum(t.amount) desc, c.name limit ${TOP_CLIENTS}`.execute(trx)
		const row = totals.rows[0]!
		return { total: row.total, count: row.count, previousTotal: row.previous_total, topClients: top.rows }
	})
}

function change(total: string, previous: string, t: (key: string) => string, language: string) {
	const now = Number(total)
	const before = Number(previous)
	if (now === before) return t('notifications.weekly.noChange')
	if (before === 0) return t('notifications.weekly.new')
	return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'always' }).format(
		(now - before) / before,
	)
}

async function runReport(runKey: string) {
	const [organizationId, monday] = runKey.split(':') as [string, string]
	const { rows } = await asSystem((trx) =>
		sql<{ name: string }>`select name from public.organizations where id = ${organizationId}`.execute(trx),
	)
	const organization = rows[0]?.name
	if (!organization) return
	const figures = await weekFigures(organizationId, monday)
	await notifyMembers(
		organizationId,
		'weeklyReports',
		(recipient, t) => {
			const values = {
				organization,
				total: formatMoney(figures.total, recipient.language),
				previous: formatMoney(figures.previousTotal, recipient.language),
				count: figures.count,
				change: change(figures.total, figures.previousTotal, t, recipient.language ?? 'en'),
				from: formatDate(addDays(monday, -7), recipient.language),
				to: formatDate(addDays(monday, -1), recipient.language),
			}
			const top = figures.topClients.length
				? `${t('notifications.weekly.top')}\n${figures.topClients.map((c, i) => `${i + 1}. ${c.name}: ${formatMoney(c.total, recipient.language)}`).join('\n')}`
				: t('notifications.weekly.none')
			return { subject: t('notifications.weekly.subject', values), text: `${t('notifications.weekly.body', values)}\n\n${top}` }
		},
		// Once per member and run, whichever instance runs it (docs/decisions/014-settings-storage-and-notifications.md).
		{ deliver: (recipient, send) => deliverOnce(WEEKLY_REPORT_JOB, runKey, recipient.userId, send) },
	)
}

export const weeklyReportJob: ScheduledJob = { name: WEEKLY_REPORT_JOB, due: dueKeys, run: (key) => runReport(key) }
