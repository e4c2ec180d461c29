import { afterEach, describe, expect, test, vi } from 'vitest'
import { asSystem, sql } from '#app/.server/db/index.ts'
import { getOrganizationWithCatalogue } from '#app/.server/booking/public/organization.ts'
import { forgetReadsOnWrite, forgetSharedReads, sharedReads } from '#app/.server/db/shared-reads.ts'
import { createBookingSetup, createUser, isDbTarget } from './fixtures.ts'

/** A read that counts its calls and answers `value()` after `ms`. */
function counted<V>(value: () => V, ms = 0) {
	const read = Object.assign(
		async () => {
			read.calls++
			if (ms) await new Promise((resolve) => setTimeout(resolve, ms))
			return value()
		},
		{ calls: 0 },
	)
	return read
}

/**
 * Reads are kept only once the process knows it hears every change (the embedded database, or
 * the PostgreSQL server's LISTEN is up, which the first read starts): asks until one is kept.
 */
async function untilKept() {
	const cache = sharedReads<number>({ ttlMs: 10_000, max: 10 })
	for (let i = 0; i < 100; i++) {
		const read = counted(() => i)
		await cache.get('warm-up', read)
		await cache.get('warm-up', read)
		if (read.calls === 1) return
		await new Promise((resolve) => setTimeout(resolve, 20))
	}
	throw new Error('shared reads never kept a value')
}

