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
import { statementNames } from './statement-names.js'

const { serialize } = protocol
const SYNC = serialize.sync()

/**
 * @param {import('@electric-sql/pglite').PGlite} db
 * @returns {(text: string, params?: unknown[]) => Promise<import('@electric-sql/pglite').Results>}
 */
export function namedQueries(db) {
	const names = statementNames()
	/** @type {Map<string, number[]>} the parameters' types of each statement parsed, by name */
	const parsed = new Map()
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
	 * @param {string} name
	 * @returns {Promise<number[]>}
	 */
	async function parseOnce(text, name) {
		const known = parsed.get(name)
		if (known) return known
		try {
			const types = parse.parseDescribeStatementResults(
				await send(serialize.parse({ name, text }), serialize.describe({ type: 'S', name })),
			)
			parsed.set(name, types)
			return types
		} catch (error) {
			// Whether or not the parse went through before the error, the next try takes a new name.
			names.forgetAfter(text, name, error, { always: true })
			throw error
		}
	}

	/**
	 * @param {string} text
	 * @param {string} name
	 * @param {unknown[]} params
	 */
	async function run(text, name, params) {
		const types = await parseOnce(text, name)
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
			names.forgetAfter(text, name, error)
			throw error
		}
	}

	return (text, params = []) => {
		const name = names.nameFor(text, params.length)
		if (name === undefined) return db.query(text, params)
		return db._runExclusiveQuery(() => run(text, name, params))
	}
}
