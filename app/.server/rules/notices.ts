/**
 * "Notify a member" (docs/product.md, Rules): a rule that runs in SQL cannot mail, so its run row
 * names the member (rule_runs.notify_user_id); this job, every minute, claims the rows not sent
 * yet and stamps them in one statement (`for update skip locked`: two instances never claim one
 * row), then mails each member in their language. A send that fails un-stamps its row for the next
 * minute; a row older than NOTICE_MAX_AGE_HOURS is never sent (decision 040's guest notices).
 */
import { formatDate, formatMoney } from '#app/lib/format.ts'
import { asSystem, sql } from '../db/index.ts'
import { tIn } from '../i18n.ts'
import { logError } from '../log.ts'
import { sendMail } from '../mail/index.ts'
import { registerJob, type ScheduledJob } from '../scheduler.ts'
import { publicOrigin } from '../security.ts'

export const RULE_NOTICES_JOB = 'rule-notices'
export const NOTICE_MAX_AGE_HOURS = 48
const BATCH = 100

export type RuleNotice = {
	id: string
	organizationId: string
	organizationName: string
	email: string
	language: string | null
	ruleName: string
	amount: string | null
	payer: string | null
	dateReceived: string | null
}

/** Claims up to `limit` notices not sent yet (any organization) and stamps them; each is claimed once. */
export async function claimRuleNotices(limit = BATCH): Promise<RuleNotice[]> {
	return asSystem(async (trx) => {
		const { rows } = await sql<{
			id: string
			organization_id: string
			organization_name: string
			email: string | null
			language: string | null
			rule_name: string
			amount: string | null
			payer: string | null
			date_received: string | null
		}>`
			with picked as (
				select rr.id from public.rule_runs rr
				where rr.notify_user_id is not null and rr.notified_at is null
					and rr.ran_at > now() - make_interval(hours => ${NOTICE_MAX_AGE_HOURS})
				order by rr.id
				limit ${limit}
				for update skip locked
			)
			update public.rule_runs rr set notified_at = now()
			from picked, public.organizations o, public.profiles p
			where rr.id = picked.id and o.id = rr.organization_id and p.user_id = rr.notify_user_id
				-- Still a member when the mail goes.
				and exists (select 1 from public.organization_members m where m.organization_id = rr.organization_id and m.user_id = rr.notify_user_id)
			returning rr.id::text, rr.organization_id, o.name as organization_name, p.email, p.preferred_language as language, rr.rule_name,
				(select t.amount::text from public.transactions t where t.id = rr.transaction_id) as amount,
				(select coalesce(t.raw_payer, c.name) from public.transactions t left join public.clients c on c.id = t.client_id
					where t.id = rr.transaction_id) as payer,
				(select t.date_received::text from public.transactions t where t.id = rr.transaction_id) as date_received`.execute(trx)
		return rows
			.filter((r) => r.email)
			.map((r) => ({
				id: r.id,
				organizationId: r.organization_id,
				organizationName: r.organization_name,
				email: r.email!,
				language: r.language,
				ruleName: r.rule_name,
				amount: r.amount,
				payer: r.payer,
				dateReceived: r.date_received,
			}))
	})
}

/** Mails the claimed notices; one that fails is un-stamped for the next run. Returns how many went. */
export async function sendRuleNotices(limit = BATCH): Promise<number> {
	const notices = await claimRuleNotices(limit)
	let sent = 0
	for (const n of notices) {
		const t = tIn(n.language, 'rules')
		const values = {
			rule: n.ruleName,
			organization: n.organizationName,
			amount: n.amount ? formatMoney(n.amount, n.language ?? 'en') : '',
			payer: n.payer ?? t('mail.unknownPayer'),
			date: n.dateReceived ? formatDate(n.dateReceived, n.language ?? 'en') : '',
			link: `${publicOrigin()}/app/rules#history`,
		}
		try {
			await sendMail({ to: n.email, subject: t('mail.subject', values), text: t('mail.body', values) })
			sent += 1
		} catch (error) {
			logError(error, { event: 'rule_notice_failed', id: n.id })
			await asSystem((trx) => sql`update public.rule_runs set notified_at = null where id = ${n.id}::bigint`.execute(trx))
		}
	}
	return sent
}

export const ruleNoticesJob: ScheduledJob = {
	name: RULE_NOTICES_JOB,
	due: (now) => [now.toISOString().slice(0, 16)],
	run: async (_key, { now }) => {
		await sendRuleNotices()
		// A key a minute: the claims of yesterday's minutes are of no more use.
		await asSystem((trx) =>
			sql`delete from private.job_runs where job = ${RULE_NOTICES_JOB} and finished_at < ${now}::timestamptz - interval '1 day'`.execute(
				trx,
			),
		)
	},
	deadlineMs: 2 * 60_000,
}

/** Registers the rule notices job with the scheduler (at start-up). */
export function registerRuleNotices() {
	registerJob(ruleNoticesJob)
}
