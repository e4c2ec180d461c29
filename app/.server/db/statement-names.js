// @ts-check
/**
 * Which statements get a name, and which name (docs/decisions/034-prepared-statements.md): the
 * one rule of the PostgreSQL server's client (prepared.ts) and the embedded database's thread
 * (pglite-statements.js). Plain JavaScript: the thread imports it.
 */

/** Distinct texts named per process; any more are sent unnamed (the database keeps each one). */
export const MAX_NAMED_STATEMENTS = 300
/** Longer texts, or more parameters, are generated in bulk (imports) and seldom repeat. */
const MAX_TEXT_LENGTH = 16_000
const MAX_PARAMETERS = 100
/** "cached plan must not change result type": a migration changed what the statement returns. */
const PLAN_RESULT_CHANGED = '0A000'

export function statementNames() {
	/** @type {Map<string, string>} */
	const names = new Map()
	let counter = 0
	return {
		/**
		 * The name to send `text` under, or undefined to send it unnamed.
		 * @param {string} text
		 * @param {number} parameters how many values it is sent with
		 */
		nameFor(text, parameters) {
			if (parameters === 0 || parameters > MAX_PARAMETERS || text.length > MAX_TEXT_LENGTH) return undefined
			let name = names.get(text)
			if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
				name = `s${++counter}`
				names.set(text, name)
			}
			return name
		},
		/**
		 * After `text` failed under `name`: when the failure means its kept statement can no
		 * longer serve (or, with `always`, whatever it was), the next use parses it anew under a
		 * new name. The database keeps the old statement, unused.
		 * @param {string} text
		 * @param {string} name
		 * @param {unknown} error
		 * @param {{ always?: boolean }} [options]
		 */
		forgetAfter(text, name, error, { always = false } = {}) {
			const changed = /** @type {{ code?: unknown } | null} */ (error)?.code === PLAN_RESULT_CHANGED
			if ((always || changed) && names.get(text) === name) names.delete(text)
		},
	}
}
