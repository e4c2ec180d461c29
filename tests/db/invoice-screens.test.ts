/**
 * The invoice screens' services (docs/product.md, Invoicing): the list's state filter says what
 * the overview says, searches by number and client, pages newest first, and shows no other
 * organization's invoice; the draft form saves what was typed (amounts as the page's language
 * writes them) with the database's totals, refuses a wrong field or a stale or sent draft while
 * changing nothing; linking and unlinking by hand go through the engine's functions (an undone
 * link is never made again by the engine); sending from the form numbers the invoice and mails
 * the client once. On PGlite and on the PostgreSQL server.
 */
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { deleteDraft, getInvoice, submitDraftForm, type DraftSubmission } from '#app/.server/invoices/drafts.ts'
import {
	linkInvoicePayment,
	listInvoicePayments,
	listLinkablePayments,
	markInvoicePaid,
	unlinkInvoicePayment,
	voidInvoice,
} from '#app/.server/invoices/links.ts'
import { invoicingAccess, listInvoices } from '#app/.server/invoices/list.ts'
import { sendInvoice } from '#app/.server/invoices/sending.ts'
import { INVOICE_STATES, invoiceTotals } from '#app/lib/invoices.ts'
import { MODULES } from '#app/lib/modules.ts'
import { addMember, createUser, isDbTarget, type TestUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()
process.env.SECRETS_KEY ??= 'invoice-screens-secrets-key-of-32-characters'

type World = { owner: TestUser; clientId: string; email: string }

const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2)}@client.example`

async function world({ invoicing = true, clientName = 'Marta Díaz', email = uniqueEmail('marta') } = {}): Promise<World> {
	const owner = await createUser('Invoice Screens Owner')
	if (invoicing) await activate(owner.orgId)
	const client = await addClient(owner.orgId, clientName, email)
	return { owner, clientId: client, email }
}

async function activate(orgId: string, visibility = 'any') {
	await asSystem((trx) =>
		sql`insert into public.organization_modules (organization_id, module_id, default_visibility)
			values (${orgId}, ${MODULES.invoicing.id}, ${visibility})`.execute(trx),
	)
}

async function addClient(orgId: string, name: string, email: string | null) {
	const row = await asSystem((trx) =>
		trx.insertInto('clients').values({ organization_id: orgId, name, email, status: 'active' }).returning('id').executeTakeFirstOrThrow(),
	)
	return row.id
}

/** The draft form as a browser posts it. */
function form(values: Record<string, string>, lines: Array<[string, string, string]> = [['Design work', '10', '85']]) {
	const data = new FormData()
	for (const [k, v] of Object.entries({ intent: 'save', language: 'en', issueDate: today(), dueDate: today(14), ...values })) data.set(k, v)
	lines.forEach(([description, quantity, unitPrice], i) => {
		data.set(`lines[${i}].description`, description)
		data.set(`lines[${i}].quantity`, quantity)
		data.set(`lines[${i}].unitPrice`, unitPrice)
	})
	return data
}

function today(days = 0) {
	return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
}

/** A draft saved through the form; its id. */
async function draft(w: World, values: Record<string, string> = {}, lines?: Array<[string, string, string]>) {
	const outcome = await submitDraftForm(w.owner.userId, w.owner.orgId, null, form({ client: 'Marta Díaz', ...values }, lines), 'en')
	if (outcome.kind !== 'saved') throw new Error(`not saved: ${JSON.stringify(outcome)}`)
	return outcome.id
}

async function sent(w: World, lines: Array<[string, string, string]> = [['Work', '1', '100']], values: Record<string, string> = {}) {
	const id = await draft(w, values, lines)
	const result = await sendInvoice(w.owner.userId, w.owner.orgId, id)
	if (!result.ok) throw new Error(result.code)
	return id
}

async function pay(w: World, amount: number, description: string | null, clientId: string | null = null) {
	const row = await asUser(w.owner.userId, (trx) =>
		trx
			.insertInto('transactions')
			.values({ organization_id: w.owner.orgId, amount, description, client_id: clientId, date_received: today(), payment_method: 'Venmo' })
			.returning('id')
			.executeTakeFirstOrThrow(),
	)
	return row.id
}

const code = async (w: World, id: string) => (await getInvoice(w.owner.userId, w.owner.orgId, id))!.memoCode!

/** The values a reply gives back to the form (what was typed, after a list intent). */
const typedBack = (outcome: DraftSubmission) =>
	(outcome.kind === 'reply' ? outcome.result.initialValue : null) as { lines?: unknown[]; client?: string } | null

describe('the list', () => {
	test('each state filter lists exactly the invoices the overview says are in that state, newest first', async () => {
		const w = await world()
		const drafted = await draft(w)
		const open = await sent(w)
		const part = await sent(w, [['Part', '1', '200']])
		await pay(w, 50, `inv ${await code(w, part)}`)
		const paid = await sent(w, [['Full', '2', '40']])
		await pay(w, 80, await code(w, paid))
		const byHand = await sent(w, [['Cash', '1', '30']])
		await markInvoicePaid(w.owner.userId, w.owner.orgId, byHand)
		const late = await sent(w, [['Late', '1', '70']], { issueDate: today(-40), dueDate: today(-10) })
		const lateAndPart = await sent(w, [['Late part', '1', '90']], { issueDate: today(-40), dueDate: today(-3) })
		await pay(w, 10, await code(w, lateAndPart))
		const voided = await sent(w, [['Void', '1', '10']])
		await voidInvoice(w.owner.userId, w.owner.orgId, voided)

		const overview = await asUser(w.owner.userId, (trx) =>
			sql<{ id: string; state: string }>`select id, state from public.invoice_overview where organization_id = ${w.owner.orgId}
				order by created_at desc, id desc`.execute(trx),
		)
		expect(Object.fromEntries(overview.rows.map((r) => [r.id, r.state]))).toEqual({
			[drafted]: 'draft',
			[open]: 'sent',
			[part]: 'partly_paid',
			[paid]: 'paid',
			[byHand]: 'paid',
			[late]: 'overdue',
			[lateAndPart]: 'overdue',
			[voided]: 'void',
		})
		for (const state of INVOICE_STATES) {
			const page = await listInvoices(w.owner.userId, w.owner.orgId, { state })
			expect(
				page.rows.map((r) => r.id),
				state,
			).toEqual(overview.rows.filter((r) => r.state === state).map((r) => r.id))
			expect(page.total, state).toBe(page.rows.length)
			for (const row of page.rows) expect(row.state).toBe(state)
		}
		// Open (the dashboard's link): every invoice still owed, whatever its state among sent, partly paid and overdue.
		const owed = await listInvoices(w.owner.userId, w.owner.orgId, { state: 'open' })
		expect(owed.state).toBe('open')
		expect(owed.rows.map((r) => r.id)).toEqual(
			overview.rows.filter((r) => ['sent', 'partly_paid', 'overdue'].includes(r.state)).map((r) => r.id),
		)
		expect(owed.total).toBe(4)
		const all = await listInvoices(w.owner.userId, w.owner.orgId, { state: 'no-such-state' })
		expect(all).toMatchObject({ state: null, total: 8 })
		expect(all.rows.map((r) => r.id)).toEqual(overview.rows.map((r) => r.id))
		// What a row shows: the view's figures; a draft has no number.
		expect(all.rows.find((r) => r.id === part)).toMatchObject({ total: '200.00', balance: '150.00', clientName: 'Marta Díaz' })
		expect(all.rows.find((r) => r.id === drafted)).toMatchObject({ number: null, state: 'draft' })
	})

	test('a search finds by number, by client name blind to case and accents, and by the name billed once the client is gone', async () => {
		const w = await world({ clientName: 'Marta Díaz' })
		const other = await addClient(w.owner.orgId, 'João Pereira', uniqueEmail('joao'))
		const first = await sent(w)
		const second = await sent(w, undefined, { client: 'João Pereira' })
		await draft(w, { client: 'João Pereira' })
		const ids = async (q: string) => (await listInvoices(w.owner.userId, w.owner.orgId, { q })).rows.map((r) => r.id)
		const number = (await getInvoice(w.owner.userId, w.owner.orgId, second))!.number!
		expect(await ids(String(number))).toEqual([second])
		expect(await ids(`#${number}`)).toEqual([second])
		expect(await ids('marta diaz')).toEqual([first])
		expect((await ids('JOAO')).length).toBe(2)
		expect(await ids('nobody at all')).toEqual([])
		// The client deleted: the sent invoice keeps who it was billed to, and is still found by it.
		await asSystem((trx) => trx.deleteFrom('clients').where('id', '=', other).execute())
		expect(await ids('joão')).toEqual([second])
	})

	test('pages newest first with the total; another organization’s invoices are not listed, read or changed', async () => {
		const w = await world()
		const made: string[] = []
		for (let i = 0; i < 3; i++) made.push(await draft(w, {}, [[`Job ${i}`, '1', String(10 + i)]]))
		const one = await listInvoices(w.owner.userId, w.owner.orgId, { pageSize: 2 })
		expect(one).toMatchObject({ total: 3, totalCapped: false, page: 1 })
		expect(one.rows.map((r) => r.id)).toEqual([made[2], made[1]])
		const two = await listInvoices(w.owner.userId, w.owner.orgId, { pageSize: 2, page: 2 })
		expect(two.rows.map((r) => r.id)).toEqual([made[0]])

		const stranger = await world()
		expect((await listInvoices(stranger.owner.userId, stranger.owner.orgId)).total).toBe(0)
		// Naming the other organization is not enough: the member's rows are read under RLS.
		expect((await listInvoices(stranger.owner.userId, w.owner.orgId)).total).toBe(0)
		expect(await getInvoice(stranger.owner.userId, stranger.owner.orgId, made[0]!)).toBeNull()
		expect(await getInvoice(stranger.owner.userId, w.owner.orgId, made[0]!)).toBeNull()
		expect(await deleteDraft(stranger.owner.userId, stranger.owner.orgId, made[0]!)).toEqual({ ok: false, code: 'not_found' })
		const edit = await submitDraftForm(stranger.owner.userId, stranger.owner.orgId, made[0]!, form({}), 'en')
		expect(edit).toMatchObject({ kind: 'reply', status: 404, refusal: 'not_found' })
		expect((await listInvoices(w.owner.userId, w.owner.orgId)).total).toBe(3)
	})

	test('Invoicing is usable when active and seen by the member’s role, hidden above it, inactive without it', async () => {
		const w = await world({ invoicing: false })
		expect(await invoicingAccess(w.owner.userId, w.owner.orgId, 'owner')).toBe('inactive')
		await activate(w.owner.orgId, 'administrator')
		const member = await createUser('Plain Member')
		await addMember(w.owner.orgId, member.userId, 'member')
		expect(await invoicingAccess(w.owner.userId, w.owner.orgId, 'owner')).toBe('usable')
		expect(await invoicingAccess(member.userId, w.owner.orgId, 'member')).toBe('hidden')
	})
})

