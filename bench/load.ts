/**
 * Load (issue "Quality gates", item 4): the built server (npm run build first) on the PostgreSQL
 * test server and on the embedded database, both with the demo data, measured by autocannon from
 * this process (the server is a child process of its own). For each page: req/s, p50 and p99 at
 * 20 connections, and req/s as a share of the server's own 404 page (the floor: SSR, no data),
 * measured again right before each page (the machine's speed drifts within minutes).
 * Then 50 connections for 30 s over the booking step and the signed-in screens: zero non-2xx and
 * zero errors expected. Also the server process's CPU time per request (from /proc), which a
 * loaded machine stretches far less than req/s: floor ÷ CPU is the ratio an idle machine would
 * approach, and its memory (RSS) at the end. Prints figures and budgets; not a pass/fail test.
 *
 *   npm run build && node_modules/.bin/tsx bench/load.ts
 *   BENCH_TARGETS=embedded BENCH_SECONDS=5 BENCH_SOAK_SECONDS=10 node_modules/.bin/tsx bench/load.ts
 *
 * Budgets: signed-in screens ≥ 35 % of the floor on the server, ≥ 25 % embedded; the landing page
 * and the booking step ≥ 60 %; the booking step's p99 ≤ 250 ms.
 */
import { execFileSync } from 'node:child_process'
import { demoSlotStep, load, signIn, startServer, type LoadResult } from './server.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 30)
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20)
const TARGETS = (process.env.BENCH_TARGETS ?? 'pg,embedded').split(',').map((t) => t.trim()) as Array<'pg' | 'embedded'>
const PORT = Number(process.env.BENCH_PORT ?? 4621)
const ONLY = process.env.BENCH_ONLY?.split(',')

const uptime = () =>
	execFileSync('uptime', { encoding: 'utf8' })
		.trim()
		.replace(/.*load average/, 'load average')

type Page = { name: string; path: string; signedIn: boolean; budget: Record<'pg' | 'embedded', number> | null }
const PAGES: Page[] = [
	{ name: '404 page (floor)', path: '/no-such-page', signedIn: false, budget: null },
	{ name: 'landing', path: '/', signedIn: false, budget: { pg: 60, embedded: 60 } },
	{ name: 'booking: slot step', path: 'BOOKING', signedIn: false, budget: { pg: 60, embedded: 60 } },
	{ name: 'dashboard', path: '/app/dashboard', signedIn: true, budget: { pg: 35, embedded: 25 } },
	{ name: 'transactions', path: '/app/transactions', signedIn: true, budget: { pg: 35, embedded: 25 } },
	{ name: 'reports', path: '/app/reports', signedIn: true, budget: { pg: 35, embedded: 25 } },
]

/** The status codes other than 2xx, when there were any. */
const codes = (r: LoadResult) => {
	const other = Object.entries(r.statusCodeStats ?? {}).filter(([code]) => !code.startsWith('2') && code !== '404')
	return other.length ? ` (${other.map(([code, { count }]) => `${count}× ${code}`).join(', ')})` : ''
}

