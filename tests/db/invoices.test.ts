/**
 * Invoices on the matching engine (supabase/migrations/20261206010000_invoices.sql, docs/decisions/
 * 042-invoices-on-the-engine.md): drafts edited by members, totals kept by the database, a number
 * given when sent that never repeats or skips (even from many connections at once), a sent invoice
 * frozen, paid by the engine by code (parts add up, an overpayment shows) or by client and amount,
 * overdue by the organization's calendar, voided only without payments, closed to other
 * organizations. On PGlite and on the PostgreSQL server (the races there).
 */
import { createHash, randomBytes } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { importPayments, undoImport } from '#app/.server/payments/imports/pipeline.ts'
import { addMember, createUser, isDbTarget, refusal, type TestUser } from './fixtures.ts'

const INVOICING = 'b0000000-0000-4000-8000-000000000005'

type World = { owner: TestUser; clientId: string }

async function world({ invoicing = true } = {}): Promise<World> {
	const owner = await createUser('Invoice Owner')
	// The Invoicing module is activated here as the system: the catalogue sells it once its screens ship.
	if (invoicing) {
		await asSystem((trx) =>
			sql`insert into public.organization_modules (organization_id, module_id) values (${owner.orgId}, ${INVOICING})`.execute(trx),
		)
	}
	const client = await asSystem((trx) =>
		trx
			.insertInto('clients')
			.values({ organization_id: owner.orgId, name: 'Marta Díaz', email: 'marta@example.com', status: 'active' })
			.returning('id')
			.executeTakeFirstOrThrow(),
	)
	return { owner, clientId: client.id }
}

/** A draft with lines, written as a member writes it (policies and column grants apply). */
async function draft(
	w: World,
	lines: Array<[string, number, number]> = [['Design work', 10, 85]],
	extra: { tax_rate?: number; discount?: number; client_id?: string | null } = {},
	userId = w.owner.userId,
) {
	return asUser(userId, async (trx) => {
		const { rows } = await sql<{ id: string }>`
			insert into public.invoices (organization_id, client_id, created_by, tax_rate, discount, issue_date, due_date)
			values (${w.owner.orgId}, ${extra.client_id === undefined ? w.clientId : extra.client_id}, ${userId},
				${extra.tax_rate ?? 0}, 0, current_date, current_date + 14)
			returning id`.execute(trx)
		const id = rows[0]!.id
		for (const [i, [description, quantity, price]] of lines.entries()) {
			await sql`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price)
				values (${w.owner.orgId}, ${id}, ${i}, ${description}, ${quantity}, ${price})`.execute(trx)
		}
		if (extra.discount) await sql`update public.invoices set discount = ${extra.discount} where id = ${id}`.execute(trx)
		return id
	})
}

function newToken() {
	const token = randomBytes(24).toString('base64url')
	return { hash: createHash('sha256').update(token).digest('hex'), sealed: `sealed:${token}` }
}

async function send(id: string, userId: string) {
	const token = newToken()
	const { rows } = await asUser(userId, (trx) =>
		sql<{ number: number }>`select public.send_invoice(${id}, ${token.hash}, ${token.sealed}) as number`.execute(trx),
	)
	return rows[0]!.number
}

type Overview = {
	state: string
	total: string
	subtotal: string
	amount_paid: string
	balance: string
	overpaid: string
	memo_code: string | null
	number: number | null
}

async function overview(id: string, userId: string): Promise<Overview> {
	const { rows } = await asUser(userId, (trx) =>
		sql<Overview>`select state, total, subtotal, amount_paid, balance, overpaid, memo_code, number
			from public.invoice_overview where id = ${id}`.execute(trx),
	)
	return rows[0]!
}

async function pay(w: World, amount: number, description: string | null, clientId: string | null = null) {
	return asUser(w.owner.userId, (trx) =>
		trx
			.insertInto('transactions')
			.values({
				organization_id: w.owner.orgId,
				amount,
				description,
				client_id: clientId,
				date_received: new Date().toISOString().slice(0, 10),
				payment_method: 'Venmo',
			})
			.returning('id')
			.executeTakeFirstOrThrow(),
	)
}

