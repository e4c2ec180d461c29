/**
 * Expense Tracking (docs/product.md, Expense Tracking): typed rows are saved all at once or not at
 * all, a wrong field changes nothing, another organization's member sees and changes none of them;
 * receipts are stored re-encoded (no metadata), refused when they lie about their type, are too
 * big, or are a PDF with a script, served from a bucket the public route does not serve, and go
 * with their expense; refunds are listed apart; monthly profit is received minus expenses. On
 * PGlite and on the PostgreSQL server.
 */
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { PDFDocument, PDFName, PDFString } from 'pdf-lib'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { expensesAccess } from '#app/.server/expenses/access.ts'
import { deleteExpense, getExpense, listExpenses, submitAddForm, submitEditForm } from '#app/.server/expenses/expenses.ts'
import { importExpenseCounts } from '#app/.server/expenses/imports.ts'
import { monthlyProfit } from '#app/.server/expenses/profit.ts'
import { commitImport, importPayments, undoImport } from '#app/.server/payments/imports/pipeline.ts'
import { cleanReceipt, getReceipt, MAX_RECEIPT_BYTES } from '#app/.server/expenses/receipts.ts'
import { addMonths } from '#app/lib/dates.ts'
import { MODULES } from '#app/lib/modules.ts'
import { loader as publicStorage } from '#app/routes/storage.ts'
import { createUser, type TestUser } from './fixtures.ts'
import { useTemporaryDataDir } from './outbox.ts'

const dataDir = useTemporaryDataDir()

async function owner({ module = true } = {}) {
	const user = await createUser('Expense Owner')
	if (module)
		await asSystem((trx) =>
			sql`insert into public.organization_modules (organization_id, module_id) values (${user.orgId}, ${MODULES.expenses.id})`.execute(trx),
		)
	return user
}

/** The add form as a browser posts it. */
function rowsForm(rows: Array<Partial<Record<'spentOn' | 'vendor' | 'amount' | 'category' | 'paymentMethod' | 'note', string>>>) {
	const data = new FormData()
	data.set('intent', 'save')
	rows.forEach((row, i) => {
		for (const [key, value] of Object.entries({ spentOn: '2030-03-05', category: 'other', paymentMethod: '', ...row }))
			data.set(`rows[${i}].${key}`, value)
	})
	return data
}

async function countOf(orgId: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ n: number }>`select count(*)::int as n from public.expenses where organization_id = ${orgId}`.execute(trx),
	)
	return rows[0]!.n
}

async function typed(user: TestUser, rows: Parameters<typeof rowsForm>[0], language = 'en') {
	const outcome = await submitAddForm(user.userId, user.orgId, rowsForm(rows), language)
	if (outcome.kind !== 'added') throw new Error(`not added: ${JSON.stringify(outcome)}`)
	const list = await listExpenses(user.userId, user.orgId)
	return list.rows
}

/** The edit form of an expense as a browser posts it, with a receipt file. */
async function editForm(user: TestUser, id: string, receipt?: Blob, values: Record<string, string> = {}) {
	const e = (await getExpense(user.userId, user.orgId, id))!
	const data = new FormData()
	for (const [k, v] of Object.entries({
		intent: 'save',
		version: e.version,
		spentOn: e.spentOn,
		vendor: e.vendor,
		amount: e.amount,
		category: e.category,
		paymentMethod: e.paymentMethod ?? '',
		note: e.note ?? '',
		...values,
	}))
		data.set(k, v)
	if (receipt) data.set('receipt', receipt, 'receipt.bin')
	return data
}

const photo = async () =>
	new Blob([
		new Uint8Array(
			await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c33' } })
				.jpeg()
				.withExif({ IFD0: { Copyright: 'Secret Location 40.7128N' }, IFD3: { GPSLatitudeRef: 'N' } })
				.toBuffer(),
		),
	])

async function pdf({ script = false } = {}) {
	const doc = await PDFDocument.create()
	const page = doc.addPage([300, 400])
	page.drawText('Receipt: 42.00')
	if (script) {
		const action = doc.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert(1)') })
		doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(action))
	}
	return new Blob([new Uint8Array(await doc.save())])
}

