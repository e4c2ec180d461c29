/**
 * The one way into the database. No module gets a bare handle: every access is one short
 * transaction through asUser (RLS as `authenticated` with the user's claims), asAnon (RLS as
 * `anon`, for the public pages) or asSystem (the owner role: migrations, seeding, the auth
 * adapter's own tables), or one statement on its own as the owner (systemStatement). On PGlite,
 * which has a single connection, the dialect queues transactions, so a request never runs inside
 * another request's role.
 */
import { mkdirSync } from 'node:fs'
import type { PGlite } from '@electric-sql/pglite'
import { Kysely, PostgresDialect, sql, type RawBuilder, type Transaction } from 'kysely'
import { PGliteDialect } from 'kysely-pglite-dialect'
import pg from 'pg'
import { defaultDatabaseOptions, type DatabaseOptions } from './config.ts'
import { DATE, INT8, NUMERIC } from './pglite-options.js'
import { startPgliteThread } from './pglite-thread.ts'
import { namingClient } from './prepared.ts'
import type { DB } from './types.ts'
import { isUuid } from '#app/lib/uuid.ts'

export type Tx = Transaction<DB>

type Connection = {
	db: Kysely<DB>
	/** Runs a multi-statement SQL script inside the given transaction. */
	runScript: (trx: Tx, text: string) => Promise<void>
	/**
	 * Begins a transaction with the script (`begin; …`). On the embedded database the script goes
	 * with the transaction's first statement, which fails if the script fails.
	 */
	begin: (trx: Tx, script: string) => Promise<void>
	dump?: () => Promise<Blob>
	/** PostgreSQL server only: a dedicated connection that LISTENs on a channel. */
	listen?: (channel: string, onNotify: (payload: string) => void, onEnd?: () => void) => Promise<() => Promise<void>>
	close: () => Promise<void>
}

export type { DatabaseOptions } from './config.ts'

let connection: Connection | undefined
let opening: Promise<Connection> | undefined

const stoppedListeners = new Set<(error: Error) => void>()
/**
 * Tells `listener` when the embedded database's thread stops while open (it crashed, or ran out
 * of memory): every query fails from then on (docs/decisions/026). server.js ends the process.
 */
export function onDatabaseStopped(listener: (error: Error) => void) {
	stoppedListeners.add(listener)
	return () => void stoppedListeners.delete(listener)
}

async function openPglite(options: Extract<DatabaseOptions, { kind: 'pglite' }>): Promise<Connection> {
	// PGlite makes its own folder but not the ones above it (a DATA_DIR that does not exist yet).
	if (options.dataDir) mkdirSync(options.dataDir, { recursive: true })
	const client = await startPgliteThread({
		dataDir: options.dataDir,
		loadDataDir: options.loadDataDir,
		onStop: (error) => stoppedListeners.forEach((listener) => listener(error)),
	})
	// The dialect's driver calls only `query` and `close`, which the thread's client has.
	const db = new Kysely<DB>({ dialect: new PGliteDialect(client as unknown as PGlite) })
	return {
		db,
		// The transaction holds PGlite's only connection, so exec runs inside it.
		runScript: async (_trx, text) => client.exec(text),
		begin: async (_trx, script) => client.execBefore(script),
		dump: () => client.dumpDataDir(),
		close: () => db.destroy(),
	}
}

async function openPg(options: Extract<DatabaseOptions, { kind: 'pg' }>): Promise<Connection> {
	const pool = new pg.Pool({
		connectionString: options.url,
		max: options.max ?? 10,
		Client: options.prepare === false ? pg.Client : namingClient(),
		types: {
			getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
				if (oid === INT8) return (v: string) => Number(v)
				if (oid === DATE || oid === NUMERIC) return (v: string) => v
				return pg.types.getTypeParser(oid, format)
			}) as typeof pg.types.getTypeParser,
		},
	})
	const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
	const listeners = new Set<pg.Client>()
	// Without parameters, pg uses the simple protocol, which takes several statements.
	const runScript = async (trx: Tx, text: string) => void (await sql.raw(text).execute(trx))
	return {
		db,
		runScript,
		begin: runScript,
		// Outside the pool: a LISTEN holds its connection for as long as it listens.
		listen: async (channel, onNotify, onEnd) => {
			const client = new pg.Client({ connectionString: options.listenUrl ?? options.url })
			listeners.add(client)
			client.on('notification', (message) => {
				if (message.channel === channel) onNotify(message.payload ?? '')
			})
			client.on('error', () => undefined)
			client.on('end', () => {
				listeners.delete(client)
				onEnd?.()
			})
			await client.connect()
			await client.query(`listen ${client.escapeIdentifier(channel)}`)
			return () => client.end()
		},
		close: async () => {
			await Promise.all([...listeners].map((client) => client.end()))
			await db.destroy()
		},
	}
}

/** Opens the database once per process. Later calls return the same connection. */
export function openDatabase(options: DatabaseOptions): Promise<Connection> {
	if (connection) return Promise.resolve(connection)
	opening ??= (options.kind === 'pglite' ? openPglite(options) : openPg(options)).then((c) => {
		connection = c
		return c
	})
	return opening
}

