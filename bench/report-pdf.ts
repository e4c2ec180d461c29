/**
 * A report PDF's render time (issue 51: a 12-month report in under 1 s): `renderReportPdf` of
 * app/.server/reports/pdf.ts for the Reports overview's document (`overviewDocument`) of twelve
 * months with every category, in Portuguese, `BENCH_RUNS` times (default 50) after the first render
 * (which reads and parses the fonts, shown apart); then a long document (a 600-row table over many
 * pages). No database: the figures are fixed, as `getReport` returns them (its own time is in
 * bench/payments.ts). Prints wall-clock and process-CPU p50/p95/max and the load average; not a
 * pass/fail test.
 *
 *   node_modules/.bin/tsx bench/report-pdf.ts
 *   BENCH_RUNS=200 node_modules/.bin/tsx bench/report-pdf.ts
 */
import { cpus, loadavg } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { runnerImport } from 'vite'

const RUNS = Number(process.env.BENCH_RUNS ?? 50)
const TARGET_MS = 1000
const root = path.resolve(import.meta.dirname, '..')
process.env.SESSION_SECRET ??= 'bench-session-secret-of-at-least-32-characters'
process.env.LOG_LEVEL = 'silent'

const load = async <T>(file: string) => (await runnerImport<T>(path.join(root, file), { configFile: false, root, logLevel: 'warn' })).module
const { renderReportPdf } = await load<typeof import('../app/.server/reports/pdf.ts')>('app/.server/reports/pdf.ts')
const { overviewDocument } = await load<typeof import('../app/.server/reports/overview-document.ts')>(
	'app/.server/reports/overview-document.ts',
)
type ReportDocument = import('../app/.server/reports/document.ts').ReportDocument

const months = Array.from({ length: 12 }, (_, i) => ({
	month: `2030-${String(i + 1).padStart(2, '0')}-01`,
	count: 180 + i,
	amount: (18_000 + i * 731.25).toFixed(2),
}))
const total = months.reduce((n, m) => n + Number(m.amount), 0)
const count = months.reduce((n, m) => n + m.count, 0)
const categories = (['matched', 'pending', 'unmatched', 'review'] as const).map((category) => ({
	category,
	count: Math.round(count / 4),
	amount: (total / 4).toFixed(2),
	share: 0.25,
}))
const twelve = overviewDocument(
	{
		range: { preset: 'custom', from: '2030-01-01', to: '2030-12-31' },
		totals: { count, amount: total.toFixed(2), average: (total / count).toFixed(2) },
		categories,
		months,
	},
	'Estúdio Ação & Canção',
	'pt-BR',
	'2031-01-02',
)
const long: ReportDocument = {
	...twelve,
	sections: [
		{
			heading: 'Pagamentos',
			tables: [
				{
					columns: [{ label: 'Data' }, { label: 'Cliente' }, { label: 'Meio' }, { label: 'Valor', align: 'right' }],
					rows: Array.from({ length: 600 }, (_, i) => [
						`${String((i % 28) + 1).padStart(2, '0')}/03/2030`,
						`Cliente nº ${i + 1} — João Araújo Comércio`,
						'Zelle',
						`US$ ${i + 1},50`,
					]),
					footer: ['Total', '', '', 'US$ 180.600,00'],
				},
			],
		},
	],
}

function quantile(sorted: number[], q: number) {
	return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

async function measure(doc: ReportDocument, runs: number) {
	const wall: number[] = []
	const cpu: number[] = []
	let bytes = 0
	for (let i = 0; i < runs; i++) {
		const c0 = process.cpuUsage()
		const t0 = performance.now()
		bytes = (await renderReportPdf(doc)).byteLength
		wall.push(performance.now() - t0)
		const c = process.cpuUsage(c0)
		cpu.push((c.user + c.system) / 1000)
	}
	wall.sort((a, b) => a - b)
	cpu.sort((a, b) => a - b)
	return {
		p50: quantile(wall, 0.5),
		p95: quantile(wall, 0.95),
		max: wall.at(-1)!,
		cpu50: quantile(cpu, 0.5),
		cpu95: quantile(cpu, 0.95),
		bytes,
	}
}

const c0 = process.cpuUsage()
const t0 = performance.now()
await renderReportPdf(twelve)
const first = performance.now() - t0
const firstCpu = (process.cpuUsage(c0).user + process.cpuUsage(c0).system) / 1000

const rows = [
	{ name: '12-month overview, pt-BR', ...(await measure(twelve, RUNS)), target: TARGET_MS as number | undefined },
	{ name: '600-row table (many pages)', ...(await measure(long, Math.max(10, Math.round(RUNS / 5)))), target: undefined },
]

console.log(`first render (reads and parses the fonts): ${first.toFixed(1)} ms wall, ${firstCpu.toFixed(1)} ms CPU; then ${RUNS} runs\n`)
const width = Math.max(...rows.map((r) => r.name.length))
console.log(`${'measure'.padEnd(width)} | p50 ms | p95 ms | max ms | cpu p50 | cpu p95 |   bytes | target p95`)
console.log(`${'-'.repeat(width)}-|--------|--------|--------|---------|---------|---------|-----------`)
const ms = (n: number, w = 6) => n.toFixed(1).padStart(w)
for (const r of rows) {
	const verdict = r.target === undefined ? '—' : `${r.target} ms ${r.p95 <= r.target ? 'ok' : 'MISSED'}`
	console.log(
		`${r.name.padEnd(width)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} | ${ms(r.cpu50, 7)} | ${ms(r.cpu95, 7)} | ${String(r.bytes).padStart(7)} | ${verdict}`,
	)
}
console.log(
	`\nload average ${loadavg()
		.map((n) => n.toFixed(1))
		.join(' ')} on ${cpus().length} cores`,
)
