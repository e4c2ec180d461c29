/**
 * Other requests while a 100,000-row import runs (docs/decisions/016-imports.md, "Limits"): the
 * built server (npm run build first), on the embedded database by default, the demo organization
 * seeded. One user signs up and imports a Venmo statement of 100,000 rows (besides its header)
 * into an organization of their own, uploaded to the import screen and committed from its
 * preview, as a browser sends them; meanwhile a prober asks, one after the other, `/healthz`
 * and the demo owner's `/app/transactions` (another organization, signed in). Printed: the
 * probes' p50 / p95 / max at rest, while the file is staged and while it is committed; how long
 * the upload, a look at its preview and the commit took; a second file of the same organization sent while the first
 * is read (refused at once); and a file of 100,001 rows (refused before anything is staged).
 * Not a pass/fail test.
 *
 *   node_modules/.bin/tsx bench/import-latency.ts
 *   BENCH_DATABASE=pg node_modules/.bin/tsx bench/import-latency.ts    # the PostgreSQL test server
 *   BENCH_DIR=/path/to/checkout …                                      # a copy with its own build/
 */
import { randomUUID } from 'node:crypto'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { signIn, startServer } from './server.ts'

const PORT = Number(process.env.BENCH_PORT ?? 4410)
const DATABASE = process.env.BENCH_DATABASE === 'pg' ? 'pg' : 'embedded'
const REST_SECONDS = Number(process.env.BENCH_REST_SECONDS ?? 15)
const ROWS = 100_000

/**
 * A Venmo statement of `rows` rows besides its header: two preamble lines before the header, a
 * balance row and a disclaimer row around the payments (so `rows - 4` payments). A third of the
 * payers named alike, a tenth a shared name, the rest unknown: matching does its usual work.
 */
function venmoFile(rows: number) {
	const lines = [
		'Account Statement - (@bench) ,,,,,,,,,,,',
		'Account Activity,,,,,,,,,,,',
		',ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (fee),Beginning Balance,Disclaimer',
		',,,,,,,,,,$0.00,',
	]
	for (let i = 0; i < rows - 4; i++) {
		const id = String(3_800_000_000_000_000_000n + BigInt(i))
		const day = String(1 + (i % 28)).padStart(2, '0')
		const month = String(1 + (Math.floor(i / 28) % 12)).padStart(2, '0')
		const payer = i % 3 === 0 ? `Client ${i % 1000}` : i % 10 === 1 ? 'Shared Name' : `Payer ${i % 5_000}`
		const cents = 100 + ((i * 7919) % 100_000)
		lines.push(
			`,${id},2026-${month}-${day}T10:00:00,Payment,Complete,Session ${i % 50},${payer},Bench,"+ $${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}",,,`,
		)
	}
	lines.push(',,,,,,,,,,,"In case of errors or questions about your electronic transfers, contact us."')
	return lines.join('\n')
}

type Probe = { path: string; ms: number; status: number }

/** Asks the paths in turn, one request at a time (as one user clicking), until stopped. */
function prober(base: string, paths: [string, Record<string, string>][]) {
	const probes: Probe[] = []
	let stopped = false
	const done = (async () => {
		for (let i = 0; !stopped; i++) {
			const [path, headers] = paths[i % paths.length]!
			const start = performance.now()
			const response = await fetch(`${base}${path}`, { headers, redirect: 'manual' })
			await response.arrayBuffer()
			probes.push({ path, ms: performance.now() - start, status: response.status })
			await sleep(20)
		}
	})()
	return {
		async stop() {
			stopped = true
			await done
			return probes
		},
	}
}