/** A read that starts, then waits until the test releases it: "under way" without guessing a duration. */
function gated<V>(value: V) {
	let release!: () => void
	let started!: () => void
	const begun = new Promise<void>((resolve) => (started = resolve))
	const gate = new Promise<void>((resolve) => (release = resolve))
	const read = async () => {
		started()
		await gate
		return value
	}
	return { read, started: begun, release }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

afterEach(() => {
	vi.useRealTimers()
})

describe('shared reads', () => {
	test('keep a value for their time to live, and concurrent callers share one read', async () => {
		const cache = sharedReads<{ n: number }>({ ttlMs: 10_000, max: 10 })
		await untilKept()
		let n = 0
		const read = counted(() => ({ n: ++n }), 30)
		const [a, b] = await Promise.all([cache.get('k', read), cache.get('k', read)])
		expect(read.calls).toBe(1)
		expect(a).toBe(b)
		expect(await cache.get('k', read)).toEqual({ n: 1 })
		expect(read.calls).toBe(1)
		// Another key is another read.
		expect(await cache.get('other', read)).toEqual({ n: 2 })
		// The clock moves past the time to live (only Date: the reads' timers stay real).
		vi.useFakeTimers({ toFake: ['Date'] })
		vi.setSystemTime(Date.now() + 10_001)
		expect(await cache.get('k', read)).toEqual({ n: 3 })
		expect(read.calls).toBe(3)
	})

	test('a kept value is frozen, so that one request cannot change what the next one reads', async () => {
		const cache = sharedReads<{ list: Array<{ name: string }> }>({ ttlMs: 10_000, max: 10 })
		await untilKept()
		const value = await cache.get('k', async () => ({ list: [{ name: 'a' }] }))
		expect(Object.isFrozen(value.list[0])).toBe(true)
		expect(() => value.list.push({ name: 'b' })).toThrow(TypeError)
	})

	test('forgetting drops every kept value, and a read under way then is handed over but not kept', async () => {
		const cache = sharedReads<number>({ ttlMs: 10_000, max: 10 })
		await untilKept()
		let n = 0
		const read = counted(() => ++n, 50)
		expect(await cache.get('k', read)).toBe(1)
		forgetSharedReads()
		expect(await cache.get('k', read)).toBe(2)
		// Forgotten while the read is under way (it may have started before a write committed).
		forgetSharedReads()
		const slow = gated(100)
		const underWay = cache.get('k', slow.read)
		await slow.started
		forgetSharedReads()
		slow.release()
		expect(await underWay).toBe(100)
		expect(await cache.get('k', read)).toBe(3)
		expect(await cache.get('k', read)).toBe(3)
		expect(read.calls).toBe(3)
	})

	test('a failed read is not kept, and the oldest entry goes first beyond the limit', async () => {
		const cache = sharedReads<string>({ ttlMs: 10_000, max: 2 })
		await untilKept()
		const failing = counted((): string => {
			throw new Error('database down')
		})
		await expect(cache.get('k', failing)).rejects.toThrow('database down')
		await expect(cache.get('k', failing)).rejects.toThrow('database down')
		expect(failing.calls).toBe(2)
		forgetSharedReads()
		const read = counted(() => 'v')
		for (const key of ['a', 'b', 'c']) await cache.get(key, read)
		expect(read.calls).toBe(3)
		await cache.get('c', read)
		await cache.get('b', read)
		expect(read.calls).toBe(3)
		await cache.get('a', read)
		expect(read.calls).toBe(4)
	})

	test('a request that may write forgets before and after its work; a GET forgets nothing', async () => {
		const cache = sharedReads<number>({ ttlMs: 10_000, max: 10 })
		await untilKept()
		let n = 0
		const read = counted(() => ++n)
		await cache.get('k', read)
		await forgetReadsOnWrite({ request: new Request('http://x/book/a/slot') }, async () => new Response())
		expect(await cache.get('k', read)).toBe(1)
		await forgetReadsOnWrite({ request: new Request('http://x/book/a/confirm', { method: 'POST' }) }, async () => {
			// A read made while the write is under way is not kept either.
			expect(await cache.get('k', read)).toBe(2)
			return new Response()
		})
		expect(await cache.get('k', read)).toBe(3)
		expect(read.calls).toBe(3)
	})

	test.runIf(isDbTarget('pg'))(
		'on the PostgreSQL server, a change committed by any connection makes every instance forget (NOTIFY)',
		async () => {
			const owner = await createUser('Shared Reads Owner')
			const { serviceId } = await createBookingSetup(owner.orgId)
			const slug = await asSystem((trx) =>
				trx.selectFrom('organizations').select('slug').where('id', '=', owner.orgId).executeTakeFirstOrThrow(),
			).then((r) => r.slug)
			await untilKept()
			const serviceName = async () => (await getOrganizationWithCatalogue(slug))?.catalogue.services.find((s) => s.id === serviceId)?.name
			const before = await serviceName()
			expect(before).toBeTruthy()
			// Another connection changes the service (as another instance, or SQL by hand, would).
			await asSystem((trx) => sql`update public.booking_services set name = 'Renamed by SQL' where id = ${serviceId}`.execute(trx))
			let after = await serviceName()
			for (let i = 0; i < 50 && after !== 'Renamed by SQL'; i++) {
				await sleep(20)
				after = await serviceName()
			}
			expect(after).toBe('Renamed by SQL')
		},
	)
})

describe('public_booking_changes triggers (catalogue)', () => {
	// Each function the public pages' kept reads call (app/.server/booking/public/organization.ts).
	const FUNCTIONS = [
		'get_public_organization',
		'get_public_services',
		'get_public_providers',
		'get_public_booking_settings',
		'get_public_busy_ranges',
		'get_public_date_overrides',
	]

	test('every table those functions read notifies its changes', async () => {
		const { rows } = await asSystem((trx) =>
			sql<{ fn: string; source: string }>`select p.proname as fn, p.prosrc as source from pg_proc p
				join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' and p.proname = any(${FUNCTIONS})`.execute(trx),
		)
		expect(rows.map((r) => r.fn).sort()).toEqual([...FUNCTIONS].sort())
		const tables = await asSystem((trx) =>
			sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
				where n.nspname = 'public' and c.relkind in ('r', 'p')`.execute(trx),
		).then((r) => new Set(r.rows.map((t) => t.name)))
		const read = new Set(rows.flatMap((r) => [...r.source.matchAll(/public\.(\w+)/g)].map((m) => m[1]!)).filter((name) => tables.has(name)))
		expect([...read].sort()).toEqual([
			'booking_appointments',
			'booking_date_overrides',
			'booking_providers',
			'booking_services',
			'booking_settings',
			'organizations',
		])
		const triggers = await asSystem((trx) =>
			sql<{ table: string; columns: string[] | null }>`select c.relname as table,
				(select array_agg(a.attname::text order by a.attname) from pg_attribute a where a.attrelid = t.tgrelid and a.attnum = any(t.tgattr)) as columns
				from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
				where p.proname = 'public_booking_notify' and not t.tgisinternal`.execute(trx),
		).then((r) => r.rows)
		for (const table of read)
			expect(
				triggers.map((t) => t.table),
				table,
			).toContain(table)
		// organizations: only the columns the public pages show (not the gear balance, updated often).
		const shown = await asSystem((trx) =>
			sql<{ name: string }>`select unnest(proargnames) as name from pg_proc where proname = 'get_public_organization'`.execute(trx),
		).then((r) => r.rows.map((a) => a.name).filter((name) => !['org_slug', 'id'].includes(name)))
		expect(triggers.find((t) => t.table === 'organizations')?.columns?.sort()).toEqual(shown.sort())
	})

	test('anon and authenticated cannot call the trigger function', async () => {
		const { rows } = await asSystem((trx) =>
			sql<{
				role: string
				allowed: boolean
			}>`select r as role, has_function_privilege(r, 'private.public_booking_notify()', 'execute') as allowed
				from unnest(array['anon', 'authenticated']) r`.execute(trx),
		)
		expect(rows).toEqual([
			{ role: 'anon', allowed: false },
			{ role: 'authenticated', allowed: false },
		])
	})
})
