/**
 * The appointment page and clients from bookings (docs/product.md, Booking: The appointment page,
 * Clients from bookings): what the page says of an appointment's money and history, moving it
 * (public.staff_move_booking), walk-ins without an e-mail, the staff mail's contact details, and
 * merging two clients (public.merge_clients). Run on PGlite and on the PostgreSQL server.
 */
import { describe, expect, test } from 'vitest'
import { asAnon, asSystem, asUser, sql } from '#app/.server/db/index.ts'
import {
	getAppointmentPage,
	linkPayment,
	listClientAppointments,
	markAppointmentPaid,
	moveAppointment,
	undoMatch,
} from '#app/.server/booking/appointments.ts'
import { changeAppointmentStatus, staffCreateBooking } from '#app/.server/booking/staff.ts'
import { notifyStaffOfBooking } from '#app/.server/notifications/index.ts'
import { getClient, mergeClients } from '#app/.server/payments/clients.ts'
import {
	addMember,
	at,
	CATALOGUE,
	createBookingSetup,
	createUser,
	refusal,
	type TestUser,
	upcomingWeekday,
	weekdayAfter,
} from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()

type World = { owner: TestUser; org: string; service: string; provider: string; day: string }

/** The Deposits & Prepayment upgrade of the booking module (supabase/seed.sql). */
const DEPOSITS_UPGRADE = 'c0000000-0000-4000-8000-000000000008'

/**
 * An organization with the booking module, open 08:00 to 20:00 every day, whose service costs 80
 * and, when `deposit`, asks a deposit of 30 (with the upgrade that makes deposits work).
 */
async function world({ deposit = false } = {}): Promise<World> {
	const owner = await createUser('Studio Owner')
	await asUser(owner.userId, async (trx) => {
		await sql`select public.activate_module(${owner.orgId}, ${CATALOGUE.modules.booking})`.execute(trx)
		if (deposit) await sql`select public.purchase_upgrade(${owner.orgId}, ${DEPOSITS_UPGRADE})`.execute(trx)
	})
	const { serviceId, providerId } = await createBookingSetup(owner.orgId, { price: 80 })
	await asSystem(async (trx) => {
		if (deposit)
			await trx.updateTable('booking_services').set({ deposit_kind: 'fixed', deposit_amount: 30 }).where('id', '=', serviceId).execute()
		await sql`update public.booking_settings set min_advance_hours = 0, max_advance_days = 60,
			business_hours = (select jsonb_object_agg(d, '{"start": "08:00", "end": "20:00", "enabled": true}'::jsonb)
				from unnest(array['monday','tuesday','wednesday','thursday','friday','saturday','sunday']) d)
			where organization_id = ${owner.orgId}`.execute(trx)
	})
	return { owner, org: owner.orgId, service: serviceId, provider: providerId, day: upcomingWeekday(3) }
}

/** A booking made on the public page (it carries a manage token: a deposit is asked when the service asks one). */
async function publicBooking(w: World, startsAt: string, guest = { name: 'Ana Souza', email: 'ana@example.com' }) {
	const { rows } = await asAnon((trx) =>
		sql<{ id: string }>`select id from public.create_booking(${w.org}, ${w.service}, ${w.provider}, ${startsAt}::timestamptz,
			${guest.name}, ${guest.email}, '555 0101', 'Allergic to latex')`.execute(trx),
	)
	return rows[0]!.id
}

async function staffBooking(w: World, startsAt: string, client: { name: string; email?: string; phone?: string }) {
	const booked = await staffCreateBooking(w.owner.userId, w.org, {
		serviceId: w.service,
		providerId: w.provider,
		start: startsAt,
		clientName: client.name,
		clientEmail: client.email,
		clientPhone: client.phone,
	})
	if (!booked.ok) throw Object.assign(new Error(booked.code), { code: booked.code })
	return booked.id
}

async function pay(w: World, values: { amount: number; description?: string; clientId?: string | null }) {
	return asUser(w.owner.userId, (trx) =>
		trx
			.insertInto('transactions')
			.values({
				organization_id: w.org,
				amount: values.amount,
				description: values.description ?? null,
				client_id: values.clientId ?? null,
				date_received: new Date().toISOString().slice(0, 10),
				payment_method: 'Zelle',
			})
			.returning('id')
			.executeTakeFirstOrThrow(),
	).then((r) => r.id)
}

