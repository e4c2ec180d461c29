/**
 * The scheduler runs the keys of every job independently (app/.server/scheduler.ts,
 * docs/decisions/036-job-runner.md): a run that hangs, throws or never settles holds up no other
 * organization's run and no other job, on this instance or another; a hung run is abandoned at its
 * deadline and its key taken over after the stale time, once; runs never exceed the bound.
 * Each test names its own jobs, so their claims in private.job_runs are its own.
 */
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { asSystem, sql } from '#app/.server/db/index.ts'
import {
	MAX_DEADLINE_MS,
	registerJob,
	runDueJobs,
	STALE_MINUTES,
	startScheduler,
	type Scheduler,
	type ScheduledJob,
} from '#app/.server/scheduler.ts'

beforeAll(() => {
	process.env.SESSION_SECRET ??= 'test-session-secret-of-at-least-32-characters'
	process.env.LOG_LEVEL = 'silent'
})

const T = new Date('2026-12-07T10:00:00Z')
const at = (minutes: number) => new Date(T.getTime() + minutes * 60_000)
const name = (what: string) => `${what}-${randomUUID()}`
const never = () => new Promise<void>(() => undefined)
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function deferred() {
	let resolve!: () => void
	const promise = new Promise<void>((r) => (resolve = r))
	return { promise, resolve }
}

/** One scheduler standing for one server instance, ticked by hand on a clock of its own. */
function instance(jobs: ScheduledJob[], now: () => Date, options: { concurrency?: number; dueDeadlineMs?: number } = {}) {
	return startScheduler({ now, jobs: () => jobs, intervalMs: 3_600_000, runAtStart: false, ...options })
}

async function claims(job: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ run_key: string; finished: boolean }>`select run_key, finished_at is not null as finished from private.job_runs
			where job = ${job} order by run_key`.execute(trx),
	)
	return rows
}

async function stopAll(...schedulers: Scheduler[]) {
	await Promise.all(schedulers.map((s) => s.stop({ graceMs: 0 })))
}

