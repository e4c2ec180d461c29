/**
 * The outbound policy (app/.server/outbound.ts, docs/security.md) for every kind of connection
 * but the IMAP check (tests/db/outbound.test.ts): which addresses a user's host may resolve to,
 * fetch with a deadline and a cap (the Gmail API, Google's token endpoint), the Gmail reader's
 * size cap and budgets, and the SMTP relay's deadline per message. Peers are tiny servers on
 * loopback that misbehave on purpose.
 */
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import path from 'node:path'
import { OAuth2RequestError } from 'arctic'
import { afterAll, describe, expect, test } from 'vitest'
import { readGmailMessages } from '#app/.server/payments/email-sync/gmail-reader.ts'
import { googleTokenRequest } from '#app/.server/auth/google.ts'
import { sendSmtp } from '#app/.server/mail/index.ts'
import { isPublicAddress, OUTBOUND, OutboundError, outboundFetch, resolveHost } from '#app/.server/outbound.ts'
import { startHostileServer } from '#tests/support/hostile-servers.ts'

const servers: Server[] = []
async function http(handler: (req: IncomingMessage, res: ServerResponse) => void) {
	const server = createServer(handler)
	servers.push(server)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const address = server.address()
	return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}
afterAll(async () => {
	for (const server of servers) server.closeAllConnections()
	await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
})

async function failure(work: Promise<unknown>) {
	const started = Date.now()
	const error = await work.then(
		() => null,
		(e: unknown) => e,
	)
	return { error, ms: Date.now() - started }
}

describe('which addresses a host of a user may resolve to', () => {
	test.each([
		'0.0.0.0',
		'0.1.2.3',
		'10.0.0.1',
		'100.64.0.1',
		'100.127.255.254',
		'127.0.0.1',
		'127.255.0.9',
		'169.254.169.254',
		'172.16.0.1',
		'172.31.255.255',
		'192.0.0.8',
		'192.0.2.1',
		'192.168.0.1',
		'198.18.0.1',
		'198.51.100.7',
		'203.0.113.9',
		'224.0.0.1',
		'239.1.2.3',
		'240.0.0.1',
		'255.255.255.255',
		'::',
		'::1',
		'[::1]',
		'::ffff:127.0.0.1',
		'::ffff:7f00:1',
		'::ffff:10.0.0.1',
		'::ffff:169.254.169.254',
		'64:ff9b::a00:1',
		'64:ff9b:1::1',
		'2002:7f00:1::1',
		'2002:c0a8:101::1',
		'fc00::1',
		'fd12:3456::1',
		'fe80::1',
		'fe80::1%eth0',
		'fec0::1',
		'ff02::1',
		'ff0e::1',
		'100::1',
		'2001::1',
		'2001:db8::1',
		'3fff::1',
		'::127.0.0.1',
		'not an address',
		'',
	])('%s is refused', (address) => {
		expect(isPublicAddress(address)).toBe(false)
	})

	test.each([
		'8.8.8.8',
		'1.1.1.1',
		'100.63.255.255',
		'100.128.0.1',
		'172.32.0.1',
		'192.169.0.1',
		'2607:f8b0:4004:800::200e',
		'2a00:1450::1',
		'::ffff:8.8.8.8',
		'64:ff9b::808:808',
		'2002:808:808::1',
	])('%s is public', (address) => {
		expect(isPublicAddress(address)).toBe(true)
	})

	test('a name is resolved once and every address checked: localhost is refused; allowed, the address is what to connect to, the name what TLS verifies', async () => {
		const refused = await failure(resolveHost('localhost', { allowPrivate: false, timeoutMs: 5_000 }))
		expect(refused.error).toMatchObject({ name: 'OutboundError', reason: 'refused' })
		const allowed = await resolveHost('localhost', { allowPrivate: true, timeoutMs: 5_000 })
		expect(['127.0.0.1', '::1']).toContain(allowed.address)
		expect(allowed.servername).toBe('localhost')
		expect(await resolveHost('[2607:f8b0:4004:800::200e]', { allowPrivate: false, timeoutMs: 5_000 })).toEqual({
			address: '2607:f8b0:4004:800::200e',
			family: 6,
			servername: null,
		})
		expect((await failure(resolveHost('no-such-host.invalid', { allowPrivate: false, timeoutMs: 5_000 }))).error).toMatchObject({
			reason: 'unresolved',
		})
	})
})

