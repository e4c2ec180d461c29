/**
 * Import of a 100,000-row file (issue target: under 10 s and 300 MB RSS on the PostgreSQL
 * server). Writes a Venmo statement of BENCH_IMPORT_ROWS rows besides its header (default
 * 100,000, the import's limit: its balance, disclaimer and two preamble rows, and the rest received
 * payments; 1,000 clients, payers a mix of one-client, two-client and unknown names), then runs the one
 * import pipeline (app/.server/payments/imports/pipeline.ts) on a fresh database of the PostgreSQL test
 * server: parse + stage (the preview), commit (chunk by chunk, set-based statements), and the same file
 * again (every row a duplicate). Prints the times and the process's peak RSS; not a pass/fail test.
 * Then the same file goes through the built server (`npm run build` first) as a user sends it:
 * signed in, uploaded to the import screen, committed from its preview; the server process's
 * peak RSS (VmHWM) is the product's own figure. BENCH_IMPORT_SERVER=0 skips that part.
 *
 *   node_modules/.bin/tsx bench/imports.ts
 *   BENCH_IMPORT_ROWS=20000 node_modules/.bin/tsx bench/imports.ts
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { freshPgDatabase } from './pg-database.ts'
import { startFlags } from './server.ts'
import { asSystem, closeDatabase, openDatabase, sql } from '../app/.server/db/index.ts'
import { migrate } from '../app/.server/db/migrate.ts'
import { commitImport, importPayments } from '../app/.server/payments/imports/pipeline.ts'

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000)
const CLIENTS = 1_000
const TARGET_S = 10
const TARGET_MB = 300
const root = path.resolve(import.meta.dirname, '..')

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)

function venmoFile(rows: number) {
	const lines = [
		'Account Statement - (@bench) ,,,,,,,,,,,',
		'Account Activity,,,,,,,,,,,',
		',ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (fee),Beginning Balance,Disclaimer',
		',,,,,,,,,,$0.00,',
	]
	for (let i = 0; i < rows; i++) {
		const id = String(3_900_000_000_000_000_000n + BigInt(i))
		const day = String(1 + (i % 28)).padStart(2, '0')
		const month = String(1 + (Math.floor(i / 28) % 12)).padStart(2, '0')
		// A third known clients, a tenth a name two clients share, the rest unknown payers.
		const payer = i % 3 === 0 ? `Client ${i % CLIENTS}` : i % 10 === 1 ? 'Shared Name' : `Payer ${i % 5_000}`
		const cents = 100 + ((i * 7919) % 100_000)
		const amount = `+ $${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`
		lines.push(`,${id},2026-${month}-${day}T10:00:00,Payment,Complete,Session ${i % 50},${payer},Bench,"${amount}",,,`)
	}
	lines.push(',,,,,,,,,,,"In case of errors or questions about your electronic transfers, contact us."')
	return lines.join('\n')
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
	const start = performance.now()
	const value = await fn()
	return [value, (performance.now() - start) / 1000]
}

type ChildResult = {
	stageSeconds: number
	commitSeconds: number
	againSeconds: number
	maxRss: number
	baseline: number
	counts: Record<string, number>
	again: Record<string, number>
}

/**
 * The import runs in a child process that only reads the file and imports it, so its peak RSS
 * is the import's (plus Node and the app's modules), not the file generator's.
 */
async function child([url, orgId, userId, filePath]: string[]) {
	await openDatabase({ kind: 'pg', url: url!, max: 4 })
	const baseline = process.memoryUsage().rss
	const file = readFileSync(filePath!, 'utf8')
	const [staged, stageSeconds] = await timed(() =>
		importPayments({ organizationId: orgId!, userId: userId!, file, label: 'bench.csv', mode: 'preview' }),
	)
	if (!staged.ok || staged.status !== 'staged') throw new Error('not staged')
	const [committed, commitSeconds] = await timed(() => commitImport(userId!, staged.batch.batchId))
	if (!committed.ok) throw new Error(committed.code)
	const [again, againSeconds] = await timed(() => importPayments({ organizationId: orgId!, userId: userId!, file, label: 'bench.csv' }))
	if (!again.ok || again.status !== 'committed') throw new Error('re-import not committed')
	await closeDatabase()
	const result: ChildResult = {
		stageSeconds,
		commitSeconds,
		againSeconds,
		baseline,
		maxRss: process.resourceUsage().maxRSS * 1024,
		counts: committed.batch.counts,
		again: again.batch.counts,
	}
	process.stdout.write(JSON.stringify(result))
}

