/**
 * The outbound policy for IMAP (app/.server/outbound.ts, docs/security.md): the mailbox check
 * against servers that misbehave on purpose (tests/support/hostile-servers.ts) answers within its
 * deadline, with one answer for every failure before the greeting, without the server's data
 * filling the memory; and a private address is refused before any connection, unless
 * IMAP_ALLOW_PRIVATE_HOSTS is on. Deadlines are shortened for speed (the same code, other
 * numbers); the production numbers are checked against the 20 s promise separately.
 */
import { afterAll, describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { allowPrivateImapHosts, checkImapLogin, connectImap, type ImapLimits } from '#app/.server/payments/email-sync/connections.ts'
import { OUTBOUND } from '#app/.server/outbound.ts'
import { closedPort, startHostileServer, type HostileServer } from '#tests/support/hostile-servers.ts'
import { CATALOGUE, createUser, isDbTarget } from './fixtures.ts'

process.env.SECRETS_KEY ??= 'db-test-secrets-key-of-at-least-32-characters'
// The default of an installation: private hosts refused.
process.env.IMAP_ALLOW_PRIVATE_HOSTS = 'false'

/** The check's limits with a 3 s deadline: a server that trickles a byte a second outlives every idle timeout. */
const FAST: ImapLimits = {
	...OUTBOUND.imapCheck,
	deadlineMs: 3_000,
	connectionTimeout: 1_500,
	greetingTimeout: 1_500,
	socketTimeout: 2_500,
}
const access = (port: number, host = '127.0.0.1') => ({ host, port, tls: false, user: 'owner@example.test', password: 'app-password' })

async function timed<T>(work: Promise<T>) {
	const started = Date.now()
	const result = await work
	return { result, ms: Date.now() - started }
}

const servers: HostileServer[] = []
async function hostile(...args: Parameters<typeof startHostileServer>) {
	const server = await startHostileServer(...args)
	servers.push(server)
	return server
}
afterAll(async () => {
	await Promise.all(servers.map((s) => s.stop()))
})

describe.runIf(isDbTarget('pglite'))('the mailbox check against hostile servers', () => {
	test('every failure before the greeting is the same answer: a closed port, a silent one, one that trickles, a TLS mismatch', async () => {
		const silent = await hostile('silent')
		const trickling = await hostile('trickle-greeting')
		const outcomes = await Promise.all([
			timed(checkImapLogin(access(await closedPort()), { limits: FAST, allowPrivate: true })),
			timed(checkImapLogin(access(silent.port), { limits: FAST, allowPrivate: true })),
			timed(checkImapLogin(access(trickling.port), { limits: FAST, allowPrivate: true })),
			timed(checkImapLogin({ ...access(silent.port), tls: true }, { limits: FAST, allowPrivate: true })),
		])
		for (const { result, ms } of outcomes) {
			expect(result).toEqual({ ok: false, failure: 'unreachable' })
			expect(ms).toBeLessThan(FAST.deadlineMs + 1_000)
		}
		expect([silent.connections, trickling.connections]).toEqual([2, 1])
	})

	test('a server that greets, then trickles a byte a second, is cut off at the deadline', async () => {
		const server = await hostile('trickle-after-greeting')
		const { result, ms } = await timed(checkImapLogin(access(server.port), { limits: FAST, allowPrivate: true }))
		expect(result).toEqual({ ok: false, failure: 'timeout' })
		expect(ms).toBeGreaterThanOrEqual(FAST.deadlineMs - 100)
		expect(ms).toBeLessThan(FAST.deadlineMs + 1_000)
		// The server was still sending when the client hung up.
		expect(server.written).toBeGreaterThan(30)
	})

	test('a server that answers with a 600 MB literal is cut off by the cap, and the memory stays flat', async () => {
		const server = await hostile('huge-literal')
		const used = () => {
			const m = process.memoryUsage()
			return m.heapUsed + m.external
		}
		const before = used()
		let peak = before
		const sampler = setInterval(() => (peak = Math.max(peak, used())), 10)
		const { result, ms } = await timed(checkImapLogin(access(server.port), { limits: FAST, allowPrivate: true }))
		clearInterval(sampler)
		peak = Math.max(peak, used())
		expect(result).toEqual({ ok: false, failure: 'protocol' })
		expect(ms).toBeLessThan(FAST.deadlineMs)
		// What the server pushed before the client hung up: the cap plus the sockets' buffers, far from 600 MB.
		expect(server.written).toBeLessThan(32 * 1024 * 1024)
		expect(peak - before).toBeLessThan(64 * 1024 * 1024)
	})

	test('the check of an installation answers within 20 s whatever the server does: every phase fits in the deadline', () => {
		const check = OUTBOUND.imapCheck
		expect(check.deadlineMs).toBeLessThanOrEqual(20_000)
		expect(check.lookupMs + check.connectionTimeout + check.greetingTimeout).toBeLessThanOrEqual(check.deadlineMs + 1_000)
		expect(check.maxLiteralSize).toBeLessThan(check.maxResponseSize)
		expect(check.maxResponseSize).toBeLessThanOrEqual(1024 * 1024)
	})
})

describe('private addresses', () => {
	test('are refused before any connection: loopback, a name that resolves to it, other spellings, private and link-local; nothing stored', async () => {
		expect(allowPrivateImapHosts()).toBe(false)
		const server = await hostile('trickle-after-login')
		const owner = await createUser('Port Scanner')
		await asUser(owner.userId, (trx) => sql`select public.purchase_upgrade(${owner.orgId}, ${CATALOGUE.upgrades.p2pEmail})`.execute(trx))
		const hosts = [
			'127.0.0.1',
			'localhost',
			'[::1]',
			'::ffff:127.0.0.1',
			'127.1',
			'0.0.0.0',
			'10.1.2.3',
			'192.168.1.1',
			'169.254.169.254',
			'100.64.0.1',
			'[fe80::1]',
			'fd00::1',
		]
		for (const host of hosts) {
			const { result, ms } = await timed(
				connectImap(owner.userId, owner.orgId, CATALOGUE.upgrades.p2pEmail, access(server.port, host), { limits: FAST }),
			)
			expect({ host, result }).toEqual({ host, result: { ok: false, failure: 'unreachable' } })
			// No connection attempt: an unroutable address would have taken the connection timeout.
			expect(ms).toBeLessThan(FAST.connectionTimeout)
		}
		expect(server.connections).toBe(0)
		const stored = await asSystem((trx) =>
			trx.selectFrom('integration_credentials').select('id').where('organization_id', '=', owner.orgId).execute(),
		)
		expect(stored).toEqual([])
	})

	test('IMAP_ALLOW_PRIVATE_HOSTS lets a self-hosted server on a private address be reached', async () => {
		const server = await hostile('trickle-after-login')
		// It plays along with the login: the check succeeds.
		expect(await checkImapLogin(access(server.port), { limits: FAST, allowPrivate: true })).toEqual({ ok: true })
		expect(server.connections).toBe(1)
	})
})
