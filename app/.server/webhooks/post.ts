/**
 * One POST of a webhook delivery under the outbound policy (app/.server/outbound.ts): the host of
 * the endpoint's address is resolved once and every address it gives must be public (unless
 * WEBHOOKS_ALLOW_PRIVATE_HOSTS), the connection goes to the checked address (no second lookup:
 * no DNS rebinding), no redirect is followed, the whole exchange has one deadline, and at most
 * WEBHOOK_LIMITS.maxResponseBytes of the answer are read (the status is all that counts).
 */
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { env } from '../env.ts'
import { deadlineSignal, OutboundError, resolveHost, type CheckedHost } from '../outbound.ts'

export const WEBHOOK_LIMITS = {
	/** The whole exchange: the lookup, connecting, sending, the answer's headers and body. */
	deadlineMs: 10_000,
	lookupMs: 5_000,
	/** An answer longer than this is cut off; the delivery counts by its status alone. */
	maxResponseBytes: 64 * 1024,
} as const

/** Whether webhook addresses on private networks are allowed (WEBHOOKS_ALLOW_PRIVATE_HOSTS). */
export function webhooksAllowPrivate(): boolean {
	return env().WEBHOOKS_ALLOW_PRIVATE_HOSTS === 'true'
}

/** The address's host checked against the policy, or an OutboundError ('refused', 'unresolved', 'timeout', 'invalid'). */
export async function checkWebhookUrl(
	url: string,
	signal?: AbortSignal,
	{ allowPrivate = webhooksAllowPrivate() } = {},
): Promise<{ target: URL; host: CheckedHost }> {
	let target: URL
	try {
		target = new URL(url)
	} catch (error) {
		throw new OutboundError('invalid', 'not a URL', { cause: error })
	}
	if ((target.protocol !== 'https:' && target.protocol !== 'http:') || target.username || target.password)
		throw new OutboundError('invalid', 'not an http(s) URL without credentials')
	const host = await resolveHost(target.hostname, { allowPrivate, timeoutMs: WEBHOOK_LIMITS.lookupMs, signal })
	return { target, host }
}

/** Posts `body` with `headers` to `url`; resolves with the answer's status, or throws OutboundError. */
export async function postWebhook(url: string, body: string, headers: Record<string, string>, parent?: AbortSignal): Promise<number> {
	const signal = deadlineSignal(WEBHOOK_LIMITS.deadlineMs, parent)
	const { target, host } = await checkWebhookUrl(url, signal)
	const pinned: LookupFunction = (_hostname, options, callback) => {
		if ((options as { all?: boolean }).all) callback(null, [{ address: host.address, family: host.family }])
		else callback(null, host.address, host.family)
	}
	const client = target.protocol === 'https:' ? https : http
	return new Promise<number>((resolve, reject) => {
		let settled = false
		const fail = (error: OutboundError) => {
			if (settled) return
			settled = true
			request.destroy()
			reject(error)
		}
		const request = client.request(
			target,
			{
				method: 'POST',
				agent: false,
				lookup: pinned,
				signal,
				headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
				...(host.servername ? { servername: host.servername } : {}),
			},
			(response) => {
				let size = 0
				response.on('data', (chunk: Buffer) => {
					size += chunk.length
					if (size > WEBHOOK_LIMITS.maxResponseBytes) fail(new OutboundError('too_large', 'answer too long'))
				})
				response.on('end', () => {
					if (settled) return
					settled = true
					resolve(response.statusCode ?? 0)
				})
				response.on('error', () => fail(new OutboundError(signal.aborted ? 'timeout' : 'unreachable', url)))
			},
		)
		request.on('error', (error) => fail(new OutboundError(signal.aborted ? 'timeout' : 'unreachable', url, { cause: error })))
		request.end(body)
	})
}
