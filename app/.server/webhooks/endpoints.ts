/**
 * Webhooks, the screen's side (docs/product.md, Webhooks): an organization's endpoints and its
 * delivery log, read and changed by owners and administrators while it owns Automation
 * Unlimited. The database checks the same again (RLS; `upgrade_inactive`, `endpoint_limit`,
 * `not_found`, `endpoint_disabled`). A new endpoint's secret is made here, shown once, and stored
 * sealed with the endpoint's id as context (app/.server/secrets.ts).
 */
import { randomUUID } from 'node:crypto'
import { MODULES } from '#app/lib/modules.ts'
import type { Role } from '#app/lib/roles.ts'
import type { CreateEndpointValues } from '#app/lib/schemas/webhooks.ts'
import { asUser, dbErrorCode, sql } from '../db/index.ts'
import { OutboundError } from '../outbound.ts'
import { seal } from '../secrets.ts'
import { attemptNow, secretContext } from './delivery.ts'
import { checkWebhookUrl } from './post.ts'
import { newWebhookSecret } from './signature.ts'

export const UNLIMITED_UPGRADE_ID = MODULES.automation.upgrades.unlimited.id

/** The roles that see and manage webhooks. */
export const WEBHOOK_MANAGERS: readonly Role[] = ['owner', 'administrator']

/** Deliveries the log shows, newest first. */
export const LOG_SIZE = 50

export type WebhookEndpoint = { id: string; url: string; description: string | null; events: string[]; enabled: boolean; createdAt: string }
export type WebhookDelivery = {
	id: string
	endpointUrl: string
	type: string
	status: 'pending' | 'delivered' | 'failed'
	attempts: number
	responseStatus: number | null
	error: string | null
	lastAttemptAt: string | null
	nextAttemptAt: string | null
	createdAt: string
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString())

/** The screen's data, read as the member: whether the organization owns the upgrade, its endpoints, its latest deliveries. */
export async function getWebhooks(
	userId: string,
	organizationId: string,
): Promise<{ owned: boolean; endpoints: WebhookEndpoint[]; deliveries: WebhookDelivery[] }> {
	return asUser(userId, async (trx) => {
		const owned = await sql<{ owned: boolean }>`
			select exists (select 1 from public.organization_module_upgrades
				where organization_id = ${organizationId} and upgrade_id = ${UNLIMITED_UPGRADE_ID}) as owned`.execute(trx)
		const endpoints = await sql<{
			id: string
			url: string
			description: string | null
			events: string[]
			enabled: boolean
			created_at: Date
		}>`
			select id, url, description, events, enabled, created_at from public.webhook_endpoints
			where organization_id = ${organizationId} order by created_at, id`.execute(trx)
		const deliveries = await sql<{
			id: string
			url: string
			type: string
			status: WebhookDelivery['status']
			attempts: number
			response_status: number | null
			error: string | null
			last_attempt_at: Date | null
			next_attempt_at: Date | null
			created_at: Date
		}>`
			select d.id, e.url, v.type, d.status, d.attempts, d.response_status, d.error, d.last_attempt_at, d.next_attempt_at, d.created_at
			from public.webhook_deliveries d
			join public.webhook_endpoints e on e.id = d.endpoint_id
			join public.webhook_events v on v.id = d.event_id
			where d.organization_id = ${organizationId}
			order by d.created_at desc, d.id desc limit ${LOG_SIZE}`.execute(trx)
		return {
			owned: owned.rows[0]?.owned ?? false,
			endpoints: endpoints.rows.map((e) => ({
				id: e.id,
				url: e.url,
				description: e.description,
				events: e.events,
				enabled: e.enabled,
				createdAt: iso(e.created_at)!,
			})),
			deliveries: deliveries.rows.map((d) => ({
				id: d.id,
				endpointUrl: d.url,
				type: d.type,
				status: d.status,
				attempts: d.attempts,
				responseStatus: d.response_status,
				error: d.error,
				lastAttemptAt: iso(d.last_attempt_at),
				nextAttemptAt: iso(d.next_attempt_at),
				createdAt: iso(d.created_at)!,
			})),
		}
	})
}

export type CreateEndpointResult =
	| { ok: true; id: string; secret: string }
	| { ok: false; code: 'upgrade_inactive' | 'endpoint_limit' | 'address_refused' | 'address_unresolved' | 'forbidden' }

/**
 * Adds an endpoint as the member. Its host must resolve to public addresses now (the same check
 * runs again before every delivery). Returns the secret, which is never shown again.
 */
export async function createEndpoint(
	userId: string,
	organizationId: string,
	values: Omit<CreateEndpointValues, 'intent'>,
): Promise<CreateEndpointResult> {
	try {
		await checkWebhookUrl(values.url)
	} catch (error) {
		if (error instanceof OutboundError && error.reason === 'refused') return { ok: false, code: 'address_refused' }
		if (error instanceof OutboundError) return { ok: false, code: 'address_unresolved' }
		throw error
	}
	const id = randomUUID()
	const secret = newWebhookSecret()
	try {
		await asUser(userId, (trx) =>
			sql`select public.add_webhook_endpoint(${organizationId}, ${id}, ${values.url}, ${values.description},
				${values.events}::text[], ${seal(secret, secretContext(id))})`.execute(trx),
		)
		return { ok: true, id, secret }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'upgrade_inactive' || code === 'endpoint_limit' || code === 'forbidden') return { ok: false, code }
		throw error
	}
}

/** Removes an endpoint (and its deliveries) as the member; false when there is none of the organization's. */
export async function deleteEndpoint(userId: string, organizationId: string, endpointId: string): Promise<boolean> {
	const { rows } = await asUser(userId, (trx) =>
		sql<{
			id: string
		}>`delete from public.webhook_endpoints where id = ${endpointId} and organization_id = ${organizationId} returning id`.execute(trx),
	)
	return rows.length > 0
}

/**
 * Pauses or resumes an endpoint as the member: a paused endpoint gets no new deliveries and its
 * pending ones are not attempted (nor resent) until it is resumed. False when there is none of
 * the organization's.
 */
export async function setEndpointEnabled(userId: string, organizationId: string, endpointId: string, enabled: boolean): Promise<boolean> {
	const { rows } = await asUser(userId, (trx) =>
		sql<{ id: string }>`
			update public.webhook_endpoints set enabled = ${enabled}
			where id = ${endpointId} and organization_id = ${organizationId} returning id`.execute(trx),
	)
	return rows.length > 0
}

export type ResendResult = { ok: true } | { ok: false; code: 'not_found' | 'upgrade_inactive' | 'endpoint_disabled' }

/** Resends a delivery now, as the member: the next attempt is made before this returns. */
export async function resendDelivery(userId: string, organizationId: string, deliveryId: string): Promise<ResendResult> {
	let attempt: number
	try {
		const { rows } = await asUser(userId, (trx) =>
			sql<{ attempt: number; organization_id: string }>`
				select public.resend_webhook_delivery(d.id) as attempt, d.organization_id
				from public.webhook_deliveries d where d.id = ${deliveryId} and d.organization_id = ${organizationId}`.execute(trx),
		)
		if (!rows[0]) return { ok: false, code: 'not_found' }
		attempt = rows[0].attempt
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'not_found' || code === 'upgrade_inactive' || code === 'endpoint_disabled') return { ok: false, code }
		throw error
	}
	await attemptNow(deliveryId, attempt)
	return { ok: true }
}
