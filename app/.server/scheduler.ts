/**
 * The scheduler inside the server (docs/decisions/014-settings-storage-and-notifications.md,
 * docs/decisions/036-job-runner.md): every minute it asks each registered job which occurrences
 * are due (`due(now)` returns run keys, e.g. "organization:2026-11-02") and runs each one that no
 * one ran yet.
 *
 * Exactly once, across restarts and server instances on one PostgreSQL: an occurrence is
 * claimed by inserting its (job, run key) into private.job_runs; the insert that wins runs it,
 * every other instance finds the row and skips. A job records each mail in
 * private.job_deliveries before sending it (`deliverOnce`), so a run taken over after a crash
 * (a claim unfinished for STALE_MINUTES) sends only what was not sent. This works the same on
 * PGlite (one connection) and PostgreSQL, without advisory locks held across a run.
 *
 * Independent runs: no job, and no organization's run of a job, can hold up another. Runs go
 * side by side, up to `concurrency` per instance, and one job never takes the last free slot
 * while another job's key waits; a tick starts what is due without waiting for the runs of
 * earlier ticks. Every run has a deadline (its job's `deadlineMs`): then its `signal` fires, the
 * scheduler stops waiting and frees the slot, and the claim stays unfinished, to be taken over
 * after STALE_MINUTES (longer than any deadline, so a run is never taken over within its time).
 * `due()` has a deadline too.
 *
 * Registering a job (the email sync adds "every 15 minutes per organization"):
 *
 *     registerJob({ name: 'email-sync', due: async (now) => keysOfDueOrganizations(now), run: syncOne, deadlineMs: 3 * 60_000 })
 */
import { asSystem, sql } from './db/index.ts'
import { log, logError } from './log.ts'

/** What a run gets: the tick's instant, its job's name, and a signal that fires at its deadline (or when the server stops). */
export type JobContext = { now: Date; job: string; signal: AbortSignal }

export type ScheduledJob = {
	/** Unique, stable: it names the job's rows in private.job_runs. */
	name: string
	/** The run keys due at `now` (each is run once, ever). Keep a key's window short so a new install does not send old runs. */
	due: (now: Date, context?: { signal: AbortSignal }) => Promise<string[]> | string[]
	/**
	 * Runs one occurrence. Throwing leaves the claim unfinished: it is retried after STALE_MINUTES.
	 * `context.signal` fires at the deadline: stop then, and throw unless what is left undone is
	 * picked up anyway by a later run (the email sync's cursor), since returning marks it done.
	 */
	run: (runKey: string, context: JobContext) => Promise<void>
	/** How long one run may take, from its claim (DEFAULT_DEADLINE_MS when absent; at most MAX_DEADLINE_MS). */
	deadlineMs?: number
}

/** A claimed run unfinished for this long is taken over (its instance died mid-run, or abandoned it at its deadline). */
export const STALE_MINUTES = 10
export const TICK_MS = 60_000
export const DEFAULT_DEADLINE_MS = 5 * 60_000
/**
 * The longest deadline a job may declare: two minutes under STALE_MINUTES, for the claim's own
 * round trip and for clocks of two instances that disagree, so that a run still within its time
 * is never taken over by another instance.
 */
export const MAX_DEADLINE_MS = (STALE_MINUTES - 2) * 60_000
/** How long a job's `due()` may take before the tick goes on without its keys. */
export const DUE_DEADLINE_MS = 30_000
/** Runs at once on one instance, unless the scheduler is given another bound. */
export const DEFAULT_CONCURRENCY = 4

const registry = new Map<string, ScheduledJob>()

/** Adds a job to those the scheduler runs; refuses a name the claims table cannot hold and a deadline past MAX_DEADLINE_MS. */
export function registerJob(job: ScheduledJob) {
	if (job.name.length < 1 || job.name.length > 80) throw new Error(`A job's name has 1 to 80 characters: "${job.name}"`)
	const deadline = job.deadlineMs ?? DEFAULT_DEADLINE_MS
	if (!(deadline > 0 && deadline <= MAX_DEADLINE_MS)) {
		throw new Error(
			`The deadline of job "${job.name}" must be between 1 and ${MAX_DEADLINE_MS} ms (under the ${STALE_MINUTES} minutes after which a claim is taken over)`,
		)
	}
	registry.set(job.name, job)
}

/** The jobs registered so far (the scheduler's default list). */
export function registeredJobs() {
	return [...registry.values()]
}

function deadlineOf(job: ScheduledJob) {
	return Math.min(job.deadlineMs ?? DEFAULT_DEADLINE_MS, MAX_DEADLINE_MS)
}

/** Claims (job, runKey) for this instance at `at`: true when no one holds it, or its holder went stale. */
async function claim(job: string, runKey: string, at: Date): Promise<boolean> {
	const stale = new Date(at.getTime() - STALE_MINUTES * 60_000)
	const { rows } = await asSystem((trx) =>
		sql<{ job: string }>`
			insert into private.job_runs (job, run_key, started_at) values (${job}, ${runKey}, ${at})
			on conflict (job, run_key) do update set started_at = excluded.started_at
			where private.job_runs.finished_at is null and private.job_runs.started_at < ${stale}
			returning job`.execute(trx),
	)
	return rows.length > 0
}

