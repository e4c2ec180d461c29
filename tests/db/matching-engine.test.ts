/**
 * The matching engine (docs/decisions/040-one-matching-engine.md): a public booking of a service
 * that asks a deposit waits for it; a payment whose memo carries the code, or the client's
 * payment of the exact amount in the window, pays it, whatever path inserted the payment; a
 * payment pays once; undone matches stay undone; unpaid holds are released; completing leaves
 * the balance. Run on PGlite and on the PostgreSQL server (the race at the end on the server).
 */
import { describe, expect, test } from 'vitest'
import { asAnon, asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { at, CATALOGUE, createBookingSetup, createUser, isDbTarget, refusal, type TestUser, upcomingWeekday } from './fixtures.ts'

type World = { owner: TestUser; serviceId: string; providerId: string; day: string }

let slot = 0
/** A fresh half-hour of the test day, so bookings of one world never collide. */
function nextStart(day: string) {
	const minutes = 9 * 60 + 30 * slot++
	return at(day, `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`)
}

async function world(
	deposit: { kind: 'fixed' | 'full'; amount?: number; afterNoShows?: number } = { kind: 'fixed', amount: 30 },
	options: { upgrade?: boolean } = {},
): Promise<World> {
	const owner = await createUser('Studio Owner')
	await asUser(owner.userId, async (trx) => {
		await sql`select public.activate_module(${owner.orgId}, ${CATALOGUE.modules.booking})`.execute(trx)
		if (options.upgrade !== false) await sql`select public.purchase_upgrade(${owner.orgId}, ${CATALOGUE.upgrades.deposits})`.execute(trx)
	})
	const { serviceId, providerId } = await createBookingSetup(owner.orgId, { price: 80 })
	await asSystem(async (trx) => {
		await trx
			.updateTable('booking_services')
			.set({ deposit_kind: deposit.kind, deposit_amount: deposit.amount ?? null, deposit_after_no_shows: deposit.afterNoShows ?? null })
			.where('id', '=', serviceId)
			.execute()
		// Open every day all day, so the test day's slots are all bookable.
		await sql`update public.booking_settings set min_advance_hours = 0, max_advance_days = 60,
			business_hours = (select jsonb_object_agg(d, '{"start": "00:00", "end": "24:00", "enabled": true}'::jsonb)
				from unnest(array['monday','tuesday','wednesday','thursday','friday','saturday','sunday']) d)
			where organization_id = ${owner.orgId}`.execute(trx)
	})
	slot = 0
	return { owner, serviceId, providerId, day: upcomingWeekday(3) }
}

async function book(w: World, guest = { name: 'Ana Souza', email: 'ana@example.com' }) {
	const { rows } = await asAnon((trx) =>
		sql<{ id: string; status: string }>`select * from public.create_booking(${w.owner.orgId}, ${w.serviceId}, ${w.providerId},
			${nextStart(w.day)}::timestamptz, ${guest.name}, ${guest.email}, null, null)`.execute(trx),
	)
	return rows[0]!
}

async function expectationOf(appointmentId: string) {
	return asSystem((trx) =>
		trx.selectFrom('payment_expectations').selectAll().where('appointment_id', '=', appointmentId).orderBy('created_at').execute(),
	)
}

async function appointment(id: string) {
	return asSystem((trx) => trx.selectFrom('booking_appointments').selectAll().where('id', '=', id).executeTakeFirstOrThrow())
}

/** A payment as the owner types it (or as sync and import insert it: the engine runs on insert). */
async function pay(w: World, values: { amount: number; description?: string; clientId?: string | null; date?: string }) {
	return asUser(w.owner.userId, (trx) =>
		trx
			.insertInto('transactions')
			.values({
				organization_id: w.owner.orgId,
				amount: values.amount,
				description: values.description ?? null,
				client_id: values.clientId ?? null,
				date_received: values.date ?? new Date().toISOString().slice(0, 10),
				payment_method: 'Zelle',
			})
			.returning('id')
			.executeTakeFirstOrThrow(),
	)
}

async function matchesOf(transactionId: string) {
	return asSystem((trx) => trx.selectFrom('payment_matches').selectAll().where('transaction_id', '=', transactionId).execute())
}

describe('bookings and clients', () => {
	test('a booking links to the client with its e-mail, whatever its case, and a new person becomes a pending client', async () => {
		const w = await world()
		const known = await asSystem((trx) =>
			trx
				.insertInto('clients')
				.values({ organization_id: w.owner.orgId, name: 'Ana S.', email: 'Ana@Example.com', status: 'active' })
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		const first = await book(w)
		expect((await appointment(first.id)).client_id).toBe(known.id)
		const second = await book(w, { name: 'Bruno Lima', email: 'bruno@example.com' })
		const linked = await appointment(second.id)
		const client = await asSystem((trx) =>
			trx.selectFrom('clients').selectAll().where('id', '=', linked.client_id!).executeTakeFirstOrThrow(),
		)
		expect(client).toMatchObject({ name: 'Bruno Lima', email: 'bruno@example.com', status: 'pending' })
	})
})

describe('deposits', () => {
	test('a public booking of a service asking a deposit waits for it, with a code a person can type', async () => {
		const w = await world()
		const booked = await book(w)
		expect(booked.status).toBe('pending')
		const [deposit] = await expectationOf(booked.id)
		expect(deposit).toMatchObject({ kind: 'deposit', status: 'open', amount_due: '30.00' })
		expect(deposit!.memo_code).toMatch(/^[2-9A-HJKMNP-TW-Z]{6}$/)
		expect(new Date(deposit!.due_at!).getTime()).toBeGreaterThan(Date.now())
	})

	test('without the Deposits & Prepayment upgrade a service asking a deposit books as before', async () => {
		const w = await world({ kind: 'fixed', amount: 30 }, { upgrade: false })
		const booked = await book(w)
		expect(booked.status).toBe('confirmed')
		expect(await expectationOf(booked.id)).toEqual([])
	})

	test('a payment whose memo carries the code, in any case, confirms the booking and links the payment and the client', async () => {
		const w = await world()
		const booked = await book(w)
		const [deposit] = await expectationOf(booked.id)
		const payment = await pay(w, { amount: 30, description: `Zelle from ANA SOUZA: hold ${deposit!.memo_code.toLowerCase()} thanks` })
		expect(await matchesOf(payment.id)).toMatchObject([{ expectation_id: deposit!.id, method: 'memo_code', amount: '30.00' }])
		expect((await appointment(booked.id)).status).toBe('confirmed')
		const [paid] = await expectationOf(booked.id)
		expect(paid!.status).toBe('paid')
		const tx = await asSystem((trx) => trx.selectFrom('transactions').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow())
		expect(tx.client_id).toBe((await appointment(booked.id)).client_id)
		const events = await asSystem((trx) =>
			trx.selectFrom('booking_appointment_events').selectAll().where('appointment_id', '=', booked.id).orderBy('id').execute(),
		)
		expect(events.map((e) => e.kind)).toEqual(['created', 'payment_matched', 'status'])
		expect(events.find((e) => e.kind === 'payment_matched')).toMatchObject({
			guest_notice: 'payment_received',
			detail: expect.objectContaining({ method: 'memo_code' }),
		})
	})

	test('a code that only looks like one, or a code of another organization, matches nothing', async () => {
		const w = await world()
		const other = await world()
		const booked = await book(w)
		const theirs = await book(other)
		const [deposit] = await expectationOf(theirs.id)
		const lookalike = await pay(w, { amount: 30, description: `memo ${deposit!.memo_code}` })
		const glued = await pay(w, { amount: 30, description: `X${(await expectationOf(booked.id))[0]!.memo_code}` })
		expect(await matchesOf(lookalike.id)).toEqual([])
		expect(await matchesOf(glued.id)).toEqual([])
		expect((await appointment(booked.id)).status).toBe('pending')
	})

	test("the client's payment of the exact amount pays without a code; another amount does not", async () => {
		const w = await world()
		const booked = await book(w)
		const clientId = (await appointment(booked.id)).client_id
		const wrong = await pay(w, { amount: 29.99, clientId })
		expect(await matchesOf(wrong.id)).toEqual([])
		const right = await pay(w, { amount: 30, clientId })
		expect(await matchesOf(right.id)).toMatchObject([{ method: 'payer_amount' }])
		expect((await appointment(booked.id)).status).toBe('confirmed')
	})

	test('a payment pays one thing once: a second payment with the same code stays free', async () => {
		const w = await world()
		const booked = await book(w)
		const [deposit] = await expectationOf(booked.id)
		await pay(w, { amount: 30, description: deposit!.memo_code })
		const second = await pay(w, { amount: 30, description: deposit!.memo_code })
		expect(await matchesOf(second.id)).toEqual([])
	})

	test('an undone match is not redone by the engine; a member can link by hand', async () => {
		const w = await world()
		const booked = await book(w)
		const [deposit] = await expectationOf(booked.id)
		const payment = await pay(w, { amount: 30, description: deposit!.memo_code })
		const [match] = await matchesOf(payment.id)
		await asUser(w.owner.userId, (trx) => sql`select public.unmatch_payment(${match!.id})`.execute(trx))
		expect((await expectationOf(booked.id))[0]!.status).toBe('open')
		// Editing the memo runs the engine again: the refused pair stays apart.
		await asUser(w.owner.userId, (trx) =>
			trx
				.updateTable('transactions')
				.set({ description: `${deposit!.memo_code} again` })
				.where('id', '=', payment.id)
				.execute(),
		)
		expect(await matchesOf(payment.id)).toEqual([])
		await asUser(w.owner.userId, (trx) => sql`select public.match_payment(${deposit!.id}, ${payment.id})`.execute(trx))
		expect(await matchesOf(payment.id)).toMatchObject([{ method: 'manual', matched_by: w.owner.userId }])
		const stranger = await createUser('Stranger')
		expect(await refusal(asUser(stranger.userId, (trx) => sql`select public.unmatch_payment(${match!.id})`.execute(trx)))).not.toBeNull()
	})

	test('an unpaid hold is released at its deadline: the slot is free and the visitor is owed a mail', async () => {
		const w = await world()
		const booked = await book(w)
		await asSystem((trx) =>
			sql`update public.payment_expectations set due_at = now() - interval '1 minute' where appointment_id = ${booked.id}`.execute(trx),
		)
		const released = await asSystem((trx) => sql<{ id: string }>`select id from private.release_expired_holds(now()) as id`.execute(trx))
		// Other files' holds may be released by the same call: only this world's count.
		expect(released.rows.filter((r) => r.id === booked.id)).toHaveLength(1)
		expect((await appointment(booked.id)).status).toBe('cancelled')
		expect((await expectationOf(booked.id))[0]!.status).toBe('released')
		const again = await asSystem((trx) => sql<{ id: string }>`select id from private.release_expired_holds(now()) as id`.execute(trx))
		expect(again.rows.filter((r) => r.id === booked.id)).toEqual([])
		// A late payment with the code is left for staff, not matched to a released hold.
		const late = await pay(w, { amount: 30, description: (await expectationOf(booked.id))[0]!.memo_code })
		expect(await matchesOf(late.id)).toEqual([])
	})

	test('full prepayment asks the price; "after N no-shows" asks only clients with that many', async () => {
		const full = await world({ kind: 'full' })
		expect((await expectationOf((await book(full)).id))[0]!.amount_due).toBe('80.00')

		const strict = await world({ kind: 'fixed', amount: 20, afterNoShows: 1 })
		const firstVisit = await book(strict)
		expect(firstVisit.status).toBe('confirmed')
		expect(await expectationOf(firstVisit.id)).toEqual([])
		await asSystem((trx) => trx.updateTable('booking_appointments').set({ status: 'no_show' }).where('id', '=', firstVisit.id).execute())
		const afterNoShow = await book(strict)
		expect(afterNoShow.status).toBe('pending')
		expect((await expectationOf(afterNoShow.id))[0]!.amount_due).toBe('20.00')
	})
})

describe('payments that go', () => {
	test('deleting a matched payment (an import undone) reopens the deposit and says so in the history', async () => {
		const w = await world()
		const booked = await book(w)
		const [deposit] = await expectationOf(booked.id)
		const payment = await pay(w, { amount: 30, description: deposit!.memo_code })
		expect((await expectationOf(booked.id))[0]!.status).toBe('paid')
		await asUser(w.owner.userId, (trx) => trx.deleteFrom('transactions').where('id', '=', payment.id).execute())
		expect((await expectationOf(booked.id))[0]!.status).toBe('open')
		const last = await asSystem((trx) =>
			trx
				.selectFrom('booking_appointment_events')
				.selectAll()
				.where('appointment_id', '=', booked.id)
				.orderBy('id', 'desc')
				.executeTakeFirstOrThrow(),
		)
		expect(last).toMatchObject({ kind: 'payment_unmatched', detail: expect.objectContaining({ deleted: true, method: 'memo_code' }) })
		// A new payment with the code pays it again.
		const again = await pay(w, { amount: 30, description: deposit!.memo_code })
		expect(await matchesOf(again.id)).toHaveLength(1)
	})
})

describe('balances', () => {
	test('completing leaves what is still owed, and a later exact payment of the client clears it', async () => {
		const w = await world()
		const booked = await book(w)
		const [deposit] = await expectationOf(booked.id)
		await pay(w, { amount: 30, description: deposit!.memo_code })
		await asUser(w.owner.userId, (trx) =>
			trx.updateTable('booking_appointments').set({ status: 'completed' }).where('id', '=', booked.id).execute(),
		)
		const balance = (await expectationOf(booked.id)).find((e) => e.kind === 'balance')
		expect(balance).toMatchObject({ status: 'open', amount_due: '50.00', memo_code: deposit!.memo_code })
		await pay(w, { amount: 50, clientId: (await appointment(booked.id)).client_id })
		expect((await expectationOf(booked.id)).find((e) => e.kind === 'balance')!.status).toBe('paid')
	})

	test('a payment typed before completion is taken when the balance opens; mark paid covers cash', async () => {
		const w = await world({ kind: 'fixed', amount: 30, afterNoShows: 5 })
		const booked = await book(w)
		const clientId = (await appointment(booked.id)).client_id
		const early = await pay(w, { amount: 80, clientId })
		await asUser(w.owner.userId, (trx) =>
			trx.updateTable('booking_appointments').set({ status: 'completed' }).where('id', '=', booked.id).execute(),
		)
		expect(await matchesOf(early.id)).toMatchObject([{ method: 'payer_amount' }])

		const cash = await book(w)
		await asUser(w.owner.userId, (trx) => sql`select public.mark_appointment_paid(${cash.id})`.execute(trx))
		expect(await expectationOf(cash.id)).toMatchObject([{ kind: 'balance', status: 'paid', marked_paid_by: w.owner.userId }])
		expect(await refusal(asUser(w.owner.userId, (trx) => sql`select public.mark_appointment_paid(${cash.id})`.execute(trx)))).toBe(
			'nothing_owed',
		)
	})
})

describe.runIf(isDbTarget('pg'))('across instances', () => {
	test('two connections inserting payments with the same code at once: exactly one pays it', async () => {
		const w = await world()
		const booked = await book(w)
		const [deposit] = await expectationOf(booked.id)
		const payments = await Promise.all(Array.from({ length: 6 }, () => pay(w, { amount: 30, description: deposit!.memo_code })))
		const matched = (await Promise.all(payments.map((p) => matchesOf(p.id)))).flat()
		expect(matched).toHaveLength(1)
		expect((await appointment(booked.id)).status).toBe('confirmed')
	})

	test('two release runs at once release each hold once', async () => {
		const w = await world()
		const ids = [(await book(w)).id, (await book(w)).id, (await book(w)).id]
		await asSystem((trx) =>
			sql`update public.payment_expectations set due_at = now() - interval '1 minute' where appointment_id = any(${ids}::uuid[])`.execute(
				trx,
			),
		)
		const runs = await Promise.all(
			[1, 2].map(() => asSystem((trx) => sql<{ id: string }>`select id from private.release_expired_holds(now()) as id`.execute(trx))),
		)
		const mine = runs.flatMap((r) => r.rows.map((row) => row.id)).filter((id) => ids.includes(id))
		expect(mine.sort()).toEqual([...ids].sort())
	})
})
