/**
 * A small cluster for the scale-out tests: two built servers (`node server.js`) on one fresh
 * database of the test PostgreSQL server, behind a proxy in a few lines of node:http. The
 * proxy sends a request to the instance its `x-backend` header names ('a' or 'b'), else in
 * turn, and appends the client's address to X-Forwarded-For as a load balancer does
 * (the servers run with TRUST_PROXY=1, so throttling keys on that address).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import pg from 'pg'

export type Backend = 'a' | 'b'

export type Cluster = {
	origin: string
	databaseUrl: string
	dataDirs: Record<Backend, string>
	query: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>
	/** Instance output, for a failing test's message. */
	output: () => string
	stop: () => Promise<void>
}

const ROOT = path.resolve(import.meta.dirname, '../..')

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 60_000) {
	const until = Date.now() + timeoutMs
	while (Date.now() < until) {
		if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
		try {
			const res = await fetch(url)
			if (res.ok) return
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 250))
	}
	throw new Error(`${url} did not answer in time`)
}

export async function startCluster(extraEnv: Record<string, string> = {}): Promise<Cluster> {
	const proxyPort = Number(process.env.SCALE_PORT ?? process.env.E2E_PORT ?? 4180)
	const ports: Record<Backend, number> = { a: proxyPort + 1, b: proxyPort + 2 }
	const origin = `http://localhost:${proxyPort}`

	const adminUrl = execFileSync('bash', [path.join(ROOT, 'scripts/pg-test-server.sh')], { encoding: 'utf8' }).trim()
	const name = `p2p_test_${Date.now()}_${process.pid}`
	const admin = new pg.Client({ connectionString: adminUrl })
	await admin.connect()
	await admin.query(`create database ${name}`)
	await admin.end()
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	const databaseUrl = url.toString()

	const tmp = path.join(ROOT, `tests/.tmp/scale-${proxyPort}`)
	rmSync(tmp, { recursive: true, force: true })
	const dataDirs: Record<Backend, string> = { a: path.join(tmp, 'a'), b: path.join(tmp, 'b') }
	let output = ''
	const children: ChildProcess[] = []
	for (const backend of ['a', 'b'] as const) {
		mkdirSync(dataDirs[backend], { recursive: true })
		const child = spawn(process.execPath, ['server.js'], {
			cwd: ROOT,
			env: {
				PATH: process.env.PATH,
				PORT: String(ports[backend]),
				HOST: '127.0.0.1',
				PUBLIC_URL: origin,
				TRUST_PROXY: '1',
				DATA_DIR: dataDirs[backend],
				DATABASE_URL: databaseUrl,
				SESSION_SECRET: 'scale-session-secret-of-at-least-32-characters',
				SECRETS_KEY: 'scale-secrets-key-of-at-least-32-characters',
				LOG_LEVEL: 'silent',
				...extraEnv,
			},
			stdio: ['ignore', 'pipe', 'pipe'],
		})
		child.stdout!.on('data', (d: Buffer) => (output += `[${backend}] ${d.toString()}`))
		child.stderr!.on('data', (d: Buffer) => (output += `[${backend}] ${d.toString()}`))
		children.push(child)
	}
	// Both start together on an empty database: migrations run once, under the advisory lock.
	await Promise.all((['a', 'b'] as const).map((b, i) => waitForHealth(`http://127.0.0.1:${ports[b]}/healthz`, children[i]!)))

	let turn = 0
	const proxy = http.createServer((req, res) => {
		const asked = req.headers['x-backend']
		const backend: Backend = asked === 'a' || asked === 'b' ? asked : turn++ % 2 === 0 ? 'a' : 'b'
		const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ')
		const upstream = http.request(
			{
				host: '127.0.0.1',
				port: ports[backend],
				method: req.method,
				path: req.url,
				headers: { ...req.headers, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'http', 'x-served-by': backend },
			},
			(answer) => {
				// A visitor who leaves mid-answer destroys the upstream request, and the answer then
				// fails with "aborted": a stream error with no listener would be an uncaught error.
				answer.on('error', () => res.destroy())
				res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-served-by': backend })
				answer.pipe(res)
			},
		)
		upstream.on('error', () => {
			if (!res.headersSent) res.writeHead(502)
			res.end()
		})
		req.on('error', () => upstream.destroy())
		res.on('error', () => upstream.destroy())
		req.pipe(upstream)
		res.on('close', () => upstream.destroy())
	})
	await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve))

	const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 })
	// An idle client the server drops would otherwise be an uncaught error of the test run.
	pool.on('error', (error) => (output += `[pool] ${error.message}\n`))
	return {
		origin,
		databaseUrl,
		dataDirs,
		query: async (text, values) => (await pool.query(text, values)).rows,
		output: () => output,
		stop: async () => {
			proxy.closeAllConnections()
			await new Promise((resolve) => proxy.close(resolve))
			await Promise.all(
				children.map(
					(child) =>
						new Promise<void>((resolve) => {
							if (child.exitCode !== null) return resolve()
							child.once('exit', () => resolve())
							child.kill('SIGTERM')
						}),
				),
			)
			await pool.end()
			const c = new pg.Client({ connectionString: adminUrl })
			await c.connect()
			await c.query(`drop database if exists ${name} with (force)`)
			await c.end()
			rmSync(tmp, { recursive: true, force: true })
		},
	}
}

/** A browser's cookies, kept by name, for requests through the proxy. */
export class CookieJar {
	private cookies = new Map<string, string>()

	take(response: Response) {
		for (const line of response.headers.getSetCookie()) {
			const [pair, ...attributes] = line.split(';')
			const eq = pair!.indexOf('=')
			const name = pair!.slice(0, eq).trim()
			const value = pair!.slice(eq + 1).trim()
			const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a))
			if (expired || value === '') this.cookies.delete(name)
			else this.cookies.set(name, value)
		}
	}

	has(name: string) {
		return this.cookies.has(name)
	}

	header() {
		return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
	}
}