describe('drafts and totals', () => {
	test('the database keeps the subtotal and the total: lines, a discount, then the tax on what is left', async () => {
		const w = await world()
		const id = await draft(
			w,
			[
				['Design work', 10, 85],
				['Hosting, 3 months', 3, 12.5],
			],
			{ tax_rate: 8.25, discount: 37.5 },
		)
		const o = await overview(id, w.owner.userId)
		// 850 + 37.50 = 887.50; less 37.50 = 850; plus 8.25 % = 920.13 (920.125 rounded).
		expect(o).toMatchObject({ state: 'draft', subtotal: '887.50', total: '920.13', number: null, memo_code: null })
		await asUser(w.owner.userId, (trx) => sql`delete from public.invoice_lines where invoice_id = ${id} and position = 1`.execute(trx))
		// 850 less 37.50 = 812.50; plus 8.25 % = 879.53.
		expect(await overview(id, w.owner.userId)).toMatchObject({ subtotal: '850.00', total: '879.53' })
	})

	test('a member cannot write the number, the status or the totals, and a discount above the subtotal is refused', async () => {
		const w = await world()
		const id = await draft(w)
		for (const column of ['number', 'status', 'total', 'subtotal', 'public_token_hash']) {
			const value = column === 'status' ? 'sent' : column === 'public_token_hash' ? 'a'.repeat(64) : 1
			expect(
				await refusal(
					asUser(w.owner.userId, (trx) => sql`update public.invoices set ${sql.ref(column)} = ${value} where id = ${id}`.execute(trx)),
				),
				column,
			).toBe('42501')
		}
		expect(
			await refusal(asUser(w.owner.userId, (trx) => sql`update public.invoices set discount = 851 where id = ${id}`.execute(trx))),
		).toBe('23514')
	})
})

describe('sending', () => {
	test('gives the next number and a memo code, freezes the invoice, and keeps who it was billed to', async () => {
		const w = await world()
		const first = await draft(w)
		const second = await draft(w, [['Consulting', 2, 150]])
		expect(await send(second, w.owner.userId)).toBe(1)
		expect(await send(first, w.owner.userId)).toBe(2)
		const o = await overview(first, w.owner.userId)
		expect(o).toMatchObject({ state: 'sent', number: 2, balance: '850.00', amount_paid: '0.00' })
		expect(o.memo_code).toMatch(/^[2-9A-HJKMNP-TW-Z]{6}$/)

		// Frozen: its lines and its fields refuse changes; sending twice is refused.
		expect(
			await refusal(
				asUser(w.owner.userId, (trx) => sql`update public.invoice_lines set unit_price = 1 where invoice_id = ${first}`.execute(trx)),
			),
		).toBe('invoice_not_draft')
		expect(
			await refusal(
				asUser(w.owner.userId, (trx) =>
					sql`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price)
						values (${w.owner.orgId}, ${first}, 5, 'More', 1, 1)`.execute(trx),
				),
			),
		).toBe('invoice_not_draft')
		// A sent invoice is no draft: the policy leaves it out of a member's update.
		await asUser(w.owner.userId, (trx) => sql`update public.invoices set notes = 'changed' where id = ${first}`.execute(trx))
		const notes = await asSystem((trx) => sql`select notes from public.invoices where id = ${first}`.execute(trx))
		expect(notes.rows).toEqual([{ notes: null }])
		expect(await refusal(send(first, w.owner.userId))).toBe('invoice_not_draft')

		// The client renamed later: the invoice still says who it was sent to.
		await asSystem((trx) => trx.updateTable('clients').set({ name: 'Marta D. (renamed)' }).where('id', '=', w.clientId).execute())
		const billed = await asSystem((trx) => sql`select bill_to_name, bill_to_email from public.invoices where id = ${first}`.execute(trx))
		expect(billed.rows).toEqual([{ bill_to_name: 'Marta Díaz', bill_to_email: 'marta@example.com' }])
	})

	test('a refused send uses no number: without a client, without lines, without the module, or with a bad token', async () => {
		const w = await world()
		expect(await refusal(send(await draft(w, [], {}), w.owner.userId))).toBe('invoice_empty')
		expect(await refusal(send(await draft(w, undefined, { client_id: null }), w.owner.userId))).toBe('invoice_without_client')
		const ok = await draft(w)
		expect(await refusal(asUser(w.owner.userId, (trx) => sql`select public.send_invoice(${ok}, 'not-a-hash', 'x')`.execute(trx)))).toBe(
			'invalid_token',
		)
		expect(await send(ok, w.owner.userId)).toBe(1)

		const without = await world({ invoicing: false })
		expect(await refusal(send(await draft(without), without.owner.userId))).toBe('module_inactive')
	})

	test('another organization cannot read, send, void or add lines to it', async () => {
		const w = await world()
		const id = await draft(w)
		const stranger = await createUser('Stranger')
		const seen = await asUser(stranger.userId, (trx) => sql`select id from public.invoice_overview where id = ${id}`.execute(trx))
		expect(seen.rows).toEqual([])
		expect(await refusal(send(id, stranger.userId))).toBe('not_member')
		expect(await refusal(asUser(stranger.userId, (trx) => sql`select public.void_invoice(${id})`.execute(trx)))).toBe('not_member')
		expect(
			await refusal(
				asUser(stranger.userId, (trx) =>
					sql`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price)
						values (${w.owner.orgId}, ${id}, 3, 'Sneaky', 1, 1)`.execute(trx),
				),
			),
		).toBe('42501')
		// A member of any role works on the organization's invoices.
		const member = await createUser('Member')
		await addMember(w.owner.orgId, member.userId, 'member')
		expect(await send(id, member.userId)).toBe(1)
	})
})

