/**
 * Email Pro's several mailboxes (docs/product.md, Integrations and Email sync;
 * docs/decisions/051-several-mailboxes.md): the limit in SQL (one without Email Pro, replaced on
 * connecting; 5 with it, also under concurrent connects), what members of another organization
 * see, the schedule's keys per mailbox (15 minutes with Email Pro, 60 without), a Sync of every
 * mailbox against a real dovecot with two users, and what a lapse of Email Pro pauses.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { connectImap, disconnectIntegration, saveConnection } from '#app/.server/payments/email-sync/connections.ts'
import { dueSyncKeys, emailSyncJob, listSyncRuns, syncMailbox, syncToast } from '#app/.server/payments/email-sync/sync.ts'
import { getModuleDetail } from '#app/.server/marketplace/modules.ts'
import { startImapServer, type ImapServer } from '#tests/support/imap-server.ts'
import { addMember, CATALOGUE, createUser, refusal, type TestUser } from './fixtures.ts'

process.env.SECRETS_KEY ??= 'db-test-secrets-key-of-at-least-32-characters'
// The test's dovecot listens on 127.0.0.1, a private address refused by default.
process.env.IMAP_ALLOW_PRIVATE_HOSTS ??= 'true'

const DIR = path.resolve('tests/unit/fixtures/mailbox')
const fixture = (file: string) => readFileSync(path.join(DIR, file))
const P2P = CATALOGUE.modules.p2p
const EMAIL = CATALOGUE.upgrades.p2pEmail
const SECOND = { user: 'second@example.test', password: 'second-app-password' }

let imap: ImapServer
let folders = 0

beforeAll(async () => {
	imap = await startImapServer({ user: 'first@example.test', password: 'first-app-password', others: [SECOND] })
})
afterAll(async () => {
	await imap?.stop()
})

async function ownerWithEmail(name: string, pro: boolean) {
	const owner = await createUser(name)
	await asUser(owner.userId, (trx) => sql`select public.purchase_upgrade(${owner.orgId}, ${EMAIL})`.execute(trx))
	if (pro) await giveEmailPro(owner)
	return owner
}

/** Email Pro given directly (it is not sold yet): the catalogue's row for the organization. */
async function giveEmailPro(owner: TestUser) {
	await asSystem((trx) =>
		sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select m.organization_id, m.id, ${CATALOGUE.upgrades.emailPro}::uuid from public.organization_modules m
			where m.organization_id = ${owner.orgId} and m.module_id = ${P2P}`.execute(trx),
	)
}

/** Email Pro removed (its upgrade deactivated, or its module): what a lapse does. */
async function removeEmailPro(owner: TestUser) {
	await asSystem((trx) =>
		sql`delete from public.organization_module_upgrades where organization_id = ${owner.orgId}
			and upgrade_id = ${CATALOGUE.upgrades.emailPro}`.execute(trx),
	)
}

/** Saves a mailbox without logging in (the limit is the database's; the login check is tested elsewhere). */
function connect(owner: TestUser, account: string) {
	return saveConnection(owner.userId, owner.orgId, EMAIL, {
		provider: 'imap',
		account,
		settings: { host: imap.host, port: imap.port, tls: false, user: account },
		password: 'some-app-password',
	})
}

async function credentials(orgId: string) {
	return asSystem((trx) =>
		trx
			.selectFrom('integration_credentials')
			.select(['id', 'account', 'status'])
			.where('organization_id', '=', orgId)
			.orderBy('created_at')
			.orderBy('id')
			.execute(),
	)
}

const connected = async (orgId: string) => (await credentials(orgId)).filter((c) => c.status === 'connected').map((c) => c.account)

/** Both test users' mailboxes connected (logging in), each with a folder of this test holding `files[i]`. */
async function twoMailboxes(owner: TestUser, files: [string, string]) {
	for (const access of [{ user: imap.user, password: imap.password }, SECOND]) {
		const result = await connectImap(owner.userId, owner.orgId, EMAIL, { host: imap.host, port: imap.port, tls: false, ...access })
		expect(result).toEqual({ ok: true, provider: 'imap' })
	}
	const mailbox = `Pro${++folders}-${process.env.DB_TARGET}`
	for (const [i, user] of [imap.user, SECOND.user].entries()) {
		const c = await imap.client(user)
		await c.mailboxCreate(mailbox)
		await c.logout()
		await imap.appendMessage(fixture(files[i]!), { mailbox, user, date: new Date(Date.now() - 86_400_000) })
	}
	return mailbox
}

async function payments(orgId: string) {
	return asSystem((trx) =>
		trx.selectFrom('transactions').select(['payment_method', 'import_source']).where('organization_id', '=', orgId).execute(),
	)
}

describe('how many mailboxes', () => {
	test('without Email Pro one mailbox: connecting another replaces it', async () => {
		const owner = await ownerWithEmail('One Mailbox', false)
		expect(await connect(owner, 'a@example.test')).toEqual({ ok: true, provider: 'imap' })
		expect(await connect(owner, 'b@example.test')).toEqual({ ok: true, provider: 'imap' })
		expect(await connected(owner.orgId)).toEqual(['b@example.test'])
		expect(await credentials(owner.orgId)).toHaveLength(1)
	})

	test('with Email Pro up to 5; a 6th is refused with its code and nothing changes; the same account again updates its own row', async () => {
		const owner = await ownerWithEmail('Five Mailboxes', true)
		for (const n of [1, 2, 3, 4, 5]) expect(await connect(owner, `m${n}@example.test`)).toEqual({ ok: true, provider: 'imap' })
		const before = await credentials(owner.orgId)
		expect(before).toHaveLength(5)
		expect(await connect(owner, 'm6@example.test')).toEqual({ ok: false, code: 'mailbox_limit' })
		// The same mailbox connected again (another spelling of its address): its row, no 6th.
		expect(await connect(owner, 'M3@Example.test')).toEqual({ ok: true, provider: 'imap' })
		const after = await credentials(owner.orgId)
		expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id))
		// One disconnected: room for another.
		expect(await disconnectIntegration(owner.userId, owner.orgId, before[0]!.id)).toEqual({ ok: true, provider: 'imap' })
		expect(await connect(owner, 'm6@example.test')).toEqual({ ok: true, provider: 'imap' })
		expect(await connected(owner.orgId)).toHaveLength(5)
		// Not an owner: refused as before.
		const member = await createUser('Five Member')
		await addMember(owner.orgId, member.userId, 'administrator')
		expect(await connect({ ...owner, userId: member.userId }, 'm7@example.test')).toMatchObject({ ok: false })
	})

	test('concurrent connects never pass the limit', async () => {
		const owner = await ownerWithEmail('Racing Mailboxes', true)
		for (const n of [1, 2, 3]) await connect(owner, `r${n}@example.test`)
		const results = await Promise.all([4, 5, 6, 7, 8].map((n) => connect(owner, `r${n}@example.test`)))
		expect(results.filter((r) => r.ok)).toHaveLength(2)
		expect(results.filter((r) => !r.ok)).toEqual([
			{ ok: false, code: 'mailbox_limit' },
			{ ok: false, code: 'mailbox_limit' },
			{ ok: false, code: 'mailbox_limit' },
		])
		expect(await connected(owner.orgId)).toHaveLength(5)
	})

	test("members of another organization see none of the mailboxes, nor their states; the organization's members see them", async () => {
		const owner = await ownerWithEmail('Seen Mailboxes', true)
		await connect(owner, 's1@example.test')
		await connect(owner, 's2@example.test')
		const member = await createUser('Seen Member')
		await addMember(owner.orgId, member.userId, 'member')
		const stranger = await ownerWithEmail('Other Org', true)
		const detail = await getModuleDetail(member.userId, owner.orgId, P2P)
		expect(detail!.mailboxes.map((m) => [m.account, m.paused])).toEqual([
			['s1@example.test', false],
			['s2@example.test', false],
		])
		expect((await getModuleDetail(stranger.userId, owner.orgId, P2P))!.mailboxes).toEqual([])
		const seen = await asUser(stranger.userId, (trx) =>
			trx.selectFrom('integration_credentials').select('id').where('organization_id', '=', owner.orgId).execute(),
		)
		expect(seen).toEqual([])
		expect(
			await refusal(asUser(stranger.userId, (trx) => sql`select * from public.email_mailbox_states(${owner.orgId})`.execute(trx))),
		).toBe('not_member')
		expect(await refusal(asUser(stranger.userId, (trx) => sql`select private.mailbox_states(${owner.orgId})`.execute(trx)))).not.toBeNull()
		// Nor may they disconnect one.
		const [first] = await credentials(owner.orgId)
		expect(await disconnectIntegration(stranger.userId, owner.orgId, first!.id)).toMatchObject({ ok: false })
		expect(await connected(owner.orgId)).toHaveLength(2)
	})
})

describe('the schedule', () => {
	const keysOf = async (owner: TestUser, at: Date) => (await dueSyncKeys(at)).filter((k) => k.startsWith(owner.orgId)).sort()

	test('with Email Pro every mailbox is due after 15 minutes, one key each; without, the one mailbox after 60', async () => {
		const pro = await ownerWithEmail('Pro Schedule', true)
		await connect(pro, 'p1@example.test')
		await connect(pro, 'p2@example.test')
		const ids = (await credentials(pro.orgId)).map((c) => c.id)
		expect(await keysOf(pro, new Date(Date.now() + 5 * 60_000))).toEqual([])
		const later = await keysOf(pro, new Date(Date.now() + 16 * 60_000))
		expect(later).toHaveLength(2)
		expect(later.map((k) => k.slice(0, k.indexOf('@'))).sort()).toEqual(ids.map((id) => `${pro.orgId}/${id}`).sort())

		const base = await ownerWithEmail('Base Schedule', false)
		await connect(base, 'b1@example.test')
		expect(await keysOf(base, new Date(Date.now() + 16 * 60_000))).toEqual([])
		expect(await keysOf(base, new Date(Date.now() + 45 * 60_000))).toEqual([])
		expect(await keysOf(base, new Date(Date.now() + 61 * 60_000))).toHaveLength(1)
	})
})

describe('syncing several mailboxes', () => {
	test('Sync reads every mailbox, one run each; a scheduled key reads its own mailbox; two syncs at once read each mailbox once', async () => {
		const owner = await ownerWithEmail('Two Mailboxes', true)
		const mailbox = await twoMailboxes(owner, ['01-venmo-paid-you.eml', '08-chase-zelle.eml'])
		const both = await Promise.all([
			syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox }),
			syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox }),
		])
		const created = both.reduce((n, r) => n + (r.ok ? r.counts.created : 0), 0)
		expect(created).toBe(2)
		expect((await payments(owner.orgId)).map((p) => p.payment_method).sort()).toEqual(['Venmo', 'Zelle'])
		const runs = await asSystem((trx) =>
			trx.selectFrom('email_sync_runs').select(['credential_id', 'status']).where('organization_id', '=', owner.orgId).execute(),
		)
		expect(runs).toHaveLength(2)
		expect(new Set(runs.map((r) => r.credential_id)).size).toBe(2)
		expect(runs.every((r) => r.status === 'succeeded')).toBe(true)

		// One mailbox's scheduled key reads that mailbox only (its INBOX: the schedule reads no test folder).
		await imap.appendMessage(fixture('12-td-zelle.eml'), { user: SECOND.user })
		const [, second] = await credentials(owner.orgId)
		await emailSyncJob.run(`${owner.orgId}/${second!.id}@${new Date().toISOString()}`, {
			now: new Date(),
			job: 'email-sync',
			signal: new AbortController().signal,
		})
		const latest = await asSystem((trx) =>
			trx
				.selectFrom('email_sync_runs')
				.select(['credential_id', 'trigger', 'created_count'])
				.where('organization_id', '=', owner.orgId)
				.where('trigger', '=', 'schedule')
				.execute(),
		)
		expect(latest).toEqual([{ credential_id: second!.id, trigger: 'schedule', created_count: 1 }])
		const state = await asSystem((trx) =>
			trx.selectFrom('module_sync_status').select(['sync_status']).where('organization_id', '=', owner.orgId).executeTakeFirst(),
		)
		expect(state).toEqual({ sync_status: 'idle' })
	})

	test('one mailbox that refuses its login stops no other: the payments of the other land, the toast names the failed one', async () => {
		const owner = await ownerWithEmail('Half Failing', true)
		const mailbox = await twoMailboxes(owner, ['04-cashapp-base64.eml', '06-paypal-got-money.eml'])
		// The first mailbox's app password was revoked on the server's side.
		await asSystem((trx) =>
			sql`update private.integration_tokens t set settings = jsonb_set(t.settings, '{user}', '"nobody@example.test"')
				from public.integration_credentials c where c.id = t.credential_id and c.organization_id = ${owner.orgId}
				and c.account = ${imap.user}`.execute(trx),
		)
		const result = await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox })
		expect(result).toMatchObject({ ok: true, counts: { created: 1 }, mailboxes: 1, failed: [{ account: imap.user, code: 'auth' }] })
		expect(syncToast(result)).toMatchObject({
			type: 'error',
			description: 'transactions:sync.toast.someFailedDescription',
			values: { count: 1, failed: imap.user },
		})
		expect((await payments(owner.orgId)).map((p) => p.payment_method)).toEqual(['PayPal'])
		expect((await listSyncRuns(owner.userId, owner.orgId)).map((r) => r.status).sort()).toEqual(['failed', 'succeeded'])
		// The module's status says the failure (the card says which mailbox).
		const state = await asSystem((trx) =>
			trx
				.selectFrom('module_sync_status')
				.select(['sync_status', 'error_message'])
				.where('organization_id', '=', owner.orgId)
				.executeTakeFirst(),
		)
		expect(state).toEqual({ sync_status: 'error', error_message: 'auth' })
	})
})

describe('when Email Pro lapses', () => {
	test('the oldest mailbox keeps syncing, the others pause (not synced, not scheduled, said on the page) until Email Pro is back', async () => {
		const owner = await ownerWithEmail('Lapsing Pro', true)
		const mailbox = await twoMailboxes(owner, ['01-venmo-paid-you.eml', '12-td-zelle.eml'])
		const [first, second] = await credentials(owner.orgId)
		await removeEmailPro(owner)
		// Both mailboxes are kept; the second is paused.
		expect((await getModuleDetail(owner.userId, owner.orgId, P2P))!.mailboxes.map((m) => [m.id, m.paused])).toEqual([
			[first!.id, false],
			[second!.id, true],
		])
		const result = await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox })
		expect(result).toMatchObject({ ok: true, counts: { created: 1 } })
		expect(result).not.toHaveProperty('mailboxes')
		expect((await payments(owner.orgId)).map((p) => p.payment_method)).toEqual(['Venmo'])
		const runs = await asSystem((trx) =>
			trx.selectFrom('email_sync_runs').select('credential_id').where('organization_id', '=', owner.orgId).execute(),
		)
		expect(runs).toEqual([{ credential_id: first!.id }])
		// The schedule: the oldest only, every 60 minutes; a key of the paused one (made before the lapse) reads nothing.
		const keys = (await dueSyncKeys(new Date(Date.now() + 61 * 60_000))).filter((k) => k.startsWith(owner.orgId))
		expect(keys.map((k) => k.slice(0, k.indexOf('@')))).toEqual([`${owner.orgId}/${first!.id}`])
		await emailSyncJob.run(`${owner.orgId}/${second!.id}@${new Date().toISOString()}`, {
			now: new Date(),
			job: 'email-sync',
			signal: new AbortController().signal,
		})
		expect((await payments(owner.orgId)).map((p) => p.payment_method)).toEqual(['Venmo'])
		// Email Pro back: both sync again.
		await giveEmailPro(owner)
		expect((await getModuleDetail(owner.userId, owner.orgId, P2P))!.mailboxes.every((m) => !m.paused)).toBe(true)
		expect(await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox })).toMatchObject({
			ok: true,
			counts: { created: 1 },
			mailboxes: 2,
			failed: [],
		})
		expect((await payments(owner.orgId)).map((p) => p.payment_method).sort()).toEqual(['Venmo', 'Zelle'])
		// Lapsed again, a new connection replaces every mailbox (one mailbox without Email Pro).
		await removeEmailPro(owner)
		expect(await connect(owner, 'third@example.test')).toEqual({ ok: true, provider: 'imap' })
		expect(await connected(owner.orgId)).toEqual(['third@example.test'])
	})
})
