/**
 * The email sync (docs/product.md, Email sync) end to end below the screens: a real IMAP server
 * started by the test (dovecot, tests/support/imap-server.ts) holding the fixture mailbox of
 * tests/unit/fixtures/mailbox, a mailbox connected through the integrations code, and the runs
 * going through the one import pipeline into transactions.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { dueSyncKeys, emailSyncJob, listSyncRuns, syncMailbox, syncToast } from '#app/.server/payments/email-sync/sync.ts'
import { importPayments, onImportCommitted, undoImport, type CommittedBatch } from '#app/.server/payments/imports/pipeline.ts'
import { connectImap, saveConnection } from '#app/.server/payments/email-sync/connections.ts'
import { runDueJobs } from '#app/.server/scheduler.ts'
import { startHostileServer } from '#tests/support/hostile-servers.ts'
import { startImapServer, type ImapServer } from '#tests/support/imap-server.ts'
import { addMember, CATALOGUE, createUser, type TestUser } from './fixtures.ts'

process.env.SECRETS_KEY ??= 'db-test-secrets-key-of-at-least-32-characters'
// The test's dovecot listens on 127.0.0.1, a private address refused by default.
process.env.IMAP_ALLOW_PRIVATE_HOSTS ??= 'true'

const DIR = path.resolve('tests/unit/fixtures/mailbox')
const FILES = readdirSync(DIR)
	.filter((f) => f.endsWith('.eml'))
	.sort()
const fixture = (file: string) => readFileSync(path.join(DIR, file))
const DAY = 86_400_000
const P2P = CATALOGUE.modules.p2p

let imap: ImapServer
let folders = 0

beforeAll(async () => {
	imap = await startImapServer()
})
afterAll(async () => {
	await imap?.stop()
})

/** An owner with the email upgrade and the test mailbox connected, and a folder of their own in it. */
async function connectedOwner(files: string[] = FILES): Promise<TestUser & { mailbox: string }> {
	const owner = await createUser('Sync Owner')
	await asUser(owner.userId, (trx) => sql`select public.purchase_upgrade(${owner.orgId}, ${CATALOGUE.upgrades.p2pEmail})`.execute(trx))
	const result = await connectImap(owner.userId, owner.orgId, CATALOGUE.upgrades.p2pEmail, {
		host: imap.host,
		port: imap.port,
		tls: false,
		user: imap.user,
		password: imap.password,
	})
	expect(result).toEqual({ ok: true, provider: 'imap' })
	const mailbox = `Sync${++folders}-${process.env.DB_TARGET}`
	const c = await imap.client()
	await c.mailboxCreate(mailbox)
	await c.logout()
	for (const file of files) await imap.appendMessage(fixture(file), { mailbox, date: new Date(Date.now() - 2 * DAY) })
	return { ...owner, mailbox }
}

async function transactions(orgId: string) {
	return asSystem((trx) =>
		trx
			.selectFrom('transactions')
			.select(['external_id', 'amount', 'payment_method', 'raw_payer', 'import_source', 'import_batch_id'])
			.where('organization_id', '=', orgId)
			.execute(),
	)
}

async function syncState(orgId: string) {
	return asSystem(async (trx) => ({
		status: await trx
			.selectFrom('module_sync_status')
			.select(['sync_status', 'error_message', 'last_synced_at'])
			.where('organization_id', '=', orgId)
			.where('module_id', '=', P2P)
			.executeTakeFirst(),
		credential: await trx
			.selectFrom('integration_credentials')
			.select(['error_message', 'last_sync'])
			.where('organization_id', '=', orgId)
			.executeTakeFirst(),
	}))
}

