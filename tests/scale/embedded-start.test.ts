/**
 * The built server on the embedded database, started as a deployment would: its secrets given
 * in the environment (so nothing else writes to DATA_DIR first) and a DATA_DIR that does not
 * exist yet. It must make the folder, migrate and serve. Needs the build (`npm run build`).
 */
import { spawn } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')
const PORT = Number(process.env.SCALE_PORT ?? process.env.E2E_PORT ?? 4180) + 5
const tmp = path.join(ROOT, `tests/.tmp/embedded-start-${PORT}`)

afterAll(() => rmSync(tmp, { recursive: true, force: true }))

test('the embedded server starts in a DATA_DIR that does not exist yet, with its secrets given', async () => {
	rmSync(tmp, { recursive: true, force: true })
	const dataDir = path.join(tmp, 'not', 'created', 'yet')
	let output = ''
	const child = spawn(process.execPath, ['server.js'], {
		cwd: ROOT,
		env: {
			PATH: process.env.PATH,
			PORT: String(PORT),
			HOST: '127.0.0.1',
			DATA_DIR: dataDir,
			SESSION_SECRET: 'start-session-secret-of-at-least-32-characters',
			SECRETS_KEY: 'start-secrets-key-of-at-least-32-characters',
			LOG_LEVEL: 'silent',
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	child.stdout!.on('data', (d: Buffer) => (output += d.toString()))
	child.stderr!.on('data', (d: Buffer) => (output += d.toString()))
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
	try {
		let status = 0
		for (const until = Date.now() + 60_000; Date.now() < until && child.exitCode === null; ) {
			status = await fetch(`http://127.0.0.1:${PORT}/auth`).then((r) => r.status, () => 0)
			if (status) break
			await new Promise((r) => setTimeout(r, 250))
		}
		expect(status, output).toBe(200)
		expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true)
	} finally {
		if (child.exitCode === null) child.kill('SIGTERM')
		await exited
	}
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
