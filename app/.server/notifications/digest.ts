import { formatMoney } from '#app/lib/format.ts'
import { asSystem, sql } from '../db/index.ts'
import { logError } from '../log.ts'
import { publicOrigin } from '../security.ts'
import { notifyMembers } from './send.ts'

export type TransactionDigest = {
	organizationId: string
	/** One id per import or sync run: a digest is sent at most once per batch, whoever calls. */
	batchId: string
	source: 'import' | 'sync'
	/** Payments added by the run and their total (numeric string or number). */
	count: number
	total: string | number
}

/**
 * The "Transaction alerts" digest (docs/product.md, Settings › Notifications): ONE mail per
 * import or sync run to each member who may be told (audience.ts), never one per row. Nothing is sent
 * for a run that added no payment, nor twice for the same batch (private.job_runs records it).
 * Returns how many mails were sent.
 */
export async function sendTransactionDigest(input: TransactionDigest): Promise<number> {
	if (input.count <= 0) return 0
	const claimed = await asSystem(async (trx) => {
		const { rows } = await sql<{ job: string }>`
			insert into private.job_runs (job, run_key) values ('transaction-digest', ${`${input.organizationId}:${input.batchId}`})
			on conflict do nothing returning job`.execute(trx)
		return rows.length > 0
	})
	if (!claimed) return 0
	const { rows } = await asSystem((trx) =>
		sql<{ name: string }>`select name from public.organizations where id = ${input.organizationId}`.execute(trx),
	)
	const organization = rows[0]?.name
	if (!organization) return 0
	const sent = await notifyMembers(
		input.organizationId,
		'transactionAlerts',
		(recipient, t) => {
			const values = {
				count: input.count,
				total: formatMoney(input.total, recipient.language),
				organization,
				source: t(`notifications.digest.sources.${input.source}`),
			}
			return {
				subject: t('notifications.digest.subject', values),
				text: `${t('notifications.digest.body', values)}\n\n${t('notifications.digest.open', { link: `${publicOrigin()}/app/transactions` })}`,
			}
		},
		{
			onError: (error) =>
				logError(error, { event: 'transaction_digest_failed', organizationId: input.organizationId, batchId: input.batchId }),
		},
	)
	await asSystem((trx) =>
		sql`update private.job_runs set finished_at = now() where job = 'transaction-digest' and run_key = ${`${input.organizationId}:${input.batchId}`}`.execute(
			trx,
		),
	)
	return sent
}

/**
 * The digest of one committed import batch (files and mail alike): its created payments and
 * their total. Registered with the import pipeline at start-up.
 */
export async function sendImportDigest(batch: { organizationId: string; batchId: string; source: string; counts: { created: number } }) {
	if (batch.counts.created <= 0) return 0
	const total = await asSystem(
		async (trx) =>
			(
				await sql<{ total: string | null }>`select sum(amount)::text as total from public.transactions
					where organization_id = ${batch.organizationId} and import_batch_id = ${batch.batchId}`.execute(trx)
			).rows[0]?.total ?? '0',
	)
	return sendTransactionDigest({
		organizationId: batch.organizationId,
		batchId: batch.batchId,
		source: batch.source === 'email' ? 'sync' : 'import',
		count: batch.counts.created,
		total,
	})
}
