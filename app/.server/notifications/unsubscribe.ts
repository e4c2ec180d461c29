import { createHmac, timingSafeEqual } from 'node:crypto'
import { env } from '../env.ts'
import { publicOrigin } from '../security.ts'
import { NOTIFICATION_KINDS, type NotificationKind } from '#app/lib/schemas/settings.ts'

/**
 * The unsubscribe link of every notification mail: user, organization and kind, signed with
 * the server's secret (HMAC-SHA256), so it turns that one toggle off without signing in and
 * cannot be forged for someone else. It does not expire: an old mail's link still works.
 */
function sign(userId: string, organizationId: string, kind: NotificationKind) {
	return createHmac('sha256', env().SESSION_SECRET).update(`unsubscribe:${userId}:${organizationId}:${kind}`).digest('base64url')
}

export function unsubscribeUrl(userId: string, organizationId: string, kind: NotificationKind) {
	const params = new URLSearchParams({ u: userId, o: organizationId, k: kind, s: sign(userId, organizationId, kind) })
	return `${publicOrigin()}/unsubscribe?${params}`
}

export type UnsubscribeRequest = { userId: string; organizationId: string; kind: NotificationKind }

/** The request a link's parameters carry, or null when they are missing or the signature is wrong. */
export function verifyUnsubscribe(params: URLSearchParams | FormData): UnsubscribeRequest | null {
	const [u, o, k, s] = ['u', 'o', 'k', 's'].map((name) => params.get(name))
	const uuid = /^[0-9a-f-]{36}$/i
	if (typeof u !== 'string' || typeof o !== 'string' || typeof k !== 'string' || typeof s !== 'string') return null
	if (!uuid.test(u) || !uuid.test(o) || !(NOTIFICATION_KINDS as readonly string[]).includes(k)) return null
	const expected = Buffer.from(sign(u, o, k as NotificationKind))
	const given = Buffer.from(s)
	if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
	return { userId: u, organizationId: o, kind: k as NotificationKind }
}
