/**
 * Invoices seen from the client's page and the dashboard (app/.server/invoices/overview.ts): a
 * client's page lists that client's invoices with their states and balances; the dashboard adds
 * what open invoices still owe (sent, partly paid, overdue) and what the overdue ones owe; both
 * only for a member who may use Invoicing, and never another organization's. On PGlite and on the
 * PostgreSQL server.
 */
import { createHash, randomBytes } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { dashboardInvoiceTotals, listClientInvoices } from '#app/.server/invoices/overview.ts'
import { addMember, createUser, type TestUser } from './fixtures.ts'

const INVOICING = 'b0000000-0000-4000-8000-000000000005'

type World = { owner: TestUser; marta: string; joao: string }

async function world({ invoicing = true } = {}): Promise<World> {
	const owner = await createUser('Overview Owner')
	return asSystem(async (trx) => {
		if (invoicing)
			await sql`insert into public.organization_modules (organization_id, module_id) values (${owner.orgId}, ${INVOICING})`.execute(trx)
		const client = async (name: string) =>
			(
				await trx
					.insertInto('clients')
					.values({ organization_id: owner.orgId, name, email: `${randomBytes(4).toString('hex')}@example.com`, status: 'active' })
					.returning('id')
					.executeTakeFirstOrThrow()
			).id
		return { owner, marta: await client('Marta Díaz'), joao: await client('João Araújo') }
	})
}

/** An invoice of `amount` for the client, issued `issuedDaysAgo` days ago and due `dueInDays` after today (negative: past); sent unless `draft`. */
async function invoice(w: World, clientId: string, amount: number, { dueInDays = 14, issuedDaysAgo = 0, draft = false } = {}) {
	return asUser(w.owner.userId, async (trx) => {
		const { rows } = await sql<{ id: string }>`
			insert into public.invoices (organization_id, client_id, created_by, issue_date, due_date)
			values (${w.owner.orgId}, ${clientId}, ${w.owner.userId}, current_date - ${issuedDaysAgo}::int, current_date + ${dueInDays}::int)
			returning id`.execute(trx)
		const id = rows[0]!.id
		await sql`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price)
			values (${w.owner.orgId}, ${id}, 0, 'Work', 1, ${amount})`.execute(trx)
		if (!draft) {
			const hash = createHash('sha256').update(randomBytes(16)).digest('hex')
			await sql`select public.send_invoice(${id}, ${hash}, null)`.execute(trx)
		}
		return id
	})
}

/** A payment carrying the invoice's memo code, which the engine links to it. */
async function payPart(w: World, invoiceId: string, amount: number) {
	const { rows } = await asSystem((trx) =>
		sql<{ memo_code: string }>`select e.memo_code from public.payment_expectations e where e.invoice_id = ${invoiceId}`.execute(trx),
	)
	await asUser(w.owner.userId, (trx) =>
		trx
			.insertInto('transactions')
			.values({
				organization_id: w.owner.orgId,
				amount,
				description: `Invoice ${rows[0]!.memo_code}`,
				date_received: new Date().toISOString().slice(0, 10),
				payment_method: 'Venmo',
			})
			.execute(),
	)
}

describe("the client's page", () => {
	test("lists that client's invoices, latest first, with number, due date, total, balance and state", async () => {
		const w = await world()
		const sent = await invoice(w, w.marta, 300)
		const draft = await invoice(w, w.marta, 120, { draft: true })
		await invoice(w, w.joao, 999)
		await payPart(w, sent, 100)
		const listed = await listClientInvoices(w.owner.userId, w.owner.orgId, 'owner', w.marta)
		expect(listed).toEqual({
			total: 2,
			rows: [
				expect.objectContaining({ id: draft, number: null, state: 'draft', total: '120.00', balance: '120.00' }),
				expect.objectContaining({ id: sent, number: 1, state: 'partly_paid', total: '300.00', balance: '200.00' }),
			],
		})
	})

	test('shows nothing without the Invoicing module, to a role below its visibility, or to another organization', async () => {
		const without = await world({ invoicing: false })
		expect(await listClientInvoices(without.owner.userId, without.owner.orgId, 'owner', without.marta)).toBeNull()

		const w = await world()
		await invoice(w, w.marta, 300)
		const member = await createUser('Plain Member')
		await addMember(w.owner.orgId, member.userId, 'member')
		await asSystem((trx) =>
			sql`update public.organization_modules set default_visibility = 'owner' where organization_id = ${w.owner.orgId} and module_id = ${INVOICING}`.execute(
				trx,
			),
		)
		expect(await listClientInvoices(member.userId, w.owner.orgId, 'member', w.marta)).toBeNull()
		expect(await dashboardInvoiceTotals(member.userId, w.owner.orgId, 'member')).toBeNull()

		const stranger = await createUser('Stranger')
		expect(await listClientInvoices(stranger.userId, w.owner.orgId, 'owner', w.marta)).toBeNull()
		expect(await dashboardInvoiceTotals(stranger.userId, w.owner.orgId, 'owner')).toBeNull()
	})
})

describe('the dashboard', () => {
	test('adds what open invoices still owe and what the overdue ones owe; drafts, paid and void ones count for nothing', async () => {
		const w = await world()
		expect(await dashboardInvoiceTotals(w.owner.userId, w.owner.orgId, 'owner')).toEqual({
			open: { amount: '0', count: 0 },
			overdue: { amount: '0', count: 0 },
		})
		await invoice(w, w.marta, 300) // sent: 300 open
		const partly = await invoice(w, w.joao, 200)
		await payPart(w, partly, 50) // partly paid: 150 open
		await invoice(w, w.marta, 80, { issuedDaysAgo: 30, dueInDays: -3 }) // overdue: 80
		const latePartly = await invoice(w, w.joao, 60, { issuedDaysAgo: 30, dueInDays: -1 })
		await payPart(w, latePartly, 10) // overdue, partly paid: 50
		const paid = await invoice(w, w.marta, 40)
		await payPart(w, paid, 40)
		await invoice(w, w.marta, 500, { draft: true })
		const voided = await invoice(w, w.joao, 700)
		await asUser(w.owner.userId, (trx) => sql`select public.void_invoice(${voided})`.execute(trx))

		const totals = await dashboardInvoiceTotals(w.owner.userId, w.owner.orgId, 'owner')
		expect(totals).toEqual({ open: { amount: '580.00', count: 4 }, overdue: { amount: '130.00', count: 2 } })
		// The same figures as the view's states, read one invoice at a time.
		const { rows } = await asUser(w.owner.userId, (trx) =>
			sql<{
				state: string
				balance: string
			}>`select state, balance::text from public.invoice_overview where organization_id = ${w.owner.orgId}`.execute(trx),
		)
		const open = rows.filter((r) => ['sent', 'partly_paid', 'overdue'].includes(r.state))
		expect(open.reduce((sum, r) => sum + Number(r.balance), 0)).toBe(580)
	})
})
