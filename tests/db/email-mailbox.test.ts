/**
 * The email sync's mailbox reader against a real IMAP server started by the test (dovecot,
 * tests/support/imap-server.ts), with the fixture mailbox of tests/unit/fixtures/mailbox.
 * No database is involved: it runs once, in the PGlite project.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { collectPayments, MailboxError, readNewMessages, syncLimits, type MailboxCursor } from '#app/.server/payments/email-sync/mailbox.ts'
import { startImapServer, type ImapServer } from '#tests/support/imap-server.ts'
import { isDbTarget } from './fixtures.ts'

// The test's dovecot listens on 127.0.0.1, a private address the sync refuses by default.
process.env.IMAP_ALLOW_PRIVATE_HOSTS ??= 'true'

const DIR = path.resolve('tests/unit/fixtures/mailbox')
const fixture = (file: string) => readFileSync(path.join(DIR, file))
const DAY = 86_400_000

let imap: ImapServer
const access = () => ({ host: imap.host, port: imap.port, tls: false, user: imap.user, password: imap.password })
const options = { ownAddresses: ['owner@example.test'], timeZone: 'UTC' }

describe.runIf(isDbTarget('pglite'))('reading a mailbox for payment notices', () => {
	beforeAll(async () => {
		imap = await startImapServer()
	})
	afterAll(async () => {
		await imap?.stop()
	})

	test('first sync reads the last 90 days; a second reads nothing; a new message is read once; nothing is marked', async () => {
		const mailbox = 'First'
		const c = await imap.client()
		await c.mailboxCreate(mailbox)
		await c.logout()
		await imap.appendMessage(fixture('08-chase-zelle.eml'), { mailbox, date: new Date(Date.now() - 200 * DAY) })
		for (const file of readdirSync(DIR)
			.filter((f) => f.endsWith('.eml'))
			.sort()) {
			await imap.appendMessage(fixture(file), { mailbox, date: new Date(Date.now() - 2 * DAY) })
		}
		const first = await collectPayments(access(), null, { ...options, mailbox })
		expect(first.read).toBe(26)
		expect(first.payments).toHaveLength(16)
		expect(first.ignored).toEqual({ outgoing: 2, request: 1, other: 1, spoofed: 1, unknown_sender: 2 })
		expect(first.unreadable).toEqual([
			{ subject: 'You have a new payment', sender: 'venmo@venmo.com', date: expect.stringMatching(/^2026-/), reason: 'not_understood' },
			{
				subject: 'Hans Weber sent you €20.00 EUR',
				sender: 'service@paypal.com',
				date: expect.stringMatching(/^2026-/),
				reason: 'not_understood',
			},
			{
				subject: 'You received a Zelle payment',
				sender: 'pncalerts@pnc.com',
				date: expect.stringMatching(/^2026-/),
				reason: 'not_understood',
			},
		])
		expect(first.cursor).toEqual({ uidValidity: expect.any(String), lastUid: 27 })
		expect(first.reread).toBe(false)

		const second = await collectPayments(access(), first.cursor, { ...options, mailbox })
		expect([second.read, second.payments.length]).toEqual([0, 0])
		expect(second.cursor).toEqual(first.cursor)

		await imap.appendMessage(fixture('12-td-zelle.eml'), { mailbox })
		const third = await collectPayments(access(), second.cursor, { ...options, mailbox })
		expect(third.read).toBe(1)
		expect(third.payments).toEqual([expect.objectContaining({ payer: 'Linda Kim', amount: '90.00', externalId: 'TDZ84736251' })])
		expect(third.cursor.lastUid).toBe(28)

		// Read-only: no message got the \Seen flag or any other (\Recent is the server's own).
		const check = await imap.client()
		await check.mailboxOpen(mailbox, { readOnly: true })
		const flags: string[] = []
		for await (const m of check.fetch('1:*', { flags: true })) flags.push(...[...(m.flags ?? [])].filter((f) => f !== '\\Recent'))
		await check.logout()
		expect(flags).toEqual([])
	})

	test("when the folder's UIDVALIDITY changes, the look-back window is read again", async () => {
		const mailbox = 'Recreated'
		const c = await imap.client()
		await c.mailboxCreate(mailbox)
		await c.logout()
		await imap.appendMessage(fixture('01-venmo-paid-you.eml'), { mailbox })
		const first = await collectPayments(access(), null, { ...options, mailbox })
		expect(first.payments).toHaveLength(1)

		const d = await imap.client()
		await d.mailboxDelete(mailbox)
		await d.mailboxCreate(mailbox)
		await d.logout()
		await imap.appendMessage(fixture('01-venmo-paid-you.eml'), { mailbox })
		await imap.appendMessage(fixture('04-cashapp-base64.eml'), { mailbox })
		const after = await collectPayments(access(), first.cursor, { ...options, mailbox })
		expect(after.cursor.uidValidity).not.toBe(first.cursor.uidValidity)
		expect(after.reread).toBe(true)
		// Both are read again; the Venmo one carries the same external id as before, for the dedupe.
		expect(after.payments.map((p) => p.externalId)).toEqual(['4012345678901234567', 'D2K9QX7'])
	})

	test('a wrong password is a failed login, nothing read', async () => {
		const error = await readNewMessages({ ...access(), password: 'wrong' }, null, () => undefined).catch((e: unknown) => e)
		expect(error).toBeInstanceOf(MailboxError)
		expect((error as MailboxError).failure).toBe('auth')
	})
	/** A copy of a fixture grown past `bytes` by a text part of filler lines, with its own Message-ID. */
	const grown = (file: string, bytes: number, id: string) =>
		fixture(file)
			.toString('utf8')
			.replace(/Message-ID: <[^>]+>/, `Message-ID: <${id}@fixtures.example.test>`)
			.replace(/\r?\n$/, '') +
		`\r\n\r\n${'filler text of a very long newsletter, nothing to read here.....\r\n'.repeat(Math.ceil(bytes / 66))}`

	async function folderWith(name: string, messages: Array<string | Buffer>, date = new Date(Date.now() - 2 * DAY)) {
		const c = await imap.client()
		await c.mailboxCreate(name)
		await c.logout()
		for (const raw of messages) await imap.appendMessage(raw, { mailbox: name, date })
	}

	test('a message bigger than a notice can be is never downloaded: listed by its envelope when a payment service sent it, the rest is read', async () => {
		const mailbox = 'Large'
		const newsletter = grown('01-venmo-paid-you.eml', 80_000, 'news').replace(
			'From: Venmo <venmo@venmo.com>',
			'From: Shop <news@shop.example>',
		)
		await folderWith(mailbox, [
			fixture('01-venmo-paid-you.eml'),
			grown('06-paypal-got-money.eml', 80_000, 'big-paypal'),
			newsletter,
			fixture('04-cashapp-base64.eml'),
		])
		const limits = { ...syncLimits('schedule'), maxMessageBytes: 64 * 1024 }
		const downloaded: number[] = []
		const plain = await readNewMessages(access(), null, (raw) => void downloaded.push(raw.length), { mailbox, limits })
		expect(downloaded).toHaveLength(2)
		expect(Math.max(...downloaded)).toBeLessThan(64 * 1024)
		expect(plain).toMatchObject({ read: 4, more: false, failure: null })

		const collected = await collectPayments(access(), null, { ...options, mailbox, limits })
		expect(collected.payments.map((p) => p.method)).toEqual(['Venmo', 'CashApp'])
		expect(collected.unreadable).toEqual([
			{ subject: "You've got money", sender: 'service@paypal.com', date: expect.stringMatching(/^2026-/), reason: 'too_large' },
		])
		expect(collected.ignored.unknown_sender).toBe(1)
		expect(collected.cursor).toEqual({ uidValidity: expect.any(String), lastUid: 4 })
	})

	test('a run stops at its byte budget with the cursor at the last message read; the next runs read on, each message once, within the first window', async () => {
		const mailbox = 'Budget'
		const files = ['01-venmo-paid-you.eml', '04-cashapp-base64.eml', '06-paypal-got-money.eml', '08-chase-zelle.eml']
		await folderWith(mailbox, files.slice(0, 2).map(fixture))
		// Older than the look-back window, with a higher UID than the first two: never read.
		await imap.appendMessage(fixture('09-bofa-zelle-1.eml'), { mailbox, date: new Date(Date.now() - 200 * DAY) })
		for (const file of files.slice(2)) await imap.appendMessage(fixture(file), { mailbox, date: new Date(Date.now() - DAY) })
		// A budget of one byte: each run reads one message (a run always reads at least one).
		const limits = { ...syncLimits('schedule'), runBytes: 1 }
		const seen: number[] = []
		let cursor: MailboxCursor | null = null
		const runs: Array<{ more: boolean; cursor: MailboxCursor }> = []
		for (let i = 0; i < 10; i++) {
			const run = await readNewMessages(access(), cursor, (_raw, uid) => void seen.push(uid), { mailbox, limits })
			runs.push(run)
			cursor = run.cursor
			if (!run.more) break
		}
		expect(seen).toEqual([1, 2, 4, 5])
		expect(runs.map((r) => r.more)).toEqual([true, true, true, false])
		// While the first read is unfinished its window is kept; once done, only new UIDs count.
		expect(runs[0]!.cursor).toEqual({ uidValidity: expect.any(String), lastUid: 1, since: expect.stringMatching(/^20/) })
		expect(runs[3]!.cursor).toEqual({ uidValidity: expect.any(String), lastUid: 5 })
	})

	test("the caller's signal stops a run cleanly: what was handled is kept, the connection closed, the next run goes on", async () => {
		const mailbox = 'Signal'
		const files = ['01-venmo-paid-you.eml', '04-cashapp-base64.eml', '06-paypal-got-money.eml', '08-chase-zelle.eml', '12-td-zelle.eml']
		await folderWith(mailbox, files.map(fixture))
		const stop = new AbortController()
		const first: number[] = []
		const run = await readNewMessages(
			access(),
			null,
			(_raw, uid) => {
				first.push(uid)
				if (first.length === 2) stop.abort()
			},
			{ mailbox, signal: stop.signal },
		)
		expect(run).toMatchObject({ more: true, failure: null, read: first.length })
		expect(run.cursor.lastUid).toBe(first.at(-1))
		const rest: number[] = []
		const next = await readNewMessages(access(), run.cursor, (_raw, uid) => void rest.push(uid), { mailbox })
		expect(next.more).toBe(false)
		expect([...first, ...rest]).toEqual([1, 2, 3, 4, 5])
		// Aborted before anything was read: a failure, not an empty success.
		const error = await readNewMessages(access(), null, () => undefined, { mailbox, signal: AbortSignal.abort() }).catch((e: unknown) => e)
		expect(error).toBeInstanceOf(MailboxError)
		expect((error as MailboxError).failure).toBe('timeout')
	})

	test('a message the server sends bigger than it announced is cut off by the literal cap: what came before is kept, that message skipped, the trouble reported', async () => {
		const mailbox = 'Liar'
		await folderWith(mailbox, [
			fixture('01-venmo-paid-you.eml'),
			grown('06-paypal-got-money.eml', 100_000, 'liar'),
			fixture('04-cashapp-base64.eml'),
		])
		// As if the server had announced the 100 KB message as small: the size check lets it through, the cap stops it.
		const limits = { ...syncLimits('schedule'), maxMessageBytes: 1024 * 1024, maxLiteralSize: 32 * 1024, maxResponseSize: 64 * 1024 }
		const seen: number[] = []
		const run = await readNewMessages(access(), null, (_raw, uid) => void seen.push(uid), { mailbox, limits })
		expect(seen).toEqual([1])
		expect(run).toMatchObject({ more: true, failure: 'protocol', cursor: { lastUid: 2 } })
		const next: number[] = []
		expect(await readNewMessages(access(), run.cursor, (_raw, uid) => void next.push(uid), { mailbox, limits })).toMatchObject({
			more: false,
			failure: null,
		})
		expect(next).toEqual([3])
	})
})
