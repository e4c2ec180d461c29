import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext } from '@playwright/test'
import { readPdf } from '../support/pdf-text.ts'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'

// docs/product.md, Invoicing › The client's page, PDF and mail: the client opens the link of a
// sent invoice without signing in, on a phone, in the invoice's language (Portuguese here), sees
// the lines, the totals, what was received, the handles and the memo code, switches language,
// downloads the PDF (read back here); a wrong token gets the same translated 404 as a malformed one.

const INVOICING = 'b0000000-0000-4000-8000-000000000005'
test.use({ viewport: { width: 390, height: 844 } })

type Sent = { token: string; number: number; code: string }

/** An owner's invoice in Portuguese for João Araújo (4 × $45 + $20, tax 10 %: $220), sent through send_invoice as the owner, $50 of it paid. */
async function sentInvoice(request: APIRequestContext): Promise<Sent> {
	const owner = newAccount('Invoice Owner')
	await signUpByRequest(request, owner)
	const token = randomBytes(32).toString('hex')
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ org: string; user: string }>(
			`select m.organization_id as org, u.id as user from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[owner.email],
		)
		const { org, user } = rows[0]!
		await db.query(`update public.organizations set name = 'Estúdio Canção' where id = $1`, [org])
		await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [org, INVOICING])
		await db.query(`insert into public.payment_handles (organization_id, zelle, venmo) values ($1, 'pay@studio.example', 'Studio-Nine')`, [
			org,
		])
		const client = await db.query<{ id: string }>(
			`insert into public.clients (organization_id, name, email, status) values ($1, 'João Araújo', 'joao@client.example', 'active') returning id`,
			[org],
		)
		await db.query('begin')
		await db.query(`select set_config('request.jwt.claim.sub', $1, true)`, [user])
		const invoice = await db.query<{ id: string }>(
			`insert into public.invoices (organization_id, client_id, created_by, language, tax_rate, notes, due_date)
			 values ($1, $2, $3, 'pt-BR', 10, 'Obrigado pela preferência!', current_date + 14) returning id`,
			[org, client.rows[0]!.id, user],
		)
		const id = invoice.rows[0]!.id
		await db.query(
			`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price)
			 values ($1, $2, 0, 'Aula de violão — iniciação', 4, 45), ($1, $2, 1, 'Matrícula', 1, 20)`,
			[org, id],
		)
		const sent = await db.query<{ number: number }>('select public.send_invoice($1, $2, null) as number', [
			id,
			createHash('sha256').update(token).digest('hex'),
		])
		const code = await db.query<{ memo_code: string }>(
			'select e.memo_code from public.invoices i join public.payment_expectations e on e.id = i.expectation_id where i.id = $1',
			[id],
		)
		// A part payment with the code in its memo, as a member types it: the engine links it.
		await db.query(
			`insert into public.transactions (organization_id, amount, description, date_received) values ($1, 50, $2, current_date)`,
			[org, `pix ${code.rows[0]!.memo_code}`],
		)
		await db.query('commit')
		return { token, number: sent.rows[0]!.number, code: code.rows[0]!.memo_code }
	})
}

/** What the PDF must say: the number, the client, an accented line, the total, what is left, the code. */
async function expectPdf(bytes: Uint8Array, sent: Sent, language: 'pt-BR' | 'en') {
	const { text } = await readPdf(bytes)
	const expected =
		language === 'pt-BR'
			? [`Fatura nº ${sent.number}`, 'Saldo a pagar', 'US$ 220,00', 'US$ 170,00']
			: [`Invoice #${sent.number}`, 'Balance due', '$220.00', '$170.00']
	for (const s of [...expected, 'João Araújo', 'Aula de violão — iniciação', 'Estúdio Canção', sent.code]) expect(text).toContain(s)
}

