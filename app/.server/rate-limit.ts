import { gathered, inInputOrder } from './db/gather.ts'
import { asSystem, sql, systemStatement } from './db/index.ts'
import type { ScheduledJob } from './scheduler.ts'

export type RateLimit = { limit: number; windowMinutes: number }

/** The longest window a limit may have: the daily pruning keeps two days of counts. */
export const MAX_WINDOW_MINUTES = 24 * 60

/**
 * Counts one event of `kind` for `key` (an address, an email) and says whether it is within
 * `limit` events in the last `windowMinutes`. A refused event is not counted, so a client that
 * keeps trying is let in again once the window passes. Events of one key are taken one at a
 * time (a transaction lock), so concurrent requests cannot slip past the limit together, on one
 * server instance or several (docs/decisions/035-gathered-statements.md):
 *
 * - Counted in buckets of a sixtieth of the window, a call costs the same whatever the limit;
 *   an event counts for the window and at most one bucket more.
 * - The events of requests that arrive together (within one turn of the event loop) go to the
 *   database as one statement: under load, one round trip serves several requests.
 */
export function allowEvent(kind: string, key: string, { limit, windowMinutes }: RateLimit): Promise<boolean> {
	if (windowMinutes > MAX_WINDOW_MINUTES) return Promise.reject(new Error(`A rate limit's window is ${MAX_WINDOW_MINUTES} minutes at most`))
	return allowGathered({ kind, key: keyOf(key), max_events: limit, window_minutes: windowMinutes })
}

type LimitedEvent = { kind: string; key: string; max_events: number; window_minutes: number }

const allowGathered = gathered(async (events: LimitedEvent[]) => {
	const rows = await systemStatement(sql<{ n: number; allowed: boolean }>`select n, allowed from private.allow_events(${JSON.stringify(events)}::jsonb)`)
	return inInputOrder(rows).map((row) => row.allowed)
})

/**
 * A key as the database keeps it: at most 200 characters, well-formed (a lone surrogate becomes
 * U+FFFD, as it would on the wire) and without NUL, which PostgreSQL's text cannot hold.
 */
function keyOf(key: string) {
	return Buffer.from(key.slice(0, 200), 'utf8').toString('utf8').replaceAll('\0', '') || 'unknown'
}

/** How many events of `kind` for `key` happened in the last `windowMinutes` (for limits on failures, counted apart from attempts). */
export async function countEvents(kind: string, key: string, windowMinutes: number) {
	const since = new Date(Date.now() - windowMinutes * 60_000)
	const safeKey = keyOf(key)
	const [row] = await systemStatement(
		sql<{ count: number }>`select count(*)::int as count from private.rate_limit_events
			where kind = ${kind} and key = ${safeKey} and happened_at > ${since}`,
	)
	return row!.count
}

/** Records one event of `kind` for `key` (a failure, counted by `countEvents`). */
export async function recordEvent(kind: string, key: string) {
	const safeKey = keyOf(key)
	await asSystem(async (trx) => {
		await sql`insert into private.rate_limit_events (kind, key) values (${kind}, ${safeKey})`.execute(trx)
		await sql`delete from private.rate_limit_events where kind = ${kind} and key = ${safeKey} and happened_at < now() - interval '1 day'`.execute(trx)
	})
}

/**
 * Once a day, the counts of keys that never came back (a visitor's address), which a call prunes
 * only for its own key: everything older than two days, twice the longest window.
 */
export const rateLimitPruningJob: ScheduledJob = {
	name: 'rate-limit-pruning',
	due: (now) => [now.toISOString().slice(0, 10)],
	run: () =>
		asSystem(async (trx) => {
			await sql`delete from private.rate_limit_buckets where bucket < now() - interval '2 days'`.execute(trx)
			await sql`delete from private.rate_limit_events where happened_at < now() - interval '2 days'`.execute(trx)
		}),
}
