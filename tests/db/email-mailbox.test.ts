/**
 * The email sync's mailbox reader against a real IMAP server started by the test (dovecot,
 * tests/support/imap-server.ts), with the fixture mailbox of tests/unit/fixtures/mailbox.
 * No database is involved: it runs once, in the PGlite project.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { collectPayments, MailboxError, readNewMessages } from '#app/.server/email-sync/mailbox.ts'
import { startImapServer, type ImapServer } from '#tests/support/imap-server.ts'
import { isDbTarget } from './fixtures.ts'

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
		for (const file of readdirSync(DIR).filter((f) => f.endsWith('.eml')).sort()) {
			await imap.appendMessage(fixture(file), { mailbox, date: new Date(Date.now() - 2 * DAY) })
		}
		const first = await collectPayments(access(), null, { ...options, mailbox })
		expect(first.read).toBe(21)
		expect(first.payments).toHaveLength(12)
		expect(first.ignored).toEqual({ outgoing: 2, request: 1, other: 1, spoofed: 1, unknown_sender: 2 })
		expect(first.unreadable).toEqual([
			{ subject: 'You have a new payment', sender: 'venmo@venmo.com', date: expect.stringMatching(/^2026-/) },
			{ subject: 'Hans Weber sent you €20.00 EUR', sender: 'service@paypal.com', date: expect.stringMatching(/^2026-/) },
		])
		expect(first.cursor).toEqual({ uidValidity: expect.any(String), lastUid: 22 })
		expect(first.reread).toBe(false)

		const second = await collectPayments(access(), first.cursor, { ...options, mailbox })
		expect([second.read, second.payments.length]).toEqual([0, 0])
		expect(second.cursor).toEqual(first.cursor)

		await imap.appendMessage(fixture('12-td-zelle.eml'), { mailbox })
		const third = await collectPayments(access(), second.cursor, { ...options, mailbox })
		expect(third.read).toBe(1)
		expect(third.payments).toEqual([expect.objectContaining({ payer: 'Linda Kim', amount: '90.00', externalId: 'TDZ84736251' })])
		expect(third.cursor.lastUid).toBe(23)

		// Read-only: no message got the \Seen flag or any other (\Recent is the server's own).
		const check = await imap.client()
		await check.mailboxOpen(mailbox, { readOnly: true })
		const flags: string[] = []
		for await (const m of check.fetch('1:*', { flags: true })) flags.push(...[...(m.flags ?? [])].filter((f) => f !== '\\Recent'))
		await check.logout()
		expect(flags).toEqual([])
	})

	test('when the folder\'s UIDVALIDITY changes, the look-back window is read again', async () => {
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
})
