/**
 * The signature of a webhook delivery (docs/webhooks.md): `P2P-Signature: t=<unix seconds>,v1=<hex>`,
 * the HMAC-SHA256, keyed with the endpoint's secret, of `<t>.<body>` (the exact bytes sent). A
 * receiver recomputes it, compares in constant time, and refuses a timestamp older than its
 * tolerance (5 minutes here), so a captured request cannot be replayed later.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export const SIGNATURE_HEADER = 'P2P-Signature'
/** How old a signed timestamp may be before `verifySignature` refuses it. */
export const DEFAULT_TOLERANCE_SECONDS = 300

/** A new endpoint's secret: `whsec_` and 32 random bytes, base64url. Shown once, stored sealed. */
export function newWebhookSecret(): string {
	return `whsec_${randomBytes(32).toString('base64url')}`
}

function hmac(secret: string, timestamp: number, body: string | Buffer): string {
	return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')
}

/** The header's value for `body` sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string | Buffer): string {
	return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`
}

/**
 * Whether `header` signs `body` with `secret`, at a timestamp within `toleranceSeconds` of `now`
 * (unix seconds). Any `v1=` of the header may match (several while a secret is rolled).
 */
export function verifySignature(
	header: string | null | undefined,
	body: string | Buffer,
	secret: string,
	{ now = Math.floor(Date.now() / 1000), toleranceSeconds = DEFAULT_TOLERANCE_SECONDS } = {},
): boolean {
	if (!header) return false
	const parts = header.split(',').map((p) => p.trim().split('='))
	const t = parts.find(([k]) => k === 't')?.[1]
	const timestamp = Number(t)
	if (!t || !/^\d{1,12}$/.test(t) || Math.abs(now - timestamp) > toleranceSeconds) return false
	const expected = Buffer.from(hmac(secret, timestamp, body), 'hex')
	return parts
		.filter(([k, v]) => k === 'v1' && typeof v === 'string' && /^[0-9a-f]{64}$/.test(v))
		.some(([, v]) => timingSafeEqual(Buffer.from(v!, 'hex'), expected))
}
