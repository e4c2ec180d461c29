/**
 * Named (prepared) statements for the PostgreSQL server (docs/decisions/034-prepared-statements.md).
 * Kysely sends every parameterized statement as `query(text, values)`, which pg sends unnamed:
 * the server parses, analyses and plans it again on every request, and that was most of the
 * database's time on a signed-in page. This client names each distinct statement text instead,
 * so every connection parses it once and PostgreSQL's plan cache can keep its plan.
 *
 * Plans stay right for every user: a cached plan that depends on row-level security is re-made
 * when the role changes, permissions are checked on every execution, and the user's id is read
 * at run time (`auth.uid()`). Not for a transaction-mode pooler, whose statements do not stay
 * on one server connection (the option is off there: app/.server/db/config.ts).
 */
import pg from 'pg'
import { statementNames } from './statement-names.js'

type Query = pg.Client['query']

/** A pg Client class (for the Pool's `Client` option) that names the statements it sends. */
export function namingClient(): typeof pg.Client {
	const names = statementNames()
	const plainQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown
	class NamingClient extends pg.Client {}
	// Kysely's form only: text, values, a promise back (pg remembers which names each connection parsed).
	NamingClient.prototype.query = function (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) {
		const name =
			typeof config === 'string' && Array.isArray(values) && callback === undefined ? names.nameFor(config, values.length) : undefined
		if (name === undefined) return plainQuery.call(this, config, values, callback)
		const text = config as string
		return (plainQuery.call(this, { name, text, values }) as Promise<unknown>).catch((error: unknown) => {
			names.forgetAfter(text, name, error)
			throw error
		})
	} as Query
	return NamingClient
}
