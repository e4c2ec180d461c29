/**
 * The scheduler inside the server (docs/decisions/014-settings-storage-and-notifications.md):
 * every minute it asks each registered job which occurrences are due (`due(now)` returns run
 * keys, e.g. "organization:2026-11-02") and runs each one that no one ran yet.
 *
 * Exactly once, across restarts and server instances on one PostgreSQL: an occurrence is
 * claimed by inserting its (job, run key) into private.job_runs; the insert that wins runs it,
 * every other instance finds the row and skips. A job records each mail in
 * private.job_deliveries before sending it (`deliverOnce`), so a run taken over after a crash
 * (a claim unfinished for STALE_MINUTES) sends only what was not sent. This works the same on
 * PGlite (one connection) and PostgreSQL, without advisory locks held across a run.
 *
 * Registering a job (the email sync will add "every 15 minutes per organization"):
 *
 *     registerJob({ name: 'email-sync', due: async (now) => keysOfDueOrganizations(now), run: syncOne })
 */
import { asSystem, sql } from './db/index.ts'
import { log, logError } from './log.ts'

export type ScheduledJob = {
	/** Unique, stable: it names the job's rows in private.job_runs. */
	name: string
	/** The run keys due at `now` (each is run once, ever). Keep a key's window short so a new install does not send old runs. */
	due: (now: Date) => Promise<string[]> | string[]
	/** Runs one occurrence. Throwing leaves the claim unfinished: it is retried after STALE_MINUTES. */
	run: (runKey: string, context: { now: Date; job: string }) => Promise<void>
}

/** A claimed run unfinished for this long is taken over (its instance died mid-run). */
export const STALE_MINUTES = 10
export const TICK_MS = 60_000

const registry = new Map<string, ScheduledJob>()

export function registerJob(job: ScheduledJob) {
	registry.set(job.name, job)
}

export function registeredJobs() {
	return [...registry.values()]
}

/** Claims (job, runKey) for this instance: true when no one holds it, or its holder went stale. */
async function claim(job: string, runKey: string, now: Date): Promise<boolean> {
	const stale = new Date(now.getTime() - STALE_MINUTES * 60_000)
	const { rows } = await asSystem((trx) =>
		sql<{ job: string }>`
			insert into private.job_runs (job, run_key, started_at) values (${job}, ${runKey}, ${now})
			on conflict (job, run_key) do update set started_at = excluded.started_at
			where private.job_runs.finished_at is null and private.job_runs.started_at < ${stale}
			returning job`.execute(trx),
	)
	return rows.length > 0
}

async function finish(job: string, runKey: string, now: Date) {
	await asSystem((trx) => sql`update private.job_runs set finished_at = ${now} where job = ${job} and run_key = ${runKey}`.execute(trx))
}

/**
 * Calls `send` only if no delivery of this run to `recipient` is recorded, recording it first
 * (a crash between the record and the send loses that one mail rather than sending it twice).
 * A send that throws removes the record, so a later takeover retries it. True when sent.
 */
export async function deliverOnce(job: string, runKey: string, recipient: string, send: () => Promise<void>): Promise<boolean> {
	const { rows } = await asSystem((trx) =>
		sql<{ job: string }>`insert into private.job_deliveries (job, run_key, recipient) values (${job}, ${runKey}, ${recipient})
			on conflict do nothing returning job`.execute(trx),
	)
	if (!rows.length) return false
	try {
		await send()
		return true
	} catch (error) {
		await asSystem((trx) =>
			sql`delete from private.job_deliveries where job = ${job} and run_key = ${runKey} and recipient = ${recipient}`.execute(trx),
		)
		throw error
	}
}

/** One pass over every job: what is due and unclaimed runs now. Returns the run keys this instance ran. */
export async function runDueJobs(now: Date, jobs: ScheduledJob[] = registeredJobs()): Promise<string[]> {
	const ran: string[] = []
	for (const job of jobs) {
		let keys: string[]
		try {
			keys = await job.due(now)
		} catch (error) {
			logError(error, { event: 'job_due_failed', job: job.name })
			continue
		}
		for (const key of keys) {
			if (!(await claim(job.name, key, now))) continue
			try {
				await job.run(key, { now, job: job.name })
				await finish(job.name, key, now)
				ran.push(`${job.name}:${key}`)
			} catch (error) {
				logError(error, { event: 'job_failed', job: job.name, runKey: key })
			}
		}
	}
	return ran
}

export type Scheduler = { stop: () => Promise<void>; tick: () => Promise<string[]> }

/**
 * Starts ticking (every TICK_MS, and once at start unless `runAtStart` is false). `now` is injectable for tests; ticks never
 * overlap. `stop` waits for the tick under way.
 */
export function startScheduler(
	options: { now?: () => Date; intervalMs?: number; jobs?: () => ScheduledJob[]; runAtStart?: boolean } = {},
): Scheduler {
	const now = options.now ?? (() => new Date())
	let running: Promise<string[]> = Promise.resolve([])
	let stopped = false
	const tick = () => {
		running = running.then(() => (stopped ? [] : runDueJobs(now(), options.jobs?.() ?? registeredJobs()))).catch((error: unknown) => {
			logError(error, { event: 'scheduler_tick_failed' })
			return []
		})
		return running
	}
	const timer = setInterval(() => void tick(), options.intervalMs ?? TICK_MS)
	timer.unref()
	if (options.runAtStart ?? true) void tick()
	log({ event: 'scheduler_started', jobs: registeredJobs().map((j) => j.name) })
	return {
		tick,
		stop: async () => {
			stopped = true
			clearInterval(timer)
			await running
		},
	}
}