describe('typed expenses', () => {
	test('several rows are saved at once, amounts as the page’s language writes them; blank rows are left out', async () => {
		const user = await owner()
		const rows = await typed(
			user,
			[
				{ vendor: 'Papelería Sol', amount: '1.234,50', category: 'supplies', paymentMethod: 'Zelle' },
				{ vendor: '', amount: '' },
				{ vendor: 'Hosting', amount: '12', category: 'software', spentOn: '2030-03-07' },
			],
			'es',
		)
		expect(rows.map((r) => [r.vendor, r.amount, r.category, r.paymentMethod, r.kind])).toEqual([
			['Hosting', '12.00', 'software', null, 'expense'],
			['Papelería Sol', '1234.50', 'supplies', 'Zelle', 'expense'],
		])
	})

	test('a wrong field in any row refuses the whole post, with each error under its cell, and saves nothing', async () => {
		const user = await owner()
		const outcome = await submitAddForm(
			user.userId,
			user.orgId,
			rowsForm([
				{ vendor: 'Good row', amount: '10' },
				{ vendor: '', amount: '-3', category: 'bribes', paymentMethod: 'Bitcoin', spentOn: '2030-02-30' },
				{ vendor: 'Line\nbreak', amount: '100000000' },
			]),
			'en',
		)
		expect(outcome.kind).toBe('reply')
		const errors = outcome.kind === 'reply' ? (outcome.result.error ?? {}) : {}
		expect(errors).toMatchObject({
			'rows[1].vendor': ['vendorRequired'],
			'rows[1].amount': ['amountNegative'],
			'rows[1].category': ['categoryInvalid'],
			'rows[1].paymentMethod': ['methodInvalid'],
			'rows[1].spentOn': ['dateInvalid'],
			'rows[2].vendor': ['controlCharacters'],
			'rows[2].amount': ['amountTooLarge'],
		})
		expect(await countOf(user.orgId)).toBe(0)
		const empty = await submitAddForm(user.userId, user.orgId, rowsForm([{ vendor: '', amount: '' }]), 'en')
		expect(empty.kind === 'reply' && empty.result.error?.rows).toEqual(['rowsRequired'])
		expect(await countOf(user.orgId)).toBe(0)
	})

	test('an edit saves; an edit of a version someone changed since is refused and changes nothing', async () => {
		const user = await owner()
		const [row] = await typed(user, [{ vendor: 'Old name', amount: '5' }])
		const stale = await editForm(user, row!.id, undefined, { vendor: 'Second edit' })
		expect(
			(await submitEditForm(user.userId, user.orgId, row!.id, await editForm(user, row!.id, undefined, { vendor: 'New name' }), 'en')).kind,
		).toBe('saved')
		expect(await submitEditForm(user.userId, user.orgId, row!.id, stale, 'en')).toEqual({ kind: 'refused', code: 'stale' })
		expect((await getExpense(user.userId, user.orgId, row!.id))?.vendor).toBe('New name')
	})

	test('a member of another organization neither sees, edits nor deletes them', async () => {
		const user = await owner()
		const stranger = await owner()
		const [row] = await typed(user, [{ vendor: 'Private vendor', amount: '7' }])
		expect((await listExpenses(stranger.userId, stranger.orgId)).rows).toEqual([])
		expect(await getExpense(stranger.userId, user.orgId, row!.id)).toBeNull()
		expect(await getExpense(stranger.userId, stranger.orgId, row!.id)).toBeNull()
		expect(await deleteExpense(stranger.userId, user.orgId, row!.id)).toBe(false)
		const hijack = await asUser(stranger.userId, (trx) =>
			trx.updateTable('expenses').set({ vendor: 'Hijacked' }).where('id', '=', row!.id).executeTakeFirst(),
		)
		expect(Number(hijack.numUpdatedRows)).toBe(0)
		const insert = asUser(stranger.userId, (trx) =>
			trx
				.insertInto('expenses')
				.values({ organization_id: user.orgId, spent_on: '2030-01-01', amount: '1', vendor: 'Planted', created_by: stranger.userId })
				.execute(),
		)
		await expect(insert).rejects.toThrow()
		expect((await getExpense(user.userId, user.orgId, row!.id))?.vendor).toBe('Private vendor')
		expect(await countOf(user.orgId)).toBe(1)
	})

	test('without the module the access is "inactive" (the screens say so, actions answer 403)', async () => {
		const user = await owner({ module: false })
		expect(await expensesAccess(user.userId, user.orgId, 'owner')).toBe('inactive')
	})
})

