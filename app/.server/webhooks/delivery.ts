/**
 * Webhook deliveries (docs/product.md, Webhooks; docs/decisions/050-webhooks.md): the scheduler's
 * job `webhook-delivery` (app/.server/scheduler.ts) finds the deliveries whose next attempt is
 * due and makes each attempt once: its run key is `<delivery id>:<attempt>`, claimed in
 * private.job_runs, so two instances never post the same attempt twice. Each attempt is signed
 * afresh (a new timestamp), posted under the outbound policy (./post.ts), and recorded by
 * private.record_webhook_attempt: delivered on a 2xx, else retried after 1 min, 5 min, 30 min,
 * 2 h and 12 h, then failed. A resend (a button) makes the next attempt at once, through the same
 * claim.
 */
import { asSystem, sql } from '../db/index.ts'
import { logError } from '../log.ts'
import { OutboundError } from '../outbound.ts'
import { registerJob, runDueJobs, type ScheduledJob } from '../scheduler.ts'
import { open } from '../secrets.ts'
import { postWebhook } from './post.ts'
import { SIGNATURE_HEADER, signatureHeader } from './signature.ts'

export const WEBHOOK_JOB = 'webhook-delivery'
/** Attempts started per tick at most: the rest are due at the next one. */
const BATCH = 200

/** The context a secret is sealed with: a sealed secret copied to another endpoint does not open there. */
export function secretContext(endpointId: string) {
	return `webhook-endpoint:${endpointId}`
}

/** The run keys of the attempts due at `now`. */
export async function dueWebhookAttempts(now: Date): Promise<string[]> {
	const { rows } = await asSystem((trx) =>
		sql<{ id: string; attempts: number }>`
			select d.id, d.attempts from public.webhook_deliveries d
			where d.status = 'pending' and d.next_attempt_at <= ${now}
			order by d.next_attempt_at, d.id limit ${BATCH}`.execute(trx),
	)
	return rows.map((r) => `${r.id}:${r.attempts + 1}`)
}

type Attempt = {
	delivery_id: string
	attempts: number
	status: string
	url: string
	enabled: boolean
	secret_sealed: string
	endpoint_id: string
	event_id: string
	type: string
	organization_id: string
	created_at: Date | string
	data: unknown
}

/** The body a delivery posts (docs/webhooks.md): the same bytes on every attempt. */
export function webhookBody(event: { event_id: string; type: string; organization_id: string; created_at: Date | string; data: unknown }) {
	return JSON.stringify({
		id: event.event_id,
		type: event.type,
		created_at: new Date(event.created_at).toISOString(),
		organization_id: event.organization_id,
		data: event.data,
	})
}

/** Makes attempt `runKey` (`<delivery id>:<attempt>`) if it is still the delivery's next one; returns what was recorded. */
export async function attemptDelivery(runKey: string, signal?: AbortSignal): Promise<string | null> {
	const [deliveryId, attemptText] = runKey.split(':')
	const attempt = Number(attemptText)
	if (!deliveryId || !Number.isInteger(attempt) || attempt < 1) return null
	const { rows } = await asSystem((trx) =>
		sql<Attempt>`
			select d.id as delivery_id, d.attempts, d.status, e.url, e.enabled, s.secret_sealed, e.id as endpoint_id,
				v.id as event_id, v.type, v.organization_id, v.created_at, v.data
			from public.webhook_deliveries d
			join public.webhook_endpoints e on e.id = d.endpoint_id
			join private.webhook_secrets s on s.endpoint_id = e.id
			join public.webhook_events v on v.id = d.event_id
			where d.id = ${deliveryId}`.execute(trx),
	)
	const row = rows[0]
	if (!row || row.status !== 'pending' || row.attempts + 1 !== attempt) return null
	let status: number | null = null
	let error: string | null = null
	const at = new Date()
	if (!row.enabled) error = 'refused'
	else {
		const body = webhookBody(row)
		try {
			const secret = open(row.secret_sealed, secretContext(row.endpoint_id))
			status = await postWebhook(
				row.url,
				body,
				{
					'Content-Type': 'application/json',
					'User-Agent': 'P2P-Transaction-Tracker-Webhooks/1',
					'P2P-Delivery': row.delivery_id,
					'P2P-Event': row.type,
					'P2P-Attempt': String(attempt),
					[SIGNATURE_HEADER]: signatureHeader(secret, Math.floor(Date.now() / 1000), body),
				},
				signal,
			)
			if (status < 200 || status > 299) error = 'status'
		} catch (failure) {
			if (failure instanceof OutboundError) error = failure.reason
			else {
				logError(failure, { event: 'webhook_attempt_failed', deliveryId })
				error = 'unreachable'
			}
		}
	}
	const recorded = await asSystem((trx) =>
		sql<{ outcome: string | null }>`
			select private.record_webhook_attempt(${deliveryId}, ${attempt}, ${status}, ${error}, ${at}) as outcome`.execute(trx),
	)
	return recorded.rows[0]?.outcome ?? null
}

export const webhookJob: ScheduledJob = {
	name: WEBHOOK_JOB,
	due: (now) => dueWebhookAttempts(now),
	run: async (runKey, { signal }) => {
		await attemptDelivery(runKey, signal)
	},
	// A few deliveries' deadlines (10 s each) with room: a key is one attempt.
	deadlineMs: 60_000,
}

/** Makes one attempt now, through the scheduler's claim (a resend; never twice across instances). */
export async function attemptNow(deliveryId: string, attempt: number): Promise<void> {
	await runDueJobs(new Date(), [{ ...webhookJob, due: () => [`${deliveryId}:${attempt}`] }])
}

/** How long events and their deliveries are kept (docs/webhooks.md): the log shows the latest 50. */
export const WEBHOOK_RETENTION_DAYS = 90

/** Once a day, the events older than the retention, with their deliveries (their retries ended long before). */
export const webhookPruningJob: ScheduledJob = {
	name: 'webhook-pruning',
	due: (now) => [now.toISOString().slice(0, 10)],
	run: async () => {
		await pruneWebhookEvents()
	},
}

export async function pruneWebhookEvents(now = new Date()): Promise<number> {
	const before = new Date(now.getTime() - WEBHOOK_RETENTION_DAYS * 86_400_000)
	const { rows } = await asSystem((trx) =>
		sql<{ n: number }>`
			with gone as (delete from public.webhook_events where created_at < ${before} returning 1)
			select count(*)::int as n from gone`.execute(trx),
	)
	return rows[0]?.n ?? 0
}

/** Adds the jobs to the scheduler (app/.server/startup.ts). */
export function registerWebhookDeliveries() {
	registerJob(webhookJob)
	registerJob(webhookPruningJob)
}