describe('syncing the connected mailbox', () => {
	test('the first sync imports every notice as one batch; a second imports nothing; a new notice imports one; undo removes the batch', async () => {
		const owner = await connectedOwner()
		// What the transactions digest listens to (app/.server/startup.ts): once per run that found payments.
		const committed: CommittedBatch[] = []
		const stop = onImportCommitted(async (batch) => {
			if (batch.organizationId === owner.orgId) committed.push(batch)
		})
		const first = await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox })
		expect(first).toEqual({
			ok: true,
			runId: expect.any(String),
			batchId: expect.any(String),
			counts: { read: 26, created: 16, duplicates: 0, ignored: 7, unreadable: 3, errors: 0 },
			more: false,
		})
		const rows = await transactions(owner.orgId)
		expect(rows).toHaveLength(16)
		expect(rows.every((r) => r.import_source === 'email' && r.import_batch_id === (first.ok && first.batchId))).toBe(true)
		// The two Bank of America notices alike in all but their message: two payments.
		expect(rows.filter((r) => r.raw_payer === 'Mary Jones' && Number(r.amount) === 60)).toHaveLength(2)
		expect(rows.map((r) => r.external_id)).toContain('4012345678901234567')
		const state = await syncState(owner.orgId)
		expect(state.status).toMatchObject({ sync_status: 'idle', error_message: null })
		expect(state.status!.last_synced_at).not.toBeNull()
		expect(state.credential).toMatchObject({ error_message: null })
		expect(state.credential!.last_sync).not.toBeNull()

		const batch = await asSystem((trx) => trx.selectFrom('import_batches').selectAll().where('organization_id', '=', owner.orgId).execute())
		expect(batch).toMatchObject([{ source: 'email', status: 'committed', created_count: 16 }])

		const second = await syncMailbox(owner.orgId, { trigger: 'schedule', mailbox: owner.mailbox })
		expect(second).toMatchObject({ ok: true, batchId: null, counts: { read: 0, created: 0 } })

		await imap.appendMessage(fixture('12-td-zelle.eml').toString().replace('TDZ84736251', 'TDZ99999999'), { mailbox: owner.mailbox })
		const third = await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox })
		expect(third).toMatchObject({ ok: true, counts: { read: 1, created: 1, duplicates: 0 } })
		expect(await transactions(owner.orgId)).toHaveLength(17)
		stop()
		expect(committed.map((b) => [b.source, b.counts.created])).toEqual([
			['email', 16],
			['email', 1],
		])

		// The history a member reads: newest first, with trigger, counts and the notices not understood.
		const member = await createUser('Sync Member')
		await addMember(owner.orgId, member.userId, 'member')
		const runs = await listSyncRuns(member.userId, owner.orgId)
		expect(runs.map((r) => [r.trigger, r.status, r.counts.created])).toEqual([
			['button', 'succeeded', 1],
			['schedule', 'succeeded', 0],
			['button', 'succeeded', 16],
		])
		expect(runs[2]!.unreadable).toEqual([
			{
				subject: 'You have a new payment',
				sender: 'venmo@venmo.com',
				date: expect.stringMatching(/^2026-11-20T/),
				reason: 'not_understood',
			},
			{
				subject: 'Hans Weber sent you €20.00 EUR',
				sender: 'service@paypal.com',
				date: expect.stringMatching(/^2026-11-20T/),
				reason: 'not_understood',
			},
			{
				subject: 'You received a Zelle payment',
				sender: 'pncalerts@pnc.com',
				date: expect.stringMatching(/^2026-11-21T/),
				reason: 'not_understood',
			},
		])
		// Another organization sees none of it.
		const stranger = await createUser('Stranger')
		expect(await listSyncRuns(stranger.userId, owner.orgId)).toEqual([])
		expect(await syncMailbox(owner.orgId, { trigger: 'button', userId: stranger.userId, mailbox: owner.mailbox })).toEqual({
			ok: false,
			code: 'not_member',
		})

		// Undo from the import history removes the first run's payments.
		expect(await undoImport(owner.userId, (first.ok && first.batchId) as string)).toEqual({ ok: true, removed: 16 })
		expect(await transactions(owner.orgId)).toHaveLength(1)
	})

	test('a wrong password puts the sync in error, with the run recorded; the schedule stops trying until the owner reconnects', async () => {
		const owner = await connectedOwner(['01-venmo-paid-you.eml'])
		// The app password was changed on the mail server side: the stored one no longer works.
		await saveConnection(owner.userId, owner.orgId, CATALOGUE.upgrades.p2pEmail, {
			provider: 'imap',
			account: imap.user,
			settings: { host: imap.host, port: imap.port, tls: false, user: imap.user },
			password: 'revoked-password',
		})
		const failed = await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox })
		expect(failed).toEqual({ ok: false, code: 'auth', runId: expect.any(String) })
		const state = await syncState(owner.orgId)
		expect(state.status).toMatchObject({ sync_status: 'error', error_message: 'auth' })
		expect(state.credential).toMatchObject({ error_message: 'auth' })
		expect(await transactions(owner.orgId)).toEqual([])
		const runs = await listSyncRuns(owner.userId, owner.orgId)
		expect(runs).toMatchObject([{ status: 'failed', errorCode: 'auth', trigger: 'button' }])

		const later = new Date(Date.now() + 60 * 60_000)
		expect((await dueSyncKeys(later)).filter((k) => k.startsWith(owner.orgId))).toEqual([])

		// Reconnecting with the right password: due again, and the next run imports.
		await connectImap(owner.userId, owner.orgId, CATALOGUE.upgrades.p2pEmail, {
			host: imap.host,
			port: imap.port,
			tls: false,
			user: imap.user,
			password: imap.password,
		})
		expect((await dueSyncKeys(later)).filter((k) => k.startsWith(owner.orgId))).toHaveLength(1)
		expect(await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox })).toMatchObject({
			ok: true,
			counts: { created: 1 },
		})
		expect((await syncState(owner.orgId)).status).toMatchObject({ sync_status: 'idle', error_message: null })
	})

	test('when the folder is recreated (new UIDVALIDITY) the window is read again without duplicates', async () => {
		const owner = await connectedOwner(['01-venmo-paid-you.eml', '09-bofa-zelle-1.eml'])
		expect(await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox })).toMatchObject({
			ok: true,
			counts: { created: 2 },
		})
		const c = await imap.client()
		await c.mailboxDelete(owner.mailbox)
		await c.mailboxCreate(owner.mailbox)
		await c.logout()
		for (const file of ['01-venmo-paid-you.eml', '09-bofa-zelle-1.eml', '04-cashapp-base64.eml'])
			await imap.appendMessage(fixture(file), { mailbox: owner.mailbox })
		const after = await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox })
		expect(after).toMatchObject({ ok: true, counts: { read: 3, created: 1, duplicates: 2 } })
		expect(await transactions(owner.orgId)).toHaveLength(3)
		expect((await listSyncRuns(owner.userId, owner.orgId))[0]).toMatchObject({ counts: { read: 3 } })
	})

	test('two syncs at once: one runs, the other is told a sync is running; a claim left by a dead server is taken over', async () => {
		const owner = await connectedOwner(['06-paypal-got-money.eml', '08-chase-zelle.eml'])
		const both = await Promise.all([
			syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox }),
			syncMailbox(owner.orgId, { trigger: 'schedule', mailbox: owner.mailbox }),
		])
		expect(both.filter((r) => r.ok)).toHaveLength(1)
		expect(both.filter((r) => !r.ok)).toEqual([{ ok: false, code: 'in_progress' }])
		expect(await transactions(owner.orgId)).toHaveLength(2)
		expect(await listSyncRuns(owner.userId, owner.orgId)).toHaveLength(1)

		// The mailbox's claim left for longer than the stale timeout (a dead server): the next sync takes over.
		await asSystem((trx) =>
			sql`update public.integration_credentials set sync_claimed_at = now() - interval '1 hour' where organization_id = ${owner.orgId}`.execute(
				trx,
			),
		)
		expect(await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox })).toMatchObject({ ok: true })
		expect((await syncState(owner.orgId)).status).toMatchObject({ sync_status: 'idle' })
		// A fresh claim is respected.
		await asSystem((trx) =>
			sql`update public.integration_credentials set sync_claimed_at = now() where organization_id = ${owner.orgId}`.execute(trx),
		)
		expect(await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox })).toEqual({
			ok: false,
			code: 'in_progress',
		})
	})

	test('the schedule runs each mailbox once per interval (an hour without Email Pro), whichever instance ticks', async () => {
		const owner = await connectedOwner([])
		await imap.appendMessage(fixture('13-wellsfargo-zelle.eml'))
		expect((await dueSyncKeys(new Date(Date.now() + 30 * 60_000))).filter((k) => k.startsWith(owner.orgId))).toEqual([])
		const now = new Date(Date.now() + 61 * 60_000)
		const job = { ...emailSyncJob, due: async (at: Date) => (await dueSyncKeys(at)).filter((k) => k.startsWith(owner.orgId)) }
		const [a, b] = await Promise.all([runDueJobs(now, [job]), runDueJobs(now, [job])])
		expect([...a, ...b]).toHaveLength(1)
		const runs = await listSyncRuns(owner.userId, owner.orgId)
		expect(runs).toMatchObject([{ trigger: 'schedule', status: 'succeeded' }])
		expect(runs[0]!.counts.created).toBeGreaterThanOrEqual(1)
		// Just synced: not due again in this interval.
		expect(await job.due(new Date())).toEqual([])
	})

	test('a run that stops at its byte budget commits what it read and moves the cursor there; Sync says more is waiting; the next runs import the rest once', async () => {
		const owner = await connectedOwner(['01-venmo-paid-you.eml', '04-cashapp-base64.eml', '12-td-zelle.eml'])
		// A budget of one byte: each run reads one message.
		const options = { trigger: 'button' as const, userId: owner.userId, mailbox: owner.mailbox, limits: { runBytes: 1 } }
		const first = await syncMailbox(owner.orgId, options)
		expect(first).toMatchObject({ ok: true, more: true, counts: { read: 1, created: 1 } })
		expect(syncToast(first)).toMatchObject({ type: 'success', description: 'transactions:sync.toast.doneMoreDescription' })
		expect(await transactions(owner.orgId)).toHaveLength(1)
		expect(await syncMailbox(owner.orgId, options)).toMatchObject({ ok: true, more: true, counts: { read: 1, created: 1 } })
		const last = await syncMailbox(owner.orgId, options)
		expect(last).toMatchObject({ ok: true, more: false, counts: { read: 1, created: 1 } })
		expect(syncToast(last)).toMatchObject({ description: 'transactions:sync.toast.doneDescription' })
		expect(await syncMailbox(owner.orgId, options)).toMatchObject({ ok: true, more: false, counts: { read: 0 } })
		expect((await transactions(owner.orgId)).map((t) => t.payment_method).sort()).toEqual(['CashApp', 'Venmo', 'Zelle'])
	})

	test("the scheduler's signal reaches the run: past its deadline nothing is read, the run says it timed out, and the next run imports", async () => {
		const owner = await connectedOwner(['01-venmo-paid-you.eml'])
		const context = { now: new Date(), job: 'email-sync', signal: AbortSignal.abort() }
		await emailSyncJob.run(`${owner.orgId}@${new Date().toISOString()}`, context)
		expect(await listSyncRuns(owner.userId, owner.orgId)).toMatchObject([{ trigger: 'schedule', status: 'failed', errorCode: 'timeout' }])
		expect(await transactions(owner.orgId)).toEqual([])
		expect(await syncMailbox(owner.orgId, { trigger: 'schedule', mailbox: owner.mailbox })).toMatchObject({
			ok: true,
			counts: { created: 1 },
		})
	})

	test("a notice bigger than a notice can be is not downloaded: the run's could-not-read list names it with its reason", async () => {
		const big =
			fixture('06-paypal-got-money.eml')
				.toString()
				.replace(/\r?\n$/, '') + `\r\n\r\n${'padding line of a message far bigger than any payment notice......\r\n'.repeat(400)}`
		const owner = await connectedOwner(['01-venmo-paid-you.eml'])
		await imap.appendMessage(big, { mailbox: owner.mailbox })
		const run = await syncMailbox(owner.orgId, {
			trigger: 'button',
			userId: owner.userId,
			mailbox: owner.mailbox,
			limits: { maxMessageBytes: 16 * 1024 },
		})
		expect(run).toMatchObject({ ok: true, counts: { read: 2, created: 1, unreadable: 1 } })
		expect((await listSyncRuns(owner.userId, owner.orgId))[0]!.unreadable).toEqual([
			{ subject: "You've got money", sender: 'service@paypal.com', date: expect.any(String), reason: 'too_large' },
		])
	})

	test('a server that sends more than it announced is cut off: the payments read before are kept, that message skipped, the owner told; the next run goes on', async () => {
		const big =
			fixture('06-paypal-got-money.eml')
				.toString()
				.replace(/\r?\n$/, '') + `\r\n\r\n${'padding line of a message far bigger than any payment notice......\r\n'.repeat(1500)}`
		const owner = await connectedOwner(['01-venmo-paid-you.eml'])
		await imap.appendMessage(big, { mailbox: owner.mailbox })
		await imap.appendMessage(fixture('04-cashapp-base64.eml'), { mailbox: owner.mailbox })
		// As if the server had announced the 100 KB message as small: the size check lets it through, the literal cap stops it.
		const limits = { maxMessageBytes: 1024 * 1024, maxLiteralSize: 32 * 1024, maxResponseSize: 64 * 1024 }
		const cut = await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox, limits })
		expect(cut).toEqual({ ok: false, code: 'protocol', runId: expect.any(String) })
		expect((await transactions(owner.orgId)).map((t) => t.payment_method)).toEqual(['Venmo'])
		expect((await syncState(owner.orgId)).status).toMatchObject({ sync_status: 'error', error_message: 'protocol' })
		expect(await listSyncRuns(owner.userId, owner.orgId)).toMatchObject([
			{ status: 'failed', errorCode: 'protocol', batchId: expect.any(String), counts: { read: 2, created: 1 } },
		])
		expect(await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox, limits })).toMatchObject({
			ok: true,
			counts: { read: 1, created: 1 },
		})
		expect((await transactions(owner.orgId)).map((t) => t.payment_method).sort()).toEqual(['CashApp', 'Venmo'])
	})

	test("a mailbox that trickles a byte a second after the login cannot hold a sync: the run ends at its time budget, or at the scheduler's deadline", async () => {
		const server = await startHostileServer('trickle-after-login')
		try {
			const owner = await createUser('Trickled Owner')
			await asUser(owner.userId, (trx) => sql`select public.purchase_upgrade(${owner.orgId}, ${CATALOGUE.upgrades.p2pEmail})`.execute(trx))
			await saveConnection(owner.userId, owner.orgId, CATALOGUE.upgrades.p2pEmail, {
				provider: 'imap',
				account: 'owner@example.test',
				settings: { host: server.host, port: server.port, tls: false, user: 'owner@example.test' },
				password: 'app-password',
			})
			let started = Date.now()
			const budget = await syncMailbox(owner.orgId, {
				trigger: 'button',
				userId: owner.userId,
				limits: { deadlineMs: 1_500, socketTimeout: 10_000 },
			})
			expect(budget).toEqual({ ok: false, code: 'timeout', runId: expect.any(String) })
			expect(Date.now() - started).toBeLessThan(4_000)
			started = Date.now()
			await emailSyncJob.run(`${owner.orgId}@${new Date().toISOString()}`, {
				now: new Date(),
				job: 'email-sync',
				signal: AbortSignal.timeout(1_500),
			})
			expect(Date.now() - started).toBeLessThan(4_000)
			expect(await listSyncRuns(owner.userId, owner.orgId)).toMatchObject([
				{ trigger: 'schedule', status: 'failed', errorCode: 'timeout' },
				{ trigger: 'button', status: 'failed', errorCode: 'timeout' },
			])
			expect((await syncState(owner.orgId)).status).toMatchObject({ sync_status: 'error', error_message: 'timeout' })
			expect(server.connections).toBe(2)
		} finally {
			await server.stop()
		}
	})

	test('a Gmail mailbox is read through the API with its token into the same pipeline; an expired token that cannot be refreshed is a refused login', async () => {
		// A stand-in for the two Gmail API calls (Google is not reachable from tests).
		const stored = [
			{ id: 'g1', file: '01-venmo-paid-you.eml', internalDate: Date.now() - 2 * DAY },
			{ id: 'g2', file: '13-wellsfargo-zelle.eml', internalDate: Date.now() - DAY },
		]
		const server = createServer((req, res) => {
			const url = new URL(req.url ?? '/', 'http://x')
			if (req.headers.authorization !== 'Bearer gmail-token') return void res.writeHead(401).end('{}')
			res.setHeader('content-type', 'application/json')
			const get = /\/messages\/([^/]+)$/.exec(url.pathname)
			if (get) {
				const m = stored.find((x) => x.id === get[1])!
				return void res.end(JSON.stringify({ id: m.id, internalDate: String(m.internalDate), raw: fixture(m.file).toString('base64url') }))
			}
			const after = Number(/after:(\d+)/.exec(url.searchParams.get('q') ?? '')?.[1] ?? 0) * 1000
			res.end(
				JSON.stringify({
					messages: stored
						.filter((m) => m.internalDate > after)
						.reverse()
						.map((m) => ({ id: m.id })),
				}),
			)
		})
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
		const address = server.address()
		const gmailBaseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
		try {
			const owner = await createUser('Gmail Owner')
			await asUser(owner.userId, (trx) => sql`select public.purchase_upgrade(${owner.orgId}, ${CATALOGUE.upgrades.p2pEmail})`.execute(trx))
			const connect = (expiresAt: Date) =>
				saveConnection(owner.userId, owner.orgId, CATALOGUE.upgrades.p2pEmail, {
					provider: 'gmail',
					account: 'owner@gmail.test',
					accessToken: 'gmail-token',
					refreshToken: null,
					expiresAt,
				})
			await connect(new Date(Date.now() + 3600_000))
			const first = await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, gmailBaseUrl })
			expect(first).toMatchObject({ ok: true, counts: { read: 2, created: 2 } })
			expect(await syncMailbox(owner.orgId, { trigger: 'schedule', gmailBaseUrl })).toMatchObject({
				ok: true,
				counts: { read: 0, created: 0 },
			})
			expect((await transactions(owner.orgId)).map((t) => t.payment_method).sort()).toEqual(['Venmo', 'Zelle'])

			// The token expired and no refresh token was granted: the owner must connect Gmail again.
			await connect(new Date(Date.now() - 3600_000))
			expect(await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, gmailBaseUrl })).toMatchObject({
				ok: false,
				code: 'auth',
			})
			expect((await syncState(owner.orgId)).status).toMatchObject({ sync_status: 'error', error_message: 'auth' })
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()))
		}
	})
})