describe('paid by the inflow', () => {
	test('payments with the code add up: partly paid, then paid, and an overpayment shows', async () => {
		const w = await world()
		const id = await draft(w, [['Tutoring', 4, 50]])
		await send(id, w.owner.userId)
		const code = (await overview(id, w.owner.userId)).memo_code!
		await pay(w, 80, `invoice ${code.toLowerCase()}`)
		expect(await overview(id, w.owner.userId)).toMatchObject({ state: 'partly_paid', amount_paid: '80.00', balance: '120.00' })
		const last = await pay(w, 150, `#${code}`)
		expect(await overview(id, w.owner.userId)).toMatchObject({ state: 'paid', amount_paid: '230.00', balance: '0.00', overpaid: '30.00' })
		// The payment took the invoice's client.
		const linked = await asSystem((trx) =>
			trx.selectFrom('transactions').select('client_id').where('id', '=', last.id).executeTakeFirstOrThrow(),
		)
		expect(linked.client_id).toBe(w.clientId)
	})

	test('the client paying the exact total without the code pays it; a payment already in pays it when sent', async () => {
		const w = await world()
		const later = await draft(w, [['Lesson', 1, 60]])
		await send(later, w.owner.userId)
		await pay(w, 60, 'thanks!', w.clientId)
		expect((await overview(later, w.owner.userId)).state).toBe('paid')

		const early = await pay(w, 75, 'for the repair', w.clientId)
		const before = await draft(w, [['Repair', 1, 75]])
		await send(before, w.owner.userId)
		expect(await overview(before, w.owner.userId)).toMatchObject({ state: 'paid', amount_paid: '75.00' })
		const match = await asSystem((trx) =>
			trx.selectFrom('payment_matches').select('method').where('transaction_id', '=', early.id).executeTakeFirstOrThrow(),
		)
		expect(match.method).toBe('payer_amount')
	})

	test('overdue after its due date in the organization’s zone; an undone payment makes it owed again; void only without payments', async () => {
		const w = await world()
		const id = await draft(w, [['Retainer', 1, 500]])
		await send(id, w.owner.userId)
		// Overdue: a draft dated in the past, then sent (a sent invoice's dates are frozen).
		const aged = await draft(w, [['Old work', 1, 90]])
		await asUser(w.owner.userId, (trx) =>
			sql`update public.invoices set issue_date = current_date - 30, due_date = current_date - 2 where id = ${aged}`.execute(trx),
		)
		await send(aged, w.owner.userId)
		expect((await overview(aged, w.owner.userId)).state).toBe('overdue')

		const code = (await overview(id, w.owner.userId)).memo_code!
		const payment = await pay(w, 500, code)
		expect((await overview(id, w.owner.userId)).state).toBe('paid')
		expect(await refusal(asUser(w.owner.userId, (trx) => sql`select public.void_invoice(${id})`.execute(trx)))).toBe('invoice_has_payments')
		const match = await asSystem((trx) =>
			trx.selectFrom('payment_matches').select('id').where('transaction_id', '=', payment.id).executeTakeFirstOrThrow(),
		)
		await asUser(w.owner.userId, (trx) => sql`select public.unmatch_payment(${match.id})`.execute(trx))
		expect(await overview(id, w.owner.userId)).toMatchObject({ state: 'sent', balance: '500.00' })
		await asUser(w.owner.userId, (trx) => sql`select public.void_invoice(${id})`.execute(trx))
		expect((await overview(id, w.owner.userId)).state).toBe('void')
		// Its code no longer pays anything.
		const again = await pay(w, 500, code)
		const matched = await asSystem((trx) => trx.selectFrom('payment_matches').select('id').where('transaction_id', '=', again.id).execute())
		expect(matched).toEqual([])
	})

	test('marked paid by hand counts the rest as received; a draft cannot be voided or marked paid', async () => {
		const w = await world()
		const id = await draft(w, [['Cleaning', 1, 120]])
		expect(await refusal(asUser(w.owner.userId, (trx) => sql`select public.void_invoice(${id})`.execute(trx)))).toBe('invoice_is_draft')
		expect(await refusal(asUser(w.owner.userId, (trx) => sql`select public.mark_invoice_paid(${id})`.execute(trx)))).toBe(
			'invoice_not_open',
		)
		await send(id, w.owner.userId)
		await pay(w, 20, (await overview(id, w.owner.userId)).memo_code!)
		await asUser(w.owner.userId, (trx) => sql`select public.mark_invoice_paid(${id})`.execute(trx))
		expect(await overview(id, w.owner.userId)).toMatchObject({ state: 'paid', amount_paid: '120.00', balance: '0.00' })
	})
})

