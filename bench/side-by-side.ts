/**
 * Two built servers side by side, each on a fresh database of the PostgreSQL test server with the
 * demo data, started with different node flags or from different checkouts, loaded in turn (A
 * then B, then B then A, …) at 20 connections: the machine's speed drifts by tens of per cent
 * within minutes (bench/README.md, "How far to trust a ratio"), and alternating rounds hit both
 * servers alike. Prints, for each page, the server process's CPU time per request (from /proc)
 * and req/s in every round, and their medians. Figures, not a pass/fail test.
 *
 *   npm run build && node_modules/.bin/tsx bench/side-by-side.ts
 *   BENCH_A='--max-semi-space-size=16' BENCH_B='--max-semi-space-size=32' BENCH_ROUNDS=5 \
 *     BENCH_PAGES=/no-such-page,/app/transactions,BOOKING node_modules/.bin/tsx bench/side-by-side.ts
 *
 * BENCH_A and BENCH_B are node flags (space-separated; empty for none); by default A is V8's
 * default young generation and B the start script's flags (docs/decisions/032-young-generation.md).
 * BENCH_A_DIR and BENCH_B_DIR start the build of another checkout instead of this one (a worktree
 * of the commit to compare with, built, with this checkout's node_modules linked into it); when
 * BENCH_A_DIR is given, A also gets the start script's flags unless BENCH_A says otherwise:
 *
 *   git worktree add /tmp/before HEAD~1 && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   (cd /tmp/before && npm run build) && npm run build
 *   BENCH_A_DIR=/tmp/before BENCH_PAGES=/app/transactions node_modules/.bin/tsx bench/side-by-side.ts
 *
 * BOOKING stands for the demo's public slot step. BENCH_DATABASE=embedded gives each server its
 * own embedded database (with the demo data) instead.
 */
import { demoSlotStep, load, signIn, startFlags, startServer, type BenchServer } from './server.ts'

const flagsOf = (value: string | undefined, fallback: string[]) => (value === undefined ? fallback : value.split(/\s+/).filter(Boolean))
const DIRS = { A: process.env.BENCH_A_DIR || undefined, B: process.env.BENCH_B_DIR || undefined }
const FLAGS = { A: flagsOf(process.env.BENCH_A, DIRS.A ? startFlags : []), B: flagsOf(process.env.BENCH_B, startFlags) }
const PAGES = (process.env.BENCH_PAGES ?? '/no-such-page,/app/dashboard,/app/transactions,BOOKING').split(',')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const CONNECTIONS = 20
const DATABASE = process.env.BENCH_DATABASE === 'embedded' ? 'embedded' : 'pg'

type Side = { name: 'A' | 'B'; server: BenchServer; cookie: string }

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function start(name: Side['name'], port: number): Promise<Side> {
	const server = await startServer({ port, database: DATABASE, demo: true, nodeFlags: FLAGS[name], dir: DIRS[name] })
	if (!server.demo) throw new Error('no demo credentials printed')
	return { name, server, cookie: await signIn(server.base, server.demo) }
}

const sides: Side[] = []
try {
	sides.push(await start('A', 4651), await start('B', 4652))
	const describe = (name: Side['name']) => `node ${FLAGS[name].join(' ') || '(no flags)'}${DIRS[name] ? ` in ${DIRS[name]}` : ''}`
	console.log(`A: ${describe('A')}; B: ${describe('B')}; ${ROUNDS} rounds of ${SECONDS} s each, ${CONNECTIONS} connections`)
	console.log('| page | A: CPU ms/request by round | B: CPU ms/request by round | CPU median A → B | req/s median A → B |')
	console.log('|---|---|---|---|---|')
	for (const page of PAGES) {
		const paths = new Map<Side, string>()
		for (const side of sides) paths.set(side, page === 'BOOKING' ? await demoSlotStep(side.server.base, side.cookie) : page)
		const headers = (side: Side) => (page.startsWith('/app/') ? { cookie: side.cookie } : undefined)
		// Warm-up: compiled code paths and filled caches, as a server that runs all day has.
		for (const side of sides)
			await load(`${side.server.base}${paths.get(side)}`, { connections: CONNECTIONS, seconds: 3, headers: headers(side) })
		const cpu = { A: [] as number[], B: [] as number[] }
		const rps = { A: [] as number[], B: [] as number[] }
		for (let round = 0; round < ROUNDS; round++) {
			for (const side of round % 2 ? [...sides].reverse() : sides) {
				const before = side.server.cpuMs()
				const r = await load(`${side.server.base}${paths.get(side)}`, {
					connections: CONNECTIONS,
					seconds: SECONDS,
					headers: headers(side),
				})
				if (r.non2xx && page !== '/no-such-page') throw new Error(`${page} answered ${r.non2xx} non-2xx on ${side.name}`)
				cpu[side.name].push((side.server.cpuMs() - before) / Math.max(1, r.requests.total))
				rps[side.name].push(r.requests.average)
			}
		}
		const rounds = (values: number[]) => values.map((v) => v.toFixed(2)).join(' ')
		console.log(
			`| ${page === 'BOOKING' ? 'booking: slot step' : page} | ${rounds(cpu.A)} | ${rounds(cpu.B)} | ${median(cpu.A).toFixed(2)} → ${median(cpu.B).toFixed(2)} | ${median(rps.A).toFixed(0)} → ${median(rps.B).toFixed(0)} |`,
		)
	}
	console.log(`(server memory after the run: A ${sides[0]!.server.rssMb().toFixed(0)} MB, B ${sides[1]!.server.rssMb().toFixed(0)} MB RSS)`)
} finally {
	await Promise.all(sides.map((side) => side.server.stop()))
}
