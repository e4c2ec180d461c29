/**
 * Follow-up mails (docs/product.md, Clients › Pipelines; CRM Pipelines): on the day of a card's
 * follow-up date, at 08:00 in the organization's zone, the member who owns the card gets one mail
 * listing their follow-ups of the day (a card whose owner left the organization, or has none, goes
 * to the organization's owners). One scheduler key per organization and day
 * (docs/decisions/036-job-runner.md), due for 24 hours from 08:00; each member is mailed once per
 * key through `deliverOnce`, so a takeover or a second instance never mails twice.
 */
import { addDays, dateIn } from '#app/lib/dates.ts'
import { formatDate, formatLanguage } from '#app/lib/format.ts'
import type { Language } from '#app/lib/i18n.ts'
import { asSystem, sql } from '../db/index.ts'
import { tIn } from '../i18n.ts'
import { logError } from '../log.ts'
import { sendMail } from '../mail/index.ts'
import { localEightOClock } from '../notifications/weekly-report.ts'
import { deliverOnce, registerJob, type ScheduledJob } from '../scheduler.ts'
import { publicOrigin } from '../security.ts'
import { PIPELINES_UPGRADE_ID } from './access.ts'

export const FOLLOW_UP_JOB = 'crm-follow-ups'
const CATCH_UP_MS = 24 * 3_600_000

/** The local day whose 08:00 mail is due at `now` in `timeZone` (today after 08:00, else yesterday's within 24 hours), or null. */
export function followUpDay(now: Date, timeZone: string): string | null {
	const today = dateIn(timeZone, now)
	for (const day of [today, addDays(today, -1)]) {
		const at = localEightOClock(day, timeZone).getTime()
		if (now.getTime() >= at && now.getTime() < at + CATCH_UP_MS) return day
	}
	return null
}

/** The keys ("organization:day") due at `now`: organizations with the upgrade and a card whose follow-up is that day. */
export async function dueFollowUpKeys(now: Date, options: { organizationId?: string } = {}): Promise<string[]> {
	const utc = now.toISOString().slice(0, 10)
	const { rows } = await asSystem((trx) =>
		sql<{ id: string; timezone: string | null; day: string }>`
			select distinct k.organization_id as id, bs.timezone, k.follow_up_on::text as day
			from public.crm_cards k
			left join public.booking_settings bs on bs.organization_id = k.organization_id
			where k.follow_up_on between ${addDays(utc, -2)}::date and ${addDays(utc, 1)}::date
			  and exists (select 1 from public.organization_module_upgrades u
			    where u.organization_id = k.organization_id and u.upgrade_id = ${PIPELINES_UPGRADE_ID})
			  ${options.organizationId ? sql`and k.organization_id = ${options.organizationId}` : sql``}
			order by 1, 3`.execute(trx),
	)
	const keys = new Set<string>()
	for (const r of rows) if (followUpDay(now, r.timezone ?? 'UTC') === r.day) keys.add(`${r.id}:${r.day}`)
	return [...keys]
}

type Due = {
	user_id: string
	email: string
	language: string | null
	client: string
	pipeline: string
	stage: string
	organization: string
}

/** Mails each member their follow-ups of the key's day, once. */
export async function runFollowUpKey(key: string, context: { signal?: AbortSignal } = {}) {
	const [organizationId, day] = key.split(':') as [string, string]
	const { rows } = await asSystem((trx) =>
		sql<Due>`
			with due as (
				select k.*, exists (select 1 from public.organization_members m
					where m.organization_id = k.organization_id and m.user_id = k.owner_id) as owner_is_member
				from public.crm_cards k
				where k.organization_id = ${organizationId} and k.follow_up_on = ${day}::date
				  and exists (select 1 from public.organization_module_upgrades u
				    where u.organization_id = k.organization_id and u.upgrade_id = ${PIPELINES_UPGRADE_ID})
			)
			select r.user_id, u.email, pr.preferred_language as language, coalesce(nullif(c.name, ''), c.email, '—') as client,
				p.name as pipeline, s.name as stage, o.name as organization
			from due k
			cross join lateral (
				select k.owner_id as user_id where k.owner_is_member
				union all
				select m.user_id from public.organization_members m
				where not k.owner_is_member and m.organization_id = k.organization_id and m.role = 'owner'
			) r
			join auth.users u on u.id = r.user_id and u.deleted_at is null and u.email is not null
			left join public.profiles pr on pr.user_id = r.user_id
			join public.clients c on c.id = k.client_id
			join public.crm_pipelines p on p.id = k.pipeline_id
			join public.crm_stages s on s.id = k.stage_id
			join public.organizations o on o.id = k.organization_id
			order by r.user_id, p.name, public.name_sort_key(c.name)`.execute(trx),
	)
	const byMember = new Map<string, Due[]>()
	for (const r of rows) byMember.set(r.user_id, [...(byMember.get(r.user_id) ?? []), r])
	const link = `${publicOrigin()}/app/dashboard`
	for (const [userId, cards] of byMember) {
		context.signal?.throwIfAborted()
		const first = cards[0]!
		const language: Language = formatLanguage(first.language)
		const t = tIn(language, 'clients')
		const values = { organization: first.organization, count: cards.length, date: formatDate(day, language) }
		const lines = cards.map((c) => `• ${c.client} (${c.pipeline}: ${c.stage})`)
		await deliverOnce(FOLLOW_UP_JOB, key, userId, () =>
			sendMail({
				to: first.email,
				subject: t('crm.mail.subject', values),
				text: `${t('crm.mail.body', values)}\n\n${lines.join('\n')}\n\n${t('crm.mail.open', { link })}`,
			}),
		)
	}
}

export const followUpJob: ScheduledJob = {
	name: FOLLOW_UP_JOB,
	deadlineMs: 3 * 60_000,
	due: (now) => dueFollowUpKeys(now),
	run: (key, context) =>
		runFollowUpKey(key, context).catch((error: unknown) => {
			logError(error, { event: 'crm_follow_up_failed', key })
			throw error
		}),
}

/** Registers the follow-up mails with the scheduler (at start-up). */
export function registerCrmFollowUps() {
	registerJob(followUpJob)
}
