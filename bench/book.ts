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
import { gzipSync } from 'node:zlib'
import pg from 'pg'
import { bookingSteps, lighthouse, load, startServer } from './server.ts'

const PORT = Number(process.env.BENCH_PORT ?? 4290)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)

const server = await startServer({ port: PORT, database: 'pg' })
const BASE = server.base
const databaseUrl = server.databaseUrl!

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

async function seed() {
	const email = `bench-${Date.now()}@example.test`
	const form = new URLSearchParams({
		intent: 'signup',
		fullName: 'Bench Studio',
		email,
		password: 'correct-horse-1',
		confirmPassword: 'correct-horse-1',
	})
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
		const hours = Object.fromEntries(
			['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
				d,
				{ start: '08:00', end: '20:00', enabled: true },
			]),
		)
		await client.query(
			`update public.booking_settings set business_hours = $2, cancellation_hours = 0, min_advance_hours = 1 where organization_id = $1`,
			[org.id, JSON.stringify(hours)],
		)
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
	const { slug, service, provider } = await seed()
	const slotPage = `${BASE}/book/${slug}/slot?service=${service}&provider=${provider}`
	// The details post (inside bookingSteps) sets the contact cookie the confirmation needs.
	const { steps, cookie } = await bookingSteps(BASE, slug)

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
	for (const [name, url] of [
		['404', `${BASE}/no-such-page`],
		['service', steps[0]![1]],
		['slot', slotPage],
		['slot (data only)', `${slotPage.replace('/slot?', '/slot.data?')}`],
	] as const) {
		const t0 = performance.now()
		for (let i = 0; i < runs; i++) await (await fetch(url, { headers: { 'x-forwarded-for': `10.1.1.${i}` } })).text()
		console.log(`sequential ${name}: ${((performance.now() - t0) / runs).toFixed(1)} ms per request`)
	}
	console.log(`\nThroughput (autocannon, 10 connections, ${SECONDS} s each; budget: step ≥ 50 % of 404)`)
	const run = (url: string) => load(url, { connections: 10, seconds: SECONDS })
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
			const { scores, failing } = await lighthouse(url, ['performance', 'accessibility'], { Cookie: cookie })
			console.log(
				`| ${name} | ${scores.performance} | ${scores.accessibility} |${failing.length ? ` failing: ${failing.slice(0, 4).join('; ')}` : ''}`,
			)
		}
	}
}

try {
	await main()
} finally {
	await server.stop()
}
