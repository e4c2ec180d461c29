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

/** Distinct texts named per pool; any more are sent unnamed (the server keeps each per connection). */
export const MAX_NAMED_STATEMENTS = 300
/** Longer texts, or more parameters, are generated in bulk (imports) and seldom repeat. */
const MAX_TEXT_LENGTH = 16_000
const MAX_PARAMETERS = 100
/** "cached plan must not change result type": a migration changed what the statement returns. */
const PLAN_RESULT_CHANGED = '0A000'

type Query = pg.Client['query']

/** A pg Client class (for the Pool's `Client` option) that names the statements it sends. */
export function namingClient(): typeof pg.Client {
	const names = new Map<string, string>()
	let counter = 0

	function nameFor(text: string, values: unknown[]): string | undefined {
		if (values.length === 0 || values.length > MAX_PARAMETERS || text.length > MAX_TEXT_LENGTH) return undefined
		let name = names.get(text)
		if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
			name = `s${++counter}`
			names.set(text, name)
		}
		return name
	}

	const plainQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown
	class NamingClient extends pg.Client {}
	NamingClient.prototype.query = function (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) {
		const name = typeof config === 'string' && Array.isArray(values) && callback === undefined ? nameFor(config, values) : undefined
		if (name === undefined) return plainQuery.call(this, config, values, callback)
		const text = config as string
		return (plainQuery.call(this, { name, text, values }) as Promise<unknown>).catch((error: unknown) => {
			// The server keeps the old statement; the next use parses the text under a new name.
			if ((error as { code?: unknown }).code === PLAN_RESULT_CHANGED && names.get(text) === name) names.delete(text)
			throw error
		})
	} as Query
	return NamingClient
}
