// @ts-check
/**
 * How the app opens PGlite, wherever it does: the embedded database's thread (pglite-worker.js)
 * and the script that regenerates the database types. Plain JavaScript, because the worker
 * imports it and Node runs a worker's files as they are.
 */
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'

/** Type OIDs whose values the app reads as the PostgreSQL server connection does (index.ts). */
export const INT8 = 20
export const DATE = 1082
export const NUMERIC = 1700

export function pgliteOptions() {
	return {
		extensions: { btree_gist, pg_trgm, unaccent },
		parsers: {
			[INT8]: (/** @type {string} */ v) => Number(v),
			[DATE]: (/** @type {string} */ v) => v,
			[NUMERIC]: (/** @type {string} */ v) => v,
		},
	}
}
