/**
 * The email sync's first run on a large mailbox (issue target: under 60 s and 300 MB RSS on the
 * PostgreSQL server). A throwaway dovecot (tests/support/imap-server.ts) gets BENCH_MESSAGES
 * messages (default 10,000; 30% payment notices made from the fixture mailbox, each with its
 * own id, the rest ~6 KB HTML newsletters); a fresh database of the PostgreSQL test server gets
 * an owner with the email upgrade and that mailbox connected. Then `syncMailbox`
 * (app/.server/payments/email-sync/sync.ts), the Sync button's entry point, runs in a child process:
 * read-only IMAP read, parsers, the import pipeline (one batch), the cursor. A second run (nothing
 * new) follows. Prints times and the child's peak RSS; not a pass/fail test.
 *
 *   node_modules/.bin/tsx bench/email-sync.ts
 *   BENCH_MESSAGES=2000 node_modules/.bin/tsx bench/email-sync.ts
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { freshPgDatabase } from './pg-database.ts'
import { startImapServer } from '../tests/support/imap-server.ts'

process.env.SECRETS_KEY ??= 'bench-secrets-key-of-at-least-32-characters!'
process.env.SESSION_SECRET ??= 'bench-session-secret-of-at-least-32-characters'
process.env.LOG_LEVEL ??= 'silent'
// The bench's Dovecot listens on 127.0.0.1, a private address the connector refuses by default.
process.env.IMAP_ALLOW_PRIVATE_HOSTS ??= 'true'

const TOTAL = Number(process.env.BENCH_MESSAGES ?? 10_000)
const SHARE = 0.3
const TARGET_S = 60
const TARGET_MB = 300
const EMAIL_UPGRADE = 'c0000000-0000-4000-8000-000000000001'
const root = path.resolve(import.meta.dirname, '..')
const DIR = path.join(root, 'tests/unit/fixtures/mailbox')
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)

function message(notices: string[], filler: string, i: number) {
	if (i % 10 < SHARE * 10) {
		// A notice with its own Message-ID and id, so every one is a distinct payment.
		return notices[i % notices.length]!.replace(/Message-ID: <[^>]+>/, `Message-ID: <bench-${i}@fixtures.example.test>`).replace(
			/(Payment ID: |Identifier #|Transaction ID\r?\n|Transaction number: |Confirmation number: |Confirmation #: )(\w+)/,
			(_m, label: string, id: string) => `${label}${id.slice(0, -6)}${String(i).padStart(6, '0')}`,
		)
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

/** A single-part base64 notice as 8bit text, so its id can be made unique like the others'. */
function decodeBase64Body(raw: string) {
	const split = raw.indexOf('\r\n\r\n')
	const head = raw.slice(0, split)
	if (!/^Content-Transfer-Encoding: base64$/im.test(head)) return raw
	const body = Buffer.from(raw.slice(split + 4).replace(/\s+/g, ''), 'base64').toString('utf8')
	return `${head.replace(/^Content-Transfer-Encoding: base64$/im, 'Content-Transfer-Encoding: 8bit')}\r\n\r\n${body}\r\n`
}

type ChildResult = { firstSeconds: number; secondSeconds: number; maxRss: number; baseline: number; first: unknown; second: unknown }

/** The sync runs in a child process that only syncs, so its peak RSS is the sync's (plus Node and the app's modules). */
async function child([url, orgId, userId]: string[]) {
	const { closeDatabase, openDatabase } = await import('../app/.server/db/index.ts')
	const { syncMailbox } = await import('../app/.server/payments/email-sync/sync.ts')
	await openDatabase({ kind: 'pg', url: url!, max: 4 })
	const baseline = process.memoryUsage().rss
	let start = performance.now()
	const first = await syncMailbox(orgId!, { trigger: 'button', userId: userId! })
	const firstSeconds = (performance.now() - start) / 1000
	start = performance.now()
	const second = await syncMailbox(orgId!, { trigger: 'button', userId: userId! })
	const secondSeconds = (performance.now() - start) / 1000
	await closeDatabase()
	const result: ChildResult = { firstSeconds, secondSeconds, baseline, maxRss: process.resourceUsage().maxRSS * 1024, first, second }
	process.stdout.write(JSON.stringify(result))
}