async function current(): Promise<Connection> {
	if (connection) return connection
	if (opening) return opening
	return openDatabase(defaultDatabaseOptions())
}

export async function closeDatabase() {
	const c = connection ?? (await opening?.catch(() => undefined))
	connection = undefined
	opening = undefined
	await c?.close()
}

/** A copy of the embedded database's files (tests load it instead of migrating again). */
export async function dumpDatabaseImage(): Promise<Blob> {
	const c = await current()
	if (!c.dump) throw new Error('Only the embedded database can be dumped')
	return c.dump()
}

/**
 * Listens to NOTIFY on a channel of a PostgreSQL server, on a connection of its own (no
 * queries run on it); `onEnd` is called when that connection ends (the server restarted, the
 * network dropped). Null on the embedded database, whose single connection cannot be held:
 * there the app notifies in process instead (app/.server/booking/live-updates.ts).
 */
export async function listenToChannel(
	channel: string,
	onNotify: (payload: string) => void,
	onEnd?: () => void,
): Promise<(() => Promise<void>) | null> {
	const c = await current()
	return c.listen ? c.listen(channel, onNotify, onEnd) : null
}

type Claims = { sub?: string; role: 'authenticated' | 'anon' }

/**
 * `begin`, then `claims.role` with those JWT claims for the rest of the transaction (RLS
 * applies), as one script: one round trip instead of two (docs/decisions/025-fewer-statements-per-page.md).
 * A script takes no parameters, so the values are written into it: the role is one of two
 * names and the user id is checked to be a UUID, so the JSON has no quote to escape.
 */
function beginAs(claims: Claims) {
	if (claims.sub !== undefined && !isUuid(claims.sub)) throw new Error('asUser needs a user id')
	return `begin; select set_config('role', '${claims.role}', true), set_config('request.jwt.claims', '${JSON.stringify(claims)}', true)`
}

/**
 * One transaction as `claims.role`. Begun and ended by scripts of its own rather than by
 * Kysely's transaction (which sends `begin` alone); `fn` gets the connection that holds it.
 * The `commit` is sent before the connection goes back and awaited after: a statement sent
 * on the connection next queues behind it (on the embedded database, whose one connection
 * every request waits for, the next transaction does not also wait for the answer to reach
 * this one: docs/decisions/026-embedded-database-thread.md).
 */
async function withRole<T>(claims: Claims, fn: (trx: Tx) => Promise<T>): Promise<T> {
	const c = await current()
	const script = beginAs(claims)
	let committed: Promise<void> = Promise.resolve()
	const result = await c.db.connection().execute(async (connection) => {
		// The connection is the transaction's: Kysely's Transaction type adds nothing the queries use.
		const trx = connection as unknown as Tx
		let result: T
		try {
			await c.begin(trx, script)
			result = await fn(trx)
		} catch (error) {
			// Also when the script failed after its `begin`: no connection goes back to the pool
			// inside an aborted transaction.
			await c.runScript(trx, 'rollback').catch(() => undefined)
			throw error
		}
		committed = c.runScript(trx, 'commit')
		// Awaited below; until then a failure must not count as unhandled.
		committed.catch(() => undefined)
		return result
	})
	await committed
	return result
}

/** One transaction as the signed-in user: RLS applies with auth.uid() = userId. */
export function asUser<T>(userId: string, fn: (trx: Tx) => Promise<T>): Promise<T> {
	// withRole refuses an id that is not a UUID (an empty one included) before any statement.
	return withRole({ sub: userId, role: 'authenticated' }, fn)
}

/** One transaction as an anonymous visitor (the public booking pages). */
export function asAnon<T>(fn: (trx: Tx) => Promise<T>): Promise<T> {
	return withRole({ role: 'anon' }, fn)
}

/** One transaction as the owner role, bypassing RLS: migrations, seeding, auth internals. */
export async function asSystem<T>(fn: (trx: Tx, runScript: (text: string) => Promise<void>) => Promise<T>): Promise<T> {
	const c = await current()
	return c.db.transaction().execute((trx) => fn(trx, (text) => c.runScript(trx, text)))
}

/**
 * One statement as the owner role, on its own: PostgreSQL runs it as its own transaction, without
 * the two extra round trips of `begin` and `commit`. For one call of a function that is atomic by
 * itself (the signed-in shell, the rate limits' `private.allow_event`); anything more is a
 * transaction (`asSystem`).
 */
export async function systemStatement<R>(query: RawBuilder<R>): Promise<R[]> {
	const { db } = await current()
	return (await query.execute(db)).rows
}

/** The stable code of an error raised by one of our SQL functions, or the SQLSTATE. */
export function dbErrorCode(error: unknown): string | undefined {
	if (typeof error !== 'object' || error === null) return undefined
	const e = error as { code?: string; message?: string }
	if (e.code === 'P0001' && e.message) return e.message
	return e.code
}

export { sql }
