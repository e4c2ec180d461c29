// @ts-check
/**
 * Named statements on the embedded database, as prepared.ts does on the PostgreSQL server
 * (docs/decisions/034-prepared-statements.md). PGlite's `query` sends every statement unnamed:
 * parsed, described and planned again on every call. This sends each parameterized text once
 * under a name, then only binds and executes it, so PostgreSQL can keep its plan. The same
 * messages as PGlite's own `query` (parse, describe, bind, describe, execute, sync), minus the
 * first two once a text is named, and sent in one call instead of one call each.
 * Plain JavaScript: the worker (pglite-worker.js) imports it.
 */
import { parse, protocol } from '@electric-sql/pglite'

const { serialize } = protocol
const SYNC = serialize.sync()

/** As on the server (prepared.ts): how many texts are named, and which. */
const MAX_NAMED_STATEMENTS = 300
const MAX_TEXT_LENGTH = 16_000
const MAX_PARAMETERS = 100
/** "cached plan must not change result type": a migration changed what the statement returns. */
const PLAN_RESULT_CHANGED = '0A000'

/**
 * @param {import('@electric-sql/pglite').PGlite} db
 * @returns {(text: string, params?: unknown[]) => Promise<import('@electric-sql/pglite').Results>}
 */
export function namedQueries(db) {
	/** @type {Map<string, { name: string, types: number[] }>} */
	const statements = new Map()
	let counter = 0
	/**
	 * Sends messages as one call, ended by a sync. PostgreSQL reads them in turn; after an error
	 * it skips to the sync, and the call throws that error.
	 * @param {Uint8Array[]} messages
	 */
	const send = (...messages) => {
		const batch = new Uint8Array(messages.reduce((length, message) => length + message.length, 0) + SYNC.length)
		let offset = 0
		for (const message of [...messages, SYNC]) {
			batch.set(message, offset)
			offset += message.length
		}
		return db.execProtocolStream(batch, { syncToFs: false })
	}

	/**
	 * @param {string} text
	 * @param {unknown[]} params
	 */
	async function run(text, params) {
		let statement = statements.get(text)
		if (!statement) {
			// A name never used before, also when an earlier parse of this text failed.
			const name = `s${++counter}`
			const described = await send(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }))
			statement = { name, types: parse.parseDescribeStatementResults(described) }
			statements.set(text, statement)
		}
		const { name, types } = statement
		const values = params.map((value, i) => {
			if (value === null || value === undefined) return null
			const serializer = db.serializers[types[i] ?? 0]
			return serializer ? serializer(value) : String(value)
		})
		try {
			const messages = await send(serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}))
			await db.syncToFs()
			return /** @type {import('@electric-sql/pglite').Results} */ (parse.parseResults(messages, db.parsers)[0])
		} catch (error) {
			if (/** @type {{ code?: unknown }} */ (error).code === PLAN_RESULT_CHANGED && statements.get(text) === statement) statements.delete(text)
			throw error
		}
	}

	return (text, params = []) => {
		const named = params.length > 0 && params.length <= MAX_PARAMETERS && text.length <= MAX_TEXT_LENGTH
		if (!named || (!statements.has(text) && statements.size >= MAX_NAMED_STATEMENTS)) return db.query(text, params)
		return db._runExclusiveQuery(() => run(text, params))
	}
}