const appointmentRow = (id: string) =>
	asSystem((trx) => trx.selectFrom('booking_appointments').selectAll().where('id', '=', id).executeTakeFirstOrThrow())

describe('the appointment page', () => {
	test('follows the money: a deposit awaited with its code, paid by memo code, undone, linked by hand; then completed, owed and marked paid by a member', async () => {
		const w = await world({ deposit: true })
		const id = await publicBooking(w, at(w.day, '10:00'))
		const page = async () => (await getAppointmentPage(w.owner.userId, w.org, id))!

		const waiting = await page()
		expect(waiting).toMatchObject({
			status: 'pending',
			price: '80.00',
			guest: { name: 'Ana Souza', email: 'ana@example.com', phone: '555 0101' },
		})
		expect(waiting.notes).toBe('Allergic to latex')
		expect(waiting.client).toMatchObject({ name: 'Ana Souza' })
		expect(waiting.payment.open).toMatchObject({ kind: 'deposit', amount: '30.00' })
		const code = waiting.payment.open!.code
		expect(code).toMatch(/^[2-9A-HJKMNP-TW-Z]{6}$/)
		expect(waiting.payment.open!.dueAt).not.toBeNull()

		// The payment carrying the code pays the deposit (the engine, on insert) and confirms the booking.
		await pay(w, { amount: 30, description: `deposit ${code}` })
		const paid = await page()
		expect(paid.status).toBe('confirmed')
		expect(paid.payment.open).toBeNull()
		expect(paid.payment.paid).toEqual([{ how: 'memo_code', amount: '30.00', code }])
		expect(paid.payments).toHaveLength(1)

		// Undone: open again, the payment free and offered to link by hand (it now belongs to the client).
		expect(await undoMatch(w.owner.userId, w.org, id, paid.payments[0]!.matchId)).toEqual({ ok: true, value: undefined })
		const undone = await page()
		expect(undone.payment.open).toMatchObject({ kind: 'deposit', amount: '30.00' })
		expect(undone.payments).toEqual([])
		expect(undone.linkable).toHaveLength(1)
		// A payment of another organization is not found here.
		const stranger = await world()
		const theirs = await pay(stranger, { amount: 30 })
		expect(await linkPayment(w.owner.userId, w.org, id, theirs)).toEqual({ ok: false, code: 'not_found' })
		expect(await linkPayment(w.owner.userId, w.org, id, undone.linkable[0]!.id)).toEqual({ ok: true, value: undefined })
		const linked = await page()
		expect(linked.payment.paid).toEqual([{ how: 'manual', amount: '30.00', code }])
		// Paid: nothing open to link to any more.
		expect(await linkPayment(w.owner.userId, w.org, id, undone.linkable[0]!.id)).toEqual({ ok: false, code: 'not_open' })

		// Completed (once started: moved into the past by SQL), it owes the rest; a member marks it paid.
		await asSystem((trx) =>
			sql`update public.booking_appointments set starts_at = now() - interval '1 hour', ends_at = now() - interval '30 minutes'
				where id = ${id}`.execute(trx),
		)
		expect(await changeAppointmentStatus(w.owner.userId, w.org, id, 'complete')).toBe('done')
		const owing = await page()
		expect(owing.payment.open).toMatchObject({ kind: 'balance', amount: '50.00', code })
		expect(owing.payment.owed).toBe('50.00')
		expect(await markAppointmentPaid(w.owner.userId, w.org, id)).toEqual({ ok: true, value: undefined })
		const settled = await page()
		expect(settled.payment.open).toBeNull()
		expect(settled.payment.owed).toBe('0.00')
		expect(settled.payment.paid).toEqual([
			{ how: 'manual', amount: '30.00', code },
			{ how: 'marked', amount: '50.00', by: 'Studio Owner' },
		])
		expect(await markAppointmentPaid(w.owner.userId, w.org, id)).toEqual({ ok: false, code: 'nothing_owed' })

		// The history, oldest first, with who acted: nobody for the visitor and the engine; the
		// member whose typed payment confirmed the booking; nobody for the move made by SQL above.
		expect(settled.history.map((h) => [h.kind, h.status ?? h.method, h.actor])).toEqual([
			['created', 'pending', null],
			['payment_matched', 'memo_code', null],
			['status', 'confirmed', 'Studio Owner'],
			['payment_unmatched', 'memo_code', 'Studio Owner'],
			['payment_matched', 'manual', 'Studio Owner'],
			['moved', null, null],
			['status', 'completed', 'Studio Owner'],
			['marked_paid', null, 'Studio Owner'],
		])
	})

	test('is not found for another organization, nor are its actions', async () => {
		const w = await world({ deposit: true })
		const id = await publicBooking(w, at(w.day, '11:00'))
		const other = await createUser('Other Owner')
		expect(await getAppointmentPage(other.userId, other.orgId, id)).toBeNull()
		// A member of both, acting in the other organization: not found there either.
		await addMember(w.org, other.userId, 'member')
		expect(await getAppointmentPage(other.userId, other.orgId, id)).toBeNull()
		expect(await markAppointmentPaid(other.userId, other.orgId, id)).toEqual({ ok: false, code: 'not_found' })
		expect(await moveAppointment(other.userId, other.orgId, id, { date: w.day, time: '12:00', provider: w.provider })).toEqual({
			ok: false,
			code: 'not_found',
		})
		const [deposit] = await asSystem((trx) => trx.selectFrom('payment_expectations').selectAll().where('appointment_id', '=', id).execute())
		expect(deposit!.status).toBe('open')
		expect((await appointmentRow(id)).starts_at.toISOString()).toBe(new Date(at(w.day, '11:00')).toISOString())
	})
})