/** Marks the run done, if the claim made at `claimedAt` is still this run's (not taken over since). */
async function finish(job: string, runKey: string, claimedAt: Date, at: Date) {
	await asSystem((trx) =>
		sql`update private.job_runs set finished_at = ${at}
			where job = ${job} and run_key = ${runKey} and started_at = ${claimedAt} and finished_at is null`.execute(trx),
	)
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

export type RunnerOptions = {
	/** Runs at once on this instance (DEFAULT_CONCURRENCY). */
	concurrency?: number
	/** How long each job's `due()` may take (DUE_DEADLINE_MS). */
	dueDeadlineMs?: number
}

type Outcome = 'ran' | 'skipped' | 'failed' | 'abandoned'
type Waiting = { job: string; start: () => void; drop: () => void }

/**
 * One instance's runs: a bounded pool of slots shared by every tick, the keys queued or running
 * here (never started twice at once), the jobs whose `due()` is under way (never asked twice at
 * once), and the signals of the runs under way (fired by a stop's grace).
 */
function createRunner(options: RunnerOptions = {}) {
	const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY))
	// One job never takes the last free slot, so another job's key can always start.
	const perJob = Math.max(1, concurrency - 1)
	const dueDeadlineMs = options.dueDeadlineMs ?? DUE_DEADLINE_MS
	let active = 0
	const activeByJob = new Map<string, number>()
	const waiting: Waiting[] = []
	const inFlight = new Set<string>()
	const asking = new Set<string>()
	const controllers = new Set<AbortController>()
	let closed = false

	const pump = () => {
		for (let i = 0; i < waiting.length && active < concurrency;) {
			const next = waiting[i]!
			if ((activeByJob.get(next.job) ?? 0) >= perJob) {
				i++
				continue
			}
			waiting.splice(i, 1)
			active++
			activeByJob.set(next.job, (activeByJob.get(next.job) ?? 0) + 1)
			next.start()
		}
	}
	const release = (job: string) => {
		active--
		activeByJob.set(job, (activeByJob.get(job) ?? 1) - 1)
		pump()
	}
	/** Resolves when a slot is this key's (true), or when the runner closed first (false). */
	const slot = (job: string) =>
		new Promise<boolean>((resolve) => {
			waiting.push({ job, start: () => resolve(true), drop: () => resolve(false) })
			pump()
		})

	/** The job's keys due at `now`, or none when it throws or misses its deadline. */
	const dueKeys = async (job: ScheduledJob, now: Date): Promise<string[]> => {
		if (asking.has(job.name)) return []
		asking.add(job.name)
		const controller = new AbortController()
		let timer: NodeJS.Timeout | undefined
		const expired = new Promise<null>((resolve) => {
			timer = setTimeout(() => {
				controller.abort(new Error(`due() of job "${job.name}" passed its deadline of ${dueDeadlineMs} ms`))
				resolve(null)
			}, dueDeadlineMs)
		})
		try {
			const asked = Promise.resolve().then(() => job.due(now, { signal: controller.signal }))
			asked.catch(() => undefined)
			const keys = await Promise.race([asked, expired])
			if (keys === null) {
				logError(controller.signal.reason, { event: 'job_due_failed', job: job.name })
				return []
			}
			return keys
		} catch (error) {
			logError(error, { event: 'job_due_failed', job: job.name })
			return []
		} finally {
			clearTimeout(timer)
			// Also after a missed deadline: the next tick asks again rather than never.
			asking.delete(job.name)
		}
	}

	/**
	 * Claims and runs one key within its job's deadline (which counts from the claim). Never
	 * throws: a failure is logged and leaves the claim unfinished.
	 */
	const runKey = async (job: ScheduledJob, key: string, now: Date, clock: () => Date): Promise<Outcome> => {
		const deadlineMs = deadlineOf(job)
		const controller = new AbortController()
		controllers.add(controller)
		let timer: NodeJS.Timeout | undefined
		const expired = new Promise<'abandoned'>((resolve) => {
			timer = setTimeout(() => {
				controller.abort(new Error(`Job "${job.name}" passed its deadline of ${deadlineMs} ms`))
				resolve('abandoned')
			}, deadlineMs)
		})
		const attempt = (async (): Promise<Outcome> => {
			const claimedAt = clock()
			try {
				if (!(await claim(job.name, key, claimedAt))) return 'skipped'
			} catch (error) {
				logError(error, { event: 'job_claim_failed', job: job.name, runKey: key })
				return 'failed'
			}
			// Claimed after the deadline (a database slow to answer): the claim goes stale and is retried.
			if (controller.signal.aborted) return 'abandoned'
			try {
				await job.run(key, { now, job: job.name, signal: controller.signal })
			} catch (error) {
				logError(error, { event: 'job_failed', job: job.name, runKey: key })
				return 'failed'
			}
			try {
				await finish(job.name, key, claimedAt, clock())
				return 'ran'
			} catch (error) {
				logError(error, { event: 'job_finish_failed', job: job.name, runKey: key })
				return 'failed'
			}
		})()
		const outcome = await Promise.race([attempt, expired])
		clearTimeout(timer)
		controllers.delete(controller)
		if (outcome === 'abandoned') {
			log({ level: 'warn', event: 'job_abandoned', job: job.name, runKey: key, deadlineMs })
			// It may still end; then it is logged (and its claim finished, if still its own).
			void attempt.then((late) => log({ event: 'job_settled_after_deadline', job: job.name, runKey: key, outcome: late }))
		}
		return outcome
	}

	return {
		/**
		 * Asks every job what is due at `now` and runs each key not already queued or running on
		 * this instance; resolves with the keys this tick ran once each of them finished, failed,
		 * or was abandoned at its deadline.
		 */
		async tick(now: Date, jobs: ScheduledJob[]): Promise<string[]> {
			if (closed) return []
			// Claims are stamped with the time of the claim (a key may wait for a slot), on the tick's clock.
			const from = performance.now()
			const clock = () => new Date(now.getTime() + Math.round(performance.now() - from))
			const perJobRuns = await Promise.all(
				jobs.map(async (job) => {
					const keys = await dueKeys(job, now)
					const runs = keys.map(async (key) => {
						const id = `${job.name}\u0000${key}`
						if (closed || inFlight.has(id)) return null
						inFlight.add(id)
						try {
							if (!(await slot(job.name))) return null
							try {
								return (await runKey(job, key, now, clock)) === 'ran' ? `${job.name}:${key}` : null
							} finally {
								release(job.name)
							}
						} finally {
							inFlight.delete(id)
						}
					})
					return Promise.all(runs)
				}),
			)
			return perJobRuns.flat().filter((ran): ran is string => ran !== null)
		},
		/** Starts nothing more: keys waiting for a slot are dropped (the next tick, here or elsewhere, finds them due). */
		close() {
			closed = true
			for (const next of waiting.splice(0)) next.drop()
		},
		/** Fires the signal of every run under way (they should wind up; the claims of those that do not stay unfinished). */
		abortAll(reason: string) {
			for (const controller of controllers) controller.abort(new Error(reason))
		},
	}
}