async function run(target: 'pg' | 'embedded') {
	const server = await startServer({ port: PORT, database: target, demo: true })
	try {
		if (!server.demo) throw new Error('no demo credentials printed')
		const cookie = await signIn(server.base, server.demo)
		const booking = await demoSlotStep(server.base, cookie)
		console.log(
			`\n## ${target === 'pg' ? 'PostgreSQL server' : 'embedded database (PGlite)'}: ${CONNECTIONS} connections, ${SECONDS} s each`,
		)
		console.log(`(${uptime()} before the run)`)
		console.log(
			'| page | req/s | p50 ms | p99 ms | non-2xx | errors (timeouts) | floor req/s just before | share of floor | budget | server CPU ms/request | floor ÷ CPU |',
		)
		console.log('|---|---|---|---|---|---|---|---|---|---|---|')
		let floor = 0
		let floorCpu = 0
		for (const page of PAGES) {
			if (ONLY && page.budget && !ONLY.some((o) => page.name.includes(o))) continue
			const path = page.path === 'BOOKING' ? booking : page.path
			if (page.budget) {
				// The floor again, right before the page: the machine's speed drifts by tens of per
				// cent within minutes (bench/README.md, "How far to trust a ratio"), so each page is
				// compared with a floor measured next to it.
				const cpuBefore = server.cpuMs()
				const f = await load(`${server.base}${PAGES[0]!.path}`, { connections: CONNECTIONS, seconds: SECONDS })
				floor = f.requests.average
				floorCpu = (server.cpuMs() - cpuBefore) / Math.max(1, f.requests.total)
			}
			// Warm-up: the first seconds compile code paths (the database's WebAssembly included,
			// which V8 optimizes once it is hot) and fill caches. A server that runs all day is past them.
			await load(`${server.base}${path}`, {
				connections: CONNECTIONS,
				seconds: WARM_UP_SECONDS,
				headers: page.signedIn ? { cookie } : undefined,
			})
			const cpuBefore = server.cpuMs()
			const r: LoadResult = await load(`${server.base}${path}`, {
				connections: CONNECTIONS,
				seconds: SECONDS,
				headers: page.signedIn ? { cookie } : undefined,
			})
			const cpu = (server.cpuMs() - cpuBefore) / Math.max(1, r.requests.total)
			// The 404 page answers 404 by design; every other page must answer 2xx.
			const bad = page.budget ? r.non2xx : 0
			if (!page.budget) {
				floor = r.requests.average
				floorCpu = cpu
			}
			const share = (r.requests.average / floor) * 100
			const budget = page.budget?.[target]
			const verdict = budget === undefined ? '—' : `≥ ${budget} % ${share >= budget ? 'ok' : '**missed**'}`
			const p99 = page.name.startsWith('booking')
				? `${r.latency.p99} (≤ 250 ${r.latency.p99 <= 250 ? 'ok' : '**missed**'})`
				: String(r.latency.p99)
			console.log(
				`| ${page.name} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${p99} | ${bad}${codes(r)} | ${r.errors} | ${floor.toFixed(0)} | ${page.budget ? `${share.toFixed(0)} %` : '100 %'} | ${verdict} | ${cpu.toFixed(1)} | ${((floorCpu / cpu) * 100).toFixed(0)} % |`,
			)
		}
		if (SOAK_SECONDS > 0) {
			console.log(`\n50 connections, ${SOAK_SECONDS} s each (zero non-2xx and zero errors expected)`)
			console.log('| page | requests | req/s | p99 ms | non-2xx | errors | timeouts |')
			console.log('|---|---|---|---|---|---|---|')
			for (const [name, path, signedIn] of [
				['booking: slot step', booking, false],
				['dashboard', '/app/dashboard', true],
			] as const) {
				const r = await load(`${server.base}${path}`, {
					connections: 50,
					seconds: SOAK_SECONDS,
					headers: signedIn ? { cookie } : undefined,
				})
				const ok = r.non2xx === 0 && r.errors === 0 ? '' : ' **not clean**'
				console.log(
					`| ${name} | ${r.requests.total} | ${r.requests.average.toFixed(0)} | ${r.latency.p99} | ${r.non2xx}${codes(r)} | ${r.errors} | ${r.timeouts} |${ok}`,
				)
			}
		}
		const logged = server.stderr()
		// A render cut short by the stream timeout is logged as a JSON line of event "render"; a
		// visitor who leaves (autocannon closing its connections at the end of a run) is not logged.
		const aborted = logged.filter((l) => l.includes('"event":"render"')).length
		const other = logged.filter((l) => !l.includes('"event":"render"') && !l.startsWith('PUBLIC_URL is not set'))
		console.log(`(server memory after the run: ${server.rssMb().toFixed(0)} MB RSS)`)
		console.log(
			`(${uptime()} after the run; server stderr: ${aborted} renders cut short by the stream timeout${other.length ? `, and:\n${other.slice(0, 20).join('\n')}` : ''})`,
		)
	} finally {
		await server.stop()
	}
}

for (const target of TARGETS) await run(target)
