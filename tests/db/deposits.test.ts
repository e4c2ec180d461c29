/**
 * Deposits on the visitor's side (docs/product.md, Deposits and prepayment): a public booking of
 * a service asking a deposit records the visitor's language and zone, its page and mail show
 * the code and the ways to pay; the mails the engine owes (payment received, hold released) go
 * once, even from two runs at once, in the visitor's language and zone; a failed mail is sent by
 * a later run; where the organization gets paid is written by owners and administrators only.
 * On PGlite and on the PostgreSQL server.
 */
import { renameSync, writeFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { deliverGuestNotices, runDepositDuties } from '#app/.server/booking/deposits.ts'
import { getBookingDeposit, getDepositTerms } from '#app/.server/booking/public/deposit.ts'
import { createPublicBooking } from '#app/.server/booking/public/bookings.ts'
import { getPublicOrganization } from '#app/.server/booking/public/organization.ts'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { getPaymentHandles, savePaymentHandles, type PaymentHandles } from '#app/.server/payments/handles.ts'
import { addMember, at, CATALOGUE, createBookingSetup, createUser, upcomingWeekday, type TestUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'
import { zoneLabel } from '#app/lib/timezones.ts'

const dataDir = useTemporaryDataDir()

type World = { owner: TestUser; slug: string; serviceId: string; providerId: string; day: string }

async function world(
	handles: PaymentHandles = { zelle: 'pay@studio.example', venmo: 'Studio-Nine', cashapp: 'StudioNine', paypal: null },
): Promise<World> {
	const owner = await createUser('Deposit Owner')
	// No deposit is asked without the Deposits & Prepayment upgrade.
	await asUser(owner.userId, async (trx) => {
		await sql`select public.activate_module(${owner.orgId}, ${CATALOGUE.modules.booking})`.execute(trx)
		await sql`select public.purchase_upgrade(${owner.orgId}, ${CATALOGUE.upgrades.deposits})`.execute(trx)
	})
	const { serviceId, providerId } = await createBookingSetup(owner.orgId, { price: 80 })
	await asSystem(async (trx) => {
		await trx.updateTable('booking_services').set({ deposit_kind: 'fixed', deposit_amount: '30' }).where('id', '=', serviceId).execute()
		await sql`update public.booking_settings set min_advance_hours = 0, max_advance_days = 60, timezone = 'America/Chicago',
			business_hours = (select jsonb_object_agg(d, '{"start": "00:00", "end": "24:00", "enabled": true}'::jsonb)
				from unnest(array['monday','tuesday','wednesday','thursday','friday','saturday','sunday']) d)
			where organization_id = ${owner.orgId}`.execute(trx)
	})
	expect(await savePaymentHandles(owner.userId, owner.orgId, handles)).toBe(true)
	const { slug } = await asSystem((trx) =>
		trx.selectFrom('organizations').select('slug').where('id', '=', owner.orgId).executeTakeFirstOrThrow(),
	)
	return { owner, slug, serviceId, providerId, day: upcomingWeekday(4) }
}

/** Books through the public page's own function, as a visitor of `language` who chose `timezone`. */
async function book(w: World, time: string, email: string, language = 'en', timezone?: string) {
	const org = (await getPublicOrganization(w.slug))!
	const booked = await createPublicBooking(
		org,
		{ serviceId: w.serviceId, providerId: w.providerId, start: at(w.day, time), contact: { name: 'Lucía Pérez', email }, timezone },
		language,
	)
	if (!booked.ok) throw new Error(booked.code)
	await drainMail()
	return booked
}

const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2)}@guest.example`

describe('the booked page and the booking mail', () => {
	test('a booking awaiting its deposit shows the amount, the code, the deadline and each way to pay, in the visitor’s language and zone', async () => {
		const w = await world()
		const email = uniqueEmail('awaiting')
		const booked = await book(w, '15:00', email, 'es', 'America/New_York')
		const stored = await asSystem((trx) =>
			trx
				.selectFrom('booking_appointments')
				.select(['guest_language', 'guest_timezone', 'status'])
				.where('id', '=', booked.id)
				.executeTakeFirstOrThrow(),
		)
		expect(stored).toEqual({ guest_language: 'es', guest_timezone: 'America/New_York', status: 'pending' })
		const deposit = (await getBookingDeposit(booked.token))!
		expect(deposit).toMatchObject({ status: 'open', amount: '30.00', guestTimezone: 'America/New_York' })
		expect(deposit.code).toMatch(/^[2-9A-HJKMNP-TW-Z]{6}$/)
		expect(deposit.handles).toEqual({ zelle: 'pay@studio.example', venmo: 'Studio-Nine', cashapp: 'StudioNine', paypal: null })
		// Another token reads nothing.
		expect(await getBookingDeposit('0'.repeat(64))).toBeNull()
		expect(await getBookingDeposit('not a token')).toBeNull()

		const [mail] = await mailsTo(email)
		expect(mail!.text).toContain('Pendiente de pago')
		expect(mail!.text).toContain(deposit.code)
		expect(mail!.text).toContain('30,00')
		expect(mail!.text).toContain('Zelle a pay@studio.example')
		expect(mail!.text).toContain('https://venmo.com/Studio-Nine')
		expect(mail!.text).toContain('https://cash.app/$StudioNine/30')
		expect(mail!.text).not.toContain('paypal.me')
		// The deadline and the time in the zone the visitor chose, named in words in their language, and
		// the business's time beside (the organization works in Chicago).
		expect(mail!.text).toContain(zoneLabel('America/New_York', 'es'))
		expect(mail!.text).toContain(`en el horario del negocio, ${zoneLabel('America/Chicago', 'es')}`)
		expect(mail!.text).not.toContain('America/New_York')
	})

	test('an unknown zone or language is left out, never refused; without handles the visitor is told to pay the organization', async () => {
		const w = await world({ zelle: null, venmo: null, cashapp: null, paypal: null })
		const email = uniqueEmail('direct')
		const booked = await book(w, '16:00', email, 'xx', 'Mars/Olympus')
		const stored = await asSystem((trx) =>
			trx
				.selectFrom('booking_appointments')
				.select(['guest_language', 'guest_timezone'])
				.where('id', '=', booked.id)
				.executeTakeFirstOrThrow(),
		)
		expect(stored).toEqual({ guest_language: null, guest_timezone: null })
		const [mail] = await mailsTo(email)
		expect(mail!.text).toContain('Awaiting payment')
		expect(mail!.text).toContain('directly')
		// An unknown zone: the organization's, named, and no second time.
		expect(mail!.text).toContain('Central Time (Chicago)')
		expect(mail!.text).not.toContain('at the business,')
	})

	test('the confirm step announces a deposit asked of everyone (capped at the price), never one asked only after no-shows', async () => {
		const w = await world()
		expect(await getDepositTerms(w.serviceId)).toEqual({ kind: 'fixed', amount: '30.00' })
		await asSystem((trx) => trx.updateTable('booking_services').set({ deposit_amount: '500' }).where('id', '=', w.serviceId).execute())
		expect(await getDepositTerms(w.serviceId)).toEqual({ kind: 'fixed', amount: '80.00' })
		await asSystem((trx) => trx.updateTable('booking_services').set({ deposit_after_no_shows: 1 }).where('id', '=', w.serviceId).execute())
		expect(await getDepositTerms(w.serviceId)).toBeNull()
		await asSystem((trx) =>
			trx
				.updateTable('booking_services')
				.set({ deposit_kind: 'full', deposit_amount: null, deposit_after_no_shows: null })
				.where('id', '=', w.serviceId)
				.execute(),
		)
		expect(await getDepositTerms(w.serviceId)).toEqual({ kind: 'full', amount: '80.00' })
		// Without the upgrade, nothing is asked, so nothing is announced.
		await asSystem((trx) => trx.deleteFrom('organization_module_upgrades').where('organization_id', '=', w.owner.orgId).execute())
		expect(await getDepositTerms(w.serviceId)).toBeNull()
	})
})

/** A payment the owner types, with the code in its memo (the engine matches it on insert). */
async function payWithCode(w: World, code: string) {
	await asUser(w.owner.userId, (trx) =>
		trx
			.insertInto('transactions')
			.values({
				organization_id: w.owner.orgId,
				amount: '30',
				description: `Zelle from Lucia: ${code}`,
				date_received: new Date().toISOString().slice(0, 10),
				payment_method: 'Zelle',
			})
			.execute(),
	)
}

/** Puts a hold's deadline ten days back: a run whose "now" is nine days back releases it and no other test's. */
async function expireLongAgo(appointmentId: string) {
	await asSystem((trx) =>
		sql`update public.payment_expectations set due_at = now() - interval '10 days' where appointment_id = ${appointmentId}`.execute(trx),
	)
}
const NINE_DAYS_AGO = () => new Date(Date.now() - 9 * 86_400_000)

describe('the mails the engine owes the visitor', () => {
	test('two runs at once send each notice once: the payment received and the hold released, in the visitor’s language and zone', async () => {
		const w = await world()
		const paidEmail = uniqueEmail('paid')
		const lateEmail = uniqueEmail('late')
		const paid = await book(w, '09:00', paidEmail, 'pt-BR', 'America/Sao_Paulo')
		const late = await book(w, '10:00', lateEmail, 'es')
		await payWithCode(w, (await getBookingDeposit(paid.token))!.code)
		await expireLongAgo(late.id)

		const runs = await Promise.all([
			runDepositDuties(NINE_DAYS_AGO(), { organizationId: w.owner.orgId }),
			runDepositDuties(NINE_DAYS_AGO(), { organizationId: w.owner.orgId }),
		])
		await drainMail()
		expect(runs.flatMap((r) => r.released).filter((id) => id === late.id)).toHaveLength(1)
		expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(2)

		const paidMails = await mailsTo(paidEmail)
		expect(paidMails.map((m) => m.subject)).toEqual([
			expect.stringContaining('agendamento'),
			`Pagamento recebido: seu agendamento com ${await orgName(w)} está confirmado`,
		])
		expect(paidMails[1]!.text).toContain(zoneLabel('America/Sao_Paulo', 'pt-BR'))
		expect(paidMails[1]!.text).toContain(`no horário do negócio, ${zoneLabel('America/Chicago', 'pt-BR')}`)
		// Its manage link, as the booking mail had it.
		expect(paidMails[1]!.text).toContain(`/book/${w.slug}/booked/${paid.id}?token=${paid.token}`)
		expect(paidMails[1]!.text).toContain('30,00')
		const lateMails = await mailsTo(lateEmail)
		expect(lateMails.map((m) => m.subject)).toEqual([expect.any(String), `Tu reserva con ${await orgName(w)} se liberó`])
		expect(lateMails[1]!.text).toContain(`/book/${w.slug}`)
		// No zone chosen: the organization's.
		expect(lateMails[1]!.text).toContain(zoneLabel('America/Chicago', 'es'))
		expect(lateMails[1]!.text).not.toContain('horario del negocio')

		// The visitor's page says so, and the slot is free: the same time can be booked again.
		expect((await getBookingDeposit(late.token))!.status).toBe('released')
		expect((await getBookingDeposit(paid.token))!.status).toBe('paid')
		await book(w, '10:00', uniqueEmail('again'))

		// A third run finds nothing more to say.
		expect((await runDepositDuties(NINE_DAYS_AGO(), { organizationId: w.owner.orgId })).sent).toBe(0)
		await drainMail()
		expect(await mailsTo(paidEmail)).toHaveLength(2)
		expect(await mailsTo(lateEmail)).toHaveLength(2)
	})

	test('a mail that could not be sent is left for the next run, then sent once', async () => {
		const w = await world()
		const email = uniqueEmail('retry')
		const booked = await book(w, '11:00', email)
		await payWithCode(w, (await getBookingDeposit(booked.token))!.code)
		// The outbox cannot be written: the mail port fails.
		const outbox = path.join(dataDir, 'outbox')
		renameSync(outbox, `${outbox}.kept`)
		writeFileSync(outbox, 'not a folder')
		try {
			expect(await deliverGuestNotices({ organizationId: w.owner.orgId })).toBe(0)
		} finally {
			rmSync(outbox)
			renameSync(`${outbox}.kept`, outbox)
		}
		const pending = await asSystem((trx) =>
			trx
				.selectFrom('booking_appointment_events')
				.select('guest_notified_at')
				.where('appointment_id', '=', booked.id)
				.where('guest_notice', '=', 'payment_received')
				.executeTakeFirstOrThrow(),
		)
		expect(pending.guest_notified_at).toBeNull()
		expect(await deliverGuestNotices({ organizationId: w.owner.orgId })).toBe(1)
		expect(await deliverGuestNotices({ organizationId: w.owner.orgId })).toBe(0)
		expect((await mailsTo(email)).map((m) => m.subject)).toEqual([expect.any(String), expect.stringContaining('Payment received')])
	})
})

async function orgName(w: World) {
	return (await asSystem((trx) => trx.selectFrom('organizations').select('name').where('id', '=', w.owner.orgId).executeTakeFirstOrThrow()))
		.name
}

describe('where the organization gets paid', () => {
	test('owners save the handles; an administrator, a manager or a member of another organization changes nothing', async () => {
		const w = await world()
		const admin = await createUser('Admin')
		const manager = await createUser('Manager')
		const stranger = await createUser('Stranger')
		await addMember(w.owner.orgId, admin.userId, 'administrator')
		await addMember(w.owner.orgId, manager.userId, 'manager')
		const mine = { zelle: '5551234567', venmo: null, cashapp: null, paypal: 'studio9' }
		expect(await savePaymentHandles(w.owner.userId, w.owner.orgId, mine)).toBe(true)
		expect(await getPaymentHandles(manager.userId, w.owner.orgId)).toEqual(mine)
		const hijack = { zelle: 'thief@evil.example', venmo: 'thief-account', cashapp: 'Thief', paypal: 'thief' }
		for (const who of [admin, manager, stranger]) expect(await savePaymentHandles(who.userId, w.owner.orgId, hijack)).toBe(false)
		expect(await getPaymentHandles(admin.userId, w.owner.orgId)).toEqual(mine)
		// A stranger reads none of them, and cannot add a row for an organization that has none.
		expect(await getPaymentHandles(stranger.userId, w.owner.orgId)).toEqual({ zelle: null, venmo: null, cashapp: null, paypal: null })
		const bare = await createUser('No Handles Yet')
		expect(await savePaymentHandles(stranger.userId, bare.orgId, hijack)).toBe(false)
		expect(await getPaymentHandles(bare.userId, bare.orgId)).toEqual({ zelle: null, venmo: null, cashapp: null, paypal: null })
	})
})