describe('receipts', () => {
	test('a photo is stored re-encoded without its metadata, in a bucket the public route does not serve, and goes with its expense', async () => {
		const user = await owner()
		const [row] = await typed(user, [{ vendor: 'Camera shop', amount: '30' }])
		const outcome = await submitEditForm(user.userId, user.orgId, row!.id, await editForm(user, row!.id, await photo()), 'en')
		expect(outcome.kind).toBe('saved')
		const saved = (await getExpense(user.userId, user.orgId, row!.id))!
		expect(saved.receiptType).toBe('image/jpeg')
		const file = (await getReceipt(saved.receiptKey!))!
		const meta = await sharp(file.bytes).metadata()
		expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', 400, 300, undefined])
		expect(file.bytes.includes('Secret Location')).toBe(false)
		// Not served by the public storage route, whatever the key.
		const response = await publicStorage({
			params: { bucket: 'receipts', '*': saved.receiptKey! },
			request: new Request(`http://x/storage/receipts/${saved.receiptKey}`),
		} as never)
		expect((response as Response).status).toBe(404)
		// Replaced: the old file is gone; deleted with the expense: the new one too.
		const first = saved.receiptKey!
		expect((await submitEditForm(user.userId, user.orgId, row!.id, await editForm(user, row!.id, await pdf()), 'en')).kind).toBe('saved')
		const second = (await getExpense(user.userId, user.orgId, row!.id))!
		expect(second.receiptType).toBe('application/pdf')
		expect(await getReceipt(first)).toBeNull()
		expect(await deleteExpense(user.userId, user.orgId, row!.id)).toBe(true)
		expect(await getReceipt(second.receiptKey!)).toBeNull()
		const folder = path.join(dataDir, 'storage', 'receipts', user.orgId)
		expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([])
	})

	test('a PDF is parsed and saved again; one with a script, a file lying about its type, or one too big is refused and changes nothing', async () => {
		const clean = await cleanReceipt(await pdf())
		expect(clean.ok).toBe(true)
		if (clean.ok) expect((await PDFDocument.load(clean.receipt.bytes)).getPageCount()).toBe(1)

		expect(await cleanReceipt(await pdf({ script: true }))).toEqual({ ok: false, code: 'receiptActiveContent' })
		const html = new Blob(['<html><script>alert(1)</script></html>'], { type: 'image/png' })
		expect(await cleanReceipt(html)).toEqual({ ok: false, code: 'receiptType' })
		const svg = new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], { type: 'image/jpeg' })
		expect(await cleanReceipt(svg)).toEqual({ ok: false, code: 'receiptType' })
		const fakePdf = new Blob(['%PDF-1.7\nnot really a pdf'])
		expect(await cleanReceipt(fakePdf)).toEqual({ ok: false, code: 'receiptUnreadable' })
		const fakeJpeg = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5])])
		expect(await cleanReceipt(fakeJpeg)).toEqual({ ok: false, code: 'receiptType' })
		const big = new Blob([new Uint8Array(MAX_RECEIPT_BYTES + 1)])
		expect(await cleanReceipt(big)).toEqual({ ok: false, code: 'receiptTooLarge' })

		const user = await owner()
		const [row] = await typed(user, [{ vendor: 'Unchanged', amount: '9' }])
		const outcome = await submitEditForm(
			user.userId,
			user.orgId,
			row!.id,
			await editForm(user, row!.id, await pdf({ script: true }), { vendor: 'Changed' }),
			'en',
		)
		expect(outcome.kind === 'reply' && outcome.result.error?.receipt).toEqual(['receiptActiveContent'])
		const after = (await getExpense(user.userId, user.orgId, row!.id))!
		expect([after.vendor, after.receiptKey]).toEqual(['Unchanged', null])
		expect(existsSync(path.join(dataDir, 'storage', 'receipts', user.orgId))).toBe(false)
	})
})

