/**
 * How the built server stops (SIGTERM, as a platform's rolling deploy sends it; docs/deploy.md):
 * a request under way gets its answer, the calendars' event streams do not hold the stop up, and
 * a database that never answers does not keep the process alive. Needs the build.
 */
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { ROOT, startServerProcess } from './server-process.ts'

const PORT = Number(process.env.SCALE_PORT ?? process.env.E2E_PORT ?? 4180) + 6
const tmp = path.join(ROOT, `tests/.tmp/shutdown-${PORT}`)

afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

test('a request under way when the server is told to stop gets its answer; then the server exits', async () => {
	const server = startServerProcess(PORT, path.join(tmp, 'under-way'), { LOG_LEVEL: 'silent' })
	try {
		expect(await server.waitFor(async () => (await server.status('/healthz')) === 200), server.output()).toBe(true)
		// A sign-in whose form is still on its way when SIGTERM comes.
		const body = new URLSearchParams({ intent: 'login', email: 'nobody@example.test', password: 'not-the-password-1' }).toString()
		const socket = net.connect(PORT, '127.0.0.1')
		let answer = ''
		socket.on('data', (d: Buffer) => (answer += d.toString()))
		const closed = new Promise((resolve) => socket.on('close', resolve))
		socket.on('error', () => undefined)
		// `Expect: 100-continue`: the server's "100 Continue" says it has the request under way.
		socket.write(
			`POST /auth HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
		)
		expect(await server.waitFor(() => answer.startsWith('HTTP/1.1 100 Continue\r\n\r\n')), answer).toBe(true)
		server.child.kill('SIGTERM')
		expect(await server.waitFor(() => server.output().includes('SIGTERM received, closing')), server.output()).toBe(true)
		socket.write(body)
		await closed
		// The refused sign-in's page, whole, and the connection closed after it rather than kept.
		const final = answer.slice('HTTP/1.1 100 Continue\r\n\r\n'.length)
		expect(final).toMatch(/^HTTP\/1\.1 [234]\d\d /)
		expect(final).toMatch(/^connection: close\r$/im)
		expect(final).toContain('</html>')
		expect(await server.exitWithin(10_000), server.output()).toBe(0)
	} finally {
		if (server.child.exitCode === null) server.child.kill('SIGKILL')
	}
})

test("an open calendar's event stream ends at once and does not hold the stop up", async () => {
	const server = startServerProcess(PORT, path.join(tmp, 'events'), { LOG_LEVEL: 'silent' })
	try {
		expect(await server.waitFor(async () => (await server.status('/healthz')) === 200), server.output()).toBe(true)
		const [, email, password] = /Demo sign-in: (\S+) \/ (\S+)/.exec(server.output()) ?? []
		const signIn = await fetch(`http://127.0.0.1:${PORT}/auth`, {
			method: 'POST',
			redirect: 'manual',
			body: new URLSearchParams({ intent: 'login', email: email!, password: password!, redirectTo: '/app/dashboard' }),
		})
		const cookie = signIn.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ')
		const events = await fetch(`http://127.0.0.1:${PORT}/app/booking/events`, { headers: { cookie } })
		expect(events.headers.get('content-type')).toContain('text/event-stream')
		const reader = events.body!.getReader()
		expect(new TextDecoder().decode((await reader.read()).value)).toContain('retry:')

		const stoppedAt = Date.now()
		server.child.kill('SIGTERM')
		// The stream ends (its browser reconnects, to another instance) …
		const ended = await Promise.race([
			reader.read().then(
				(r) => (r.done ? 'ended' : 'more'),
				() => 'ended',
			),
			sleep(5_000).then(() => 'still open'),
		])
		expect(ended).toBe('ended')
		// … and the server exits long before requests under way would be cut (half of SHUTDOWN_SECONDS, 10 s).
		expect(await server.exitWithin(5_000), server.output()).toBe(0)
		expect(Date.now() - stoppedAt).toBeLessThan(5_000)
	} finally {
		if (server.child.exitCode === null) server.child.kill('SIGKILL')
	}
})

test('a database that stops answering does not keep a stopping server alive: it exits with a failure after SHUTDOWN_SECONDS', async () => {
	// A fresh database of the test PostgreSQL server, reached through a proxy the test can freeze.
	const databaseUrl = new URL(execFileSync('bash', [path.join(ROOT, 'scripts/e2e-database.sh')], { encoding: 'utf8' }).trim())
	let frozen = false
	const sockets = new Set<net.Socket>()
	const proxy = net.createServer((client) => {
		const upstream = net.connect(Number(databaseUrl.port), databaseUrl.hostname)
		for (const [from, to] of [
			[client, upstream],
			[upstream, client],
		] as const) {
			sockets.add(from)
			from.on('data', (d: Buffer) => frozen || to.write(d))
			from.on('error', () => undefined)
			from.on('close', () => to.destroy())
		}
	})
	await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
	const proxied = new URL(databaseUrl)
	proxied.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`

	const server = startServerProcess(PORT, path.join(tmp, 'frozen'), {
		DATABASE_URL: proxied.toString(),
		SHUTDOWN_SECONDS: '2',
		LOG_LEVEL: 'silent',
	})
	try {
		expect(await server.waitFor(async () => (await server.status('/healthz')) === 200), server.output()).toBe(true)
		frozen = true
		// A request that waits for the database, which no longer answers.
		const waiting = server.status('/healthz')
		await sleep(300)
		const stoppedAt = Date.now()
		server.child.kill('SIGTERM')
		expect(await server.exitWithin(8_000), server.output()).toBe(1)
		expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(1_900)
		expect(server.output()).toMatch(/"event":"shutdown".*did not finish in 2 s/)
		await waiting
	} finally {
		if (server.child.exitCode === null) server.child.kill('SIGKILL')
		for (const socket of sockets) socket.destroy()
		proxy.close()
	}
})