/**
 * What the invoice received as stored on it (invoices.amount_paid, kept by triggers:
 * supabase/migrations/20261207500000_invoice_amount_received.sql), and the same recounted from its
 * matches as the view once summed them (the whole total when its expectation is paid by hand).
 */
async function received(id: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ stored: string; recounted: string }>`
			select i.amount_paid::text as stored,
				(case when e.status = 'paid' then greatest(i.total, m.amount) else m.amount end)::numeric(12, 2)::text as recounted
			from public.invoices i
			left join public.payment_expectations e on e.id = i.expectation_id
			cross join lateral (select coalesce(sum(x.amount), 0) as amount from public.payment_matches x
				where x.expectation_id = i.expectation_id) m
			where i.id = ${id}`.execute(trx),
	)
	return rows[0]!
}

/** The stored amount is `amount`, as recounted, and the view reads `state` from it. */
async function expectReceived(w: World, id: string, amount: string, state: string) {
	expect(await received(id)).toEqual({ stored: amount, recounted: amount })
	expect((await overview(id, w.owner.userId)).state).toBe(state)
}

async function sentInvoice(w: World, amount: number, client: string | null = w.clientId) {
	const id = await draft(w, [['Work', 1, amount]], { client_id: client })
	await send(id, w.owner.userId)
	return { id, code: (await overview(id, w.owner.userId)).memo_code!, expectation: await expectationOf(id) }
}

async function expectationOf(id: string) {
	const row = await asSystem((trx) => trx.selectFrom('invoices').select('expectation_id').where('id', '=', id).executeTakeFirstOrThrow())
	return row.expectation_id!
}

async function matchOf(transactionId: string) {
	const row = await asSystem((trx) =>
		trx.selectFrom('payment_matches').select('id').where('transaction_id', '=', transactionId).executeTakeFirstOrThrow(),
	)
	return row.id
}