describe('one payment from two sources is one transaction', () => {
	// Cash App's CSV writes its ids in lower case (leonardobazico/ynab-converter's README shows its
	// header and rows); its mail writes the same id upper-cased ("Identifier #D2K9QX7").
	const CASHAPP_CSV = [
		'"Transaction ID","Date","Transaction Type","Currency","Amount","Fee","Net Amount","Asset Type","Asset Price","Asset Amount","Status","Notes","Name of sender/receiver","Account"',
		'"d2k9qx7","2026-11-20 15:04:05 EST","Received P2P","USD","$40","$0","$40","","","","PAYMENT DEPOSITED","Haircut","Ana Silva","Visa Debit 0987"',
	].join('\n')
	// Chase's statement line of the Zelle payment whose notice is 08-chase-zelle.eml: the same transaction number.
	const CHASE_CSV = [
		'Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #',
		'CREDIT,11/20/2026,Zelle payment from JOHN SMITH 21874563210,1250.00,QUICKPAY_CREDIT,6250.00,,',
	].join('\n')

	async function importFile(owner: TestUser, file: string) {
		const result = await importPayments({ organizationId: owner.orgId, userId: owner.userId, file })
		if (!result.ok || result.status !== 'committed') throw new Error(`not imported: ${JSON.stringify(result)}`)
		return result.batch.counts
	}

	test('a notice synced, then the CSV with the same payment imported: the file finds it already recorded', async () => {
		const owner = await connectedOwner(['04-cashapp-base64.eml', '08-chase-zelle.eml'])
		expect(await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox })).toMatchObject({
			ok: true,
			counts: { created: 2 },
		})
		expect(await importFile(owner, CASHAPP_CSV)).toMatchObject({ created: 0, duplicates: 1 })
		expect(await importFile(owner, CHASE_CSV)).toMatchObject({ created: 0, duplicates: 1 })
		const rows = await transactions(owner.orgId)
		expect(rows.map((r) => [r.payment_method, Number(r.amount), r.import_source]).sort()).toEqual([
			['CashApp', 40, 'email'],
			['Zelle', 1250, 'email'],
		])
	})

	test('the CSV imported, then the notice of the same payment synced: the sync finds it already recorded', async () => {
		const owner = await connectedOwner(['04-cashapp-base64.eml', '08-chase-zelle.eml'])
		expect(await importFile(owner, CASHAPP_CSV)).toMatchObject({ created: 1 })
		expect(await importFile(owner, CHASE_CSV)).toMatchObject({ created: 1 })
		expect(await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox: owner.mailbox })).toMatchObject({
			ok: true,
			counts: { read: 2, created: 0, duplicates: 2 },
		})
		const rows = await transactions(owner.orgId)
		expect(rows.map((r) => [r.external_id, r.import_source]).sort()).toEqual([
			['21874563210', 'chase'],
			['d2k9qx7', 'cashapp'],
		])
	})
})