describe('refunds and profit', () => {
	test('refunds are listed apart and counted in neither expenses nor profit; profit per month is received minus expenses', async () => {
		const user = await owner()
		const month = '2030-05-01'
		const previous = addMonths(month, -1)
		await asSystem(async (trx) => {
			for (const [date, amount] of [
				['2030-05-02', 500],
				['2030-05-20', 250.5],
				['2030-04-11', 80],
			] as const)
				await trx.insertInto('transactions').values({ organization_id: user.orgId, amount, date_received: date }).execute()
			await trx
				.insertInto('expenses')
				.values([
					{ organization_id: user.orgId, spent_on: '2030-05-03', amount: '100.25', fee: '1.25', vendor: 'Rent Co', category: 'rent' },
					{ organization_id: user.orgId, spent_on: '2030-05-31', amount: '20', vendor: 'Ads', category: 'advertising' },
					{ organization_id: user.orgId, spent_on: '2030-05-10', amount: '60', vendor: 'Payer back', kind: 'refund' },
					{ organization_id: user.orgId, spent_on: '2030-04-30', amount: '100', vendor: 'April tools', category: 'equipment' },
					{ organization_id: user.orgId, spent_on: '2030-06-01', amount: '999', vendor: 'Next month' },
				])
				.execute()
		})
		const expenses = await listExpenses(user.userId, user.orgId, { month: '2030-05' })
		expect(expenses.rows.map((r) => r.vendor)).toEqual(['Ads', 'Rent Co'])
		expect(expenses.sum).toBe('121.50')
		const refunds = await listExpenses(user.userId, user.orgId, { month: '2030-05', kind: 'refund' })
		expect(refunds.rows.map((r) => [r.vendor, r.kind])).toEqual([['Payer back', 'refund']])

		const profit = await monthlyProfit(user.userId, user.orgId, '2030-05-15', 2)
		expect(profit.months).toEqual([
			{ month: previous, received: '80.00', expenses: '100.00', refunds: '0.00', profit: '-20.00' },
			{ month, received: '750.50', expenses: '121.50', refunds: '60.00', profit: '629.00' },
		])
		expect(profit.totals).toEqual({ received: '830.50', expenses: '221.50', refunds: '60.00', profit: '609.00' })
		// Whatever the URL says, the list answers: a bad month is no filter, a bad page the first.
		const odd = await listExpenses(user.userId, user.orgId, { month: '2030-13', page: Number.NaN, kind: 'nonsense', q: '%_\\' })
		expect([odd.month, odd.page, odd.kind, odd.total]).toEqual([null, 1, 'expense', 0])
	})
})

const VENMO = [
	'Account Statement - (@studio-owner) ,,,,,,,,,,,,,,,,,,,,,',
	'Account Activity,,,,,,,,,,,,,,,,,,,,,',
	',ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (tip),Amount (tax),Amount (fee),Tax Rate,Tax Exempt,Funding Source,Destination,Beginning Balance,Ending Balance,Statement Period Venmo Fees,Terminal Location,Year to Date Venmo Fees,Disclaimer',
	',3921234567890123456,2030-03-01T14:22:05,Payment,Complete,Yoga class,Ana Silva,Studio Owner,"+ $1,250.00",,0,,0,,,Venmo balance,,,,Venmo,,',
	',3921234567890123458,2030-03-03T10:00:00,Payment,Complete,Supplies,Studio Owner,Shop Inc,- $45.00,,0,1.25,0,,Venmo balance,,,,,Venmo,,',
	',3921234567890123462,2030-03-06T10:00:00,Refund,Complete,Class cancelled,Studio Owner,Ana Silva,- $30.00,,0,,0,,Venmo balance,,,,,Venmo,,',
	',3921234567890123459,2030-03-04T11:00:00,Standard Transfer,Issued,,,,- $500.00,,0,,0,,,Bank,,,,Venmo,,',
	'',
].join('\n')

