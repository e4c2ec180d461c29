import { createHash, randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { startImapServer } from '../support/imap-server.ts'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'

// docs/product.md, Invoicing: a sent invoice is marked paid by the inflow itself. A Venmo notice
// whose note carries the invoice's code, read from the owner's mailbox by Sync, pays it; a bank
// CSV payment of part of it, with the code, leaves the balance. The invoice's page says how each
// payment was matched. The mailbox is a real IMAP server (dovecot) started by the test.

const INVOICING = 'b0000000-0000-4000-8000-000000000005'
const P2P = 'b0000000-0000-4000-8000-000000000001'
const EMAIL_UPGRADE = 'c0000000-0000-4000-8000-000000000001'

type Invoice = { id: string; code: string }

/** An owner signed in on `page` with Invoicing, and a $300 invoice to Nora Quinn sent through send_invoice as the owner. */
async function sentInvoice(page: Page): Promise<Invoice> {
	const owner = newAccount('Invoice Owner')
	await signUpByRequest(page.request, owner)
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ org: string; user: string }>(
			`select m.organization_id as org, u.id as user from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[owner.email],
		)
		const { org, user } = rows[0]!
		await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [org, INVOICING])
		const client = await db.query<{ id: string }>(
			`insert into public.clients (organization_id, name, email, status) values ($1, 'Nora Quinn', 'nora@client.example', 'active') returning id`,
			[org],
		)
		await db.query('begin')
		await db.query(`select set_config('request.jwt.claim.sub', $1, true)`, [user])
		const invoice = await db.query<{ id: string }>(
			`insert into public.invoices (organization_id, client_id, created_by, language, due_date)
			 values ($1, $2, $3, 'en', current_date + 14) returning id`,
			[org, client.rows[0]!.id, user],
		)
		const id = invoice.rows[0]!.id
		await db.query(
			`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price)
			 values ($1, $2, 0, 'Website updates, November', 1, 300)`,
			[org, id],
		)
		await db.query('select public.send_invoice($1, $2, null)', [id, createHash('sha256').update(randomBytes(32)).digest('hex')])
		await db.query('commit')
		const code = await db.query<{ memo_code: string }>(
			'select e.memo_code from public.invoices i join public.payment_expectations e on e.id = i.expectation_id where i.id = $1',
			[id],
		)
		return { id, code: code.rows[0]!.memo_code }
	})
}

test('a Venmo notice whose note carries the code, read by Sync, marks the invoice paid', async ({ page }) => {
	// Many steps: the upgrade, the mailbox's connection, a sync.
	test.slow()
	const imap = await startImapServer({ user: `invoices-${Date.now()}@example.test`, password: 'Sync-App-Password-7' })
	try {
		const invoice = await sentInvoice(page)
		await page.goto(`/app/invoices/${invoice.id}`)
		await expect(page.getByTestId('invoice-code')).toHaveText(invoice.code)
		await expect(page.getByTestId('invoice-balance')).toHaveText('$300.00')

		// The owner's mailbox, connected as in tests/e2e/email-sync.spec.ts.
		await page.goto(`/app/modules/${P2P}?upgrade=${EMAIL_UPGRADE}`)
		await page
			.getByRole('dialog', { name: /P2P Tracking - Email/ })
			.getByRole('button', { name: /gears/ })
			.click()
		const form = page.getByRole('region', { name: 'Any mailbox over IMAP' })
		await form.getByLabel('IMAP server').fill(imap.host)
		await form.getByLabel('Port').fill(String(imap.port))
		await form.getByLabel('Use TLS (SSL)').uncheck()
		await form.getByLabel('User name').fill(imap.user)
		await form.getByLabel('App password').fill(imap.password)
		await form.getByRole('button', { name: 'Connect mailbox' }).click()
		await expect(page.getByText(`Connected to ${imap.user}`).first()).toBeVisible()
		// Venmo's notice (app/.server/payments/email-sync/parsers), the code in the payer's note.
		const sent = new Date(Date.now() - 3_600_000)
		await imap.appendMessage(
			[
				'Authentication-Results: mx.example.test; dkim=pass header.d=venmo.com; spf=pass smtp.mailfrom=venmo.com; dmarc=pass',
				'From: Venmo <venmo@venmo.com>',
				`To: ${imap.user}`,
				'Subject: Nora Quinn paid you $300.00',
				`Date: ${sent.toUTCString()}`,
				`Message-ID: <invoice-${Date.now()}@fixtures.example.test>`,
				'MIME-Version: 1.0',
				'Content-Type: text/plain; charset=utf-8',
				'',
				'Nora Quinn paid you',
				'$300.00',
				`Invoice ${invoice.code.toLowerCase()} thanks!`,
				'',
				'Transfer Date and Amount:',
				`${sent.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'America/Los_Angeles' })} PST · + $300.00`,
				'',
				`Payment ID: ${Date.now()}${Math.floor(Math.random() * 1000)}`,
				'',
				'Money credited to your Venmo account.',
				'',
			].join('\r\n'),
			{ date: sent },
		)

		await page.goto('/app/transactions')
		await page.getByRole('button', { name: 'Sync', exact: true }).click()
		await expect(page.getByText('Sync finished: 1 new payment').first()).toBeVisible()

		await page.goto(`/app/invoices/${invoice.id}`)
		await expect(page.getByTestId('invoice-balance')).toHaveText('$0.00')
		await expect(page.getByTestId('invoice-paid')).toHaveText('$300.00')
		await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible()
		await expect(page.getByText(`Matched by its memo code ${invoice.code}`)).toBeVisible()
	} finally {
		await imap.stop()
	}
})

test('a bank CSV payment of part of the invoice, with its code, leaves the balance @nojs', async ({ page }) => {
	const invoice = await sentInvoice(page)
	const today = new Date().toISOString().slice(0, 10).split('-')
	const csv = [
		'Date,Description,Amount,Running Bal.',
		`${today[1]}/${today[2]}/${today[0]},"Zelle payment from NORA QUINN for ""first half ${invoice.code}""; Conf# iv${Date.now()}","120.00","1,120.00"`,
	].join('\n')
	await page.goto('/app/transactions/import')
	await page.getByLabel('CSV file').setInputFiles({ name: 'bofa.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
	await page.getByRole('button', { name: 'Upload and preview' }).click()
	await page.getByRole('button', { name: 'Import 1 payment' }).click()
	await expect(page).toHaveURL(/\/app\/transactions\/import\/history$/)

	await page.goto(`/app/invoices/${invoice.id}`)
	await expect(page.getByTestId('invoice-paid')).toHaveText('$120.00')
	await expect(page.getByTestId('invoice-balance')).toHaveText('$180.00')
	await expect(page.getByText('Partly paid', { exact: true }).first()).toBeVisible()
	await expect(page.getByText(`Matched by its memo code ${invoice.code}`)).toBeVisible()

	await page.goto('/app/invoices?state=partly_paid')
	await expect(page.getByRole('row').filter({ hasText: 'Nora Quinn' })).toContainText('$180.00')
})
