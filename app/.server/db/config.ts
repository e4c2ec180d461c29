import path from 'node:path'
import { env, type Env } from '../env.ts'

/** How to reach the database: the embedded one in a data directory, or a PostgreSQL server. */
export type DatabaseOptions =
	| { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob | File }
	/**
	 * `listenUrl`: where LISTEN connects when `url` is a transaction-mode pooler (which cannot hold one); `url` otherwise.
	 * `prepare` (default true): named statements (./prepared.ts), which a transaction-mode pooler cannot keep.
	 */
	| { kind: 'pg'; url: string; max?: number; listenUrl?: string; prepare?: boolean }

export function defaultDatabaseOptions(): DatabaseOptions {
	return databaseOptionsFor(env())
}

/**
 * The PostgreSQL server when DATABASE_URL is set, else the embedded database under DATA_DIR.
 * DIRECT_DATABASE_URL is set when DATABASE_URL is a transaction-mode pooler (docs/deploy.md),
 * which cannot keep named statements (docs/decisions/034-prepared-statements.md).
 */
export function databaseOptionsFor({
	DATABASE_URL,
	DIRECT_DATABASE_URL,
	dataDir,
}: Pick<Env, 'DATABASE_URL' | 'DIRECT_DATABASE_URL' | 'dataDir'>): DatabaseOptions {
	if (DATABASE_URL) return { kind: 'pg', url: DATABASE_URL, listenUrl: DIRECT_DATABASE_URL, prepare: !DIRECT_DATABASE_URL }
	return { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') }
}
