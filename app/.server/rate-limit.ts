/**
 * Every rate limit of the product, in one table (LIMITS), and the two ways of counting them:
 *
 * - Attempts (`allowEvent`): most limits count every attempt, and one statement counts the
 *   attempt and decides, so concurrent requests cannot slip past the limit together.
 * - Failures (`countEvents`, then `recordEvent` once the attempt failed): sign-in counts only
 *   wrong passwords, and whether an attempt failed is known only after it was tried, so counting
 *   and deciding cannot be one statement. Attempts under way together may each pass before
 *   any of them is recorded, which a failure limit (tens of tries, then a pause) tolerates. The
 *   local auth adapter keeps its failures in `auth.login_attempts` (a success clears them),
 *   the Supabase adapter in `private.rate_limit_events`, against the same limits.
 */
import { gathered, inInputOrder } from './db/gather.ts'
import { asSystem, sql, systemStatement } from './db/index.ts'
import { env } from './env.ts'
import type { ScheduledJob } from './scheduler.ts'

export type RateLimit = { limit: number; windowMinutes: number }

/** The longest window a limit may have: the daily pruning keeps two days of counts. */
export const MAX_WINDOW_MINUTES = 24 * 60

/**
 * Every rate limit of the product, by name: the name is also the kind its counts are stored
 * under. The ones an operator may change read the environment (docs/deploy.md); the others are
 * fixed here. Not rate limits, so not here: the calendar's open streams per user
 * (app/.server/booking/live-updates.ts) and the upcoming bookings per email
 * (BOOK_MAX_UPCOMING_PER_EMAIL, counted by `create_booking`).
 */
export const LIMITS = {
	/** Sign-ups per address (SIGNUP_MAX_PER_IP in SIGNUP_WINDOW_MINUTES), with either auth adapter. */
	get signup(): RateLimit {
		return { limit: env().SIGNUP_MAX_PER_IP, windowMinutes: env().SIGNUP_WINDOW_MINUTES }
	},
	/** Failed sign-ins per (email, address): a failure limit (LOGIN_MAX_FAILURES in LOGIN_WINDOW_MINUTES). */
	get login_failure(): RateLimit {
		return { limit: env().LOGIN_MAX_FAILURES, windowMinutes: env().LOGIN_WINDOW_MINUTES }
	},
	/** Failed sign-ins per address, whatever the email: a failure limit (LOGIN_MAX_FAILURES_PER_IP). */
	get login_failure_ip(): RateLimit {
		return { limit: env().LOGIN_MAX_FAILURES_PER_IP, windowMinutes: env().LOGIN_WINDOW_MINUTES }
	},
	/** "Send the link again" of an unverified address: mails per account. */
	'email-verification': { limit: 3, windowMinutes: 60 },
	/** Email changes asked for, per user: each mails a link to the new address. */
	'email-change': { limit: 5, windowMinutes: 60 },
	/** Password changes tried, per user: each checks the current password. */
	'password-change': { limit: 10, windowMinutes: 15 },
	/** Invitations sent, per inviter: each mails any address. */
	invite: { limit: 30, windowMinutes: 60 },
	/** Avatar and logo uploads together, per user: each costs a decode. */
	'picture-upload': { limit: 30, windowMinutes: 60 },
	/** Mailbox connection checks, per organization: each makes the server log in somewhere. */
	'integration-check': { limit: 20, windowMinutes: 15 },
	/** Payment requests per amount owed ("Who still owes me"): a client is asked at most three times a day for one thing. */
	'payment-request': { limit: 3, windowMinutes: 24 * 60 },
	/** Payment requests per organization: each mails an address its members typed, so the server is not a mass mailer. */
	'payment-request-organization': { limit: 100, windowMinutes: 60 },
	/** Public booking posts per address (BOOK_POSTS_PER_HOUR). */
	get book_post(): RateLimit {
		return { limit: env().BOOK_POSTS_PER_HOUR, windowMinutes: 60 }
	},
	/** Invoice pages and PDFs (/i/{token}) asked for by a token of no invoice, per address (INVOICE_PAGE_MISSES_PER_HOUR): a failure limit. */
	get 'invoice-page-miss'(): RateLimit {
		return { limit: env().INVOICE_PAGE_MISSES_PER_HOUR, windowMinutes: 60 }
	},
	/** Calls of the JSON API per token (docs/api.md). */
	'api-request': { limit: 1_000, windowMinutes: 60 },
	/** Refused API tokens per address: a failure limit (docs/api.md). */
	'api-token-failure': { limit: 30, windowMinutes: 15 },
	/** Looks at a public booking page's free times per address (BOOK_LOOKUPS_PER_HOUR). */
	get slot_lookup(): RateLimit {
		return { limit: env().BOOK_LOOKUPS_PER_HOUR, windowMinutes: 60 }
	},
} satisfies Record<string, RateLimit>

export type LimitName = keyof typeof LIMITS

/**
 * Counts one event of the limit `name` for `key` (an address, a user) and says whether it is
 * within the limit's events in its window (LIMITS). A refused event is not counted, so a client
 * that keeps trying is let in again once the window passes. Events of one key are taken one at a
 * time (a transaction lock), so concurrent requests cannot slip past the limit together, on one
 * server instance or several (docs/decisions/035-gathered-statements.md):
 *
 * - Counted in buckets of a sixtieth of the window, a call costs the same whatever the limit;
 *   an event counts for the window and at most one bucket more.
 * - The events of requests that arrive together (within one turn of the event loop) go to the
 *   database as one statement: under load, one round trip serves several requests.
 *
 * An explicit `limit` is for the tests of the counting itself (any kind, any limit); the
 * product's callers name their limit.
 */
export function allowEvent(name: LimitName, key: string): Promise<boolean>
export function allowEvent(kind: string, key: string, limit: RateLimit): Promise<boolean>
export function allowEvent(kind: string, key: string, limit?: RateLimit): Promise<boolean> {
	const { limit: maxEvents, windowMinutes } = limit ?? LIMITS[kind as LimitName]
	if (windowMinutes > MAX_WINDOW_MINUTES) return Promise.reject(new Error(`A rate limit's window is ${MAX_WINDOW_MINUTES} minutes at most`))
	return allowGathered({ kind, key: keyOf(key), max_events: maxEvents, window_minutes: windowMinutes })
}

type LimitedEvent = { kind: string; key: string; max_events: number; window_minutes: number }

const allowGathered = gathered(async (events: LimitedEvent[]) => {
	const rows = await systemStatement(
		sql<{ n: number; allowed: boolean }>`select n, allowed from private.allow_events(${JSON.stringify(events)}::jsonb)`,
	)
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
		await sql`delete from private.rate_limit_events where kind = ${kind} and key = ${safeKey} and happened_at < now() - interval '1 day'`.execute(
			trx,
		)
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