describe('fetch with a deadline and a cap (the Gmail API, Google tokens)', () => {
	test('a server that trickles its answer is cut off at the deadline', async () => {
		const url = await http((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' })
			const timer = setInterval(() => res.write(' '), 100)
			res.on('close', () => clearInterval(timer))
		})
		const { error, ms } = await failure(outboundFetch(url, {}, { timeoutMs: 1_000, maxBytes: 1024 }))
		expect(error).toBeInstanceOf(OutboundError)
		expect((error as OutboundError).reason).toBe('timeout')
		expect(ms).toBeLessThan(2_000)
	})

	test('an answer past the cap is refused, whether announced or streamed, without reading the rest', async () => {
		let sent = 0
		const streamed = await http((_req, res) => {
			res.writeHead(200)
			const chunk = Buffer.alloc(64 * 1024, 'a')
			const pump = () => {
				while (sent < 600_000_000 && !res.destroyed) {
					sent += chunk.length
					if (!res.write(chunk)) return void res.once('drain', pump)
				}
			}
			pump()
		})
		const { error } = await failure(outboundFetch(streamed, {}, { timeoutMs: 5_000, maxBytes: OUTBOUND.google.maxBytes }))
		expect((error as OutboundError).reason).toBe('too_large')
		expect(sent).toBeLessThan(32 * 1024 * 1024)
		const announced = await http((_req, res) => void res.writeHead(200, { 'content-length': String(600_000_000) }).flushHeaders())
		expect(((await failure(outboundFetch(announced, {}, { timeoutMs: 5_000, maxBytes: 1024 }))).error as OutboundError).reason).toBe(
			'too_large',
		)
	})

	test("Google's token endpoint: the client's credentials sent, a refusal is arctic's OAuth2RequestError, a flood is cut off", async () => {
		const seen: string[] = []
		const endpoint = await http((req, res) => {
			let body = ''
			req.on('data', (c) => (body += c))
			req.on('end', () => {
				seen.push(`${req.headers.authorization} ${body}`)
				if (body.includes('refresh_token=revoked'))
					return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}')
				if (body.includes('refresh_token=flood')) return void res.writeHead(200).end('x'.repeat(OUTBOUND.google.maxBytes + 1))
				res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"fresh","token_type":"Bearer","expires_in":3600}')
			})
		})
		const client = { endpoint, clientId: 'id', clientSecret: 'secret' }
		const tokens = await googleTokenRequest({ grant_type: 'refresh_token', refresh_token: 'good' }, client)
		expect(tokens.accessToken()).toBe('fresh')
		expect(seen[0]).toBe(`Basic ${Buffer.from('id:secret').toString('base64')} grant_type=refresh_token&refresh_token=good`)
		const refused = await failure(googleTokenRequest({ grant_type: 'refresh_token', refresh_token: 'revoked' }, client))
		expect(refused.error).toBeInstanceOf(OAuth2RequestError)
		expect((refused.error as OAuth2RequestError).code).toBe('invalid_grant')
		expect((await failure(googleTokenRequest({ grant_type: 'refresh_token', refresh_token: 'flood' }, client))).error).toMatchObject({
			reason: 'too_large',
		})
	})
})

