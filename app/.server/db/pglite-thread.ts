/**
 * The embedded database on a thread of its own (docs/decisions/026-embedded-database-thread.md):
 * the server's thread renders pages while PGlite works. This is the server's side: `query`,
 * `exec`, `dumpDataDir` and `close`, the calls the Kysely dialect and index.ts make on a PGlite,
 * each sent to the worker (pglite-worker.js) as one message; and `execBefore`, a script that goes
 * with the next call.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { Worker, type ResourceLimits } from 'node:worker_threads'

export type PgliteThreadOptions = {
	dataDir?: string
	loadDataDir?: Blob
	/** The thread's own heap limits (Node's defaults otherwise). */
	resourceLimits?: ResourceLimits
	/**
	 * Told once when the thread stops without being closed (it crashed, or ran out of memory):
	 * every call fails from then on, so whoever runs the server should end it (server.js).
	 */
	onStop?: (error: Error) => void
}

export type PgliteThread = {
	query: <R>(sql: string, params?: unknown[]) => Promise<{ rows: R[]; affectedRows?: number }>
	exec: (sql: string) => Promise<void>
	/**
	 * Runs the script just before the next call, in the same message: a transaction's `begin`
	 * travels with its first statement. When the script fails, that call fails with its error and
	 * is not made.
	 */
	execBefore: (sql: string) => void
	dumpDataDir: () => Promise<Blob>
	close: () => Promise<void>
}

type Call = { resolve: (result: unknown) => void; reject: (error: Error) => void }
type Reply = { id: number; result?: unknown; error?: Record<string, unknown> }

/** Starts the thread and opens PGlite in it; rejects with PGlite's error when it cannot open. */
export async function startPgliteThread(options: PgliteThreadOptions): Promise<PgliteThread> {
	// PGlite's first start on a data directory creates the database cluster (initdb), which leaves
	// some 250 MB behind that a thread, quiet afterwards, may never collect. A first thread does
	// that and ends, and its memory goes with it.
	if (options.dataDir && !existsSync(path.join(options.dataDir, 'PG_VERSION'))) await (await startThread(options)).close()
	return startThread(options)
}

async function startThread({ resourceLimits, onStop, ...workerData }: PgliteThreadOptions): Promise<PgliteThread> {
	// vite.config.ts points this at the worker's file in the server build.
	const worker = new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData, resourceLimits })
	const pending = new Map<number, Call>()
	let nextId = 0
	let stopped: Error | undefined
	let closing = false
	let before: string | undefined
	// Message 0 is the worker's answer to its start.
	const started = new Promise((resolve, reject) => pending.set(0, { resolve, reject }))

	worker.on('message', ({ id, result, error }: Reply) => {
		const call = pending.get(id)
		if (!call) return
		pending.delete(id)
		// Like PGlite in the server's thread, an idle database does not keep the process alive.
		if (pending.size === 0) worker.unref()
		if (error) call.reject(Object.assign(new Error(String(error.message)), error))
		else call.resolve(result)
	})
	let opened = false
	const stop = (error: Error) => {
		const first = !stopped
		stopped ??= error
		for (const call of pending.values()) call.reject(stopped)
		pending.clear()
		if (first && opened && !closing) onStop?.(stopped)
	}
	worker.on('error', (error) => stop(new Error(`The embedded database stopped: ${error.message}`, { cause: error })))
	worker.on('exit', (code) => stop(new Error(`The embedded database stopped (exit code ${code})`)))

	const call = <T>(message: { op: string; sql?: string; params?: unknown[] }) =>
		new Promise<T>((resolve, reject) => {
			if (stopped) return reject(stopped)
			const id = ++nextId
			pending.set(id, { resolve: resolve as Call['resolve'], reject })
			worker.ref()
			try {
				worker.postMessage({ id, ...message, before })
				before = undefined
			} catch (error) {
				// A parameter that cannot be copied to the thread (a function, say): this call fails
				// alone, and a `begin` waiting to go stays for the next one.
				pending.delete(id)
				if (pending.size === 0) worker.unref()
				reject(error)
			}
		})

	await started.catch(async (error) => {
		await worker.terminate()
		throw error
	})
	opened = true
	return {
		query: (sql, params) => call({ op: 'query', sql, params }),
		exec: (sql) => call({ op: 'exec', sql }),
		execBefore: (sql) => {
			before = before ? `${before};\n${sql}` : sql
		},
		dumpDataDir: async () => new Blob([await call<ArrayBuffer>({ op: 'dump' })], { type: 'application/x-gzip' }),
		close: async () => {
			closing = true
			await call({ op: 'close' }).catch(() => undefined)
			await worker.terminate()
		},
	}
}
