// Ad-hoc: sequential timings of pages and their .data (loaders only).
import { signIn, startServer } from './server.ts'
const target = (process.env.T ?? 'embedded') as 'pg' | 'embedded'
const s = await startServer({ port: 4622, database: target, demo: true })
try {
	const cookie = await signIn(s.base, s.demo!)
	const N = Number(process.env.N ?? 40)
	for (const p of (process.env.P ?? '/no-such-page,/,/app/dashboard,/app/dashboard.data,/app/transactions,/app/transactions.data,/app/reports,/app/reports.data').split(',')) {
		for (let i = 0; i < 5; i++) await (await fetch(s.base + p, { headers: { cookie } })).text()
		const t0 = performance.now()
		let len = 0
		for (let i = 0; i < N; i++) len = (await (await fetch(s.base + p, { headers: { cookie } })).text()).length
		console.log(`${p}: ${((performance.now() - t0) / N).toFixed(1)} ms, ${(len / 1024).toFixed(0)} KB`)
	}
} finally {
	await s.stop()
}
