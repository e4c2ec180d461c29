/**
 * The email sync's first read of a large mailbox: 10,000 messages (30% payment notices, the
 * rest newsletters of about 6 KB), read from a throwaway dovecot (tests/support/imap-server.ts)
 * through the mailbox reader and the notice parsers (app/.server/email-sync). Prints the time
 * and the peak RSS of this process. Not the import into transactions (not built yet).
 *   node_modules/.bin/tsx bench/email-sync.ts            BENCH_MESSAGES=2000 for a quick run
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { collectPayments } from '../app/.server/email-sync/mailbox.ts'
import { startImapServer } from '../tests/support/imap-server.ts'

const TOTAL = Number(process.env.BENCH_MESSAGES ?? 10_000)
const SHARE = 0.3
const DIR = path.resolve('tests/unit/fixtures/mailbox')
const notices = ['01-venmo-paid-you.eml', '04-cashapp-base64.eml', '06-paypal-got-money.eml', '08-chase-zelle.eml', '09-bofa-zelle-1.eml', '12-td-zelle.eml', '13-wellsfargo-zelle.eml'].map((f) =>
	readFileSync(path.join(DIR, f), 'utf8'),
)
const filler = `<p>${'Our weekly news: new arrivals, offers and stories from the community. '.repeat(80)}</p>`

function message(i: number) {
	if (i % 10 < SHARE * 10) {
		// A notice with its own Message-ID and id, so every one is a distinct payment.
		return notices[i % notices.length]!
			.replace(/Message-ID: <[^>]+>/, `Message-ID: <bench-${i}@fixtures.example.test>`)
			.replace(/(Payment ID: |Identifier #|Transaction ID\r\n|Transaction number: |Confirmation number: |Confirmation #: )(\w+)/, (_m, label: string, id: string) => `${label}${id.slice(0, -6)}${String(i).padStart(6, '0')}`)
	}
	return [
		'From: News <news@shop.example>',
		'To: owner@example.test',
		`Subject: Weekly news #${i}`,
		'Date: Fri, 20 Nov 2026 10:00:00 +0000',
		`Message-ID: <news-${i}@shop.example>`,
		'MIME-Version: 1.0',
		'Content-Type: text/html; charset=utf-8',
		'',
		filler,
		'',
	].join('\r\n')
}

const imap = await startImapServer()
try {
	const started = Date.now()
	imap.deliverToMaildir(Array.from({ length: TOTAL }, (_, i) => message(i)), new Date(Date.now() - 86_400_000))
	console.log(`mailbox of ${TOTAL} messages written in ${((Date.now() - started) / 1000).toFixed(1)} s`)
	readdirSync(DIR) // keep the fixture directory warm; nothing else
	let peak = process.memoryUsage().rss
	const baseline = peak
	const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50)
	const t0 = performance.now()
	const result = await collectPayments(
		{ host: imap.host, port: imap.port, tls: false, user: imap.user, password: imap.password },
		null,
		{ ownAddresses: ['owner@example.test'] },
	)
	const seconds = (performance.now() - t0) / 1000
	clearInterval(sampler)
	peak = Math.max(peak, process.memoryUsage().rss)
	const ignored = Object.values(result.ignored).reduce((a, b) => a + b, 0)
	console.table([
		{
			messages: result.read,
			payments: result.payments.length,
			ignored,
			unreadable: result.unreadable.length,
			'first sync (s)': seconds.toFixed(1),
			'messages/s': Math.round(result.read / seconds),
			'RSS before (MB)': Math.round(baseline / 1024 / 1024),
			'peak RSS (MB)': Math.round(peak / 1024 / 1024),
			target: '60 s, 300 MB',
		},
	])
} finally {
	await imap.stop()
}
