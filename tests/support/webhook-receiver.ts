/**
 * A webhook receiver for the tests (docs/webhooks.md): a tiny node:http server on 127.0.0.1 that
 * records each request, checks its signature as docs/webhooks.md tells a receiver to (its own
 * code, not the app's), and answers with the next status of its script (200 when the script is
 * spent). The app reaches it only with WEBHOOKS_ALLOW_PRIVATE_HOSTS=true.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Received = { headers: IncomingHttpHeaders; body: string; verified: boolean; answered: number }

/** The receiver's check (docs/webhooks.md, Verifying a delivery): HMAC-SHA256 of `<t>.<body>`, a timestamp at most 5 minutes old. */
export function receiverVerifies(header: string | undefined, body: string, secret: string, now = Math.floor(Date.now() / 1000)) {
	if (!header) return false
	const fields = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]))
	const timestamp = Number(fields.t)
	if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > 300 || !fields.v1) return false
	const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest()
	const given = Buffer.from(fields.v1, 'hex')
	return given.length === expected.length && timingSafeEqual(given, expected)
}

export async function startReceiver(options: { statuses?: number[]; secret?: () => string | undefined } = {}) {
	const script = [...(options.statuses ?? [])]
	const received: Received[] = []
	const server = createServer((request, response) => {
		const chunks: Buffer[] = []
		request.on('data', (chunk: Buffer) => chunks.push(chunk))
		request.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8')
			const secret = options.secret?.()
			const signature = request.headers['p2p-signature']
			const verified = secret ? receiverVerifies(Array.isArray(signature) ? signature[0] : signature, body, secret) : false
			const answered = script.length ? script.shift()! : 200
			received.push({ headers: request.headers, body, verified, answered })
			response.writeHead(answered, { 'Content-Type': 'text/plain' })
			response.end(answered < 300 ? 'ok' : 'try again')
		})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const { port } = server.address() as AddressInfo
	return {
		url: `http://127.0.0.1:${port}/hooks`,
		received,
		/** Adds statuses to answer next. */
		answer: (...statuses: number[]) => script.push(...statuses),
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}