describe('the draft form', () => {
	test('saves what was typed, amounts as the page’s language writes them, with the totals the preview showed', async () => {
		const w = await world()
		const lines: Array<[string, string, string]> = [
			['Diseño', '2,5', '1.234,50'],
			['Alojamiento', '3', '12,99'],
		]
		const outcome = await submitDraftForm(
			w.owner.userId,
			w.owner.orgId,
			null,
			form({ client: 'marta díaz', language: 'es', discount: '100,05', taxRate: '8,25', notes: 'Gracias\npor todo' }, lines),
			'es',
		)
		expect(outcome.kind).toBe('saved')
		const invoice = (await getInvoice(w.owner.userId, w.owner.orgId, (outcome as { id: string }).id))!
		const preview = invoiceTotals({
			lines: [
				{ quantity: '2.5', unitPrice: '1234.50' },
				{ quantity: '3', unitPrice: '12.99' },
			],
			discount: '100.05',
			taxRate: '8.25',
		})
		// 2.5 × 1,234.50 = 3,086.25; 3 × 12.99 = 38.97; less 100.05 = 3,025.17; plus 8.25 % = 3,274.75 (3,274.746…).
		expect(preview).toMatchObject({ subtotal: '3125.22', total: '3274.75', tax: '249.58' })
		expect(invoice).toMatchObject({
			state: 'draft',
			clientId: w.clientId,
			language: 'es',
			subtotal: preview.subtotal,
			discount: '100.05',
			taxRate: '8.25',
			total: preview.total,
			tax: preview.tax,
			notes: 'Gracias\npor todo',
		})
		expect(invoice.lines).toEqual([
			{ description: 'Diseño', quantity: '2.5', unitPrice: '1234.50', amount: '3086.25' },
			{ description: 'Alojamiento', quantity: '3', unitPrice: '12.99', amount: '38.97' },
		])

		// Saved again with one line fewer and no discount: the lines are the form's, in its order.
		const again = await submitDraftForm(
			w.owner.userId,
			w.owner.orgId,
			invoice.id,
			form({ client: 'Marta Díaz', version: invoice.version }, [['Only line', '1', '50']]),
			'en',
		)
		expect(again).toEqual({ kind: 'saved', id: invoice.id })
		expect(await getInvoice(w.owner.userId, w.owner.orgId, invoice.id)).toMatchObject({
			total: '50.00',
			discount: '0.00',
			lines: [{ description: 'Only line', quantity: '1', unitPrice: '50.00', amount: '50.00' }],
		})
	})

	test('the preview’s totals are the database’s to the cent, halves and all, for any figures', async () => {
		const w = await world()
		type Case = { lines: Array<{ quantity: string; unitPrice: string }>; discount: string; taxRate: string }
		// Half cents first (a line of 0.005, a tax of 0.005: both round up), then a fixed
		// pseudo-random walk (the same cases every run): quantities of up to 3 decimals, prices,
		// discounts and tax rates of 2.
		const cases: Case[] = [
			{ lines: [{ quantity: '0.5', unitPrice: '0.01' }], discount: '0', taxRate: '0' },
			{ lines: [{ quantity: '1.5', unitPrice: '0.03' }], discount: '0', taxRate: '0' },
			{ lines: [{ quantity: '1', unitPrice: '0.10' }], discount: '0', taxRate: '5' },
			{ lines: [{ quantity: '3', unitPrice: '10.00' }], discount: '9.90', taxRate: '12.5' },
		]
		let seed = 50
		const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n
		for (let round = 0; round < 16; round++) {
			const lines = Array.from({ length: 1 + next(3) }, () => ({
				quantity: (1 + next(5000) / 1000).toFixed(3),
				unitPrice: (next(100000) / 100).toFixed(2),
			}))
			const { subtotal } = invoiceTotals({ lines, discount: '0', taxRate: '0' })
			cases.push({
				lines,
				discount: (next(Number(subtotal.replace('.', '')) + 1) / 100).toFixed(2),
				taxRate: (next(2000) / 100).toFixed(2),
			})
		}
		for (const { lines, discount, taxRate } of cases) {
			const expected = invoiceTotals({ lines, discount, taxRate })
			const id = await asUser(w.owner.userId, async (trx) => {
				const { rows } = await sql<{ id: string }>`insert into public.invoices (organization_id, created_by, tax_rate)
					values (${w.owner.orgId}, ${w.owner.userId}, ${taxRate}) returning id`.execute(trx)
				for (const [position, line] of lines.entries())
					await sql`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price)
						values (${w.owner.orgId}, ${rows[0]!.id}, ${position}, 'Line', ${line.quantity}, ${line.unitPrice})`.execute(trx)
				await sql`update public.invoices set discount = ${discount} where id = ${rows[0]!.id}`.execute(trx)
				return rows[0]!.id
			})
			const saved = (await getInvoice(w.owner.userId, w.owner.orgId, id))!
			expect(
				{ subtotal: saved.subtotal, total: saved.total, tax: saved.tax, lines: saved.lines.map((l) => l.amount) },
				JSON.stringify({ lines, discount, taxRate }),
			).toEqual({ subtotal: expected.subtotal, total: expected.total, tax: expected.tax, lines: expected.lines })
		}
	})

	test('a wrong field is answered under it and saves nothing', async () => {
		const w = await world()
		const count = async () => (await listInvoices(w.owner.userId, w.owner.orgId)).total
		const cases: Array<[Record<string, string>, Array<[string, string, string]>, string, string]> = [
			[{ client: 'Nobody Known' }, [['Work', '1', '10']], 'client', 'clientNotFound'],
			[{ dueDate: today(-1) }, [['Work', '1', '10']], 'dueDate', 'dueBeforeIssue'],
			[{ discount: '11' }, [['Work', '1', '10']], 'discount', 'discountTooLarge'],
			[{ taxRate: '101' }, [['Work', '1', '10']], 'taxRate', 'taxTooLarge'],
			[{}, [['Work', '0', '10']], 'lines[0].quantity', 'quantityPositive'],
			[{}, [['Work', '1.2345', '10']], 'lines[0].quantity', 'quantityDecimals'],
			[{}, [['', '1', '10']], 'lines[0].description', 'descriptionRequired'],
			[{}, [['Work', '1', '10.999']], 'lines[0].unitPrice', 'amountDecimals'],
			[{}, [['Work', '1', '20000000']], 'lines[0].unitPrice', 'amountTooLarge'],
			[{}, [['', '1', '']], 'lines', 'linesRequired'],
			[{ language: 'fr' }, [['Work', '1', '10']], 'language', 'languageInvalid'],
			[{ notes: 'bad\u0007bell' }, [['Work', '1', '10']], 'notes', 'controlCharactersInText'],
		]
		for (const [values, lines, field, message] of cases) {
			const outcome = await submitDraftForm(w.owner.userId, w.owner.orgId, null, form({ client: 'Marta Díaz', ...values }, lines), 'en')
			expect(outcome.kind, message).toBe('reply')
			if (outcome.kind !== 'reply') continue
			expect(outcome.status, message).toBe(400)
			expect(outcome.result.error?.[field], message).toEqual([message])
			// What was typed comes back to the form.
			expect(outcome.result.initialValue, message).toMatchObject({ language: values.language ?? 'en' })
		}
		expect(await count()).toBe(0)
		// Namesakes: the name alone is ambiguous; "Name <email>" (the suggestion) picks one.
		await addClient(w.owner.orgId, 'Marta Díaz', 'other-marta@client.example')
		const ambiguous = await submitDraftForm(w.owner.userId, w.owner.orgId, null, form({ client: 'Marta Díaz' }), 'en')
		expect(ambiguous.kind === 'reply' && ambiguous.result.error?.client).toEqual(['clientAmbiguous'])
		const picked = await submitDraftForm(w.owner.userId, w.owner.orgId, null, form({ client: `Marta Díaz <${w.email}>` }), 'en')
		expect(picked.kind).toBe('saved')
		expect((await getInvoice(w.owner.userId, w.owner.orgId, (picked as { id: string }).id))!.clientId).toBe(w.clientId)
		expect(await count()).toBe(1)
	})

	test('"Add a line" and a line’s remove answer the form with the typed values and save nothing', async () => {
		const w = await world()
		const data = form({ client: 'Marta Díaz' }, [['Typed line', '3', '45']])
		data.set(
			'__intent__',
			JSON.stringify({ type: 'insert', payload: { name: 'lines', defaultValue: { description: '', quantity: '1', unitPrice: '' } } }),
		)
		data.delete('intent')
		const outcome = await submitDraftForm(w.owner.userId, w.owner.orgId, null, data, 'en')
		expect(outcome).toMatchObject({ kind: 'reply', status: 200 })
		const value = typedBack(outcome)
		expect(value?.client).toBe('Marta Díaz')
		// The new line has its quantity of 1 (conform leaves the empty fields out).
		expect(value?.lines).toEqual([{ description: 'Typed line', quantity: '3', unitPrice: '45' }, { quantity: '1' }])

		const two = form({ client: 'Marta Díaz' }, [
			['First', '1', '10'],
			['Second', '2', '20'],
		])
		two.set('__intent__', JSON.stringify({ type: 'remove', payload: { name: 'lines', index: 0 } }))
		two.delete('intent')
		const removed = await submitDraftForm(w.owner.userId, w.owner.orgId, null, two, 'en')
		expect(removed).toMatchObject({ kind: 'reply', status: 200 })
		expect(typedBack(removed)?.lines).toEqual([{ description: 'Second', quantity: '2', unitPrice: '20' }])
		expect((await listInvoices(w.owner.userId, w.owner.orgId)).total).toBe(0)
	})

	test('a draft saved by someone else since the form was loaded, or sent meanwhile, is not overwritten', async () => {
		const w = await world()
		const id = await draft(w)
		const loaded = (await getInvoice(w.owner.userId, w.owner.orgId, id))!
		const member = await createUser('Colleague')
		await addMember(w.owner.orgId, member.userId, 'member')
		const theirs = await submitDraftForm(
			member.userId,
			w.owner.orgId,
			id,
			form({ client: 'Marta Díaz', version: loaded.version, notes: 'Theirs' }),
			'en',
		)
		expect(theirs.kind).toBe('saved')
		const mine = await submitDraftForm(
			w.owner.userId,
			w.owner.orgId,
			id,
			form({ client: 'Marta Díaz', version: loaded.version, notes: 'Mine' }),
			'en',
		)
		expect(mine).toMatchObject({ kind: 'reply', status: 409, refusal: 'stale' })
		expect((await getInvoice(w.owner.userId, w.owner.orgId, id))!.notes).toBe('Theirs')

		await sendInvoice(w.owner.userId, w.owner.orgId, id)
		const late = await submitDraftForm(w.owner.userId, w.owner.orgId, id, form({ client: 'Marta Díaz', notes: 'Too late' }), 'en')
		expect(late).toMatchObject({ kind: 'reply', status: 409, refusal: 'not_draft' })
		expect(await deleteDraft(w.owner.userId, w.owner.orgId, id)).toEqual({ ok: false, code: 'not_draft' })
		expect((await getInvoice(w.owner.userId, w.owner.orgId, id))!).toMatchObject({ notes: 'Theirs', state: 'sent' })
	})

	test('save and send numbers the invoice and mails the client once; without an e-mail it is sent, not mailed; a refused send keeps the draft', async () => {
		const w = await world()
		const outcome = await submitDraftForm(w.owner.userId, w.owner.orgId, null, form({ client: 'Marta Díaz', intent: 'send' }), 'en')
		expect(outcome).toMatchObject({ kind: 'sent', number: 1, mailed: true, email: w.email })
		await drainMail()
		const mails = await mailsTo(w.email)
		expect(mails).toHaveLength(1)
		expect(mails[0]!.text).toContain(await code(w, (outcome as { id: string }).id))

		await addClient(w.owner.orgId, 'No Mail Client', null)
		const silent = await submitDraftForm(w.owner.userId, w.owner.orgId, null, form({ client: 'No Mail Client', intent: 'send' }), 'en')
		expect(silent).toMatchObject({ kind: 'sent', number: 2, mailed: false, email: null })

		const noClient = await submitDraftForm(w.owner.userId, w.owner.orgId, null, form({ client: '', intent: 'send' }), 'en')
		expect(noClient).toMatchObject({ kind: 'sendRefused', code: 'invoice_without_client' })
		expect((await getInvoice(w.owner.userId, w.owner.orgId, (noClient as { id: string }).id))!.state).toBe('draft')
		// The refused send used no number.
		const next = await submitDraftForm(w.owner.userId, w.owner.orgId, null, form({ client: 'Marta Díaz', intent: 'send' }), 'en')
		expect(next).toMatchObject({ kind: 'sent', number: 3 })
	})

	test('a draft is deleted; the number sequence does not notice', async () => {
		const w = await world()
		const id = await draft(w)
		expect(await deleteDraft(w.owner.userId, w.owner.orgId, id)).toEqual({ ok: true, value: id })
		expect(await getInvoice(w.owner.userId, w.owner.orgId, id)).toBeNull()
		expect(await deleteDraft(w.owner.userId, w.owner.orgId, id)).toEqual({ ok: false, code: 'not_found' })
		const sentId = await sent(w)
		expect((await getInvoice(w.owner.userId, w.owner.orgId, sentId))!.number).toBe(1)
	})
})