const PAYPAL = `"Date","Time","TimeZone","Name","Type","Status","Currency","Gross","Fee","Net","From Email Address","To Email Address","Transaction ID","Item Title","Note","Balance","Balance Impact"
"03/02/2030","11:00:00","PST","Office Shop","Express Checkout Payment","Completed","USD","-45.00","0.00","-45.00","owner@example.com","shop@example.com","1XY12345CD6789012","Paper","","1,168.45","Debit"
"03/05/2030","11:00:00","PST","Bruno Costa","Payment Refund","Completed","USD","-20.00","0.00","-20.00","owner@example.com","bruno@example.com","5XY12345CD6789012","","","1,148.45","Debit"
"03/06/2030","12:00:00","PST","Bank Account","General Withdrawal","Completed","USD","-55.00","","-55.00","","","6XY12345CD6789012","","","1,093.45","Debit"
`

async function imported(user: TestUser, file: string) {
	const result = await importPayments({ organizationId: user.orgId, userId: user.userId, file, label: 'file.csv', mode: 'preview' })
	if (!result.ok || result.status !== 'staged') throw new Error(`not staged: ${JSON.stringify(result)}`)
	const committed = await commitImport(user.userId, result.batch.batchId)
	if (!committed.ok) throw new Error(`not committed: ${JSON.stringify(committed)}`)
	return result.batch.batchId
}

async function expensesOf(user: TestUser) {
	const { rows } = await asSystem((trx) =>
		sql<{
			kind: string
			vendor: string
			amount: string
			fee: string | null
			payment_method: string
			import_source: string | null
			import_key: string
		}>`
			select kind, vendor, amount::text, fee::text, payment_method::text, import_source, import_key
			from public.expenses where organization_id = ${user.orgId} order by spent_on, vendor`.execute(trx),
	)
	return rows
}

describe('imported outgoing rows', () => {
	test('sent payments become expenses and refunds refunds, transfers to the own bank neither; read twice, nothing more; undone, gone', async () => {
		const user = await owner()
		const venmo = await imported(user, VENMO)
		const paypal = await imported(user, PAYPAL)
		expect(await expensesOf(user)).toEqual([
			{
				kind: 'expense',
				vendor: 'Office Shop',
				amount: '45.00',
				fee: null,
				payment_method: 'PayPal',
				import_source: 'paypal',
				import_key: 'id:paypal:1XY12345CD6789012',
			},
			{
				kind: 'expense',
				vendor: 'Shop Inc',
				amount: '45.00',
				fee: '1.25',
				payment_method: 'Venmo',
				import_source: 'venmo',
				import_key: 'id:venmo:3921234567890123458',
			},
			{
				kind: 'refund',
				vendor: 'Bruno Costa',
				amount: '20.00',
				fee: null,
				payment_method: 'PayPal',
				import_source: 'paypal',
				import_key: 'id:paypal:5XY12345CD6789012',
			},
			{
				kind: 'refund',
				vendor: 'Ana Silva',
				amount: '30.00',
				fee: null,
				payment_method: 'Venmo',
				import_source: 'venmo',
				import_key: 'id:venmo:3921234567890123462',
			},
		])
		// The received payment is a transaction as before, not an expense.
		const { rows: payments } = await asSystem((trx) =>
			sql<{ n: number }>`select count(*)::int as n from public.transactions where organization_id = ${user.orgId}`.execute(trx),
		)
		expect(payments[0]!.n).toBe(1)

		const again = await imported(user, VENMO)
		expect(await countOf(user.orgId)).toBe(4)
		const counts = await importExpenseCounts(user.userId, [venmo, paypal, again])
		expect([counts.get(venmo), counts.get(paypal), counts.get(again)]).toEqual([
			{ found: 2, added: 2 },
			{ found: 2, added: 2 },
			{ found: 2, added: 0 },
		])
		// Another organization's member learns nothing of these batches.
		expect((await importExpenseCounts((await owner()).userId, [venmo])).size).toBe(0)

		expect((await undoImport(user.userId, venmo)).ok).toBe(true)
		expect((await expensesOf(user)).map((e) => e.vendor)).toEqual(['Office Shop', 'Bruno Costa'])
	})

	test('without the module the outgoing rows stay ignored: no expense is made', async () => {
		const user = await owner({ module: false })
		const batch = await imported(user, VENMO)
		expect(await countOf(user.orgId)).toBe(0)
		expect((await importExpenseCounts(user.userId, [batch])).get(batch)).toEqual({ found: 0, added: 0 })
	})
})
