import { asSystem, sql, systemStatement } from './db/index.ts'

export type RateLimit = { limit: number; windowMinutes: number }

/**
 * Counts one event of `kind` for `key` (an address, an email) and says whether it is within
 * `limit` events in the last `windowMinutes`. A refused event is not counted, so a client that
 * keeps trying is let in again once the window passes. Events of one key are taken one at a
 * time (a transaction lock), so concurrent requests cannot slip past the limit together.
 */
export async function allowEvent(kind: string, key: string, { limit, windowMinutes }: RateLimit) {
	const since = new Date(Date.now() - windowMinutes * 60_000)
	const safeKey = key.slice(0, 200) || 'unknown'
	const [row] = await systemStatement(sql<{ allowed: boolean }>`select private.allow_event(${kind}, ${safeKey}, ${limit}, ${since}) as allowed`)
	return row!.allowed
}

/** How many events of `kind` for `key` happened in the last `windowMinutes` (for limits on failures, counted apart from attempts). */
export async function countEvents(kind: string, key: string, windowMinutes: number) {
	const since = new Date(Date.now() - windowMinutes * 60_000)
	const safeKey = key.slice(0, 200) || 'unknown'
	const [row] = await systemStatement(
		sql<{ count: number }>`select count(*)::int as count from private.rate_limit_events
			where kind = ${kind} and key = ${safeKey} and happened_at > ${since}`,
	)
	return row!.count
}

/** Records one event of `kind` for `key` (a failure, counted by `countEvents`). */
export async function recordEvent(kind: string, key: string) {
	const safeKey = key.slice(0, 200) || 'unknown'
	await asSystem(async (trx) => {
		await sql`insert into private.rate_limit_events (kind, key) values (${kind}, ${safeKey})`.execute(trx)
		await sql`delete from private.rate_limit_events where kind = ${kind} and key = ${safeKey} and happened_at < now() - interval '1 day'`.execute(trx)
	})
}