test('the client opens the link on a phone: the invoice in Portuguese, what is left, how to pay', async ({ page }) => {
	const sent = await sentInvoice(page.request)
	const response = await page.goto(`/i/${sent.token}`)
	expect(response?.headers()['cache-control']).toContain('no-store')
	await expect(page.getByRole('heading', { level: 1, name: `Fatura nº ${sent.number}` })).toBeVisible()
	await expect(page.getByText('Paga em parte', { exact: true })).toBeVisible()
	await expect(page.getByRole('status')).toHaveText('Recebemos US$ 50,00: faltam US$ 170,00.')
	await expect(page.getByRole('cell', { name: /Aula de violão — iniciação/ })).toBeVisible()
	const totals = page.getByRole('region', { name: 'Totais' })
	await expect(totals).toContainText('TotalUS$ 220,00')
	await expect(totals).toContainText('Saldo a pagarUS$ 170,00')
	await expect(page.getByTestId('invoice-code')).toHaveText(sent.code)
	await expect(page.getByRole('link', { name: 'Venmo @Studio-Nine' })).toHaveAttribute('href', 'https://venmo.com/Studio-Nine')
	await expect(page.getByText('Zelle para pay@studio.example')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Copiar código' })).toBeVisible()
	// One column on a phone: nothing wider than the screen.
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
})

test('the page has no serious or critical accessibility violation on a phone', async ({ page }) => {
	const sent = await sentInvoice(page.request)
	await page.goto(`/i/${sent.token}`)
	await expect(page.getByTestId('invoice-code')).toBeVisible()
	const axe = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
		.analyze()
	expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
})

test('the PDF downloads in the page’s language; in English on request, page and PDF', async ({ page }) => {
	const sent = await sentInvoice(page.request)
	await page.goto(`/i/${sent.token}`)
	const downloading = page.waitForEvent('download')
	await page.getByRole('link', { name: 'Baixar PDF' }).click()
	const download = await downloading
	expect(download.suggestedFilename()).toBe(`invoice-${sent.number}.pdf`)
	await expectPdf(new Uint8Array(readFileSync((await download.path())!)), sent, 'pt-BR')

	await page.getByRole('link', { name: 'English' }).click()
	await expect(page.getByRole('heading', { level: 1, name: `Invoice #${sent.number}` })).toBeVisible()
	await expect(page.getByRole('region', { name: 'Totals' })).toContainText('Balance due$170.00')
	const pdf = await page.request.get(`/i/${sent.token}/invoice.pdf?lng=en`)
	expect(pdf.headers()['content-type']).toBe('application/pdf')
	expect(pdf.headers()['content-disposition']).toBe(`attachment; filename="invoice-${sent.number}.pdf"`)
	expect(pdf.headers()['x-robots-tag']).toContain('noindex')
	await expectPdf(new Uint8Array(await pdf.body()), sent, 'en')
})

test('with or without JavaScript the page is whole and the PDF downloads; Copy and Print only with scripts @nojs', async ({ page }) => {
	const sent = await sentInvoice(page.request)
	await page.goto(`/i/${sent.token}`)
	await expect(page.getByRole('heading', { level: 1, name: `Fatura nº ${sent.number}` })).toBeVisible()
	await expect(page.getByRole('region', { name: 'Totais' })).toContainText('Saldo a pagarUS$ 170,00')
	await expect(page.getByTestId('invoice-code')).toHaveText(sent.code)
	// The buttons that need scripts are offered only with them (without, the code selects on a tap, the browser prints).
	const scripts = test.info().project.use.javaScriptEnabled === false ? 0 : 1
	await expect(page.getByRole('button', { name: 'Copiar código' })).toHaveCount(scripts)
	await expect(page.getByRole('button', { name: 'Imprimir' })).toHaveCount(scripts)
	const downloading = page.waitForEvent('download')
	await page.getByRole('link', { name: 'Baixar PDF' }).click()
	await expectPdf(new Uint8Array(readFileSync((await (await downloading).path())!)), sent, 'pt-BR')
})

test('a token of no invoice and a malformed one get the same translated 404, page and PDF alike @nojs', async ({ page }) => {
	const sent = await sentInvoice(page.request)
	const changed = sent.token.slice(0, -1) + (sent.token.endsWith('0') ? '1' : '0')
	for (const token of [changed, 'not-a-token', sent.token.toUpperCase()]) {
		const response = await page.goto(`/i/${token}`)
		expect(response?.status(), token).toBe(404)
		expect(response?.headers()['x-robots-tag'], token).toContain('noindex')
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Invoice not found')
		await expect(page.getByText(sent.code)).toHaveCount(0)
		const pdf = await page.request.get(`/i/${token}/invoice.pdf`)
		expect(pdf.status(), token).toBe(404)
		expect(await pdf.text()).toContain('Invoice not found')
	}
	// In the reader's language (a Spanish reader here), as no invoice says which.
	await page
		.context()
		.addCookies([{ name: 'lng', value: Buffer.from(JSON.stringify('es')).toString('base64'), url: test.info().project.use.baseURL! }])
	await page.goto(`/i/${changed}`)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Factura no encontrada')
})
