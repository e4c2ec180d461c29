/**
 * The client's unsubscribe (docs/product.md, Reminders & Messaging): every client mail of the
 * module carries a link that stops the organization's reminders to that address, without
 * signing in. The link names the organization and the address, signed with the server's secret
 * (HMAC-SHA256, as the members' unsubscribe of app/.server/notifications/unsubscribe.ts), so it
 * cannot be forged for another address or another organization; it does not expire. Opening it
 * only asks (mail scanners open links); the page's POST, or a mail client's one-click POST
 * (RFC 8058, the `List-Unsubscribe` headers), records the address in public.client_unsubscribes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { isUuid } from '#app/lib/uuid.ts'
import { asSystem, sql } from '../db/index.ts'
import { env } from '../env.ts'
import { publicOrigin } from '../security.ts'

/** An address as the unsubscribes compare it: trimmed, lower case. */
export function unsubscribeAddress(email: string) {
	return email.trim().toLowerCase()
}

function sign(organizationId: string, email: string) {
	return createHmac('sha256', env().SESSION_SECRET).update(`client-unsubscribe:${organizationId}:${email}`).digest('base64url')
}

/** The link that stops the organization's reminders to `email`. */
export function clientUnsubscribeUrl(organizationId: string, email: string) {
	const address = unsubscribeAddress(email)
	const params = new URLSearchParams({ o: organizationId, e: address, s: sign(organizationId, address) })
	return `${publicOrigin()}/unsubscribe/client?${params}`
}

/** The headers that let a mail client offer the unsubscribe itself (one click, RFC 8058). */
export function clientUnsubscribeHeaders(organizationId: string, email: string): Record<string, string> {
	return { 'List-Unsubscribe': `<${clientUnsubscribeUrl(organizationId, email)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
}

export type ClientUnsubscribe = { organizationId: string; email: string }

/** What a link's parameters name, or null when one is missing, malformed, or the signature is not ours. */
export function verifyClientUnsubscribe(params: URLSearchParams | FormData): ClientUnsubscribe | null {
	const [o, e, s] = ['o', 'e', 's'].map((name) => params.get(name))
	if (typeof o !== 'string' || typeof e !== 'string' || typeof s !== 'string') return null
	if (!isUuid(o) || e.length < 3 || e.length > 320 || e !== unsubscribeAddress(e) || s.length > 100) return null
	const expected = Buffer.from(sign(o, e))
	const given = Buffer.from(s)
	if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
	return { organizationId: o, email: e }
}

/** The name of the organization a link names (null when it no longer exists). */
export async function unsubscribeOrganizationName(organizationId: string): Promise<string | null> {
	const row = await asSystem((trx) => trx.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirst())
	return row?.name ?? null
}

/** Records the unsubscribe (once; again is no change); false when the organization is gone. */
export async function unsubscribeClient({ organizationId, email }: ClientUnsubscribe): Promise<boolean> {
	const { rows } = await asSystem((trx) =>
		sql<{ found: boolean }>`
			with o as (select id from public.organizations where id = ${organizationId}),
			added as (
				insert into public.client_unsubscribes (organization_id, email)
				select id, ${email} from o
				on conflict do nothing)
			select exists (select 1 from o) as found`.execute(trx),
	)
	return rows[0]?.found ?? false
}

/** Whether the organization's reminders to `email` are stopped. */
export async function isClientUnsubscribed(organizationId: string, email: string): Promise<boolean> {
	const row = await asSystem((trx) =>
		trx
			.selectFrom('client_unsubscribes')
			.select('email')
			.where('organization_id', '=', organizationId)
			.where('email', '=', unsubscribeAddress(email))
			.executeTakeFirst(),
	)
	return row !== undefined
}
