/**
 * Races that only a server with real concurrent connections can show (PGlite has a single
 * connection, so it serializes everything): these run on the PostgreSQL server only.
 */
import { describe, expect, test } from 'vitest'
import { asAnon, asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { at, CATALOGUE, createBookingSetup, createUser, gearBalance, isDbTarget, refusal, upcomingWeekday } from './fixtures.ts'

const CONCURRENT = 50

function tally(codes: (string | null)[]) {
	const counts: Record<string, number> = {}
	for (const code of codes) counts[code ?? 'ok'] = (counts[code ?? 'ok'] ?? 0) + 1
	return counts
}

function bookConcurrently(org: string, service: string, provider: string, starts: string[]) {
	return Promise.all(
		starts.map((startsAt, i) =>
			refusal(
				asAnon((trx) =>
					sql`
		select * from public.create_booking(${org}, ${service}, ${provider}, ${startsAt}::timestamptz,
			${`Guest ${i}`}, ${`guest${i}@example.com`}, null, null)`.execute(trx),
				),
			),
		),
	)
}

async function liveAppointments(org: string) {
	return asSystem((trx) =>
		trx
			.selectFrom('booking_appointments')
			.select(['starts_at', 'guest_email'])
			.where('organization_id', '=', org)
			.where('status', 'in', ['pending', 'confirmed'])
			.orderBy('starts_at')
			.execute(),
	)
}

describe.runIf(isDbTarget('pg'))('under concurrency (PostgreSQL server)', () => {
	test(`${CONCURRENT} concurrent spends against a balance that covers exactly 15: 15 succeed, the balance ends at 0, the ledger agrees`, async () => {
		const owner = await createUser('Race Owner') // 15,000 gears
		const codes = await Promise.all(
			Array.from({ length: CONCURRENT }, () =>
				refusal(asSystem((trx) => sql`select pg_sleep(0.01), private.spend_gears(${owner.orgId}, 1000, 'adjustment')`.execute(trx))),
			),
		)
		expect(tally(codes)).toEqual({ ok: 15, insufficient_gears: CONCURRENT - 15 })
		expect(await gearBalance(owner.orgId)).toEqual({ owned: 15000, remaining: 0, granted: 15000, ledger: 0, rows: 16 })
	})

	test(`${CONCURRENT} concurrent activations of one module by its owner: one row, charged once`, async () => {
		const owner = await createUser('Race Owner')
		const codes = await Promise.all(
			Array.from({ length: CONCURRENT }, () =>
				refusal(
					asUser(owner.userId, (trx) => sql`select public.activate_module(${owner.orgId}, ${CATALOGUE.modules.booking})`.execute(trx)),
				),
			),
		)
		expect(tally(codes)).toEqual({ ok: 1, already_active: CONCURRENT - 1 })
		expect(await gearBalance(owner.orgId)).toMatchObject({ remaining: 14000, ledger: 14000, rows: 2 })
	})

	test(`${CONCURRENT} concurrent bookings of the same provider and slot: exactly one row, the rest slot_taken`, async () => {
		const owner = await createUser('Race Booking')
		const { serviceId, providerId } = await createBookingSetup(owner.orgId)
		const day = upcomingWeekday(3)
		const codes = await bookConcurrently(owner.orgId, serviceId, providerId, Array(CONCURRENT).fill(at(day, '10:00')))
		expect(tally(codes)).toEqual({ ok: 1, slot_taken: CONCURRENT - 1 })
		expect(await liveAppointments(owner.orgId)).toHaveLength(1)
	})

	test('concurrent bookings of overlapping, not identical, ranges: exactly one wins', async () => {
		const owner = await createUser('Race Booking')
		const { serviceId, providerId } = await createBookingSetup(owner.orgId) // 30 minutes
		const day = upcomingWeekday(3)
		// 10:00, 10:01 ... 10:29: every pair overlaps.
		const starts = Array.from({ length: 30 }, (_, i) => at(day, `10:${String(i).padStart(2, '0')}`))
		const codes = await bookConcurrently(owner.orgId, serviceId, providerId, starts)
		expect(tally(codes)).toEqual({ ok: 1, slot_taken: 29 })
		expect(await liveAppointments(owner.orgId)).toHaveLength(1)
	})

	test('concurrent bookings that would break the buffer: one wins; the first slot after the buffer is free', async () => {
		const owner = await createUser('Race Booking')
		const { serviceId, providerId } = await createBookingSetup(owner.orgId)
		await asSystem((trx) =>
			trx.updateTable('booking_settings').set({ buffer_minutes: 15 }).where('organization_id', '=', owner.orgId).execute(),
		)
		const day = upcomingWeekday(3)
		// 10:00 (blocks until 10:45) against 10:40 (blocks 10:40 to 11:25): they cannot both stand.
		const starts = Array.from({ length: 40 }, (_, i) => at(day, i % 2 ? '10:40' : '10:00'))
		const codes = await bookConcurrently(owner.orgId, serviceId, providerId, starts)
		expect(tally(codes)).toEqual({ ok: 1, slot_taken: 39 })
		const [winner] = await liveAppointments(owner.orgId)
		const after = winner!.starts_at.toISOString() === new Date(at(day, '10:00')).toISOString() ? '10:45' : '11:25'
		expect(tally(await bookConcurrently(owner.orgId, serviceId, providerId, [at(day, after)]))).toEqual({ ok: 1 })
	})

	test('with buffer 0, concurrent back-to-back bookings all succeed', async () => {
		const owner = await createUser('Race Booking')
		const { serviceId, providerId } = await createBookingSetup(owner.orgId)
		const day = upcomingWeekday(3)
		const starts = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00', '12:30'].map((t) => at(day, t))
		const codes = await bookConcurrently(owner.orgId, serviceId, providerId, [...starts, ...starts])
		expect(tally(codes)).toEqual({ ok: 8, slot_taken: 8 })
		expect((await liveAppointments(owner.orgId)).map((a) => a.starts_at.toISOString())).toEqual(
			starts.map((s) => new Date(s).toISOString()),
		)
	})

	test(`${CONCURRENT} concurrent confirms of one address, spelt ${CONCURRENT} ways, on ${CONCURRENT} providers: exactly the limit of 3 is booked`, async () => {
		const owner = await createUser('Race Limit')
		const { serviceId } = await createBookingSetup(owner.orgId)
		const providers = await asSystem((trx) =>
			trx
				.insertInto('booking_providers')
				.values(Array.from({ length: CONCURRENT }, (_, i) => ({ organization_id: owner.orgId, display_name: `Race ${i}` })))
				.returning('id')
				.execute(),
		)
		const day = upcomingWeekday(3)
		// "Guest@Example.com", "guest+1@example.com", "GUEST+2@EXAMPLE.COM" …: one address for the limit.
		const spelling = (i: number) =>
			i % 3 === 0 ? 'Guest@Example.com' : `${i % 2 ? 'guest' : 'GUEST'}+${i}@${i % 2 ? 'example.com' : 'EXAMPLE.COM'}`
		const codes = await Promise.all(
			providers.map((p, i) =>
				refusal(
					asAnon((trx) =>
						sql`
			select * from public.create_booking(${owner.orgId}, ${serviceId}, ${p.id}, ${at(day, '10:00')}::timestamptz,
				${`Guest ${i}`}, ${spelling(i)}, null, null)`.execute(trx),
					),
				),
			),
		)
		expect(tally(codes)).toEqual({ ok: 3, too_many_bookings: CONCURRENT - 3 })
		expect(await liveAppointments(owner.orgId)).toHaveLength(3)
	})

	test(`${CONCURRENT} concurrent transaction inserts and deletes keep the rollups exact`, async () => {
		const owner = await createUser('Race Rollups')
		const client = await asSystem((trx) =>
			trx.insertInto('clients').values({ organization_id: owner.orgId, name: 'Shared' }).returning('id').executeTakeFirstOrThrow(),
		)
		const codes = await Promise.all(
			Array.from({ length: CONCURRENT }, (_, i) =>
				refusal(
					asUser(owner.userId, async (trx) => {
						const row = await trx
							.insertInto('transactions')
							.values({
								organization_id: owner.orgId,
								client_id: i % 2 ? client.id : null,
								amount: 10,
								category: i % 3 ? 'matched' : 'pending',
								date_received: `2026-0${1 + (i % 9)}-15`,
							})
							.returning('id')
							.executeTakeFirstOrThrow()
						await sql`select pg_sleep(0.005)`.execute(trx)
						if (i % 5 === 0) await trx.deleteFrom('transactions').where('id', '=', row.id).execute()
					}),
				),
			),
		)
		expect(tally(codes)).toEqual({ ok: CONCURRENT })
		const totals = await asSystem((trx) =>
			trx.selectFrom('organization_transaction_totals').selectAll().where('organization_id', '=', owner.orgId).executeTakeFirstOrThrow(),
		)
		const truth = await asSystem((trx) =>
			sql<{ n: number; s: string; m: number; c: number }>`
			select count(*)::int as n, sum(amount)::numeric(18, 2)::text as s, count(*) filter (where category = 'matched')::int as m,
				count(distinct client_id)::int as c from public.transactions where organization_id = ${owner.orgId}`
				.execute(trx)
				.then((r) => r.rows[0]!),
		)
		expect({ n: totals.transaction_count, s: totals.amount_sum, m: totals.matched_count, c: totals.unique_client_count }).toEqual(truth)
		expect(truth.n).toBe(40)
	})
})
