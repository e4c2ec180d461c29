/**
 * The built server on the embedded database, started as a deployment would: its secrets given
 * in the environment (so nothing else writes to DATA_DIR first) and a DATA_DIR that does not
 * exist yet. It must make the folder, migrate and serve, and look after its tables as autovacuum
 * would (docs/decisions/033-embedded-autovacuum.md). Needs the build (`npm run build`).
 */
import { spawn } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { ROOT, startServerProcess } from './server-process.ts'

const PORT = Number(process.env.SCALE_PORT ?? process.env.E2E_PORT ?? 4180) + 5
const tmp = path.join(ROOT, `tests/.tmp/embedded-start-${PORT}`)

afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** The built server on the embedded database in `dataDir`, its secrets given. */
const startEmbedded = (dataDir: string, env: Record<string, string> = {}) => startServerProcess(PORT, dataDir, env)
test('the embedded server starts in a DATA_DIR that does not exist yet, with its secrets given', async () => {
	rmSync(tmp, { recursive: true, force: true })
	const dataDir = path.join(tmp, 'not', 'created', 'yet')
	const server = startEmbedded(dataDir, { LOG_LEVEL: 'silent' })
	try {
		await server.waitFor(async () => (await server.status('/healthz')) === 200)
		expect(await server.status('/auth'), server.output()).toBe(200)
		expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true)
	} finally {
		await server.stop()
	}
})

test('the embedded server vacuums and analyzes its tables itself, at start, and still stops cleanly (PGlite has no autovacuum)', async () => {
	const server = startEmbedded(path.join(tmp, 'vacuum'))
	const vacuumed = () =>
		server
			.output()
			.split('\n')
			.find((line) => line.includes('"event":"vacuumed"'))
	let exitCode: number | null
	try {
		await server.waitFor(() => vacuumed() !== undefined)
		// The seed analyzes what it filled (analyzeFilledTables), but leaves dead rows behind: each
		// payment it adds rewrites its month's row of the rollups. They are cleared at once, not never.
		expect(JSON.parse(vacuumed() ?? '{}').tables, server.output()).toContain('public.transaction_monthly_rollups')
	} finally {
		exitCode = await server.stop()
	}
	expect(exitCode, server.output()).toBe(0)
})

test('a server whose log pipe closes keeps serving, and still stops on SIGTERM', async () => {
	const server = startEmbedded(path.join(tmp, 'log-pipe'))
	let exitCode: number | string | null
	try {
		expect(await server.waitFor(async () => (await server.status('/healthz')) === 200), server.output()).toBe(true)
		// Whatever read the server's output ends: every log line (one a request) fails to write.
		server.child.stdout!.destroy()
		server.child.stderr!.destroy()
		for (const url of ['/auth', '/', '/auth']) expect(await server.status(url)).toBe(200)
	} finally {
		void server.stop()
		exitCode = await server.exitWithin(10_000)
		if (server.child.exitCode === null) server.child.kill('SIGKILL')
	}
	expect(exitCode).toBe(0)
})

test('a server that cannot start says why and exits with a failure', async () => {
	const child = spawn(process.execPath, ['server.js'], {
		cwd: ROOT,
		env: { PATH: process.env.PATH, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: path.join(tmp, 'bad'), LOG_LEVEL: 'loud' },
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	let output = ''
	child.stderr!.on('data', (d: Buffer) => (output += d.toString()))
	const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
	expect(code).toBe(1)
	expect(output).toContain('LOG_LEVEL')
})
