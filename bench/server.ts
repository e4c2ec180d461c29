/**
 * What the HTTP benchmarks share (bench/book.ts, bench/load.ts, bench/lighthouse.ts): the built
 * server (npm run build first) started as a child process, on a fresh database of the PostgreSQL
 * test server or on the embedded database; the demo owner's sign-in; one autocannon run.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'

export const root = path.resolve(import.meta.dirname, '..')

/**
 * The flags `npm start` gives node before `server.js` (package.json's start script), so that every
 * benchmark measures the server as it runs in production (docs/decisions/032-young-generation.md).
 */
export const startFlags: string[] = (() => {
	const start = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
	const [command, ...args] = start.trim().split(/\s+/)
	if (command !== 'node' || args.pop() !== 'server.js') throw new Error(`package.json's start script is not "node … server.js": ${start}`)
	return args
})()

export type BenchServer = {
	base: string
	/** The PostgreSQL database's URL, on 'pg'. */
	databaseUrl: string | null
	/**
	 * The server process's CPU time so far (user + system, ms, from /proc): per request, a figure
	 * that a loaded machine stretches far less than wall-clock times.
	 */
	cpuMs: () => number
	/** The server process's resident memory in MB (VmRSS in /proc: both threads when embedded). */
	rssMb: () => number
	/** The server's stderr lines since the last call. */
	stderr: () => string[]
	/** The demo owner's credentials, when the demo was seeded. */
	demo: { email: string; password: string } | null
	stop: () => Promise<void>
}

/**
 * Starts the built server on `port` as `npm start` does, or with `nodeFlags` instead of the start
 * script's flags. `database: 'pg'` makes a fresh database on the PostgreSQL test server
 * (scripts/e2e-database.sh); `'embedded'` leaves DATABASE_URL unset (PGlite in a throwaway
 * DATA_DIR). `demo` seeds the demo organization (on the embedded database it always is).
 * `dir` starts the build of another checkout (its server.js and build/). BENCH_PROFILE=1 writes a
 * CPU profile of the server to /tmp/prof-server on exit.
 */
