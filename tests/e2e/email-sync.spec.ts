import { readFileSync } from 'node:fs'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Page } from '@playwright/test'
import { startImapServer, type ImapServer } from '../support/imap-server.ts'
import { withDatabase } from './db.ts'
import { expect, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

// docs/product.md, Email sync: the mailbox connected in the email upgrade's dialog, read by
// Sync into transactions, the run on the module page, and undone from the import history.
// A real IMAP server started by the test (dovecot) holds the notices.
const P2P = 'b0000000-0000-4000-8000-000000000001'
const EMAIL_UPGRADE = 'c0000000-0000-4000-8000-000000000001'
const DIR = path.resolve('tests/unit/fixtures/mailbox')
const NOTICES = [
	'01-venmo-paid-you.eml',
	'04-cashapp-base64.eml',
	'06-paypal-got-money.eml',
	'09-bofa-zelle-1.eml',
	'10-bofa-zelle-2.eml',
	'03-venmo-outgoing.eml',
	'19-venmo-new-template.eml',
]

let imap: ImapServer
test.beforeAll(async () => {
	imap = await startImapServer({ user: 'notices@example.test', password: 'Sync-App-Password-7' })
	for (const file of NOTICES) await imap.appendMessage(readFileSync(path.join(DIR, file)), { date: new Date(Date.now() - 2 * 86_400_000) })
})
test.afterAll(async () => {
	await imap?.stop()
})

async function transactions(orgId: string) {
	return withDatabase(
		async (db) =>
			(
				await db.query<{ raw_payer: string; amount: string; import_source: string }>(
					`select raw_payer, amount::text, import_source from public.transactions where organization_id = $1 order by raw_payer`,
					[orgId],
				)
			).rows,
	)
}

async function ownerWithMailbox(page: Page, request: APIRequestContext) {
	const account = await signUpFresh(page, request, 'Sync Owner')
	const { rows } = await withDatabase((db) =>
		db.query<{ organization_id: string }>(
			`select m.organization_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		),
	)
	await page.goto(`/app/modules/${P2P}?upgrade=${EMAIL_UPGRADE}`)
	await page
		.getByRole('dialog', { name: /P2P Tracking - Email/ })
		.getByRole('button', { name: /gears/ })
		.click()
	await expect(page.getByText('Upgrade activated successfully').first()).toBeVisible()
	const form = page.getByRole('region', { name: 'Any mailbox over IMAP' })
	await form.getByLabel('IMAP server').fill(imap.host)
	await form.getByLabel('Port').fill(String(imap.port))
	await form.getByLabel('Use TLS (SSL)').uncheck()
	await form.getByLabel('User name').fill(imap.user)
	await form.getByLabel('App password').fill(imap.password)
	await form.getByRole('button', { name: 'Connect mailbox' }).click()
	await expect(page.getByText(`Connected to ${imap.user}`).first()).toBeVisible()
	return { orgId: rows[0]!.organization_id }
}

test('Sync reads the connected mailbox into transactions; the run shows on the module page; undo removes it @nojs', async ({
	page,
	request,
	javaScriptEnabled,
}) => {
	// Many steps, and axe on the module page.
	test.slow()
	const { orgId } = await ownerWithMailbox(page, request)
	const history = page.getByRole('region', { name: 'Email sync' })
	await expect(history).toContainText('No sync has run yet.')

	await page.goto('/app/transactions')
	await page.getByRole('button', { name: 'Sync', exact: true }).click()
	await expect(page.getByText('Sync finished: 5 new payments').first()).toBeVisible()
	await expect(page.getByTestId('sync-status')).toHaveText('Idle')
	for (const text of ['4012345678901234567', 'Haircut', 'Cleaning'])
		await expect(page.getByRole('row').filter({ hasText: text }).first()).toBeVisible()
	const rows = await transactions(orgId)
	expect(rows).toHaveLength(5)
	expect(rows.every((r) => r.import_source === 'email')).toBe(true)
	// The two Bank of America notices alike in all but their message are two payments.
	expect(rows.filter((r) => r.raw_payer === 'Mary Jones')).toHaveLength(2)

	// Again: nothing new.
	await page.getByRole('button', { name: 'Sync', exact: true }).click()
	await expect(page.getByText('Sync finished: 0 new payments').first()).toBeVisible()
	expect(await transactions(orgId)).toHaveLength(5)

	// The module page: the runs with their counts, and the notice it could not read.
	await page.goto(`/app/modules/${P2P}`)
	await expect(page.getByTestId('email-sync-status')).toHaveText('Idle')
	const runs = history.getByRole('table')
	await expect(runs.getByRole('row')).toHaveCount(3)
	await expect(runs.getByRole('row').nth(2)).toContainText('Sync button')
	await expect(runs.getByRole('row').nth(2)).toContainText('Completed')
	await expect(runs.getByRole('row').nth(2).getByRole('cell').nth(3)).toHaveText('7')
	await expect(runs.getByRole('row').nth(2).getByRole('cell').nth(4)).toHaveText('5')
	await expect(history).toContainText('You have a new payment')
	await expect(history).toContainText('venmo@venmo.com')
	// Sync now, from the module page: a run like the button's, nothing new.
	await history.getByRole('button', { name: 'Sync now' }).click()
	await expect(page.getByText('Sync finished: 0 new payments').first()).toBeVisible()
	await expect(runs.getByRole('row')).toHaveCount(4)
	// axe runs in the page, so only where the page runs scripts.
	if (javaScriptEnabled) {
		const { violations } = await new AxeBuilder({ page })
			.include('#email-sync')
			.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
			.analyze()
		expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
	}

	// In Spanish and Portuguese too (the upgrade's name is translated there).
	for (const [lng, title] of [
		['es', 'Sincronización de correo'],
		['pt-BR', 'Sincronização de e-mail'],
	] as const) {
		await useLanguage(page, lng)
		await page.goto(`/app/modules/${P2P}`)
		await expect(page.getByRole('region', { name: title })).toBeVisible()
	}
	await useLanguage(page, 'en')
	await page.goto(`/app/modules/${P2P}`)

	// Undo the first run from the import history.
	await history.getByRole('link', { name: 'Import history' }).click()
	await expect(page.getByTestId('import-history')).toContainText('Email notices')
	await page.getByRole('link', { name: /^Undo the import of / }).click()
	await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, undo it' }).click()
	await expect(page.getByTestId('import-history')).toContainText('Undone: 5 removed')
	expect(await transactions(orgId)).toEqual([])
})

test('a refused login puts Sync in error with what to do; the link leads to the module page', async ({ page, request }) => {
	const { orgId } = await ownerWithMailbox(page, request)
	// The app password was revoked on the mail server's side: the stored one no longer works.
	await withDatabase((db) =>
		db.query(
			`update private.integration_tokens t set settings = jsonb_set(t.settings, '{user}', '"nobody@example.test"')
			from public.integration_credentials c where c.id = t.credential_id and c.organization_id = $1`,
			[orgId],
		),
	)
	await page.goto('/app/transactions')
	await page.getByRole('button', { name: 'Sync', exact: true }).click()
	await expect(page.getByText('The last sync failed').first()).toBeVisible()
	await expect(page.getByTestId('sync-status')).toHaveText('Error')
	await expect(page.getByText(/Automatic syncs are paused: reconnect the mailbox/).first()).toBeVisible()
	await page.getByRole('link', { name: 'Open the P2P Transaction Tracking module' }).click()
	await expect(page).toHaveURL(new RegExp(`/app/modules/${P2P}`))
	await expect(page.getByTestId('email-sync-status')).toHaveText('Error')
	await expect(page.getByRole('region', { name: 'Email sync' }).getByRole('table')).toContainText('The mailbox refused the login.')
	await expect(page.getByRole('region', { name: 'Integrations' })).toContainText('Error')
})
