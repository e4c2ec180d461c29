/**
 * The invoice PDF's render time (issue 50: under 300 ms): `invoicePdf` of
 * app/.server/invoices/pdf.ts for a 30-line invoice in Portuguese with a PNG logo and every
 * handle, `BENCH_RUNS` times (default 50) after the first render (which reads and parses the two
 * fonts, shown apart); then the longest invoice there can be (200 lines, several pages). No
 * database: the view is built from a fixed invoice, as the page's token would read it. Prints
 * wall-clock and process-CPU p50/p95/max and the load average; not a pass/fail test.
 *
 *   node_modules/.bin/tsx bench/invoice-pdf.ts
 *   BENCH_RUNS=200 node_modules/.bin/tsx bench/invoice-pdf.ts
 *
 * The modules are loaded through Vite's module runner, as bench/payments.ts does: the view's
 * translations come from `import.meta.glob` (app/.server/i18n.ts).
 */
import { cpus, loadavg } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import sharp from 'sharp'
import { runnerImport } from 'vite'

const RUNS = Number(process.env.BENCH_RUNS ?? 50)
const TARGET_MS = 300
const root = path.resolve(import.meta.dirname, '..')
process.env.SESSION_SECRET ??= 'bench-session-secret-of-at-least-32-characters'
process.env.LOG_LEVEL = 'silent'

const load = async <T>(file: string) =>
	(await runnerImport<T>(path.join(root, file), { configFile: false, root, logLevel: 'warn', ssr: { external: ['sharp'] } })).module
const { invoicePdf } = await load<typeof import('../app/.server/invoices/pdf.ts')>('app/.server/invoices/pdf.ts')
const { invoiceView } = await load<typeof import('../app/.server/invoices/view.ts')>('app/.server/invoices/view.ts')
type PublicInvoice = import('../app/.server/invoices/public-page.ts').PublicInvoice

function invoice(lineCount: number): PublicInvoice {
	const lines = Array.from({ length: lineCount }, (_, i) => ({
		description:
			i % 5 === 0
				? `Aula de violão nº ${i + 1} — revisão de repertório, técnica e leitura de partitura`
				: `Sessão de orientação nº ${i + 1}`,
		quantity: i % 3 === 0 ? '1.5' : '2',
		unitPrice: '45.00',
		amount: i % 3 === 0 ? '67.50' : '90.00',
	}))
	const subtotal = lines.reduce((n, l) => n + Number(l.amount), 0)
	return {
		number: 1042,
		state: 'partly_paid',
		language: 'pt-BR',
		billTo: 'João Araújo Comércio de Instrumentos Ltda.',
		issueDate: '2031-03-01',
		dueDate: '2031-03-15',
		notes: 'Obrigado pela preferência! Pagamentos por Zelle ou Venmo — escreva o código na mensagem.',
		subtotal: subtotal.toFixed(2),
		discount: '20.00',
		taxRate: '8.5',
		total: ((subtotal - 20) * 1.085).toFixed(2),
		amountPaid: '100.00',
		balance: ((subtotal - 20) * 1.085 - 100).toFixed(2),
		code: 'K7Q2M9',
		organization: { name: 'Estúdio Ação & Canção', logoUrl: null },
		handles: { zelle: 'pay@studio.example', venmo: 'Studio-Nine', cashapp: 'studionine', paypal: 'studionine' },
		lines,
	}
}

const logoBytes = await sharp({ create: { width: 512, height: 200, channels: 4, background: '#0f766e' } })
	.png()
	.toBuffer()
const logo = { kind: 'png' as const, bytes: new Uint8Array(logoBytes) }

function quantile(sorted: number[], q: number) {
	return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

async function measure(view: ReturnType<typeof invoiceView>, runs: number) {
	const wall: number[] = []
	const cpu: number[] = []
	let bytes = 0
	for (let i = 0; i < runs; i++) {
		const c0 = process.cpuUsage()
		const t0 = performance.now()
		bytes = (await invoicePdf(view, logo)).byteLength
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

const thirty = invoiceView(invoice(30))
const c0 = process.cpuUsage()
const t0 = performance.now()
await invoicePdf(thirty, logo)
const first = performance.now() - t0
const firstCpu = (process.cpuUsage(c0).user + process.cpuUsage(c0).system) / 1000

const rows = [
	{ name: '30 lines (1 page), pt-BR, logo', ...(await measure(thirty, RUNS)), target: TARGET_MS as number | undefined },
	{
		name: '200 lines (the most; 5 pages)',
		...(await measure(invoiceView(invoice(200)), Math.max(10, Math.round(RUNS / 5)))),
		target: undefined,
	},
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