async function main() {
	const { name, url, drop } = await freshPgDatabase('p2p_bench_imports')
	await openDatabase({ kind: 'pg', url, max: 4 })
	const dir = mkdtempSync(path.join(tmpdir(), 'p2p-bench-imports-'))
	try {
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
			const orgId = org.rows[0]!.organization_id
			await sql`insert into public.clients (organization_id, name)
				select ${orgId}::uuid, 'Client ' || g from generate_series(0, ${CLIENTS - 1}) g
				union all select ${orgId}::uuid, 'Shared Name' from generate_series(1, 2)`.execute(trx)
			return { userId, orgId }
		})
		await closeDatabase()
		const filePath = path.join(dir, 'venmo.csv')
		// The preamble, balance and disclaimer rows count against the row limit (app/lib/imports.ts).
		const text = venmoFile(ROWS - 4)
		writeFileSync(filePath, text)
		const out = execFileSync(
			path.join(root, 'node_modules/.bin/tsx'),
			[import.meta.filename, '--child', url, owner.orgId, owner.userId, filePath],
			{
				encoding: 'utf8',
				maxBuffer: 1024 * 1024,
			},
		)
		const r = JSON.parse(out) as ChildResult
		const total = r.stageSeconds + r.commitSeconds
		const c = r.counts
		const rows: [string, string][] = [
			[
				'file',
				`${ROWS.toLocaleString('en-US')} rows (${(ROWS - 4).toLocaleString('en-US')} payments), ${mb(Buffer.byteLength(text))} MB (Venmo layout), ${CLIENTS.toLocaleString('en-US')} clients`,
			],
			['parse + dedupe check + stage (preview)', `${r.stageSeconds.toFixed(2)} s`],
			['commit (chunk by chunk, set-based)', `${r.commitSeconds.toFixed(2)} s`],
			['upload to committed', `${total.toFixed(2)} s ${total <= TARGET_S ? 'ok' : 'OVER'} (target ${TARGET_S} s)`],
			['created / matched / review / unmatched', `${c.created} / ${c.matched} / ${c.review} / ${c.unmatched}`],
			[
				'same file again (all duplicates), committed',
				`${r.againSeconds.toFixed(2)} s, created ${r.again.created}, duplicates ${r.again.duplicates}`,
			],
			[
				'peak RSS of the importing process',
				`${mb(r.maxRss)} MB ${mb(r.maxRss) <= TARGET_MB ? 'ok' : 'OVER'} (target ${TARGET_MB} MB; ${mb(r.baseline)} MB with the modules loaded, before reading the file)`,
			],
		]
		if (process.env.BENCH_IMPORT_SERVER !== '0') {
			const s = await throughServer(text)
			const total = s.stageSeconds + s.commitSeconds
			rows.push(
				['built server: upload to preview', `${s.stageSeconds.toFixed(2)} s`],
				['built server: commit from the preview', `${s.commitSeconds.toFixed(2)} s`],
				['built server: upload to committed', `${total.toFixed(2)} s ${total <= TARGET_S ? 'ok' : 'OVER'} (target ${TARGET_S} s)`],
				[
					'built server: peak RSS (VmHWM)',
					`${mb(s.peak)} MB ${mb(s.peak) <= TARGET_MB ? 'ok' : 'OVER'} (target ${TARGET_MB} MB; ${mb(s.idle)} MB idle before the upload)`,
				],
			)
		}
		rows.push(['load average (1 min) when done', loadavg()[0]!.toFixed(1) + ` on ${cpus().length} cores`])
		const width = Math.max(...rows.map(([k]) => k!.length))
		console.log(`\nImport benchmark: PostgreSQL server (scripts/pg-test-server.sh, fsync off), database ${name}\n`)
		for (const [k, v] of rows) console.log(`${k!.padEnd(width)}  ${v}`)
	} finally {
		rmSync(dir, { recursive: true, force: true })
		await closeDatabase()
		await drop()
	}
}