describe('independent runs', () => {
	test("a run for organization A that never settles delays neither organization B's run of the same job nor another job's run", async () => {
		const [sync, report] = [name('sync'), name('report')]
		const aStarted = deferred()
		let aSignal: AbortSignal | undefined
		const seen: Record<string, { aRunning: boolean; ms: number }> = {}
		const started = performance.now()
		// B's runs wait until A's run is under way, then note whether A is still running (not abandoned).
		const noteWhileAHangs = async (run: string) => {
			await aStarted.promise
			seen[run] = { aRunning: aSignal?.aborted === false, ms: performance.now() - started }
		}
		const syncJob: ScheduledJob = {
			name: sync,
			deadlineMs: 1_500,
			due: () => ['org-a', 'org-b'],
			run: async (key, { signal }) => {
				if (key !== 'org-a') return noteWhileAHangs(`${sync}:${key}`)
				aSignal = signal
				aStarted.resolve()
				return never()
			},
		}
		const reportJob: ScheduledJob = { name: report, due: () => ['org-b'], run: (key) => noteWhileAHangs(`${report}:${key}`) }
		const s = instance([syncJob, reportJob], () => T)
		const tick = s.tick()
		await expect.poll(() => Object.keys(seen).sort(), { timeout: 1_400, interval: 20 }).toEqual([`${report}:org-b`, `${sync}:org-b`])
		expect(Object.values(seen).every((r) => r.aRunning && r.ms < 1_500)).toBe(true)
		// B's runs are done and recorded while A's is still under way (recorded just after each returns).
		await expect
			.poll(() => claims(sync), { timeout: 1_000, interval: 20 })
			.toEqual([
				{ run_key: 'org-a', finished: false },
				{ run_key: 'org-b', finished: true },
			])
		await expect.poll(() => claims(report), { timeout: 1_000, interval: 20 }).toEqual([{ run_key: 'org-b', finished: true }])
		expect(aSignal?.aborted).toBe(false)
		// The tick settles once A passed its deadline: A is abandoned, not reported as run.
		expect(await tick).toEqual([`${sync}:org-b`, `${report}:org-b`])
		expect(aSignal?.aborted).toBe(true)
		await stopAll(s)
	})

	test('a hung run is abandoned at its deadline; after the stale time another instance takes its key over and runs it once', async () => {
		const job = name('hang')
		const signals: AbortSignal[] = []
		const hangOnce: ScheduledJob = {
			name: job,
			deadlineMs: 400,
			due: () => ['org-a'],
			run: async (_key, { signal }) => {
				signals.push(signal)
				if (signals.length === 1) return never()
			},
		}
		const first = instance([hangOnce], () => T)
		const started = performance.now()
		expect(await first.tick()).toEqual([])
		const took = performance.now() - started
		expect(took).toBeGreaterThanOrEqual(390)
		expect(took).toBeLessThan(3_000)
		expect(signals).toHaveLength(1)
		expect(signals[0]!.aborted).toBe(true)
		expect(await claims(job)).toEqual([{ run_key: 'org-a', finished: false }])

		// Before the stale time no instance takes it (the run could still be going on).
		const early = instance([hangOnce], () => at(STALE_MINUTES - 1))
		expect(await early.tick()).toEqual([])
		expect(signals).toHaveLength(1)

		// After it, two other instances tick at once: one of them runs it, once.
		const second = instance([hangOnce], () => at(STALE_MINUTES + 1))
		const third = instance([hangOnce], () => at(STALE_MINUTES + 1))
		const [ranSecond, ranThird] = await Promise.all([second.tick(), third.tick()])
		expect([...ranSecond, ...ranThird]).toEqual([`${job}:org-a`])
		expect(signals).toHaveLength(2)
		expect(await claims(job)).toEqual([{ run_key: 'org-a', finished: true }])

		// Done for good: a later tick anywhere runs nothing.
		const later = instance([hangOnce], () => at(3 * STALE_MINUTES))
		expect(await later.tick()).toEqual([])
		expect(signals).toHaveLength(2)
		await stopAll(first, early, second, third, later)
	})

	test('a run that throws is retried after the stale time, and only then', async () => {
		const job = name('throws')
		let calls = 0
		const failOnce: ScheduledJob = {
			name: job,
			due: () => ['org-a'],
			run: async () => {
				calls++
				if (calls === 1) throw new Error('the mailbox said no')
			},
		}
		expect(await runDueJobs(T, [failOnce])).toEqual([])
		expect(await claims(job)).toEqual([{ run_key: 'org-a', finished: false }])
		expect(await runDueJobs(at(1), [failOnce])).toEqual([])
		expect(await runDueJobs(at(STALE_MINUTES - 1), [failOnce])).toEqual([])
		expect(calls).toBe(1)
		expect(await runDueJobs(at(STALE_MINUTES + 1), [failOnce])).toEqual([`${job}:org-a`])
		expect(calls).toBe(2)
		expect(await runDueJobs(at(3 * STALE_MINUTES), [failOnce])).toEqual([])
		expect(calls).toBe(2)
		expect(await claims(job)).toEqual([{ run_key: 'org-a', finished: true }])
	})

	test('runs on one instance never exceed its bound, and one job leaves a slot for the others', async () => {
		const live = { all: 0, x: 0, y: 0 }
		const peak = { all: 0, x: 0, y: 0 }
		const counted = (which: 'x' | 'y'): ScheduledJob => ({
			name: name(which),
			due: () => Array.from({ length: 8 }, (_, i) => `org-${i}`),
			run: async () => {
				live.all++
				live[which]++
				peak.all = Math.max(peak.all, live.all)
				peak[which] = Math.max(peak[which], live[which])
				await sleep(30)
				live.all--
				live[which]--
			},
		})
		const [x, y] = [counted('x'), counted('y')]
		const ran = await runDueJobs(T, [x, y], { concurrency: 3 })
		expect(ran).toHaveLength(16)
		expect(peak.all).toBe(3)
		expect(peak.x).toBeLessThanOrEqual(2)
		expect(peak.y).toBeLessThanOrEqual(2)
		expect(live).toEqual({ all: 0, x: 0, y: 0 })
	})

	test('two schedulers on one database run each key once', async () => {
		const job = name('shared')
		const runs: string[] = []
		const keys = Array.from({ length: 8 }, (_, i) => `org-${i}`)
		const shared: ScheduledJob = {
			name: job,
			due: () => keys,
			run: async (key) => {
				runs.push(key)
				await sleep(10)
			},
		}
		const a = instance([shared], () => T, { concurrency: 2 })
		const b = instance([shared], () => T, { concurrency: 2 })
		const [ranA, ranB] = await Promise.all([a.tick(), b.tick()])
		expect([...ranA, ...ranB].sort()).toEqual(keys.map((k) => `${job}:${k}`))
		expect(runs.sort()).toEqual(keys)
		// A restart later finds them done.
		const c = instance([shared], () => at(30))
		expect(await c.tick()).toEqual([])
		expect(runs).toHaveLength(8)
		await stopAll(a, b, c)
	})
})