describe('the Gmail reader', () => {
	const DIR = path.resolve('tests/unit/fixtures/mailbox')
	const NOW = new Date('2026-11-22T12:00:00Z')
	const notice = (file: string) => readFileSync(path.join(DIR, file))
	const huge = Buffer.concat([notice('06-paypal-got-money.eml'), Buffer.alloc(OUTBOUND.imapSync.maxMessageBytes * 2, 'a')])
	const mailbox = [
		{ id: 'a', raw: notice('01-venmo-paid-you.eml'), internalDate: NOW.getTime() - 3 * 86_400_000 },
		{ id: 'big', raw: huge, internalDate: NOW.getTime() - 2 * 86_400_000 },
		{ id: 'c', raw: notice('04-cashapp-base64.eml'), internalDate: NOW.getTime() - 86_400_000 },
	]
	let baseUrl = ''
	const stub = async () =>
		(baseUrl ||= await http((req, res) => {
			const url = new URL(req.url ?? '/', 'http://x')
			res.setHeader('content-type', 'application/json')
			const get = /\/messages\/([^/]+)$/.exec(url.pathname)
			if (!get) return void res.end(JSON.stringify({ messages: [...mailbox].reverse().map((m) => ({ id: m.id })) }))
			const m = mailbox.find((x) => x.id === get[1])!
			if (url.searchParams.get('format') === 'metadata') {
				return void res.end(
					JSON.stringify({
						id: m.id,
						internalDate: String(m.internalDate),
						sizeEstimate: m.raw.length,
						payload: {
							headers: [
								{ name: 'Subject', value: "You've got money" },
								{ name: 'From', value: 'PayPal <service@paypal.com>' },
							],
						},
					}),
				)
			}
			res.end(JSON.stringify({ id: m.id, internalDate: String(m.internalDate), raw: m.raw.toString('base64url') }))
		}))

	test('a message past the size cap is not read: listed by its headers, and the messages after it are read', async () => {
		const read: string[] = []
		const skipped: unknown[] = []
		const result = await readGmailMessages('token', null, (_raw, id) => void read.push(id), {
			baseUrl: await stub(),
			now: NOW,
			onSkipped: (m) => skipped.push(m),
		})
		expect(read).toEqual(['a', 'c'])
		expect(skipped).toEqual([{ subject: "You've got money", sender: 'service@paypal.com', date: expect.any(String), size: huge.length }])
		expect(result).toMatchObject({ read: 3, more: false, failure: null, cursor: { after: Math.floor(mailbox[2]!.internalDate / 1000) } })
	})

	test('a run stops at its byte budget with the cursor at the last message read, and the next goes on', async () => {
		const read: string[] = []
		const limits = { deadlineMs: 10_000, runBytes: 1 }
		const first = await readGmailMessages('token', null, (_raw, id) => void read.push(id), { baseUrl: await stub(), now: NOW, limits })
		expect(first).toMatchObject({ read: 1, more: true, cursor: { after: Math.floor(mailbox[0]!.internalDate / 1000), edgeIds: ['a'] } })
		const rest = await readGmailMessages('token', first.cursor, (_raw, id) => void read.push(id), { baseUrl: await stub(), now: NOW })
		expect(rest.more).toBe(false)
		expect(read).toEqual(['a', 'c'])
	})
})

describe('sending mail by SMTP', () => {
	test('a relay that trickles its greeting cannot hold a message past its deadline', async () => {
		const relay = await startHostileServer('slow-smtp', { everyMs: 200 })
		try {
			const limits = { ...OUTBOUND.smtp, deadlineMs: 1_500 }
			const { error, ms } = await failure(
				sendSmtp(`smtp://127.0.0.1:${relay.port}`, { from: 'a@example.test', to: 'b@example.test', subject: 'Hi', text: 'Hi' }, limits),
			)
			expect(error).toMatchObject({ name: 'AbortError' })
			expect(ms).toBeLessThan(limits.deadlineMs + 1_000)
			expect(relay.written).toBeGreaterThan(3)
		} finally {
			await relay.stop()
		}
	})
})