describe('payments by hand', () => {
	test('a payment linked by hand shows how; undone, it is free again and the engine never links it back', async () => {
		const w = await world()
		const id = await sent(w, [['Lesson', '1', '120']])
		const invoiceCode = await code(w, id)
		const stray = await pay(w, 120, 'lesson payment, no code')
		expect((await listLinkablePayments(w.owner.userId, w.owner.orgId, id, null)).map((p) => p.id)).toContain(stray)
		expect((await listLinkablePayments(w.owner.userId, w.owner.orgId, id, 'LESSON PAY')).map((p) => p.id)).toEqual([stray])
		expect(await listLinkablePayments(w.owner.userId, w.owner.orgId, id, 'zzz-nothing')).toEqual([])

		expect(await linkInvoicePayment(w.owner.userId, w.owner.orgId, id, stray)).toEqual({ ok: true })
		const [linked] = await listInvoicePayments(w.owner.userId, w.owner.orgId, id)
		expect(linked).toMatchObject({ amount: '120.00', how: 'manual', payer: 'Marta Díaz', paymentMethod: 'Venmo' })
		expect((await getInvoice(w.owner.userId, w.owner.orgId, id))!).toMatchObject({ state: 'paid', balance: '0.00' })
		expect((await listLinkablePayments(w.owner.userId, w.owner.orgId, id, null)).map((p) => p.id)).not.toContain(stray)
		// Paid: nothing more can be linked; voiding waits for the unlink.
		const more = await pay(w, 5, null)
		expect(await linkInvoicePayment(w.owner.userId, w.owner.orgId, id, more)).toEqual({ ok: false, code: 'not_open' })
		expect(await voidInvoice(w.owner.userId, w.owner.orgId, id)).toEqual({ ok: false, code: 'invoice_has_payments' })

		expect(await unlinkInvoicePayment(w.owner.userId, w.owner.orgId, id, linked!.matchId)).toEqual({ ok: true })
		expect((await getInvoice(w.owner.userId, w.owner.orgId, id))!).toMatchObject({ state: 'sent', balance: '120.00' })
		// The payment now says the code: the engine would match it, but the member undid that pair.
		await asUser(w.owner.userId, (trx) =>
			trx
				.updateTable('transactions')
				.set({ description: `for ${invoiceCode}` })
				.where('id', '=', stray)
				.execute(),
		)
		expect(await listInvoicePayments(w.owner.userId, w.owner.orgId, id)).toEqual([])
		// By hand, it can still be linked again.
		expect(await linkInvoicePayment(w.owner.userId, w.owner.orgId, id, stray)).toEqual({ ok: true })
		expect(await listInvoicePayments(w.owner.userId, w.owner.orgId, id)).toHaveLength(1)
	})

	test('a payment linked elsewhere, another organization’s, or a draft’s link is refused, changing nothing', async () => {
		const w = await world()
		const first = await sent(w, [['One', '1', '40']])
		const second = await sent(w, [['Two', '1', '60']])
		const payment = await pay(w, 40, await code(w, first))
		expect((await listInvoicePayments(w.owner.userId, w.owner.orgId, first))[0]).toMatchObject({ how: 'memo_code' })
		expect(await linkInvoicePayment(w.owner.userId, w.owner.orgId, second, payment)).toEqual({ ok: false, code: 'already_matched' })

		const stranger = await world()
		const theirs = await pay(stranger, 60, null)
		expect(await linkInvoicePayment(w.owner.userId, w.owner.orgId, second, theirs)).toEqual({ ok: false, code: 'not_found' })
		expect(await linkInvoicePayment(stranger.owner.userId, stranger.owner.orgId, second, theirs)).toEqual({ ok: false, code: 'not_found' })
		const match = (await listInvoicePayments(w.owner.userId, w.owner.orgId, first))[0]!.matchId
		// A link of one invoice undone through another's page, or by another organization: not found.
		expect(await unlinkInvoicePayment(w.owner.userId, w.owner.orgId, second, match)).toEqual({ ok: false, code: 'not_found' })
		expect(await unlinkInvoicePayment(stranger.owner.userId, stranger.owner.orgId, first, match)).toEqual({ ok: false, code: 'not_found' })
		expect(await markInvoicePaid(stranger.owner.userId, stranger.owner.orgId, second)).toEqual({ ok: false, code: 'not_found' })
		expect(await voidInvoice(stranger.owner.userId, stranger.owner.orgId, second)).toEqual({ ok: false, code: 'not_found' })

		const drafted = await draft(w)
		expect(await linkInvoicePayment(w.owner.userId, w.owner.orgId, drafted, await pay(w, 1, null))).toEqual({
			ok: false,
			code: 'not_found',
		})
		expect(await markInvoicePaid(w.owner.userId, w.owner.orgId, drafted)).toEqual({ ok: false, code: 'invoice_not_open' })
		expect(await listInvoicePayments(w.owner.userId, w.owner.orgId, first)).toHaveLength(1)
		expect((await getInvoice(w.owner.userId, w.owner.orgId, second))!.state).toBe('sent')
	})

	test('marked paid by hand, then voided refused; an unpaid invoice is voided once', async () => {
		const w = await world()
		const id = await sent(w, [['Cash job', '1', '75']])
		expect(await markInvoicePaid(w.owner.userId, w.owner.orgId, id)).toEqual({ ok: true })
		expect((await getInvoice(w.owner.userId, w.owner.orgId, id))!).toMatchObject({ state: 'paid', markedPaid: true, amountPaid: '75.00' })
		expect(await markInvoicePaid(w.owner.userId, w.owner.orgId, id)).toEqual({ ok: false, code: 'invoice_not_open' })
		expect(await voidInvoice(w.owner.userId, w.owner.orgId, id)).toEqual({ ok: false, code: 'invoice_has_payments' })
		const other = await sent(w, [['Cancelled job', '1', '75']])
		expect(await voidInvoice(w.owner.userId, w.owner.orgId, other)).toEqual({ ok: true })
		expect(await voidInvoice(w.owner.userId, w.owner.orgId, other)).toEqual({ ok: false, code: 'invoice_void' })
		expect((await getInvoice(w.owner.userId, w.owner.orgId, other))!.state).toBe('void')
	})
})

describe.runIf(isDbTarget('pg'))('across instances', () => {
	test('two saves of one draft from the same form at once: one is kept, the other is refused as stale', async () => {
		const w = await world()
		const id = await draft(w)
		const { version } = (await getInvoice(w.owner.userId, w.owner.orgId, id))!
		const results = await Promise.all(
			['First', 'Second'].map((notes) =>
				submitDraftForm(w.owner.userId, w.owner.orgId, id, form({ client: 'Marta Díaz', version, notes }), 'en'),
			),
		)
		expect(results.map((r) => r.kind).sort()).toEqual(['reply', 'saved'])
		const kept = results.findIndex((r) => r.kind === 'saved')
		expect((await getInvoice(w.owner.userId, w.owner.orgId, id))!.notes).toBe(kept === 0 ? 'First' : 'Second')
	})
})