describe('what an invoice received, stored on it', () => {
	test('follows the engine, parts and an overpayment, an undo, a link by hand, a changed match, a deleted payment and marked paid', async () => {
		const w = await world()
		const { id, code, expectation } = await sentInvoice(w, 200)
		await expectReceived(w, id, '0.00', 'sent')
		const part = await pay(w, 80, `invoice ${code}`)
		await expectReceived(w, id, '80.00', 'partly_paid')
		// A match's amount changed (as the database may): the invoice follows.
		await asSystem((trx) => trx.updateTable('payment_matches').set({ amount: 60 }).where('transaction_id', '=', part.id).execute())
		await expectReceived(w, id, '60.00', 'partly_paid')
		await asSystem((trx) => trx.updateTable('payment_matches').set({ amount: 80 }).where('transaction_id', '=', part.id).execute())
		await expectReceived(w, id, '80.00', 'partly_paid')
		const rest = await pay(w, 150, code)
		await expectReceived(w, id, '230.00', 'paid')
		expect((await overview(id, w.owner.userId)).overpaid).toBe('30.00')
		// Undone by a member: owed again; linked again by hand.
		const restMatch = await matchOf(rest.id)
		await asUser(w.owner.userId, (trx) => sql`select public.unmatch_payment(${restMatch})`.execute(trx))
		await expectReceived(w, id, '80.00', 'partly_paid')
		await asUser(w.owner.userId, (trx) => sql`select public.match_payment(${expectation}, ${rest.id})`.execute(trx))
		await expectReceived(w, id, '230.00', 'paid')
		// A payment's amount edited in the table: what the match counts stays as linked (the view's rule), and the stored amount with it.
		await asUser(w.owner.userId, (trx) => trx.updateTable('transactions').set({ amount: 90 }).where('id', '=', part.id).execute())
		await expectReceived(w, id, '230.00', 'paid')
		// The payment deleted from the table: owed again.
		await asUser(w.owner.userId, (trx) => trx.deleteFrom('transactions').where('id', '=', rest.id).execute())
		await expectReceived(w, id, '80.00', 'partly_paid')
		// Marked paid by hand: the whole total counts as received; nothing writes the column directly.
		await asUser(w.owner.userId, (trx) => sql`select public.mark_invoice_paid(${id})`.execute(trx))
		await expectReceived(w, id, '200.00', 'paid')
		expect(
			await refusal(asUser(w.owner.userId, (trx) => trx.updateTable('invoices').set({ amount_paid: 0 }).where('id', '=', id).execute())),
		).toBe('42501')
		await expectReceived(w, id, '200.00', 'paid')
		// The marking member's account gone: the invoice stays paid and received.
		await asSystem((trx) => sql`update public.payment_expectations set marked_paid_by = null where id = ${expectation}`.execute(trx))
		await expectReceived(w, id, '200.00', 'paid')
	})

	test('an imported payment with the code pays it; the import undone leaves it owed again', async () => {
		const w = await world()
		const { id, code } = await sentInvoice(w, 120)
		const file = [
			'Account Statement - (@owner) ,,,,,,,,,,,',
			'Account Activity,,,,,,,,,,,',
			',ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (fee),Beginning Balance,Disclaimer',
			`,3921234567890129001,${new Date().toISOString().slice(0, 19)},Payment,Complete,Invoice ${code},Marta Díaz,Owner,+ $45.00,,,`,
			`,3921234567890129002,${new Date().toISOString().slice(0, 19)},Payment,Complete,Lessons,Someone Else,Owner,+ $12.00,,,`,
		].join('\n')
		const imported = await importPayments({ organizationId: w.owner.orgId, userId: w.owner.userId, file, label: 'venmo.csv' })
		if (!imported.ok || imported.status !== 'committed') throw new Error('not committed')
		await expectReceived(w, id, '45.00', 'partly_paid')
		expect(await undoImport(w.owner.userId, imported.batch.batchId)).toEqual({ ok: true, removed: 2 })
		await expectReceived(w, id, '0.00', 'sent')
	})

	test('the invoices of one statement that pays several are each counted; a voided one has received nothing', async () => {
		const w = await world()
		const a = await sentInvoice(w, 50)
		const b = await sentInvoice(w, 70)
		const c = await sentInvoice(w, 30)
		await asUser(w.owner.userId, (trx) =>
			trx
				.insertInto('transactions')
				.values(
					[
						[20, a.code],
						[25, a.code],
						[70, b.code],
					].map(([amount, memo]) => ({
						organization_id: w.owner.orgId,
						amount: amount as number,
						description: `paid ${memo as string}`,
						date_received: new Date().toISOString().slice(0, 10),
						payment_method: 'Zelle',
					})),
				)
				.execute(),
		)
		await expectReceived(w, a.id, '45.00', 'partly_paid')
		await expectReceived(w, b.id, '70.00', 'paid')
		await asUser(w.owner.userId, (trx) => sql`select public.void_invoice(${c.id})`.execute(trx))
		await expectReceived(w, c.id, '0.00', 'void')
	})
})

describe.runIf(isDbTarget('pg'))('across instances', () => {
	test('twelve invoices sent from twelve connections at once get the numbers 1 to 12, each once', async () => {
		const w = await world()
		const ids = []
		for (let i = 0; i < 12; i++) ids.push(await draft(w, [[`Job ${i}`, 1, 10 + i]]))
		const numbers = await Promise.all(ids.map((id) => send(id, w.owner.userId)))
		expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1))
	})

	test('payments with the code and deleted payments of one invoice at once leave what it received exact', async () => {
		const w = await world()
		const { id, code } = await sentInvoice(w, 1000)
		const first = await Promise.all([10, 20, 30, 40].map((amount) => pay(w, amount, code)))
		await Promise.all([
			...first.map((t) => asUser(w.owner.userId, (trx) => trx.deleteFrom('transactions').where('id', '=', t.id).execute())),
			...[5, 6, 7, 8].map((amount) => pay(w, amount, code)),
		])
		await expectReceived(w, id, '26.00', 'partly_paid')
	})

	test('one invoice sent twice at once is sent once, with one number', async () => {
		const w = await world()
		const id = await draft(w)
		const results = await Promise.all([refusal(send(id, w.owner.userId)), refusal(send(id, w.owner.userId))])
		expect(results.sort()).toEqual([null, 'invoice_not_draft'].sort())
		expect(await send(await draft(w), w.owner.userId)).toBe(2)
	})
})
