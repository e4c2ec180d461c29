/**
 * Who still owes me (docs/product.md, Who still owes me): the open deposits and the balances of
 * completed appointments, per client, oldest first, with what each still owes and the totals; a
 * payment with the code clears its line by itself; the payment request mails the client in the
 * booker's language (else the organization's) with the handles, the amount and the code, writes
 * the appointment's event, and is refused, changing nothing, when it cannot or may not be sent.
 * On PGlite and on the PostgreSQL server.
 */
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { listOwed, OWED_CLIENTS_PER_PAGE, OWED_LINES_PER_CLIENT, requestPayment } from '#app/.server/payments/owed.ts'
import { addMember, createBookingSetup, createUser, type TestUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()

type World = { owner: TestUser; serviceId: string; providerId: string }

const DAY = 86_400_000
let hour = 0

async function world(): Promise<World> {
	const owner = await createUser('Owed Owner')
	const { serviceId, providerId } = await createBookingSetup(owner.orgId, { price: 80 })
	hour = 0
	await asSystem((trx) =>
		sql`update public.booking_settings set timezone = 'America/New_York' where organization_id = ${owner.orgId}`.execute(trx),
	)
	return { owner, serviceId, providerId }
}

const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2)}@client.example`

/**
 * An appointment `daysAgo` days back (an hour earlier for each one of the world, so none overlap), booked by `guest`, then
 * completed: the engine leaves its price as a balance. Returns the appointment and its balance.
 */
async function completed(
	w: World,
	guest: { name: string; email: string | null; language?: string | null },
	daysAgo: number,
	price = 80,
): Promise<{ appointmentId: string; expectationId: string; code: string; clientId: string | null }> {
	const start = new Date(Date.now() - daysAgo * DAY - hour++ * 3_600_000)
	return asSystem(async (trx) => {
		const a = await trx
			.insertInto('booking_appointments')
			.values({
				organization_id: w.owner.orgId,
				service_id: w.serviceId,
				provider_id: w.providerId,
				starts_at: start.toISOString(),
				ends_at: new Date(start.getTime() + 30 * 60_000).toISOString(),
				status: 'confirmed',
				guest_name: guest.name,
				guest_email: guest.email,
				guest_language: guest.language ?? null,
				total_price: price,
			})
			.returning(['id', 'client_id'])
			.executeTakeFirstOrThrow()
		await trx.updateTable('booking_appointments').set({ status: 'completed' }).where('id', '=', a.id).execute()
		const e = await trx
			.selectFrom('payment_expectations')
			.select(['id', 'memo_code'])
			.where('appointment_id', '=', a.id)
			.where('status', '=', 'open')
			.executeTakeFirstOrThrow()
		return { appointmentId: a.id, expectationId: e.id, code: e.memo_code, clientId: a.client_id }
	})
}

/** A payment as a member types it (sync and import insert the same way: the engine runs on insert). */
async function pay(w: World, amount: number, description: string) {
	await asUser(w.owner.userId, (trx) =>
		trx
			.insertInto('transactions')
			.values({
				organization_id: w.owner.orgId,
				amount,
				description,
				date_received: new Date().toISOString().slice(0, 10),
				payment_method: 'Zelle',
			})
			.execute(),
	)
}

const owed = (w: World, page = 1) => listOwed(w.owner.userId, w.owner.orgId, { page, timezone: 'America/New_York' })

async function eventsOf(appointmentId: string, kind: string) {
	return asSystem((trx) =>
		trx
			.selectFrom('booking_appointment_events')
			.selectAll()
			.where('appointment_id', '=', appointmentId)
			.where('kind', '=', kind as never)
			.execute(),
	)
}

describe('the list', () => {
	test('open deposits and balances, grouped per client, oldest first, with what each still owes and the totals', async () => {
		const w = await world()
		const ana = { name: 'Ana Souza', email: uniqueEmail('ana') }
		const bruno = { name: 'Bruno Lima', email: uniqueEmail('bruno') }
		const anaOld = await completed(w, ana, 20)
		const brunoOne = await completed(w, bruno, 10, 50)
		const anaNew = await completed(w, ana, 3)
		// A deposit awaited by a public booking of Bruno's (as the engine opens it).
		const deposit = await asSystem(async (trx) => {
			const e = await trx
				.insertInto('payment_expectations')
				.values({
					organization_id: w.owner.orgId,
					kind: 'deposit',
					appointment_id: brunoOne.appointmentId,
					client_id: brunoOne.clientId,
					amount_due: 25,
					memo_code: 'KQ7MPX',
					due_at: new Date(Date.now() + DAY).toISOString(),
				})
				.returning('id')
				.executeTakeFirstOrThrow()
			return e.id
		})
		// Paid or void amounts are not owed.
		const paid = await completed(w, { name: 'Carla Paid', email: uniqueEmail('carla') }, 5)
		await asSystem((trx) => trx.updateTable('payment_expectations').set({ status: 'void' }).where('id', '=', paid.expectationId).execute())

		const list = await owed(w)
		expect(list.totals).toEqual({ owed: '235.00', deposits: '25.00', clients: 2, lines: 4 })
		expect(list.groups.map((g) => [g.name, g.total, g.lineCount])).toEqual([
			['Ana Souza', '160.00', 2],
			['Bruno Lima', '75.00', 2],
		])
		expect(list.groups[0]!.lines.map((l) => [l.appointmentId, l.kind, l.remaining])).toEqual([
			[anaOld.appointmentId, 'balance', '80.00'],
			[anaNew.appointmentId, 'balance', '80.00'],
		])
		const brunoLines = list.groups[1]!.lines
		expect(brunoLines.map((l) => l.kind).sort()).toEqual(['balance', 'deposit'])
		const depositLine = brunoLines.find((l) => l.expectationId === deposit)!
		expect(depositLine).toMatchObject({ memoCode: 'KQ7MPX', remaining: '25.00', service: 'Consultation', email: bruno.email })
		expect(depositLine.dueAt?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
	})

	test('a partial payment with the code lowers the line; the rest with the code clears it, and the totals follow', async () => {
		const w = await world()
		const line = await completed(w, { name: 'Dora Reis', email: uniqueEmail('dora') }, 2)
		await pay(w, 30, `Zelle from Dora: ${line.code}`)
		let list = await owed(w)
		expect(list.groups[0]!.lines[0]!.remaining).toBe('50.00')
		expect(list.totals.owed).toBe('50.00')
		await pay(w, 50, `rest ${line.code.toLowerCase()}`)
		list = await owed(w)
		expect(list.groups).toEqual([])
		expect(list.totals).toEqual({ owed: '0', deposits: '0', clients: 0, lines: 0 })
	})

	test('a member of another organization sees nothing of it, even naming its id', async () => {
		const w = await world()
		await completed(w, { name: 'Eva Secret', email: uniqueEmail('eva') }, 2)
		const stranger = await createUser('Stranger')
		const theirs = await listOwed(stranger.userId, w.owner.orgId, { timezone: 'UTC' })
		expect(theirs.groups).toEqual([])
		expect(theirs.totals.lines).toBe(0)
	})

	test('pages of clients, and a cap of lines per client with how many there are', async () => {
		const w = await world()
		const many = { name: 'Aaron Many', email: uniqueEmail('many') }
		for (let i = 0; i < OWED_LINES_PER_CLIENT + 2; i++) await completed(w, many, 40 + i, 10)
		for (let i = 0; i < OWED_CLIENTS_PER_PAGE; i++) await completed(w, { name: `Client ${i}`, email: uniqueEmail(`c${i}`) }, 30 - i, 10)
		const first = await owed(w)
		expect(first.totals.clients).toBe(OWED_CLIENTS_PER_PAGE + 1)
		expect(first.groups).toHaveLength(OWED_CLIENTS_PER_PAGE)
		// The oldest appointment first: the client with many lines (40+ days ago) leads.
		expect(first.groups[0]).toMatchObject({ name: 'Aaron Many', lineCount: OWED_LINES_PER_CLIENT + 2 })
		expect(first.groups[0]!.lines).toHaveLength(OWED_LINES_PER_CLIENT)
		const second = await owed(w, 2)
		expect(second.groups.map((g) => g.name)).toEqual([`Client ${OWED_CLIENTS_PER_PAGE - 1}`])
		const past = await owed(w, 99)
		expect(past.groups).toEqual([])
		expect(past.totals.clients).toBe(OWED_CLIENTS_PER_PAGE + 1)
	})
})

describe('the payment request', () => {
	test('mails the client in the booker’s language, with the handles, the amount and the code, and records the request', async () => {
		const w = await world()
		await asSystem((trx) =>
			trx
				.insertInto('payment_handles')
				.values({ organization_id: w.owner.orgId, zelle: 'pay@studio.example', venmo: 'Studio-Nine', cashapp: null, paypal: 'StudioNine' })
				.execute(),
		)
		const email = uniqueEmail('lucia')
		const line = await completed(w, { name: 'Lucía Pérez', email, language: 'es' }, 2, 45.5)
		const sent = await requestPayment(w.owner.userId, w.owner.orgId, line.expectationId)
		expect(sent).toEqual({ ok: true, email, amount: '45.50' })
		await drainMail()
		const [mail, ...more] = await mailsTo(email)
		expect(more).toEqual([])
		expect(mail!.subject).toMatch(/^Solicitud de pago de Owed Owner/)
		expect(mail!.subject).toContain('45,50')
		expect(mail!.text).toContain('Hola, Lucía Pérez')
		expect(mail!.text).toContain(`escribe el código ${line.code}`)
		expect(mail!.text).toContain('Zelle a pay@studio.example')
		expect(mail!.text).toContain('Venmo @Studio-Nine: https://venmo.com/Studio-Nine')
		expect(mail!.text).toContain('https://paypal.me/StudioNine/45.50')
		const [event] = await eventsOf(line.appointmentId, 'payment_requested')
		expect(event).toMatchObject({ actor_id: w.owner.userId, detail: { code: line.code, expectation: 'balance', to: email } })
		expect((await owed(w)).groups[0]!.lines[0]!.requestedAt).not.toBeNull()
	})

	test('without the booker’s language, the mail is in the organization’s (its owner’s), and says how to pay without handles', async () => {
		const w = await world()
		await asSystem((trx) =>
			trx.updateTable('profiles').set({ preferred_language: 'pt-BR' }).where('user_id', '=', w.owner.userId).execute(),
		)
		const email = uniqueEmail('joao')
		const line = await completed(w, { name: 'João Silva', email }, 2)
		expect((await requestPayment(w.owner.userId, w.owner.orgId, line.expectationId)).ok).toBe(true)
		await drainMail()
		const [mail] = await mailsTo(email)
		expect(mail!.subject).toMatch(/^Pedido de pagamento de Owed Owner/)
		expect(mail!.text).toContain(`escreva o código ${line.code}`)
	})

	test('refused, with nothing mailed or recorded: no address, nothing open, another organization’s amount, past the limit', async () => {
		const w = await world()
		// A walk-in without an address whose client has none either.
		const walkIn = await completed(w, { name: 'Walk In', email: null }, 2)
		expect(await requestPayment(w.owner.userId, w.owner.orgId, walkIn.expectationId)).toEqual({ ok: false, code: 'no_email' })
		expect(await eventsOf(walkIn.appointmentId, 'payment_requested')).toEqual([])

		const settled = await completed(w, { name: 'Paid Up', email: uniqueEmail('paid') }, 3)
		await pay(w, 80, settled.code)
		expect(await requestPayment(w.owner.userId, w.owner.orgId, settled.expectationId)).toEqual({ ok: false, code: 'not_open' })

		// A member of another organization (even one who belongs to both, asking from the other) gets nothing of it.
		const other = await world()
		const email = uniqueEmail('target')
		const target = await completed(w, { name: 'Target', email }, 4)
		expect(await requestPayment(other.owner.userId, other.owner.orgId, target.expectationId)).toEqual({ ok: false, code: 'not_found' })
		await addMember(other.owner.orgId, w.owner.userId, 'member')
		expect(await requestPayment(w.owner.userId, other.owner.orgId, target.expectationId)).toEqual({ ok: false, code: 'not_found' })
		await drainMail()
		expect(await mailsTo(email)).toEqual([])
		expect(await eventsOf(target.appointmentId, 'payment_requested')).toEqual([])

		// Three a day for one amount; the fourth is refused and mails nothing.
		for (let i = 0; i < 3; i++) expect((await requestPayment(w.owner.userId, w.owner.orgId, target.expectationId)).ok).toBe(true)
		expect(await requestPayment(w.owner.userId, w.owner.orgId, target.expectationId)).toEqual({ ok: false, code: 'rate_limited' })
		await drainMail()
		expect(await mailsTo(email)).toHaveLength(3)
		expect(await eventsOf(target.appointmentId, 'payment_requested')).toHaveLength(3)
	})
})
