/**
 * The public booking wizard's budgets (docs/product.md, Public booking): prints, not pass/fail,
 *
 * - each step's HTML, gzipped (budget ≤ 30 KB);
 * - the JavaScript a /book step loads, gzipped, against the not-found page's (the framework's floor);
 * - Lighthouse 12, mobile preset, /usr/bin/chromium: performance (≥ 95) and accessibility (100);
 * - autocannon, one run each: a step page against the server's own 404 page (≥ 50 %).
 *
 * Runs the built server (npm run build first) on a fresh database of the PostgreSQL test server,
 * with one organization: 3 services, 3 providers open every day.
 *
 *   node_modules/.bin/tsx bench/book.ts
 *   BENCH_SKIP_LIGHTHOUSE=1 BENCH_SECONDS=5 node_modules/.bin/tsx bench/book.ts
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import autocannon from 'autocannon'
import pg from 'pg'

const root = path.resolve(import.meta.dirname, '..')
const PORT = Number(process.env.BENCH_PORT ?? 4290)
const BASE = `http://127.0.0.1:${PORT}`
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)

const databaseUrl = execFileSync('bash', [path.join(root, 'scripts/e2e-database.sh')], { encoding: 'utf8' }).trim()
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-book-'))
const server = spawn('node', [...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof-server'] : []), 'server.js'], {
	cwd: root,
	env: {
		...process.env,
		PORT: String(PORT),
		HOST: '127.0.0.1',
		DATA_DIR: dataDir,
		DATABASE_URL: databaseUrl,
		SESSION_SECRET: 'bench-session-secret-of-at-least-32-characters',
		SIGNUP_MAX_PER_IP: '100000',
		BOOK_POSTS_PER_HOUR: '100000000',
		BOOK_LOOKUPS_PER_HOUR: '100000000',
		// Each autocannon request comes from an address of its own (X-Forwarded-For), as visitors do:
		// the per-address limit is counted, but never hit.
		TRUST_PROXY: '1',
		LOG_LEVEL: 'silent',
		NODE_ENV: 'production',
	},
	stdio: ['ignore', 'ignore', 'inherit'],
})

async function waitForServer() {
	for (let i = 0; i < 120; i++) {
		try {
			if ((await fetch(`${BASE}/healthz`)).ok) return
		} catch {
			// not up yet
		}
		await new Promise((r) => setTimeout(r, 500))
	}
	throw new Error('server did not start')
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

async function seed() {
	const email = `bench-${Date.now()}@example.test`
	const form = new URLSearchParams({ intent: 'signup', fullName: 'Bench Studio', email, password: 'correct-horse-1', confirmPassword: 'correct-horse-1' })
	const res = await fetch(`${BASE}/auth?mode=signup`, { method: 'POST', body: form, redirect: 'manual', headers: { origin: BASE } })
	if (res.status !== 302) throw new Error(`sign-up answered ${res.status}`)
	const client = new pg.Client({ connectionString: databaseUrl })
	await client.connect()
	try {
		const { rows } = await client.query<{ id: string; slug: string }>(
			`select o.id, o.slug from public.organizations o join public.organization_members m on m.organization_id = o.id
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[email],
		)
		const org = rows[0]!
		const hours = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, { start: '08:00', end: '20:00', enabled: true }]))
		await client.query(`update public.booking_settings set business_hours = $2, cancellation_hours = 0, min_advance_hours = 1 where organization_id = $1`, [org.id, JSON.stringify(hours)])
		const services = await client.query<{ id: string }>(
			`insert into public.booking_services (organization_id, name, description, price, duration_minutes, color) values
			 ($1, 'Initial Consultation', 'A first conversation to understand your goals.', 45, 30, '#2563eb'),
			 ($1, 'Follow-up Session', 'Review progress and plan the next steps.', 75, 45, '#16a34a'),
			 ($1, 'Extended Session', 'A full hour for in-depth work.', 120, 60, '#9333ea') returning id`,
			[org.id],
		)
		const providers = await client.query<{ id: string }>(
			`insert into public.booking_providers (organization_id, display_name, bio) values
			 ($1, 'Jordan Ellis', 'Founder. Ten years helping small businesses.'), ($1, 'Renata Alves', 'Senior consultant.'), ($1, 'Sam Park', null) returning id`,
			[org.id],
		)
		return { slug: org.slug, service: services.rows[0]!.id, provider: providers.rows[0]!.id }
	} finally {
		await client.end()
	}
}

async function main() {
	await waitForServer()
	const { slug, service, provider } = await seed()
	const book = `${BASE}/book/${slug}`
	const slotPage = `${book}/slot?service=${service}&provider=${provider}`
	const slotHtml = await (await fetch(slotPage)).text()
	const start = /start=([^"&]+)/.exec(slotHtml)![1]!
	const choice = `service=${service}&provider=${provider}&start=${start}`
	// The details post sets the contact cookie the confirmation needs.
	const details = await fetch(`${book}/details?${choice}`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin: BASE },
		body: new URLSearchParams({ name: 'Bench Visitor', email: 'visitor@example.test' }),
	})
	const cookie = details.headers.get('set-cookie')!.split(';')[0]!
	const steps: Array<[string, string]> = [
		['service', `${book}/service`],
		['slot: providers', `${book}/slot?service=${service}`],
		['slot: by provider', slotPage],
		['slot: by time', `${book}/slot?service=${service}&mode=time`],
		['details', `${book}/details?${choice}`],
		['confirm', `${book}/confirm?${choice}`],
	]

	console.log('\nHTML per step (gzipped; budget 30 KB)')
	console.log('| step | HTML | gzipped |')
	console.log('|---|---|---|')
	for (const [name, url] of steps) {
		const html = Buffer.from(await (await fetch(url, { headers: { cookie } })).arrayBuffer())
		console.log(`| ${name} | ${kb(html.length)} | ${kb(gzipSync(html).length)} |`)
	}

	console.log('\nJavaScript loaded (gzipped)')
	const scriptsOf = (html: string) => [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!))]
	const jsSize = async (url: string, headers: Record<string, string> = {}) => {
		const html = await (await fetch(url, { headers })).text()
		let total = 0
		for (const src of scriptsOf(html)) total += gzipSync(Buffer.from(await (await fetch(`${BASE}${src}`)).arrayBuffer())).length
		return { total, files: scriptsOf(html).length }
	}
	const empty = await jsSize(`${BASE}/no-such-page`)
	console.log(`| page | files | gzipped |\n|---|---|---|\n| not-found page (floor) | ${empty.files} | ${kb(empty.total)} |`)
	for (const [name, url] of [steps[2]!, steps[4]!]) {
		const s = await jsSize(url, { cookie })
		console.log(`| ${name} | ${s.files} | ${kb(s.total)} (+${kb(s.total - empty.total)}) |`)
	}

	const runs = Number(process.env.BENCH_SEQUENTIAL ?? 20)
	for (const [name, url] of [['404', `${BASE}/no-such-page`], ['service', steps[0]![1]], ['slot', slotPage], ['slot (data only)', `${slotPage.replace('/slot?', '/slot.data?')}`]] as const) {
		const t0 = performance.now()
		for (let i = 0; i < runs; i++) await (await fetch(url, { headers: { 'x-forwarded-for': `10.1.1.${i}` } })).text()
		console.log(`sequential ${name}: ${((performance.now() - t0) / runs).toFixed(1)} ms per request`)
	}
	console.log(`\nThroughput (autocannon, 10 connections, ${SECONDS} s each; budget: step ≥ 50 % of 404)`)
	const run = (url: string) =>
		new Promise<autocannon.Result>((resolve, reject) =>
			autocannon(
				{
					url,
					connections: 10,
					duration: SECONDS,
					requests: [{ setupRequest: (req: { headers: Record<string, string> }) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': `10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}` } }) }],
				},
				(error, result) => (error ? reject(error) : resolve(result)),
			),
		)
	const notFound = await run(`${BASE}/no-such-page`)
	const step = await run(slotPage)
	console.log('| page | req/s | p50 ms | p99 ms |\n|---|---|---|---|')
	console.log(`| 404 page | ${notFound.requests.average.toFixed(0)} | ${notFound.latency.p50} | ${notFound.latency.p99} |`)
	console.log(`| slot step (by provider) | ${step.requests.average.toFixed(0)} | ${step.latency.p50} | ${step.latency.p99} |`)
	console.log(`ratio: ${((step.requests.average / notFound.requests.average) * 100).toFixed(0)} %`)

	if (!process.env.BENCH_SKIP_LIGHTHOUSE) {
		console.log('\nLighthouse 12, mobile preset (budget: performance ≥ 95, accessibility 100)')
		console.log('| step | performance | accessibility |\n|---|---|---|')
		for (const [name, url] of steps) {
			const out = execFileSync(
				path.join(root, 'node_modules/.bin/lighthouse'),
				[
					url,
					'--only-categories=performance,accessibility',
					'--output=json',
					'--quiet',
					'--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
					`--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
				],
				{ encoding: 'utf8', env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 },
			)
			const report = JSON.parse(out) as { categories: Record<string, { score: number }>; audits: Record<string, { score: number | null; title: string }> }
			const failing = Object.values(report.audits).filter((a) => a.score === 0).map((a) => a.title).slice(0, 4)
			console.log(
				`| ${name} | ${Math.round(report.categories.performance!.score * 100)} | ${Math.round(report.categories.accessibility!.score * 100)} |${failing.length ? ` failing: ${failing.join('; ')}` : ''}`,
			)
		}
	}
}

try {
	await main()
} finally {
	server.kill('SIGTERM')
	rmSync(dataDir, { recursive: true, force: true })
}
