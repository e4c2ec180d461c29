import { signIn, startServer } from './server.ts'
import { writeFileSync } from 'node:fs'
const s = await startServer({ port: 4622, database: 'embedded', demo: true })
try {
	const cookie = await signIn(s.base, s.demo!)
	for (const p of ['/app/dashboard', '/app/transactions', '/', '/no-such-page']) writeFileSync(`/tmp/perfprobe/${p.replace(/\W/g, '_')}.html`, await (await fetch(s.base + p, { headers: { cookie } })).text())
} finally { await s.stop() }