const SERVER_PORT = Number(process.env.BENCH_PORT ?? 4295)

/** Peak and current RSS of a process, from /proc (Linux). */
function memoryOf(pid: number) {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8')
	const kb = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0) * 1024
	return { peak: kb('VmHWM'), now: kb('VmRSS') }
}

/** The file through the built server: sign up, upload, preview, commit; the server's peak RSS. */
async function throughServer(text: string) {
	const base = `http://127.0.0.1:${SERVER_PORT}`
	const databaseUrl = execFileSync('bash', [path.join(root, 'scripts/e2e-database.sh')], { encoding: 'utf8' }).trim()
	const dataDir = mkdtempSync(path.join(tmpdir(), 'p2p-bench-imports-server-'))
	const server = spawn('node', [...startFlags, 'server.js'], {
		cwd: root,
		env: {
			...process.env,
			PORT: String(SERVER_PORT),
			HOST: '127.0.0.1',
			DATA_DIR: dataDir,
			DATABASE_URL: databaseUrl,
			SESSION_SECRET: 'bench-session-secret-of-at-least-32-characters',
			LOG_LEVEL: 'silent',
			NODE_ENV: 'production',
		},
		stdio: ['ignore', 'ignore', 'inherit'],
	})
	try {
		for (let i = 0; ; i++) {
			if (i > 240) throw new Error('server did not start')
			if (
				await fetch(`${base}/healthz`).then(
					(r) => r.ok,
					() => false,
				)
			)
				break
			await new Promise((r) => setTimeout(r, 500))
		}
		const email = `bench-import-${Date.now()}@example.test`
		const signup = new URLSearchParams({
			intent: 'signup',
			fullName: 'Bench Importer',
			email,
			password: 'correct-horse-1',
			confirmPassword: 'correct-horse-1',
		})
		const res = await fetch(`${base}/auth?mode=signup`, { method: 'POST', body: signup, redirect: 'manual', headers: { origin: base } })
		const cookie = res.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ')
		if (res.status !== 302 || !cookie) throw new Error(`sign-up answered ${res.status}`)
		const db = new pg.Client({ connectionString: databaseUrl })
		await db.connect()
		await db.query(
			`insert into public.clients (organization_id, name)
			 select m.organization_id, c.name from public.organization_members m join auth.users u on u.id = m.user_id,
			 (select 'Client ' || g as name from generate_series(0, $2::int - 1) g union all select 'Shared Name' from generate_series(1, 2)) c
			 where u.email = $1`,
			[email, CLIENTS],
		)
		await db.end()
		const headers = { cookie, origin: base }
		await fetch(`${base}/app/transactions/import`, { headers }).then((r) => r.text())
		const idle = memoryOf(server.pid!).now
		const form = new FormData()
		form.set('intent', 'upload')
		form.set('file', new Blob([text], { type: 'text/csv' }), 'venmo.csv')
		const [upload, stageSeconds] = await timed(() =>
			fetch(`${base}/app/transactions/import`, { method: 'POST', body: form, headers, redirect: 'manual' }),
		)
		const preview = upload.headers.get('location')
		if (upload.status !== 302 || !preview?.startsWith('/app/transactions/import/'))
			throw new Error(`upload answered ${upload.status} ${preview}`)
		const [commit, commitSeconds] = await timed(() =>
			fetch(`${base}${preview}`, { method: 'POST', body: new URLSearchParams({ intent: 'commit' }), headers, redirect: 'manual' }),
		)
		if (commit.status !== 302 || !commit.headers.get('location')?.endsWith('/import/history'))
			throw new Error(`commit answered ${commit.status}`)
		return { stageSeconds, commitSeconds, idle, ...memoryOf(server.pid!) }
	} finally {
		server.kill('SIGTERM')
		rmSync(dataDir, { recursive: true, force: true })
	}
}

if (process.argv[2] === '--child') await child(process.argv.slice(3))
else await main()
