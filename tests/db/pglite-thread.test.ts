/**
 * The embedded database's own thread (docs/decisions/026-embedded-database-thread.md): the
 * server keeps serving while PGlite works, a transaction's `begin` that fails stops the
 * statement sent with it, and what comes back (rows, errors, a dump) is what PGlite gave.
 * Each test starts a thread of its own on an empty in-memory database.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startPgliteThread, type PgliteThread } from '#app/.server/db/pglite-thread.ts'
import { isDbTarget } from './fixtures.ts'

describe.runIf(isDbTarget('pglite'))('the embedded database on its own thread', () => {
	const started: PgliteThread[] = []
	async function start(options: Parameters<typeof startPgliteThread>[0] = {}) {
		const thread = await startPgliteThread(options)
		started.push(thread)
		return thread
	}
	afterEach(async () => {
		await Promise.all(started.splice(0).map((thread) => thread.close()))
	})

	it('keeps the server thread free while a long statement runs', async () => {
		const db = await start()
		let ticks = 0
		const timer = setInterval(() => ticks++, 10)
		const begun = performance.now()
		await db.query('select count(*) from generate_series(1, 4000000)')
		const took = performance.now() - begun
		clearInterval(timer)
		expect(took).toBeGreaterThan(150)
		// In the server's thread the timer could not fire until the statement ended (0 or 1 tick).
		expect(ticks).toBeGreaterThan(took / 10 / 4)
	})

	it('does not run a statement whose transaction failed to begin', async () => {
		const db = await start()
		await db.exec('create table t (n int)')
		db.execBefore("begin; select set_config('role', 'no_such_role', true)")
		await expect(db.query('insert into t values (1)')).rejects.toMatchObject({ code: '22023' })
		await db.exec('rollback')
		expect((await db.query<{ n: number }>('select count(*)::int as n from t')).rows).toEqual([{ n: 0 }])
		// The script went with that one call only.
		await db.query('insert into t values (2)')
		expect((await db.query<{ n: number }>('select n from t')).rows).toEqual([{ n: 2 }])
	})

	it("keeps PostgreSQL's error fields, and the thread keeps working after an error", async () => {
		const db = await start()
		await db.exec('create table t (n int constraint t_n_key unique)')
		await db.query('insert into t values ($1)', [1])
		const error = await db.query('insert into t values ($1)', [1]).catch((e: unknown) => e)
		expect(error).toBeInstanceOf(Error)
		expect(error).toMatchObject({ code: '23505', constraint: 't_n_key', message: expect.stringContaining('t_n_key') })
		expect((error as { detail: string }).detail).toContain('(n)=(1)')
		expect((await db.query('select n from t')).rows).toEqual([{ n: 1 }])
	})

	it('gives values the types the app reads', async () => {
		const db = await start()
		const { rows } = await db.query(`select 9007199254740991::int8 as big, 12.50::numeric as amount, date '2026-11-24' as day,
			timestamptz '2026-11-24 10:00:00+00' as at, '{"a":[1,"x"]}'::jsonb as doc, '\\x0102'::bytea as bytes, null::text as nothing`)
		expect(rows).toEqual([
			{
				big: 9007199254740991,
				amount: '12.50',
				day: '2026-11-24',
				at: new Date('2026-11-24T10:00:00Z'),
				doc: { a: [1, 'x'] },
				bytes: new Uint8Array([1, 2]),
				nothing: null,
			},
		])
	})

	it('fails only the call whose parameter cannot be sent, and keeps the script waiting to go', async () => {
		const db = await start()
		db.execBefore('create temp table waiting (n int)')
		await expect(db.query('select $1::text as v', [() => 'a function'])).rejects.toThrow()
		// The script was not sent with the failed call: it goes with this one.
		expect((await db.query('select count(*)::int as n from waiting')).rows).toEqual([{ n: 0 }])
	})

	it('dumps a copy that another thread opens', async () => {
		const db = await start()
		await db.exec("create table t (s text); insert into t values ('kept')")
		const image = await db.dumpDataDir()
		const copy = await start({ loadDataDir: image })
		expect((await copy.query('select s from t')).rows).toEqual([{ s: 'kept' }])
	})

	it('creates a database in a new data directory, and opens it again with its data', async () => {
		const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'p2p-thread-')), 'pglite')
		const first = await start({ dataDir })
		await first.exec("create table t (s text); insert into t values ('on disk')")
		await first.close()
		const again = await start({ dataDir })
		expect((await again.query('select s from t')).rows).toEqual([{ s: 'on disk' }])
	})

	it('refuses to start on a data directory it cannot open', async () => {
		const file = path.join(mkdtempSync(path.join(tmpdir(), 'p2p-thread-')), 'not-a-directory')
		writeFileSync(file, 'x')
		await expect(startPgliteThread({ dataDir: file })).rejects.toThrow()
	})

	it('fails calls at once after closing, and closing is not a stop to report', async () => {
		const stops: Error[] = []
		const db = await startPgliteThread({ onStop: (error) => stops.push(error) })
		await db.close()
		await expect(db.query('select 1')).rejects.toThrow(/embedded database stopped/)
		expect(stops).toEqual([])
	})

	it('a thread that runs out of memory stops: the call and every later one fail, and the stop is reported once', async () => {
		const stops: Error[] = []
		const db = await start({ resourceLimits: { maxOldGenerationSizeMb: 48 }, onStop: (error) => stops.push(error) })
		await expect(db.query("select g, 'row ' || g as t from generate_series(1, 3000000) g")).rejects.toThrow(/embedded database stopped/)
		await expect(db.query('select 1')).rejects.toThrow(/embedded database stopped/)
		await expect.poll(() => stops.length).toBe(1)
		expect(stops[0]!.message).toMatch(/memory/)
	})
})
