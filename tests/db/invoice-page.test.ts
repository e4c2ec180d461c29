/**
 * Sending an invoice from the app's side and reading its public page by the link's token
 * (app/.server/invoices, docs/decisions/042-invoices-on-the-engine.md): the token is only in the
 * link (the database keeps its hash and a sealed copy staff can open), the page shows the invoice
 * as sent with its lines, its code and where to pay, follows payments and voiding, and answers
 * nothing to a wrong token. On PGlite and on the PostgreSQL server.
 */
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { getPublicInvoice } from '#app/.server/invoices/public-page.ts'
import { invoicePageToken, sendInvoice } from '#app/.server/invoices/sending.ts'
import { savePaymentHandles } from '#app/.server/payments/handles.ts'
import { createUser, type TestUser } from './fixtures.ts'

process.env.SECRETS_KEY ??= 'db-test-secrets-key-of-at-least-32-characters'

const INVOICING = 'b0000000-0000-4000-8000-000000000005'

async function world() {
	const owner = await createUser('Page Owner')
	await asSystem((trx) =>
		sql`insert into public.organization_modules (organization_id, module_id) values (${owner.orgId}, ${INVOICING})`.execute(trx),
	)
	expect(
		await savePaymentHandles(owner.userId, owner.orgId, { zelle: 'pay@studio.example', venmo: 'Studio-Nine', cashapp: null, paypal: null }),
	).toBe(true)
	const client = await asSystem((trx) =>
		trx
			.insertInto('clients')
			.values({ organization_id: owner.orgId, name: 'João Araújo', email: 'joao@example.com', status: 'active' })
			.returning('id')
			.executeTakeFirstOrThrow(),
	)
	const invoiceId = await asUser(owner.userId, async (trx) => {
		const invoice = await trx
			.insertInto('invoices')
			.values({ organization_id: owner.orgId, client_id: client.id, language: 'pt-BR', notes: 'Obrigado!', tax_rate: 10 })
			.returning('id')
			.executeTakeFirstOrThrow()
		await trx
			.insertInto('invoice_lines')
			.values([
				{ organization_id: owner.orgId, invoice_id: invoice.id, position: 1, description: 'Aula de violão', quantity: 4, unit_price: 45 },
				{ organization_id: owner.orgId, invoice_id: invoice.id, position: 0, description: 'Matrícula', quantity: 1, unit_price: 20 },
			])
			.execute()
		return invoice.id
	})
	return { owner, invoiceId }
}

async function payWithCode(owner: TestUser, amount: number, code: string) {
	await asUser(owner.userId, (trx) =>
		trx
			.insertInto('transactions')
			.values({
				organization_id: owner.orgId,
				amount,
				description: `pagamento ${code}`,
				date_received: new Date().toISOString().slice(0, 10),
			})
			.execute(),
	)
}

describe('an invoice’s public page', () => {
	test('sent, its link shows the invoice as sent: lines in order, totals, the code and where to pay', async () => {
		const { owner, invoiceId } = await world()
		const sent = await sendInvoice(owner.userId, owner.orgId, invoiceId)
		if (!sent.ok) throw new Error(sent.code)
		expect(sent.number).toBe(1)
		expect(sent.token).toMatch(/^[0-9a-f]{64}$/)

		const page = await getPublicInvoice(sent.token)
		expect(page).toMatchObject({
			number: 1,
			state: 'sent',
			language: 'pt-BR',
			billTo: 'João Araújo',
			notes: 'Obrigado!',
			subtotal: '200.00',
			taxRate: '10',
			total: '220.00',
			balance: '220.00',
			handles: { zelle: 'pay@studio.example', venmo: 'Studio-Nine', cashapp: null, paypal: null },
		})
		expect(page!.lines.map((l) => [l.description, l.quantity, l.unitPrice, l.amount])).toEqual([
			['Matrícula', '1', '20.00', '20.00'],
			['Aula de violão', '4', '45.00', '180.00'],
		])
		expect(page!.code).toMatch(/^[2-9A-HJKMNP-TW-Z]{6}$/)

		// The database holds no copy of the token in the clear; staff open the sealed one.
		const stored = await asSystem((trx) => sql`select public_token_hash from public.invoices where id = ${invoiceId}`.execute(trx))
		expect(JSON.stringify(stored.rows)).not.toContain(sent.token)
		expect(await invoicePageToken(owner.userId, owner.orgId, invoiceId)).toBe(sent.token)

		// A part payment with the code: the page shows what was received and what is left.
		await payWithCode(owner, 100, page!.code!)
		expect(await getPublicInvoice(sent.token)).toMatchObject({ state: 'partly_paid', amountPaid: '100.00', balance: '120.00' })
		await payWithCode(owner, 120, page!.code!)
		expect(await getPublicInvoice(sent.token)).toMatchObject({ state: 'paid', balance: '0.00', code: null })
	})

	test('a wrong, malformed or draft token shows nothing; a voided invoice says so, with no code to pay', async () => {
		const { owner, invoiceId } = await world()
		for (const token of ['', 'x'.repeat(64), 'A'.repeat(64), '0'.repeat(64), `${'a'.repeat(63)}'`])
			expect(await getPublicInvoice(token)).toBeNull()
		expect(await invoicePageToken(owner.userId, owner.orgId, invoiceId)).toBeNull()

		const sent = await sendInvoice(owner.userId, owner.orgId, invoiceId)
		if (!sent.ok) throw new Error(sent.code)
		await asUser(owner.userId, (trx) => sql`select public.void_invoice(${invoiceId})`.execute(trx))
		expect(await getPublicInvoice(sent.token)).toMatchObject({ state: 'void', code: null })
	})

	test('sending is refused with a code the screen explains: twice, empty, or an invoice of another organization', async () => {
		const { owner, invoiceId } = await world()
		const other = await createUser('Other Org')
		expect(await sendInvoice(other.userId, other.orgId, invoiceId)).toEqual({ ok: false, code: 'not_found' })
		// Even the same user, acting in another organization of theirs, does not reach it.
		expect(await sendInvoice(owner.userId, other.orgId, invoiceId)).toEqual({ ok: false, code: 'not_found' })
		expect((await sendInvoice(owner.userId, owner.orgId, invoiceId)).ok).toBe(true)
		expect(await sendInvoice(owner.userId, owner.orgId, invoiceId)).toEqual({ ok: false, code: 'invoice_not_draft' })
		const empty = await asUser(owner.userId, (trx) =>
			trx.insertInto('invoices').values({ organization_id: owner.orgId }).returning('id').executeTakeFirstOrThrow(),
		)
		expect(await sendInvoice(owner.userId, owner.orgId, empty.id)).toEqual({ ok: false, code: 'invoice_without_client' })
	})
})