async function main() {
	const { asSystem, asUser, closeDatabase, openDatabase, sql } = await import('../app/.server/db/index.ts')
	const { migrate } = await import('../app/.server/db/migrate.ts')
	const { saveConnection } = await import('../app/.server/payments/email-sync/connections.ts')
	const { name, url, drop } = await freshPgDatabase('p2p_bench_email_sync')
	const imap = await startImapServer()
	try {
		const notices = [
			'01-venmo-paid-you.eml',
			'04-cashapp-base64.eml',
			'06-paypal-got-money.eml',
			'08-chase-zelle.eml',
			'09-bofa-zelle-1.eml',
			'12-td-zelle.eml',
			'13-wellsfargo-zelle.eml',
		].map((f) => decodeBase64Body(readFileSync(path.join(DIR, f), 'utf8')))
		const filler = `<p>${'Our weekly news: new arrivals, offers and stories from the community. '.repeat(80)}</p>`
		const started = performance.now()
		imap.deliverToMaildir(
			Array.from({ length: TOTAL }, (_, i) => message(notices, filler, i)),
			new Date(Date.now() - 86_400_000),
		)
		const writeSeconds = (performance.now() - started) / 1000

		await openDatabase({ kind: 'pg', url, max: 4 })
		await migrate(root)
		const owner = await asSystem(async (trx) => {
			const user = await sql<{ id: string }>`
				insert into auth.users (email, raw_user_meta_data) values (${`bench-${Date.now()}@example.test`}, '{"full_name":"Bench"}'::jsonb) returning id`.execute(
				trx,
			)
			const userId = user.rows[0]!.id
			const org = await sql<{
				organization_id: string
			}>`select organization_id from public.organization_members where user_id = ${userId}`.execute(trx)
			return { userId, orgId: org.rows[0]!.organization_id }
		})
		await asUser(owner.userId, (trx) => sql`select public.purchase_upgrade(${owner.orgId}, ${EMAIL_UPGRADE})`.execute(trx))
		const saved = await saveConnection(owner.userId, owner.orgId, EMAIL_UPGRADE, {
			provider: 'imap',
			account: imap.user,
			settings: { host: imap.host, port: imap.port, tls: false, user: imap.user },
			password: imap.password,
		})
		if (!saved.ok) throw new Error(`connection not saved: ${saved.code}`)
		await closeDatabase()

		const out = execFileSync(path.join(root, 'node_modules/.bin/tsx'), [import.meta.filename, '--child', url, owner.orgId, owner.userId], {
			encoding: 'utf8',
			maxBuffer: 1024 * 1024,
			env: process.env,
		})
		const r = JSON.parse(out) as ChildResult
		const first = r.first as { ok: boolean; counts?: Record<string, number>; code?: string }
		const second = r.second as { ok: boolean; counts?: Record<string, number>; code?: string }
		if (!first.ok || !second.ok) throw new Error(`sync failed: ${JSON.stringify({ first, second })}`)
		const c = first.counts!
		const rows = [
			[
				'mailbox',
				`${TOTAL.toLocaleString('en-US')} messages (${Math.round(SHARE * 100)}% payment notices), written in ${writeSeconds.toFixed(1)} s`,
			],
			[
				'first sync (read, parse, import, cursor)',
				`${r.firstSeconds.toFixed(1)} s ${r.firstSeconds <= TARGET_S ? 'ok' : 'OVER'} (target ${TARGET_S} s)`,
			],
			[
				'read / created / duplicates / ignored / not understood / errors',
				`${c.read} / ${c.created} / ${c.duplicates} / ${c.ignored} / ${c.unreadable} / ${c.errors}`,
			],
			['second sync (nothing new)', `${r.secondSeconds.toFixed(2)} s, read ${second.counts!.read}, created ${second.counts!.created}`],
			[
				'peak RSS of the syncing process',
				`${mb(r.maxRss)} MB ${mb(r.maxRss) <= TARGET_MB ? 'ok' : 'OVER'} (target ${TARGET_MB} MB; ${mb(r.baseline)} MB with the modules loaded)`,
			],
			['load average (1 min) when done', loadavg()[0]!.toFixed(1) + ` on ${cpus().length} cores`],
		]
		const width = Math.max(...rows.map(([k]) => k!.length))
		console.log(`\nEmail sync benchmark: PostgreSQL server (scripts/pg-test-server.sh, fsync off), database ${name}\n`)
		for (const [k, v] of rows) console.log(`${k!.padEnd(width)}  ${v}`)
	} finally {
		await imap.stop()
		await closeDatabase().catch(() => undefined)
		await drop()
	}
}

if (process.argv[2] === '--child') await child(process.argv.slice(3))
else await main()