describe('staff_move_booking', () => {
	test('moves to a free time and provider with the staff checks, keeps its history, and refuses a taken slot, closed hours and a finished appointment', async () => {
		const w = await world()
		const second = await asSystem((trx) =>
			trx
				.insertInto('booking_providers')
				.values({ organization_id: w.org, display_name: 'Dr. Chen' })
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		const id = await staffBooking(w, at(w.day, '09:00'), { name: 'Walk In', phone: '555 0102' })
		await staffBooking(w, at(w.day, '13:00'), { name: 'Busy Slot', email: 'busy@example.com' })
		const move = (values: { date?: string; time: string; provider?: string }) =>
			moveAppointment(w.owner.userId, w.org, id, { date: values.date ?? w.day, time: values.time, provider: values.provider ?? w.provider })

		const later = weekdayAfter(w.day)
		expect(await move({ date: later, time: '15:30' })).toEqual({ ok: true, value: later })
		const moved = await appointmentRow(id)
		expect(moved.starts_at.toISOString()).toBe(new Date(at(later, '15:30')).toISOString())
		expect(moved.ends_at.toISOString()).toBe(new Date(at(later, '16:00')).toISOString())
		expect(moved.status).toBe('confirmed')

		// The slot another appointment holds (its buffer too), the organization's hours, a past time: refused, nothing moves.
		expect(await move({ time: '13:15' })).toEqual({ ok: false, code: 'slot_taken' })
		expect(await move({ time: '06:00' })).toEqual({ ok: false, code: 'outside_business_hours' })
		expect(await move({ date: '2020-01-06', time: '10:00' })).toEqual({ ok: false, code: 'too_soon' })
		expect((await appointmentRow(id)).starts_at.toISOString()).toBe(new Date(at(later, '15:30')).toISOString())

		// The provider alone: written in the history too.
		expect(await move({ date: later, time: '15:30', provider: second.id })).toEqual({ ok: true, value: later })
		const page = (await getAppointmentPage(w.owner.userId, w.org, id))!
		expect(page.provider).toEqual({ id: second.id, name: 'Dr. Chen' })
		const moves = page.history.filter((h) => h.kind === 'moved')
		expect(moves.map((h) => [h.from?.time, h.to?.date, h.to?.time, h.provider, h.actor])).toEqual([
			['09:00', later, '15:30', null, 'Studio Owner'],
			['15:30', later, '15:30', 'Dr. Chen', 'Studio Owner'],
		])

		// Cancelled, it no longer moves.
		expect(await changeAppointmentStatus(w.owner.userId, w.org, id, 'cancel')).toBe('done')
		expect(await move({ time: '16:30' })).toEqual({ ok: false, code: 'not_movable' })
		// For members only.
		const outsider = await createUser('Outsider')
		expect(
			await refusal(
				asUser(outsider.userId, (trx) =>
					sql`select public.staff_move_booking(${w.org}, ${id}, ${w.provider}, ${at(w.day, '16:00')}::timestamptz)`.execute(trx),
				),
			),
		).toBe('not_member')
		expect(
			await refusal(
				asAnon((trx) =>
					sql`select public.staff_move_booking(${w.org}, ${id}, ${w.provider}, ${at(w.day, '16:00')}::timestamptz)`.execute(trx),
				),
			),
		).toBe('42501')
	})

	test('reads the date and time in the organization’s timezone', async () => {
		const w = await world()
		await asSystem((trx) =>
			trx.updateTable('booking_settings').set({ timezone: 'America/New_York' }).where('organization_id', '=', w.org).execute(),
		)
		const id = await staffBooking(w, `${w.day}T15:00:00Z`, { name: 'Zoned Client' })
		expect(await moveAppointment(w.owner.userId, w.org, id, { date: w.day, time: '12:00', provider: w.provider })).toMatchObject({
			ok: true,
		})
		const row = await appointmentRow(id)
		const hour = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
		expect(hour.format(row.starts_at)).toBe('12:00')
	})
})

describe('walk-ins', () => {
	test('staff book a walk-in without an e-mail or a phone: a new pending client by name; the public page still needs an e-mail', async () => {
		const w = await world()
		const id = await staffBooking(w, at(w.day, '10:00'), { name: 'Walk-in Wendy' })
		const row = await appointmentRow(id)
		expect(row).toMatchObject({ guest_email: null, guest_phone: null, status: 'confirmed' })
		const client = await asSystem((trx) => trx.selectFrom('clients').selectAll().where('id', '=', row.client_id!).executeTakeFirstOrThrow())
		expect(client).toMatchObject({ name: 'Walk-in Wendy', email: null, phone: null, status: 'pending' })
		// Blank counts as none; a malformed one is still refused.
		expect(await refusal(staffBooking(w, at(w.day, '11:00'), { name: 'Blank', email: '   ' }))).toBeNull()
		expect(await refusal(staffBooking(w, at(w.day, '12:00'), { name: 'Typo', email: 'typo@' }))).toBe('invalid_guest_email')
		expect(
			await refusal(
				asAnon((trx) =>
					sql`select * from public.create_booking(${w.org}, ${w.service}, ${w.provider}, ${at(w.day, '14:00')}::timestamptz, 'Visitor', '', null, null)`.execute(
						trx,
					),
				),
			),
		).toBe('invalid_guest_email')
		// Its page says there is no e-mail; a move does not ask for one.
		const page = (await getAppointmentPage(w.owner.userId, w.org, id))!
		expect(page.guest).toEqual({ name: 'Walk-in Wendy', email: null, phone: null })
		expect(await moveAppointment(w.owner.userId, w.org, id, { date: w.day, time: '16:00', provider: w.provider })).toMatchObject({
			ok: true,
		})
	})
})

describe('the staff mail of a booking', () => {
	test('carries the client’s e-mail, phone and notes, and the link to the appointment’s page', async () => {
		const w = await world()
		const id = await publicBooking(w, at(w.day, '10:00'), { name: 'Mailed Client', email: 'mailed@example.com' })
		expect(await notifyStaffOfBooking({ organizationId: w.org, appointmentId: id, kind: 'booked' })).toBe(1)
		const [mail] = await mailsTo(w.owner.email)
		expect(mail!.text).toContain('Email: mailed@example.com')
		expect(mail!.text).toContain('Phone: 555 0101')
		expect(mail!.text).toContain('Notes: Allergic to latex')
		expect(mail!.text).toMatch(new RegExp(`Open the appointment: https?://\\S+/app/booking/appointments/${id}\\b`))
	})
})

describe('merge_clients', () => {
	/** Two clients of one organization who are one person: a payment, an appointment and payer names each. */
	async function twins(w: World) {
		const keptId = await staffBooking(w, at(w.day, '09:00'), { name: 'Ana Souza', phone: '555 0199' })
		const kept = (await appointmentRow(keptId)).client_id!
		const mergedAppointment = await staffBooking(w, at(w.day, '10:00'), { name: 'Ana S.', email: 'ana.s@example.com' })
		const merged = (await appointmentRow(mergedAppointment)).client_id!
		await asSystem(async (trx) => {
			await trx.updateTable('clients').set({ company: 'Souza Studio', status: 'active' }).where('id', '=', merged).execute()
			await trx
				.insertInto('payer_aliases')
				.values([
					{ organization_id: w.org, alias: 'ANA SOUZA', client_id: kept },
					{ organization_id: w.org, alias: 'Ana Souza', client_id: merged },
					{ organization_id: w.org, alias: 'A SOUZA', client_id: merged },
				])
				.execute()
		})
		await pay(w, { amount: 25, clientId: kept })
		await pay(w, { amount: 40, clientId: merged })
		await pay(w, { amount: 15, clientId: merged })
		return { kept, merged, keptAppointment: keptId, mergedAppointment }
	}

	test('keeps both histories on the kept client, fills its empty contact fields, and deletes the merged one', async () => {
		const w = await world()
		const t = await twins(w)
		expect(await mergeClients(w.owner.userId, w.org, t.kept, t.merged)).toEqual({ ok: true })

		const found = (await getClient(w.owner.userId, w.org, t.kept))!
		expect(found.client).toMatchObject({
			name: 'Ana Souza',
			email: 'ana.s@example.com',
			phone: '555 0199',
			company: 'Souza Studio',
			status: 'active',
		})
		expect(found.totals).toMatchObject({ count: 3, amount: '80.00' })
		expect(await getClient(w.owner.userId, w.org, t.merged)).toBeNull()
		const appointments = await listClientAppointments(w.owner.userId, w.org, t.kept)
		expect(appointments.upcoming.map((a) => a.id)).toEqual([t.keptAppointment, t.mergedAppointment])
		// One payer name per key and client: the kept client's own stays, the merged one's other comes along.
		const aliases = await asSystem((trx) =>
			trx.selectFrom('payer_aliases').select(['alias', 'client_id']).where('organization_id', '=', w.org).orderBy('alias').execute(),
		)
		expect(aliases).toEqual([
			{ alias: 'A SOUZA', client_id: t.kept },
			{ alias: 'ANA SOUZA', client_id: t.kept },
		])
		// The organization's per-client counts follow the payments.
		const counts = await asSystem((trx) =>
			trx.selectFrom('organization_client_transaction_counts').selectAll().where('organization_id', '=', w.org).execute(),
		)
		expect(counts.map((c) => [c.client_id, Number(c.transaction_count)])).toEqual([[t.kept, 3]])
	})

	test('refuses the same client, a client of another organization, and a member of another organization; nothing changes', async () => {
		const w = await world()
		const t = await twins(w)
		const other = await world()
		const stranger = (await appointmentRow(await staffBooking(other, at(other.day, '09:00'), { name: 'Stranger' }))).client_id!
		const call = (userId: string, keep: string, merge: string) =>
			refusal(asUser(userId, (trx) => sql`select public.merge_clients(${keep}, ${merge})`.execute(trx)))

		expect(await call(w.owner.userId, t.kept, t.kept)).toBe('same_client')
		expect(await call(w.owner.userId, t.kept, stranger)).toBe('not_found')
		expect(await call(w.owner.userId, stranger, t.merged)).toBe('not_found')
		expect(await call(w.owner.userId, t.kept, '00000000-0000-4000-8000-000000000000')).toBe('not_found')
		// The other organization's owner cannot merge this one's clients, nor anyone signed out.
		expect(await call(other.owner.userId, t.kept, t.merged)).toBe('not_member')
		expect(await refusal(asAnon((trx) => sql`select public.merge_clients(${t.kept}, ${t.merged})`.execute(trx)))).toBe('42501')
		// Through the app: a client of another of the member's organizations is not found here.
		await addMember(other.org, w.owner.userId, 'member')
		expect(await mergeClients(w.owner.userId, w.org, t.kept, stranger)).toEqual({ ok: false, code: 'not_found' })
		expect(await mergeClients(w.owner.userId, w.org, t.kept, t.kept)).toEqual({ ok: false, code: 'same_client' })

		const clients = await asSystem((trx) =>
			trx.selectFrom('clients').select('id').where('organization_id', 'in', [w.org, other.org]).orderBy('id').execute(),
		)
		expect(clients.map((c) => c.id).sort()).toEqual([t.kept, t.merged, stranger].sort())
		expect((await getClient(w.owner.userId, w.org, t.merged))!.totals.count).toBe(2)
	})
})