describe('ticks and deadlines', () => {
	test('a tick does not wait for the slow runs of an earlier tick, and a key running here is not started twice', async () => {
		const job = name('overlap')
		let clock = T
		const aStarted = deferred()
		let aSignal: AbortSignal | undefined
		let aRuns = 0
		const slow: ScheduledJob = {
			name: job,
			deadlineMs: 1_000,
			due: (now) => (now < at(5) ? ['org-a'] : ['org-a', 'org-b']),
			run: async (key, { signal }) => {
				if (key !== 'org-a') return
				aRuns++
				aSignal = signal
				aStarted.resolve()
				return never()
			},
		}
		const s = instance([slow], () => clock)
		const first = s.tick()
		await aStarted.promise
		// Past the stale time on this clock, the claim alone would let org-a start again.
		clock = at(STALE_MINUTES + 1)
		expect(await s.tick()).toEqual([`${job}:org-b`])
		expect(aSignal?.aborted).toBe(false)
		expect(aRuns).toBe(1)
		expect(await first).toEqual([])
		expect(aSignal?.aborted).toBe(true)
		await stopAll(s)
	})

	test('a due() that never answers holds up no other job, is not asked twice at once, and is asked again after its deadline', async () => {
		const [stuck, other] = [name('stuck-due'), name('other')]
		let asked = 0
		let dueSignal: AbortSignal | undefined
		const seen: Array<{ dueAborted: boolean | undefined }> = []
		const jobs: ScheduledJob[] = [
			{
				name: stuck,
				due: (_now, context) => {
					asked++
					dueSignal = context?.signal
					return new Promise<string[]>(() => undefined)
				},
				run: async () => undefined,
			},
			{ name: other, due: () => ['org-a'], run: async () => void seen.push({ dueAborted: dueSignal?.aborted }) },
		]
		const s = instance(jobs, () => T, { dueDeadlineMs: 400 })
		const [first, second] = await Promise.all([s.tick(), s.tick()])
		expect([...first, ...second]).toEqual([`${other}:org-a`])
		expect(seen).toEqual([{ dueAborted: false }])
		expect(asked).toBe(1)
		expect(dueSignal?.aborted).toBe(true)
		expect(await s.tick()).toEqual([])
		expect(asked).toBe(2)
		await stopAll(s)
	})

	test('stop waits for a run under way, at most until its deadline; with a grace it fires the signal and returns', async () => {
		// A run that ends on its own is waited for, and recorded.
		const quick = name('quick')
		const quickStarted = deferred()
		const s1 = instance([{ name: quick, due: () => ['org-a'], run: async () => (quickStarted.resolve(), await sleep(200)) }], () => T)
		void s1.tick()
		await quickStarted.promise
		await s1.stop()
		expect(await claims(quick)).toEqual([{ run_key: 'org-a', finished: true }])

		// A run that never ends is waited for until its deadline.
		const hung = name('hung')
		const hungStarted = deferred()
		let hungSignal: AbortSignal | undefined
		const hangs = (job: string, deadlineMs: number, started: ReturnType<typeof deferred>): ScheduledJob => ({
			name: job,
			deadlineMs,
			due: () => ['org-a'],
			run: async (_key, { signal }) => {
				hungSignal = signal
				started.resolve()
				return never()
			},
		})
		const s2 = instance([hangs(hung, 500, hungStarted)], () => T)
		void s2.tick()
		await hungStarted.promise
		let from = performance.now()
		await s2.stop()
		expect(performance.now() - from).toBeGreaterThanOrEqual(400)
		expect(hungSignal?.aborted).toBe(true)
		expect(await claims(hung)).toEqual([{ run_key: 'org-a', finished: false }])

		// With a grace shorter than the deadline, the signal fires at the grace and stop returns.
		const graced = name('graced')
		const gracedStarted = deferred()
		const s3 = instance([hangs(graced, 60_000, gracedStarted)], () => T)
		void s3.tick()
		await gracedStarted.promise
		from = performance.now()
		await s3.stop({ graceMs: 100 })
		expect(performance.now() - from).toBeLessThan(2_000)
		expect(hungSignal?.aborted).toBe(true)
		expect(await claims(graced)).toEqual([{ run_key: 'org-a', finished: false }])
		// A stopped scheduler starts nothing.
		expect(await s3.tick()).toEqual([])
	})

	test('a job cannot declare a deadline that would let another instance take over a run still within its time', () => {
		expect(MAX_DEADLINE_MS).toBeLessThan(STALE_MINUTES * 60_000)
		const job = { name: name('too-long'), due: () => [], run: async () => undefined }
		expect(() => registerJob({ ...job, deadlineMs: MAX_DEADLINE_MS + 1 })).toThrow(/deadline/)
		expect(() => registerJob({ ...job, deadlineMs: 0 })).toThrow(/deadline/)
	})
})