/**
 * One pass over every job, as one instance: what is due and unclaimed runs now, up to
 * `concurrency` at once. Returns the run keys this pass ran ("job:key"), once every run it
 * started finished, failed or passed its deadline.
 */
export async function runDueJobs(now: Date, jobs: ScheduledJob[] = registeredJobs(), options: RunnerOptions = {}): Promise<string[]> {
	return createRunner(options).tick(now, jobs)
}

export type Scheduler = {
	/**
	 * Stops ticking and waits for the runs under way, each at most until its deadline. With
	 * `graceMs`, it waits no longer than that: then it fires the runs' signals and returns, and the
	 * claims of runs not done are taken over after STALE_MINUTES.
	 */
	stop: (options?: { graceMs?: number }) => Promise<void>
	/** One tick now; resolves with the keys it ran, once its runs are settled (later ticks do not wait for it). */
	tick: () => Promise<string[]>
}

/**
 * Starts ticking (every TICK_MS, and once at start unless `runAtStart` is false). `now` is
 * injectable for tests and rehearsals (SCHEDULER_NOW). Ticks may overlap: a tick starts what is
 * due without waiting for the slow runs of an earlier one, and a key queued or running on this
 * instance is not started twice.
 */
export function startScheduler(
	options: { now?: () => Date; intervalMs?: number; jobs?: () => ScheduledJob[]; runAtStart?: boolean } & RunnerOptions = {},
): Scheduler {
	const now = options.now ?? (() => new Date())
	const runner = createRunner(options)
	const underWay = new Set<Promise<string[]>>()
	let stopped = false
	const tick = () => {
		if (stopped) return Promise.resolve([])
		const running = runner.tick(now(), options.jobs?.() ?? registeredJobs()).catch((error: unknown) => {
			logError(error, { event: 'scheduler_tick_failed' })
			return [] as string[]
		})
		underWay.add(running)
		void running.finally(() => underWay.delete(running))
		return running
	}
	const timer = setInterval(() => void tick(), options.intervalMs ?? TICK_MS)
	timer.unref()
	if (options.runAtStart ?? true) void tick()
	log({ event: 'scheduler_started', jobs: (options.jobs?.() ?? registeredJobs()).map((j) => j.name) })
	return {
		tick,
		stop: async ({ graceMs } = {}) => {
			stopped = true
			clearInterval(timer)
			runner.close()
			const settled = Promise.all(underWay)
			if (graceMs === undefined) return void (await settled)
			let grace: NodeJS.Timeout | undefined
			const passed = new Promise<'grace'>((resolve) => (grace = setTimeout(() => resolve('grace'), graceMs)))
			if ((await Promise.race([settled, passed])) === 'grace') runner.abortAll('The server is stopping')
			clearTimeout(grace)
		},
	}
}
