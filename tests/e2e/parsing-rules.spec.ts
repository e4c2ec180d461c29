import type { APIRequestContext, Page } from '@playwright/test'
import { startImapServer, type ImapServer } from '../support/imap-server.ts'
import { withDatabase } from './db.ts'
import { expect, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

// docs/product.md, Email sync › Custom parsing rules: with Email Pro, a rule for a sender the app
// does not know is written, tested on a pasted sample (the reading shows before saving), saved;
// the sender's notice, put in a real IMAP mailbox (dovecot), is read by Sync into transactions.
const P2P = 'b0000000-0000-4000-8000-000000000001'
const EMAIL_UPGRADE = 'c0000000-0000-4000-8000-000000000001'
const EMAIL_PRO = 'c0000000-0000-4000-8000-000000000002'
const PATH = `/app/modules/${P2P}/parsing-rules`

let imap: ImapServer
test.beforeAll(async () => {
	imap = await startImapServer({ user: 'rules@example.test', password: 'Rules-App-Password-7' })
})
test.afterAll(async () => {
	await imap?.stop()
})

/** A fresh owner whose organization has the email upgrade and Email Pro (coming soon: given directly). */
async function ownerWithEmailPro(page: Page, request: APIRequestContext, name: string) {
	const account = await signUpFresh(page, request, name)
	const orgId = await withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string }>(
			`select m.organization_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		)
		const org = rows[0]!.organization_id
		await db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select $1, om.id, u.id from public.organization_modules om cross join (values ($2::uuid), ($3::uuid)) u (id)
			 where om.organization_id = $1 and om.module_id = $4`,
			[org, EMAIL_UPGRADE, EMAIL_PRO, P2P],
		)
		return org
	})
	return { orgId }
}

const NOTICE_TEXT = 'You have a new deposit.\nAmount: $1,234.56\nFrom: Jane Doe\nReference: CU-7781\n'

