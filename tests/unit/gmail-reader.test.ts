/**
 * The Gmail reader against a small stand-in for the two Gmail API calls it makes (list with a
 * query, get with format=raw), served from the fixture mailbox: Google itself is not reachable
 * from tests.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readGmailMessages } from '#app/.server/payments/email-sync/gmail-reader.ts'
import { MailboxError } from '#app/.server/payments/email-sync/mailbox.ts'

const DIR = path.resolve('tests/unit/fixtures/mailbox')
const NOW = new Date('2026-11-22T12:00:00Z')
type Stored = { id: string; file: string; internalDate: number }
const mailbox: Stored[] = [
	{ id: 'old', file: '08-chase-zelle.eml', internalDate: NOW.getTime() - 200 * 86_400_000 },
	{ id: 'a', file: '01-venmo-paid-you.eml', internalDate: NOW.getTime() - 2 * 86_400_000 },
	{ id: 'b', file: '04-cashapp-base64.eml', internalDate: NOW.getTime() - 86_400_000 },
]
const queries: string[] = []
let server: Server
let baseUrl = ''

beforeAll(async () => {
	server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://x')
		if (req.headers.authorization !== 'Bearer good-token') {
			res.writeHead(401).end('{}')
			return
		}
		const get = /\/gmail\/v1\/users\/me\/messages\/([^/]+)$/.exec(url.pathname)
		res.setHeader('content-type', 'application/json')
		if (get) {
			const m = mailbox.find((x) => x.id === decodeURIComponent(get[1]!))!
			res.end(
				JSON.stringify({ id: m.id, internalDate: String(m.internalDate), raw: readFileSync(path.join(DIR, m.file)).toString('base64url') }),
			)
			return
		}
		const q = url.searchParams.get('q') ?? ''
		queries.push(q)
		const after = Number(/after:(\d+)/.exec(q)?.[1] ?? 0) * 1000
		const hits = mailbox.filter((m) => m.internalDate > after).sort((x, y) => y.internalDate - x.internalDate)
		res.end(JSON.stringify({ messages: hits.map((m) => ({ id: m.id })) }))
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const address = server.address()
	baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('reading Gmail through the API', () => {
	test('a first sync reads the last 90 days oldest first; the next reads only what is new', async () => {
		const read: string[] = []
		const first = await readGmailMessages(
			'good-token',
			null,
			(raw, id) => void read.push(`${id}:${raw.toString('utf8').includes('From:')}`),
			{ baseUrl, now: NOW },
		)
		expect(read).toEqual(['a:true', 'b:true'])
		expect(first.cursor).toEqual({ after: Math.floor(mailbox[2]!.internalDate / 1000), edgeIds: ['b'] })

		const again: string[] = []
		const second = await readGmailMessages('good-token', first.cursor, (_raw, id) => void again.push(id), { baseUrl, now: NOW })
		expect(again).toEqual([])
		expect(second.cursor).toEqual(first.cursor)

		mailbox.push({ id: 'c', file: '12-td-zelle.eml', internalDate: NOW.getTime() - 1000 })
		const third: string[] = []
		await readGmailMessages('good-token', second.cursor, (_raw, id) => void third.push(id), { baseUrl, now: NOW })
		expect(third).toEqual(['c'])
		expect(queries.every((q) => /^after:\d+$/.test(q))).toBe(true)
	})

	test('a refused token is a failed login', async () => {
		const error = await readGmailMessages('revoked', null, () => undefined, { baseUrl, now: NOW }).catch((e: unknown) => e)
		expect(error).toBeInstanceOf(MailboxError)
		expect((error as MailboxError).failure).toBe('auth')
	})
})

test('Gmail messages go through the same parsers as IMAP ones', async () => {
	const { noticeCollector } = await import('#app/.server/payments/email-sync/mailbox.ts')
	const collector = noticeCollector({ ownAddresses: ['owner@example.test'] })
	await readGmailMessages('good-token', null, collector.add, { baseUrl, now: NOW })
	expect(collector.result.payments.map((p) => [p.method, p.payer, p.amount]).slice(0, 2)).toEqual([
		['Venmo', 'Jane Doe', '25.00'],
		['CashApp', 'Ana Silva', '40.00'],
	])
})
