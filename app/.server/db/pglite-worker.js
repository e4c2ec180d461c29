// @ts-check
/**
 * The embedded database's own thread (docs/decisions/026-embedded-database-thread.md). PGlite
 * runs PostgreSQL compiled to WebAssembly, synchronously: on the server's thread, every statement
 * stopped every other request. This thread owns the PGlite instance and answers the messages of
 * pglite-thread.ts, one call each: { id, op: 'query' | 'exec' | 'dump' | 'close', sql, params,
 * before } → { id, result } or { id, error }. `before` is a script run first (a transaction's
 * `begin`); when it fails, its error is the answer and the call is not made. Message 0 is the
 * start: its answer says whether PGlite opened.
 * Plain JavaScript: Node runs a worker's file as it is, in development and tests as well as from
 * the build (vite.config.ts emits it next to the server build).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'
import { pgliteOptions } from './pglite-options.js'
import { namedQueries } from './pglite-statements.js'

const port = parentPort
if (!port) throw new Error('pglite-worker.js runs as a worker thread (pglite-thread.ts starts it)')

/** An error as plain fields that survive the copy to the other thread (PostgreSQL's code, detail, constraint…). */
function plainError(/** @type {unknown} */ error) {
	if (!(error instanceof Error)) return { message: String(error) }
	/** @type {Record<string, string | number | boolean>} */
	const fields = { message: error.message }
	for (const [key, value] of Object.entries(error)) {
		if (key !== 'stack' && ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value
	}
	return fields
}

/** @type {PGlite} */
let db
/** @type {ReturnType<typeof namedQueries>} */
let query
try {
	db = await PGlite.create({ dataDir: workerData.dataDir, loadDataDir: workerData.loadDataDir, ...pgliteOptions() })
	query = namedQueries(db)
	port.postMessage({ id: 0, result: null })
} catch (error) {
	port.postMessage({ id: 0, error: plainError(error) })
	// In a worker, this ends the thread, not the process.
	process.exit(1)
}

port.on('message', async (/** @type {{ id: number, op: string, sql?: string, params?: unknown[], before?: string }} */ message) => {
	const { id, op, sql = '', params, before } = message
	try {
		if (before) await db.exec(before)
		if (op === 'query') {
			const { rows, affectedRows } = await query(sql, params)
			port.postMessage({ id, result: { rows, affectedRows } })
		} else if (op === 'exec') {
			await db.exec(sql)
			port.postMessage({ id, result: null })
		} else if (op === 'dump') {
			const image = await (await db.dumpDataDir('gzip')).arrayBuffer()
			port.postMessage({ id, result: image }, [image])
		} else if (op === 'close') {
			await db.close()
			port.postMessage({ id, result: null })
		} else {
			throw new Error(`Unknown operation: ${op}`)
		}
	} catch (error) {
		port.postMessage({ id, error: plainError(error) })
	}
})