test('a rule for an unknown sender: tested on a sample, saved, then its notice synced into transactions; deleted after asking @nojs', async ({
	page,
	request,
}) => {
	test.slow()
	const { orgId } = await ownerWithEmailPro(page, request, 'Rules Owner')
	// The mailbox, connected on the module page.
	await page.goto(`/app/modules/${P2P}`)
	const form = page.getByRole('region', { name: 'Any mailbox over IMAP' })
	await form.getByLabel('IMAP server').fill(imap.host)
	await form.getByLabel('Port').fill(String(imap.port))
	await form.getByLabel('Use TLS (SSL)').uncheck()
	await form.getByLabel('User name').fill(imap.user)
	await form.getByLabel('App password').fill(imap.password)
	await form.getByRole('button', { name: 'Connect mailbox' }).click()
	await expect(page.getByText(`Connected to ${imap.user}`).first()).toBeVisible()

	await page.goto(PATH)
	await expect(page.getByRole('heading', { name: 'Custom parsing rules', level: 1 })).toBeVisible()
	await page.getByLabel('Name', { exact: true }).fill('Credit union')
	await page.getByLabel('Sender', { exact: true }).fill('@cu.example')
	await page.getByLabel('Subject contains (optional)').fill('deposit')
	await page.getByLabel('Text before the amount').fill('Amount:')
	await page.getByLabel('Text before the payer').fill('Paid by:')
	await page.getByLabel('Text before the reference (optional)').fill('Reference:')
	await page.getByLabel('Payment method').selectOption('Wire Transfer')
	await page.getByLabel("Sample's sender").fill('alerts@cu.example')
	await page.getByLabel("Sample's subject").fill('New deposit received')
	await page.getByLabel('Sample message').fill(NOTICE_TEXT)
	// The wrong payer label: the test says which field it could not find, and Save is refused.
	await page.getByRole('button', { name: 'Test on the sample' }).click()
	const reading = page.getByTestId('parsing-rule-reading')
	await expect(reading.getByTestId('reading-amount')).toHaveText('$1,234.56')
	await expect(reading.getByTestId('reading-payer')).toHaveText('Not found')
	await page.getByRole('button', { name: 'Save rule' }).click()
	await expect(page.getByText('No payer was found after this text in the sample.')).toBeVisible()
	await expect(page.getByTestId('parsing-rule')).toHaveCount(0)
	// Fixed: the reading shows every field, then it saves.
	await page.getByLabel('Text before the payer').fill('From:')
	await page.getByRole('button', { name: 'Test on the sample' }).click()
	await expect(reading.getByTestId('reading-payer')).toHaveText('Jane Doe')
	await expect(reading.getByTestId('reading-id')).toHaveText('CU-7781')
	await expect(reading).toContainText('The rule reads this notice.')
	await page.getByRole('button', { name: 'Save rule' }).click()
	await expect(page.getByText('Rule saved').first()).toBeVisible()
	await expect(page.getByTestId('parsing-rule')).toContainText('Credit union')

	// The sender's notice arrives; Sync reads it with the rule.
	const raw = [
		'From: Credit Union <alerts@cu.example>',
		'To: rules@example.test',
		'Subject: New deposit received',
		`Date: ${new Date(Date.now() - 86_400_000).toUTCString()}`,
		'Message-ID: <cu-7781@cu.example>',
		'Content-Type: text/plain; charset=utf-8',
		'',
		...NOTICE_TEXT.split('\n'),
	].join('\r\n')
	await imap.appendMessage(raw)
	// The payer is a client already: the payment is matched to her, and the table names her.
	await withDatabase((db) => db.query(`insert into public.clients (organization_id, name) values ($1, 'Jane Doe')`, [orgId]))
	await page.goto('/app/transactions')
	await page.getByRole('button', { name: 'Sync', exact: true }).click()
	await expect(page.getByText('Sync finished: 1 new payment').first()).toBeVisible()
	const row = page.getByRole('row').filter({ hasText: 'Jane Doe' }).first()
	await expect(row).toContainText('$1,234.56')
	await expect(row).toContainText('CU-7781')
	const stored = await withDatabase(
		async (db) =>
			(
				await db.query<{ amount: string; raw_payer: string; import_source: string; payment_method: string }>(
					`select amount::text, raw_payer, import_source, payment_method::text from public.transactions where organization_id = $1`,
					[orgId],
				)
			).rows,
	)
	expect(stored).toEqual([{ amount: '1234.56', raw_payer: 'Jane Doe', import_source: 'email', payment_method: 'Wire Transfer' }])

	// Deleting asks first.
	await page.goto(PATH)
	await page.getByRole('link', { name: 'Delete the rule Credit union' }).click()
	await page.getByRole('alertdialog').getByRole('button', { name: 'Delete rule' }).click()
	await expect(page.getByText('Rule deleted').first()).toBeVisible()
	await expect(page.getByTestId('parsing-rule')).toHaveCount(0)
})

test('the screen and the sample test in Spanish and Portuguese, with labels in those languages @nojs', async ({ page, request }) => {
	await ownerWithEmailPro(page, request, 'Rules Languages')
	for (const [lng, heading, fields, sample, payer] of [
		[
			'es',
			'Reglas de lectura personalizadas',
			{
				name: 'Nombre',
				sender: 'Remitente',
				amount: 'Texto antes del monto',
				payer: 'Texto antes del pagador',
				body: 'Mensaje de muestra',
			},
			'Depósito recibido\nMonto: 1.234,56 USD\nDe: María López\n',
			'María López',
		],
		[
			'pt-BR',
			'Regras de leitura personalizadas',
			{ name: 'Nome', sender: 'Remetente', amount: 'Texto antes do valor', payer: 'Texto antes do pagador', body: 'Mensagem de amostra' },
			'Depósito recebido\nValor: US$ 1.234,56\nPagador: João Silva\n',
			'João Silva',
		],
	] as const) {
		await useLanguage(page, lng)
		await page.goto(PATH)
		await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
		await page.getByLabel(fields.name, { exact: true }).fill('Cooperativa')
		await page.getByLabel(fields.sender, { exact: true }).fill('@coop.example')
		await page.getByLabel(fields.amount).fill(lng === 'es' ? 'Monto:' : 'Valor:')
		await page.getByLabel(fields.payer).fill(lng === 'es' ? 'De:' : 'Pagador:')
		await page.getByLabel(fields.body).fill(sample)
		await page.getByRole('button', { name: lng === 'es' ? 'Probar con la muestra' : 'Testar com a amostra' }).click()
		const reading = page.getByTestId('parsing-rule-reading')
		await expect(reading.getByTestId('reading-payer')).toHaveText(payer)
		await expect(reading.getByTestId('reading-amount')).toContainText('1.234,56')
	}
})
