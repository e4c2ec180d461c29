/**
 * Bank feed discrepancy mails (docs/product.md, Bank feed; docs/decisions/049-bank-feed.md): a
 * job of the scheduler (app/.server/scheduler.ts, docs/decisions/036-job-runner.md) whose run keys
 * are the discrepancies themselves, `organization:kind:id` (a cash-out with no app payment to
 * cover it, one whose payments do not add up to it, an app payment not deposited after
 * PENDING_DAYS). A key runs once, ever, and each owner and administrator is mailed once per key
 * (`deliverOnce`), in their language: a discrepancy is mailed once, whatever the instances, the
 * takeovers and the reconciliations that follow. A discrepancy that went away before its run
 * mails nothing.
 */
import { PENDING_DAYS } from '#app/lib/bank-feed.ts'
import { formatDate, formatLanguage, formatMoney } from '#app/lib/format.ts'
import { asSystem, sql } from '../db/index.ts'
import { tIn } from '../i18n.ts'
import { logError } from '../log.ts'
import { sendMail } from '../mail/index.ts'
import { deliverOnce, registerJob, type ScheduledJob } from '../scheduler.ts'
import { publicOrigin } from '../security.ts'
import { BANK_FEED_UPGRADE_ID } from './statements.ts'

export const BANK_FEED_JOB = 'bank-feed-discrepancies'
const KINDS = new Set(['uncovered', 'mismatch', 'notDeposited'])

/**
 * The discrepancies not mailed yet, as run keys, of the organizations that own the upgrade and
 * have statements. `organizationId` narrows it to one (tests run the job on their own data).
 */
export async function dueDiscrepancyKeys(options: { organizationId?: string } = {}): Promise<string[]> {
	const { rows } = await asSystem((trx) =>
		sql<{ key: string }>`
			select o.id || ':' || d.kind || ':' || d.ref_id as key
			from (select distinct s.organization_id as id from public.bank_statements s
			      ${options.organizationId ? sql`where s.organization_id = ${options.organizationId}` : sql``}) o
			cross join lateral private.bank_feed_discrepancies(o.id) d
			where private.owns_upgrade(o.id, ${BANK_FEED_UPGRADE_ID})
			  and not exists (select 1 from private.job_runs r
			    where r.job = ${BANK_FEED_JOB} and r.run_key = o.id || ':' || d.kind || ':' || d.ref_id)
			order by 1 limit 500`.execute(trx),
	)
	return rows.map((r) => r.key)
}

/** Mails one discrepancy to the organization's owners and administrators, if it still stands. */
export async function runDiscrepancyKey(runKey: string, context: { signal?: AbortSignal } = {}) {
	const [organizationId, kind, refId] = runKey.split(':') as [string, string, string]
	if (!KINDS.has(kind)) return
	const { found, people, name } = await asSystem(async (trx) => {
		const { rows } = await sql<{ kind: string; rail: string | null; day: string; amount: string; expected: string | null; label: string }>`
			select d.kind, d.rail::text as rail, to_char(d.day, 'YYYY-MM-DD') as day, d.amount::text as amount,
			  d.expected::text as expected, d.label
			from private.bank_feed_discrepancies(${organizationId}) d
			where d.kind = ${kind} and d.ref_id = ${refId}
			  and private.owns_upgrade(${organizationId}, ${BANK_FEED_UPGRADE_ID})`.execute(trx)
		const { rows: people } = await sql<{ user_id: string; email: string; preferred_language: string | null }>`
			select m.user_id, u.email, p.preferred_language
			from public.organization_members m
			join auth.users u on u.id = m.user_id and u.deleted_at is null and u.email is not null
			left join public.profiles p on p.user_id = m.user_id
			where m.organization_id = ${organizationId} and m.role in ('owner', 'administrator')
			order by m.joined_at, m.user_id`.execute(trx)
		const { rows: org } = await sql<{ name: string }>`select name from public.organizations where id = ${organizationId}`.execute(trx)
		return { found: rows[0], people, name: org[0]?.name ?? '' }
	})
	if (!found) return
	const link = `${publicOrigin()}/app/transactions/reconciliation`
	for (const person of people) {
		context.signal?.throwIfAborted()
		const language = formatLanguage(person.preferred_language)
		const t = tIn(language, 'imports')
		const values = {
			organization: name,
			rail: found.rail ? tIn(language, 'transactions')(`methods.${found.rail}`) : '',
			date: formatDate(found.day, language),
			amount: formatMoney(found.amount, language),
			expected: formatMoney(found.expected ?? '0', language),
			label: found.label || '—',
			days: PENDING_DAYS,
		}
		await deliverOnce(BANK_FEED_JOB, runKey, person.user_id, () =>
			sendMail({
				to: person.email,
				subject: t(`bankFeed.mail.${kind}.subject`, values),
				text: `${t(`bankFeed.mail.${kind}.body`, values)}\n\n${t('bankFeed.mail.why', { organization: name, link })}`,
			}),
		)
	}
}

/** The scheduler's job: one key per discrepancy (see the top of this file). */
export const discrepancyJob: ScheduledJob = {
	name: BANK_FEED_JOB,
	deadlineMs: 2 * 60_000,
	due: () => dueDiscrepancyKeys(),
	run: (key, context) =>
		runDiscrepancyKey(key, context).catch((error: unknown) => {
			logError(error, { event: 'bank_feed_mail_failed', key })
			throw error
		}),
}

/** Registers the discrepancy mails with the scheduler (at start-up). */
export function registerBankFeedJob() {
	registerJob(discrepancyJob)
}
