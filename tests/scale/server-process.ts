/**
 * The built server (`node server.js`, after `npm run build`) as a child process, started as a
 * deployment would: its secrets given in the environment. For the scale tests that watch it start
 * and stop.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'

export const ROOT = path.resolve(import.meta.dirname, '../..')

/** The built server on `port` with `DATA_DIR` `dataDir` (the embedded database unless `env` gives DATABASE_URL). */
export function startServerProcess(port: number, dataDir: string, env: Record<string, string> = {}) {
	let output = ''
	const child = spawn(process.execPath, ['server.js'], {
		cwd: ROOT,
		env: {
			PATH: process.env.PATH,
			PORT: String(port),
			HOST: '127.0.0.1',
			DATA_DIR: dataDir,
			SESSION_SECRET: 'start-session-secret-of-at-least-32-characters',
			SECRETS_KEY: 'start-secrets-key-of-at-least-32-characters',
			...env,
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	child.stdout!.on('data', (d: Buffer) => (output += d.toString()))
	child.stderr!.on('data', (d: Buffer) => (output += d.toString()))
	const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
	const stop = () => {
		if (child.exitCode === null) child.kill('SIGTERM')
		return exited
	}
	/**
	 * Checks every 250 ms until `check` holds or the server exits; true when it held. Gives up
	 * after 30 s, well inside the test's time limit, so that a failing test still stops the server.
	 */
	const waitFor = async (check: () => boolean | Promise<boolean>) => {
		for (const until = Date.now() + 30_000; Date.now() < until && child.exitCode === null;) {
			if (await check()) return true
			await new Promise((r) => setTimeout(r, 250))
		}
		return false
	}
	/** The exit code once the process has exited, or the text `still running …` after `ms`. */
	const exitWithin = (ms: number) =>
		Promise.race([exited, new Promise<string>((r) => setTimeout(() => r(`still running ${ms / 1000} s after SIGTERM`), ms))])
	const status = (url: string) =>
		fetch(`http://127.0.0.1:${port}${url}`, { signal: AbortSignal.timeout(5_000) }).then(
			(r) => r.status,
			(error: Error) => error.name,
		)
	return { child, output: () => output, exited, stop, exitWithin, waitFor, status }
}