function stats(probes: Probe[], path: string) {
	const ms = probes
		.filter((p) => p.path === path)
		.map((p) => p.ms)
		.sort((a, b) => a - b)
	const bad = probes.filter((p) => p.path === path && p.status !== 200).length
	if (ms.length === 0) return 'no probe'
	const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(0)
	return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${ms.at(-1)!.toFixed(0)} ms (n ${ms.length}${bad ? `, ${bad} not 200` : ''})`
}

async function upload(base: string, cookie: string, name: string, text: string, progress?: string) {
	const form = new FormData()
	form.set('intent', 'upload')
	if (progress) form.set('progress', progress)
	form.set('file', new Blob([text], { type: 'text/csv' }), name)
	const start = performance.now()
	const response = await fetch(`${base}/app/transactions/import`, {
		method: 'POST',
		body: form,
		headers: { cookie, origin: base },
		redirect: 'manual',
	})
	const html = await response.text()
	return { status: response.status, location: response.headers.get('location'), html, seconds: (performance.now() - start) / 1000 }
}

const server = await startServer({ port: PORT, database: DATABASE, demo: true, dir: process.env.BENCH_DIR })
try {
	const base = server.base
	if (!server.demo) throw new Error('no demo sign-in printed by the server')
	const demoCookie = await signIn(base, server.demo)
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

	const paths: [string, Record<string, string>][] = [
		['/healthz', {}],
		['/app/transactions', { cookie: demoCookie }],
	]
	// Warm: the pages' first renders, the statements prepared.
	for (let i = 0; i < 10; i++) for (const [path, headers] of paths) await (await fetch(`${base}${path}`, { headers })).arrayBuffer()
	const restRss = server.rssMb()
	let peakRss = restRss
	const memory = setInterval(() => (peakRss = Math.max(peakRss, server.rssMb())), 200)

	const rest = prober(base, paths)
	await sleep(REST_SECONDS * 1000)
	const atRest = await rest.stop()

	const text = venmoFile(ROWS)
	const staging = prober(base, paths)
	const token = randomUUID()
	const first = upload(base, cookie, 'venmo-100k.csv', text, token)
	// A second file of the same organization once the first is being read (its progress says so): refused at once.
	for (;;) {
		const progress = (await (await fetch(`${base}/app/transactions/import/progress/${token}`, { headers: { cookie } })).json()) as {
			share: number
		} | null
		if (progress && progress.share > 0.01) break
		await sleep(100)
	}
	const second = await upload(base, cookie, 'second.csv', venmoFile(10))
	const staged = await first
	const duringStaging = await staging.stop()
	if (staged.status !== 302 || !staged.location?.startsWith('/app/transactions/import/'))
		throw new Error(`upload answered ${staged.status}`)

	// A look at the preview: what it costs once the file is staged (the median of three).
	const views: number[] = []
	for (let i = 0; i < 3; i++) {
		const start = performance.now()
		const view = await fetch(`${base}${staged.location}`, { headers: { cookie } })
		await view.arrayBuffer()
		if (view.status !== 200) throw new Error(`preview answered ${view.status}`)
		views.push(performance.now() - start)
	}
	const previewMs = views.sort((a, b) => a - b)[1]!

	const committing = prober(base, paths)
	const commitStart = performance.now()
	const commit = await fetch(`${base}${staged.location}`, {
		method: 'POST',
		body: new URLSearchParams({ intent: 'commit' }),
		headers: { cookie, origin: base },
		redirect: 'manual',
	})
	const commitSeconds = (performance.now() - commitStart) / 1000
	const duringCommit = await committing.stop()
	if (commit.status !== 302 || !commit.headers.get('location')?.endsWith('/import/history'))
		throw new Error(`commit answered ${commit.status}`)

	const over = await upload(base, cookie, 'venmo-100k-plus-1.csv', venmoFile(ROWS + 1))
	clearInterval(memory)

	const refusedOver = over.status === 200 && over.html.includes('The file has more than 100,000 rows') && !over.location
	const refusedSecond =
		second.status === 200 && second.html.includes('Another import of this organization is in progress') && !second.location
	const rows: [string, string][] = [
		[
			'file',
			`${ROWS.toLocaleString('en-US')} rows (${(ROWS - 4).toLocaleString('en-US')} payments), ${(Buffer.byteLength(text) / 1024 / 1024).toFixed(1)} MB, Venmo layout`,
		],
		['/healthz at rest', stats(atRest, '/healthz')],
		['/app/transactions at rest', stats(atRest, '/app/transactions')],
		['upload to preview (staging)', `${staged.seconds.toFixed(1)} s`],
		['/healthz while staging', stats(duringStaging, '/healthz')],
		['/app/transactions while staging', stats(duringStaging, '/app/transactions')],
		['a look at the preview (median of 3)', `${previewMs.toFixed(0)} ms`],
		['commit from the preview', `${commitSeconds.toFixed(1)} s`],
		['/healthz while committing', stats(duringCommit, '/healthz')],
		['/app/transactions while committing', stats(duringCommit, '/app/transactions')],
		[
			'second file of the organization meanwhile',
			`${refusedSecond ? 'refused' : 'NOT REFUSED'} in ${(second.seconds * 1000).toFixed(0)} ms`,
		],
		[
			`${(ROWS + 1).toLocaleString('en-US')}-row file`,
			`${refusedOver ? 'refused, nothing staged' : `NOT REFUSED (${over.status})`} in ${(over.seconds * 1000).toFixed(0)} ms`,
		],
		['server RSS (both threads when embedded)', `${restRss.toFixed(0)} MB at rest, ${peakRss.toFixed(0)} MB the highest sampled`],
		['load average (1 min) when done', `${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`],
	]
	const width = Math.max(...rows.map(([k]) => k.length))
	console.log(`\nImport latency benchmark: built server, ${DATABASE === 'pg' ? 'PostgreSQL test server' : 'embedded database'}\n`)
	for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`)
	const errors = server.stderr().filter((line) => /"level":"error"|Error/.test(line))
	if (errors.length) console.log(`\nserver errors:\n${errors.slice(0, 10).join('\n')}`)
} catch (error) {
	// A server that stopped answering says why on its stderr.
	console.error(server.stderr().slice(-20).join('\n'))
	throw error
} finally {
	await server.stop()
}