export async function startServer(options: {
	port: number
	database: 'pg' | 'embedded'
	demo?: boolean
	env?: Record<string, string>
	nodeFlags?: string[]
	/** A checkout with its own build to start instead of this one (bench/side-by-side.ts compares two builds). */
	dir?: string
}): Promise<BenchServer> {
	const base = `http://127.0.0.1:${options.port}`
	const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-server-'))
	const env: Record<string, string | undefined> = {
		...process.env,
		PORT: String(options.port),
		HOST: '127.0.0.1',
		DATA_DIR: dataDir,
		SESSION_SECRET: 'bench-session-secret-of-at-least-32-characters',
		SIGNUP_MAX_PER_IP: '100000',
		BOOK_POSTS_PER_HOUR: '100000000',
		BOOK_LOOKUPS_PER_HOUR: '100000000',
		// Each autocannon request may come from an address of its own (X-Forwarded-For), as visitors do:
		// the per-address limits are counted, but never hit.
		TRUST_PROXY: '1',
		LOG_LEVEL: 'silent',
		...options.env,
	}
	delete env.DATABASE_URL
	if (options.database === 'pg') {
		env.DATABASE_URL = execFileSync('bash', [path.join(root, 'scripts/e2e-database.sh')], { encoding: 'utf8' }).trim()
		if (options.demo) env.SEED_DEMO = 'true'
	}
	const child: ChildProcess = spawn(
		'node',
		[
			...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof-server'] : []),
			...(options.nodeFlags ?? startFlags),
			'server.js',
		],
		{
			cwd: options.dir ?? root,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	)
	// The server's stderr, kept rather than interleaved with the tables. On a starved machine a
	// render that passes the stream timeout (6 s, app/entry.server.tsx) is aborted after its
	// headers went out (status 200) and logged as a JSON line of event "render": load.ts counts them.
	const stderrLines: string[] = []
	child.stderr!.on('data', (chunk: Buffer) => stderrLines.push(...chunk.toString().split('\n').filter(Boolean)))
	let stdout = ''
	child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
	const stop = async () => {
		if (child.exitCode === null) {
			const exited = new Promise((resolve) => child.once('exit', resolve))
			child.kill('SIGTERM')
			await exited
		}
		rmSync(dataDir, { recursive: true, force: true })
	}
	try {
		for (let i = 0; ; i++) {
			if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderrLines.join('\n')}`)
			if (i > 240) throw new Error('server did not start in 2 minutes')
			try {
				if ((await fetch(`${base}/healthz`)).ok) break
			} catch {
				// not up yet
			}
			await new Promise((r) => setTimeout(r, 500))
		}
		// The demo line is printed right after "running at".
		await new Promise((r) => setTimeout(r, 200))
	} catch (error) {
		await stop()
		throw error
	}
	const match = /Demo sign-in: (\S+) \/ (\S+)/.exec(stdout)
	const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
	const cpuMs = () => {
		// Fields 14 and 15 of /proc/PID/stat, counted after the command name's closing parenthesis.
		const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8')
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
		return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks
	}
	const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
	return {
		base,
		databaseUrl: env.DATABASE_URL ?? null,
		cpuMs,
		rssMb,
		stderr: () => stderrLines.splice(0),
		demo: match ? { email: match[1]!, password: match[2]! } : null,
		stop,
	}
}

/** Posts the sign-in form as a browser would; returns the session cookie (name=value). */
export async function signIn(base: string, credentials: { email: string; password: string }): Promise<string> {
	const response = await fetch(`${base}/auth`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin: base },
		body: new URLSearchParams({ intent: 'login', email: credentials.email, password: credentials.password, redirectTo: '/app/dashboard' }),
	})
	const cookie = response.headers
		.getSetCookie()
		.map((c) => c.split(';')[0]!)
		.find((c) => c.startsWith('p2p_session='))
	if (response.status !== 302 || !cookie) throw new Error(`sign-in failed: ${response.status}`)
	return cookie
}

export const randomAddress = () =>
	`10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`

export type LoadResult = autocannon.Result

/** One autocannon run; each request from an address of its own (X-Forwarded-For). */
export function load(url: string, options: { connections: number; seconds: number; headers?: Record<string, string> }) {
	return new Promise<LoadResult>((resolve, reject) =>
		autocannon(
			{
				url,
				connections: options.connections,
				duration: options.seconds,
				headers: options.headers,
				requests: [
					{
						setupRequest: (req: { headers: Record<string, string> }) => ({
							...req,
							headers: { ...req.headers, 'x-forwarded-for': randomAddress() },
						}),
					},
				],
			},
			(error, result) => (error ? reject(error) : resolve(result)),
		),
	)
}

/**
 * The public booking wizard's steps for an organization, walked as a visitor: the first service
 * and provider offered, the first free start, and the details post whose cookie the confirmation
 * needs. Returns [name, url] pairs and that cookie.
 */
export async function bookingSteps(base: string, slug: string) {
	const book = `${base}/book/${slug}`
	const serviceHtml = await (await fetch(`${book}/service`)).text()
	const service = /slot\?service=([\w-]+)/.exec(serviceHtml)?.[1]
	if (!service) throw new Error(`no service offered on ${book}/service`)
	const providersHtml = await (await fetch(`${book}/slot?service=${service}`)).text()
	const provider = /provider=([\w-]+)/.exec(providersHtml)?.[1]
	if (!provider) throw new Error('no provider offered')
	const slotPage = `${book}/slot?service=${service}&provider=${provider}`
	const start = /start=([^"&]+)/.exec(await (await fetch(slotPage)).text())?.[1]
	if (!start) throw new Error('no free start offered')
	const choice = `service=${service}&provider=${provider}&start=${start}`
	const details = await fetch(`${book}/details?${choice}`, {
		method: 'POST',
		redirect: 'manual',
		headers: { origin: base },
		body: new URLSearchParams({ name: 'Bench Visitor', email: 'visitor@example.test' }),
	})
	const cookie = details.headers.get('set-cookie')?.split(';')[0] ?? ''
	const steps: Array<[string, string]> = [
		['service', `${book}/service`],
		['slot: providers', `${book}/slot?service=${service}`],
		['slot: by provider', slotPage],
		['slot: by time', `${book}/slot?service=${service}&mode=time`],
		['details', `${book}/details?${choice}`],
		['confirm', `${book}/confirm?${choice}`],
	]
	return { steps, cookie, slotPage }
}

/** The demo organization's booking slug, read from its booking settings screen (signed in). */
export async function demoBookingSlug(base: string, cookie: string) {
	const html = await (await fetch(`${base}/app/booking/settings`, { headers: { cookie } })).text()
	const slug = /\/book\/([a-z0-9-]+)/.exec(html)?.[1]
	if (!slug) throw new Error('no public booking address on /app/booking/settings')
	return slug
}

/** The demo's public slot step with its first service and provider chosen (the busiest step). */
export async function demoSlotStep(base: string, cookie: string) {
	const slug = await demoBookingSlug(base, cookie)
	const service = /slot\?service=([\w-]+)/.exec(await (await fetch(`${base}/book/${slug}/service`)).text())?.[1]
	const provider = /provider=([\w-]+)/.exec(await (await fetch(`${base}/book/${slug}/slot?service=${service}`)).text())?.[1]
	if (!service || !provider) throw new Error('the demo offers no service or provider')
	return `/book/${slug}/slot?service=${service}&provider=${provider}`
}

export type LighthouseResult = { scores: Record<string, number>; failing: string[] }

/**
 * Lighthouse 12 (the CLI of the devDependency) with /usr/bin/chromium, its default mobile
 * preset (Moto G Power emulation, simulated slow 4G, 4× CPU slowdown). `failing`: the audits
 * of the given categories that count (weight > 0) and scored under 0.9.
 */
export function lighthouse(url: string, categories: string[], headers: Record<string, string> = {}): Promise<LighthouseResult> {
	return new Promise((resolve, reject) =>
		execFile(
			path.join(root, 'node_modules/.bin/lighthouse'),
			[
				url,
				`--only-categories=${categories.join(',')}`,
				'--output=json',
				'--quiet',
				'--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
				...(Object.keys(headers).length ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
			],
			{
				encoding: 'utf8',
				env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
				maxBuffer: 128 * 1024 * 1024,
			},
			(error, stdout) => {
				if (error) return reject(error)
				type Report = {
					categories: Record<string, { score: number; auditRefs: Array<{ id: string; weight: number }> }>
					audits: Record<
						string,
						{ score: number | null; title: string; displayValue?: string; details?: { items?: Array<Record<string, unknown>> } }
					>
				}
				const report = JSON.parse(stdout) as Report
				const scores = Object.fromEntries(Object.entries(report.categories).map(([id, c]) => [id, Math.round(c.score * 100)]))
				const counted = new Set(Object.values(report.categories).flatMap((c) => c.auditRefs.filter((a) => a.weight > 0).map((a) => a.id)))
				// The issues panel's and the console's entries say what they are, not only that they exist.
				const detail = (id: string, a: Report['audits'][string]) => {
					if (id !== 'inspector-issues' && id !== 'errors-in-console') return a.displayValue ? `${a.title} (${a.displayValue})` : a.title
					const items = (a.details?.items ?? []).map((i) => String(i.issueType ?? i.description ?? i.source ?? '')).filter(Boolean)
					return `${a.title}: ${[...new Set(items)].join(', ')}`
				}
				const failing = Object.entries(report.audits)
					.filter(([id, a]) => counted.has(id) && a.score !== null && a.score < 0.9)
					.map(([id, a]) => detail(id, a))
				resolve({ scores, failing })
			},
		),
	)
}
