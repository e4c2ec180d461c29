/**
 * A moved appointment's open deposit follows the new time (docs/product.md, Deposits and
 * prepayment): its deadline is the one a booking at the new time would have had, so a booking
 * moved close to its start is not held past the organization's "minutes before the start", and
 * one moved later keeps the hold. Staff moves and the visitor's own move alike; on PGlite and on
 * the PostgreSQL server.
 */
import { describe, expect, test } from 'vitest'
import { runDepositDuties } from '#app/.server/booking/deposits.ts'
import { createPublicBooking, reschedulePublicBooking } from '#app/.server/booking/public/bookings.ts'
import { getPublicOrganization } from '#app/.server/booking/public/organization.ts'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { savePaymentHandles } from '#app/.server/payments/handles.ts'
import { at, CATALOGUE, createBookingSetup, createUser, upcomingWeekday, weekdayAfter } from './fixtures.ts'
import { useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()

const HOLD_MINUTES = 120
const BEFORE_START_MINUTES = 60
const minutes = (n: number) => n * 60_000

async function world() {
	const owner = await createUser('Move Owner')
	await asUser(owner.userId, async (trx) => {
		await sql`select public.activate_module(${owner.orgId}, ${CATALOGUE.modules.booking})`.execute(trx)
		await sql`select public.purchase_upgrade(${owner.orgId}, ${CATALOGUE.upgrades.deposits})`.execute(trx)
	})
	const { serviceId, providerId } = await createBookingSetup(owner.orgId, { price: 80 })
	await asSystem(async (trx) => {
		await trx.updateTable('booking_services').set({ deposit_kind: 'fixed', deposit_amount: '30' }).where('id', '=', serviceId).execute()
		await sql`update public.booking_settings set min_advance_hours = 0, max_advance_days = 60, cancellation_hours = 0, timezone = 'UTC',
			deposit_hold_minutes = ${HOLD_MINUTES}, deposit_hold_before_start_minutes = ${BEFORE_START_MINUTES},
			business_hours = (select jsonb_object_agg(d, '{"start": "00:00", "end": "24:00", "enabled": true}'::jsonb)
				from unnest(array['monday','tuesday','wednesday','thursday','friday','saturday','sunday']) d)
			where organization_id = ${owner.orgId}`.execute(trx)
	})
	expect(
		await savePaymentHandles(owner.userId, owner.orgId, { zelle: 'pay@studio.example', venmo: null, cashapp: null, paypal: null }),
	).toBe(true)
	const { slug } = await asSystem((trx) =>
		trx.selectFrom('organizations').select('slug').where('id', '=', owner.orgId).executeTakeFirstOrThrow(),
	)
	const org = (await getPublicOrganization(slug))!
	const day = upcomingWeekday(4)
	const booked = await createPublicBooking(
		org,
		{
			serviceId,
			providerId,
			start: at(day, '15:00'),
			contact: { name: 'Ana Lima', email: `move-${Math.random().toString(36).slice(2)}@guest.example` },
		},
		'en',
	)
	if (!booked.ok) throw new Error(booked.code)
	await drainMail()
	return { owner, providerId, day, booked }
}

async function deposit(appointmentId: string) {
	const row = await asSystem((trx) =>
		trx
			.selectFrom('payment_expectations')
			.select(['due_at', 'opens_at', 'status'])
			.where('appointment_id', '=', appointmentId)
			.where('kind', '=', 'deposit')
			.executeTakeFirstOrThrow(),
	)
	return { dueAt: new Date(row.due_at!).getTime(), opensAt: new Date(row.opens_at).getTime(), status: row.status }
}

/** The next whole half hour at least `after` from now: a start on the booking grid. */
function startIn(after: number) {
	const step = minutes(30)
	return new Date(Math.ceil((Date.now() + after) / step) * step).toISOString()
}

describe('a moved appointment’s deposit deadline', () => {
	test('staff move it close to its start: the hold ends the set minutes before the new start, and the release job lets it go then', async () => {
		const w = await world()
		const asked = await deposit(w.booked.id)
		expect(asked.dueAt).toBe(asked.opensAt + minutes(HOLD_MINUTES))

		const start = startIn(minutes(90))
		await asUser(w.owner.userId, (trx) =>
			sql`select public.staff_move_booking(${w.owner.orgId}, ${w.booked.id}, ${w.providerId}, ${start}::timestamptz)`.execute(trx),
		)
		const moved = await deposit(w.booked.id)
		expect(moved.dueAt).toBe(Date.parse(start) - minutes(BEFORE_START_MINUTES))
		expect(moved.status).toBe('open')

		// Not released before its new deadline; released after it.
		await runDepositDuties(new Date(moved.dueAt - minutes(1)), { organizationId: w.owner.orgId })
		expect((await deposit(w.booked.id)).status).toBe('open')
		await runDepositDuties(new Date(moved.dueAt + minutes(1)), { organizationId: w.owner.orgId })
		expect((await deposit(w.booked.id)).status).toBe('released')
	})

	test('moved back later, the visitor keeps the hold from when it was asked; a move right before the start leaves at least 15 minutes to pay', async () => {
		const w = await world()
		const asked = await deposit(w.booked.id)

		const soon = startIn(minutes(40))
		const early = await reschedulePublicBooking(w.booked.token, w.providerId, soon, 'en')
		expect(early, JSON.stringify(early)).toEqual({ ok: true })
		const afterEarly = await deposit(w.booked.id)
		// Its "60 minutes before the start" has passed: 15 minutes from the move, never after the start.
		expect(afterEarly.dueAt).toBeGreaterThanOrEqual(Date.now() + minutes(14))
		expect(afterEarly.dueAt).toBeLessThanOrEqual(Math.min(Date.now() + minutes(15), Date.parse(soon)))

		const later = await reschedulePublicBooking(w.booked.token, w.providerId, at(weekdayAfter(w.day), '11:00'), 'en')
		expect(later).toEqual({ ok: true })
		expect((await deposit(w.booked.id)).dueAt).toBe(asked.opensAt + minutes(HOLD_MINUTES))
	})
})
