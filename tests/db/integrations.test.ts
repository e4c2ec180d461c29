/**
 * Mailbox connections (docs/product.md, Integrations) against a real IMAP server started by
 * the test (dovecot, tests/support/imap-server.ts): checked by logging in before anything is
 * stored, secrets sealed at rest, owners only, deleted on disconnect and with the upgrade.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import {
	connectImap,
	disconnectIntegration,
	imapAccess,
	readSecrets,
	recordSyncHealth,
	refreshIntegration,
	saveConnection,
	storeTokens,
} from '#app/.server/payments/email-sync/connections.ts'
import { startImapServer, type ImapServer } from '#tests/support/imap-server.ts'
import { addMember, CATALOGUE, createUser, refusal, type TestUser } from './fixtures.ts'

process.env.SECRETS_KEY ??= 'db-test-secrets-key-of-at-least-32-characters'
// The test's dovecot listens on 127.0.0.1, a private address refused by default (tests/db/outbound.test.ts).
process.env.IMAP_ALLOW_PRIVATE_HOSTS ??= 'true'

const EMAIL = CATALOGUE.upgrades.p2pEmail
let imap: ImapServer

beforeAll(async () => {
	imap = await startImapServer()
})
afterAll(async () => {
	await imap?.stop()
})

async function ownerWithEmailUpgrade(): Promise<TestUser> {
	const owner = await createUser('Mailbox Owner')
	await asUser(owner.userId, (trx) => sql`select public.purchase_upgrade(${owner.orgId}, ${EMAIL})`.execute(trx))
	return owner
}

const access = (overrides: Partial<{ host: string; port: number; user: string; password: string; tls: boolean }> = {}) => ({
	host: imap.host,
	port: imap.port,
	tls: false,
	user: imap.user,
	password: imap.password,
	...overrides,
})

async function stored(orgId: string) {
	return asSystem(async (trx) => {
		const credentials = await trx
			.selectFrom('integration_credentials')
			.select(['id', 'provider', 'status', 'account', 'error_message', 'last_checked_at'])
			.where('organization_id', '=', orgId)
			.execute()
		const { rows: tokens } = await sql<{ credential_id: string; password: string | null; settings: unknown }>`
			select t.credential_id, t.password, t.settings from private.integration_tokens t
			join public.integration_credentials c on c.id = t.credential_id where c.organization_id = ${orgId}`.execute(trx)
		const connections = await trx
			.selectFrom('integration_connections')
			.select(['provider', 'status'])
			.where('organization_id', '=', orgId)
			.execute()
		return { credentials, tokens, connections }
	})
}

const noGmail = async () => ({ ok: false as const, failure: 'protocol' as const })

describe('connecting an IMAP mailbox', () => {
	test('with the right password: connected, the password sealed at rest and opened again only on the server', async () => {
		const owner = await ownerWithEmailUpgrade()
		expect(await connectImap(owner.userId, owner.orgId, EMAIL, access())).toEqual({ ok: true, provider: 'imap' })
		const { credentials, tokens, connections } = await stored(owner.orgId)
		expect(credentials).toMatchObject([{ provider: 'imap', status: 'connected', account: imap.user, error_message: null }])
		expect(connections).toEqual([{ provider: 'imap', status: 'connected' }])
		expect(tokens).toHaveLength(1)
		expect(tokens[0]!.password).toMatch(/^v1\./)
		expect(JSON.stringify(tokens[0])).not.toContain(imap.password)
		expect(tokens[0]!.settings).toEqual({ host: imap.host, port: imap.port, tls: false, user: imap.user })
		expect(await imapAccess(owner.orgId, credentials[0]!.id)).toEqual(access())
		// Sealed for this organization: another one cannot open it.
		const other = await createUser('Other Owner')
		expect(await imapAccess(other.orgId, credentials[0]!.id)).toBeNull()
	})

	test('with a wrong password: refused as a failed login, nothing stored', async () => {
		const owner = await ownerWithEmailUpgrade()
		expect(await connectImap(owner.userId, owner.orgId, EMAIL, access({ password: 'wrong-password' }))).toEqual({
			ok: false,
			failure: 'auth',
		})
		expect(await stored(owner.orgId)).toEqual({ credentials: [], tokens: [], connections: [] })
	})

	test('to a host that does not answer: refused as unreachable, quickly, nothing stored', async () => {
		const owner = await ownerWithEmailUpgrade()
		const started = Date.now()
		const closed = imap.port === 1 ? 2 : 1
		expect(await connectImap(owner.userId, owner.orgId, EMAIL, access({ port: closed }))).toEqual({ ok: false, failure: 'unreachable' })
		expect(Date.now() - started).toBeLessThan(10_000)
		expect(await stored(owner.orgId)).toEqual({ credentials: [], tokens: [], connections: [] })
	})

	test('over TLS to a server that only speaks plain IMAP: refused, nothing stored', async () => {
		const owner = await ownerWithEmailUpgrade()
		const result = await connectImap(owner.userId, owner.orgId, EMAIL, access({ tls: true }))
		expect(result.ok).toBe(false)
		expect(await stored(owner.orgId)).toEqual({ credentials: [], tokens: [], connections: [] })
	})

	test('a member who is not the owner cannot connect, even with the right password; nothing stored', async () => {
		const owner = await ownerWithEmailUpgrade()
		const manager = await createUser('Manager')
		await addMember(owner.orgId, manager.userId, 'administrator')
		expect(await connectImap(manager.userId, owner.orgId, EMAIL, access())).toEqual({ ok: false, code: 'not_owner' })
		expect(await stored(owner.orgId)).toEqual({ credentials: [], tokens: [], connections: [] })
	})

	test('is refused while the email upgrade is not active', async () => {
		const owner = await createUser('No Upgrade Owner')
		expect(await connectImap(owner.userId, owner.orgId, EMAIL, access())).toEqual({ ok: false, code: 'upgrade_not_active' })
		expect(await stored(owner.orgId)).toEqual({ credentials: [], tokens: [], connections: [] })
	})

	test('connecting again replaces the earlier connection: one mailbox per upgrade', async () => {
		const owner = await ownerWithEmailUpgrade()
		await connectImap(owner.userId, owner.orgId, EMAIL, access())
		await connectImap(owner.userId, owner.orgId, EMAIL, access())
		const { credentials, tokens, connections } = await stored(owner.orgId)
		expect([credentials.length, tokens.length, connections.length]).toEqual([1, 1, 1])
	})
})

describe('refresh status and disconnect', () => {
	test('Refresh Status logs in again: healthy stays connected; a server that stopped answering sets the error', async () => {
		const owner = await ownerWithEmailUpgrade()
		const own = await startImapServer()
		try {
			await connectImap(owner.userId, owner.orgId, EMAIL, access({ port: own.port }))
			const { id } = (await stored(owner.orgId)).credentials[0]!
			expect(await refreshIntegration(owner.userId, owner.orgId, id, noGmail)).toMatchObject({ ok: true, check: { ok: true } })
			expect((await stored(owner.orgId)).credentials[0]).toMatchObject({ status: 'connected', error_message: null })
			await own.stop()
			expect(await refreshIntegration(owner.userId, owner.orgId, id, noGmail)).toMatchObject({
				ok: true,
				check: { ok: false, failure: 'unreachable' },
			})
			const after = await stored(owner.orgId)
			expect(after.credentials[0]).toMatchObject({ status: 'connected', error_message: 'unreachable' })
			expect(after.connections).toEqual([{ provider: 'imap', status: 'error' }])
		} finally {
			await own.stop()
		}
	})

	test('a member who is not the owner can neither refresh nor disconnect', async () => {
		const owner = await ownerWithEmailUpgrade()
		const member = await createUser('Member')
		await addMember(owner.orgId, member.userId, 'member')
		await connectImap(owner.userId, owner.orgId, EMAIL, access())
		const { id } = (await stored(owner.orgId)).credentials[0]!
		expect(await refreshIntegration(member.userId, owner.orgId, id, noGmail)).toEqual({ ok: false, code: 'not_owner' })
		expect(await disconnectIntegration(member.userId, owner.orgId, id)).toEqual({ ok: false, code: 'not_owner' })
		expect(
			await refusal(asUser(member.userId, (trx) => sql`select public.record_integration_check(${owner.orgId}, ${id}, 'x')`.execute(trx))),
		).toBe('not_owner')
		expect((await stored(owner.orgId)).tokens).toHaveLength(1)
	})

	test('an owner of another organization cannot touch the connection', async () => {
		const owner = await ownerWithEmailUpgrade()
		const stranger = await createUser('Stranger')
		await connectImap(owner.userId, owner.orgId, EMAIL, access())
		const { id } = (await stored(owner.orgId)).credentials[0]!
		expect(await disconnectIntegration(stranger.userId, stranger.orgId, id)).toEqual({ ok: false, code: 'integration_not_found' })
		expect(await disconnectIntegration(stranger.userId, owner.orgId, id)).toEqual({ ok: false, code: 'not_owner' })
		expect((await stored(owner.orgId)).tokens).toHaveLength(1)
	})

	test('Disconnect sets the status to disconnected and deletes the stored secrets', async () => {
		const owner = await ownerWithEmailUpgrade()
		await connectImap(owner.userId, owner.orgId, EMAIL, access())
		const { id } = (await stored(owner.orgId)).credentials[0]!
		expect(await disconnectIntegration(owner.userId, owner.orgId, id)).toEqual({ ok: true, provider: 'imap' })
		const { credentials, tokens, connections } = await stored(owner.orgId)
		expect(credentials).toMatchObject([{ status: 'disconnected' }])
		expect(tokens).toEqual([])
		expect(connections).toEqual([{ provider: 'imap', status: 'disconnected' }])
		expect(await imapAccess(owner.orgId, id)).toBeNull()
		expect(await disconnectIntegration(owner.userId, owner.orgId, id)).toEqual({ ok: false, code: 'integration_not_found' })
	})

	test('removing the upgrade deletes its connection and secrets', async () => {
		const owner = await ownerWithEmailUpgrade()
		await connectImap(owner.userId, owner.orgId, EMAIL, access())
		await asUser(owner.userId, (trx) => sql`select public.remove_upgrade(${owner.orgId}, ${EMAIL})`.execute(trx))
		expect(await stored(owner.orgId)).toEqual({ credentials: [], tokens: [], connections: [] })
	})
})

describe('for the email sync (no owner present)', () => {
	test('a run records its login outcome: an error, then healthy again', async () => {
		const owner = await ownerWithEmailUpgrade()
		await connectImap(owner.userId, owner.orgId, EMAIL, access())
		const { id } = (await stored(owner.orgId)).credentials[0]!
		await recordSyncHealth(id, 'auth')
		expect((await stored(owner.orgId)).credentials[0]).toMatchObject({ error_message: 'auth' })
		expect((await stored(owner.orgId)).connections).toEqual([{ provider: 'imap', status: 'error' }])
		await recordSyncHealth(id, null)
		expect((await stored(owner.orgId)).credentials[0]).toMatchObject({ error_message: null })
		expect((await stored(owner.orgId)).connections).toEqual([{ provider: 'imap', status: 'connected' }])
	})

	test('refreshed OAuth tokens are stored sealed and open again; the refresh token is kept when none comes back', async () => {
		const owner = await ownerWithEmailUpgrade()
		const saved = await saveConnection(owner.userId, owner.orgId, EMAIL, {
			provider: 'gmail',
			account: 'me@gmail.example',
			accessToken: 'access-1',
			refreshToken: 'refresh-1',
			expiresAt: new Date(Date.now() - 1000),
		})
		expect(saved).toEqual({ ok: true, provider: 'gmail' })
		const { id } = (await stored(owner.orgId)).credentials[0]!
		const expires = new Date(Date.now() + 3_600_000)
		await storeTokens(owner.orgId, id, { accessToken: 'access-2', refreshToken: null, expiresAt: expires })
		const secrets = await readSecrets(owner.orgId, id)
		expect(secrets).toMatchObject({ provider: 'gmail', accessToken: 'access-2', refreshToken: 'refresh-1', expiresAt: expires })
		expect(JSON.stringify((await stored(owner.orgId)).tokens)).not.toMatch(/access-2|refresh-1/)
	})
})

test('a member who marks the credential disconnected directly (the policies allow it) deletes its secrets too', async () => {
	const owner = await ownerWithEmailUpgrade()
	const member = await createUser('Member')
	await addMember(owner.orgId, member.userId, 'member')
	await connectImap(owner.userId, owner.orgId, EMAIL, access())
	const { id } = (await stored(owner.orgId)).credentials[0]!
	await asUser(member.userId, (trx) =>
		trx.updateTable('integration_credentials').set({ status: 'disconnected' }).where('id', '=', id).execute(),
	)
	expect((await stored(owner.orgId)).tokens).toEqual([])
	expect(await imapAccess(owner.orgId, id)).toBeNull()
})
