/**
 * Lighthouse budgets (issue "Quality gates", item 2): builds nothing (npm run build first), starts
 * the built server on the embedded database with its demo data, and runs Lighthouse 12 with
 * /usr/bin/chromium, mobile preset, on the landing page, /auth and each step of the demo
 * organization's public booking wizard (service, slot: providers, by provider, by time, details,
 * confirm: the confirmation is a GET once the details post has set its cookie). Prints
 * performance, accessibility and best practices against the budgets: ≥ 95, 100, ≥ 95, and the
 * audits that cost points. Each page runs BENCH_RUNS times (default 3) and the run with the median
 * performance score is the one printed, with the range of the runs beside it: one Lighthouse run
 * moves by 10 points or more on this machine, and Lighthouse's own guidance on variability is to
 * take the median of several runs. Prints figures; not a pass/fail test.
 *
 *   npm run build && node_modules/.bin/tsx bench/lighthouse.ts
 *   BENCH_PAGES=landing,auth node_modules/.bin/tsx bench/lighthouse.ts
 *
 * Lighthouse's simulated throttling computes from what it observes on this machine: on a loaded
 * machine the performance score drops (a slower main thread looks like a slower phone).
 */
import { execFileSync } from 'node:child_process'
import { bookingSteps, demoBookingSlug, lighthouse, signIn, startServer } from './server.ts'

const PORT = Number(process.env.BENCH_PORT ?? 4623)
const ONLY = process.env.BENCH_PAGES?.split(',')
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3))
const BUDGET: Record<string, number> = { performance: 95, accessibility: 100, 'best-practices': 95 }
const uptime = () =>
	execFileSync('uptime', { encoding: 'utf8' })
		.trim()
		.replace(/.*load average/, 'load average')

const server = await startServer({ port: PORT, database: 'embedded', demo: true })
try {
	const session = await signIn(server.base, server.demo!)
	const slug = await demoBookingSlug(server.base, session)
	const { steps, cookie } = await bookingSteps(server.base, slug)
	const pages: Array<[string, string, Record<string, string>]> = [
		['landing', `${server.base}/`, {}],
		['auth', `${server.base}/auth`, {}],
		...steps.map(([name, url]): [string, string, Record<string, string>] => [
			`book ${name}`,
			url,
			name === 'confirm' ? { Cookie: cookie } : {},
		]),
	]
	console.log(`Lighthouse 12, mobile preset, /usr/bin/chromium; demo organization /book/${slug} (${uptime()})`)
	console.log(`Median of ${RUNS} run${RUNS === 1 ? '' : 's'} per page (by performance; the range of the runs in brackets)`)
	console.log('| page | performance (≥ 95) | accessibility (100) | best practices (≥ 95) | audits under 0.9 |')
	console.log('|---|---|---|---|---|')
	const misses: string[] = []
	for (const [name, url, headers] of pages) {
		if (ONLY && !ONLY.some((o) => name.includes(o))) continue
		const runs = []
		for (let i = 0; i < RUNS; i++) runs.push(await lighthouse(url, Object.keys(BUDGET), headers))
		runs.sort((a, b) => a.scores.performance! - b.scores.performance!)
		const { scores, failing } = runs[Math.floor((runs.length - 1) / 2)]!
		const range = RUNS > 1 ? ` (${runs[0]!.scores.performance}–${runs.at(-1)!.scores.performance})` : ''
		const cell = (category: string) => {
			const ok = scores[category]! >= BUDGET[category]!
			if (!ok) misses.push(`${name} ${category}`)
			return ok ? String(scores[category]) : `**${scores[category]}**`
		}
		console.log(
			`| ${name} | ${cell('performance')}${range} | ${cell('accessibility')} | ${cell('best-practices')} | ${failing.join('; ')} |`,
		)
	}
	console.log(misses.length ? `\nUnder budget: ${misses.join(', ')} (${uptime()})` : `\nEvery page within budget (${uptime()})`)
} finally {
	await server.stop()
}
