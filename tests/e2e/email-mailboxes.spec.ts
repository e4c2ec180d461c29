import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { startImapServer, type ImapServer } from '../support/imap-server.ts'
import { withDatabase } from './db.ts'
import { expect, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

// docs/product.md, Integrations and Email sync: with Email Pro an organization connects several
// mailboxes (docs/decisions/051-several-mailboxes.md); Sync reads each. Two users of one real
// IMAP server started by the test (dovecot), a notice in each mailbox.
const P2P = 'b0000000-0000-4000-8000-000000000001'
const EMAIL_UPGRADE = 'c0000000-0000-4000-8000-000000000001'
const EMAIL_PRO = 'c0000000-0000-4000-8000-000000000002'
const DIR = path.resolve('tests/unit/fixtures/mailbox')
const SECOND = { user: 'pro-second@example.test', password: 'Second-App-Password-9' }

let imap: ImapServer
test.beforeAll(async () => {
	imap = await startImapServer({ user: 'pro-first@example.test', password: 'First-App-Password-8', others: [SECOND] })
	const date = new Date(Date.now() - 86_400_000)
	await imap.appendMessage(readFileSync(path.join(DIR, '01-venmo-paid-you.eml')), { date })
	await imap.appendMessage(readFileSync(path.join(DIR, '12-td-zelle.eml')), { date, user: SECOND.user })
})
test.afterAll(async () => {
	await imap?.stop()
})

async function connectImap(page: Page, user: string, password: string) {
	const form = page.getByRole('region', { name: 'Any mailbox over IMAP' })
	await form.getByLabel('IMAP server').fill(imap.host)
	await form.getByLabel('Port').fill(String(imap.port))
	await form.getByLabel('Use TLS (SSL)').uncheck()
	await form.getByLabel('User name').fill(user)
	await form.getByLabel('App password').fill(password)
	await form.getByRole('button', { name: 'Connect mailbox' }).click()
	await expect(page.getByText(`Connected to ${user}`).first()).toBeVisible()
}

test('with Email Pro an owner connects two mailboxes, Sync lands the payment of each, removing one keeps the other @nojs', async ({
	page,
	request,
}) => {
	test.slow()
	const account = await signUpFresh(page, request, 'Pro Mailboxes Owner')
	const orgId = await withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string }>(
			`select m.organization_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		)
		return rows[0]!.organization_id
	})
	await page.request.post(`/app/modules/${P2P}`, { form: { intent: 'purchaseUpgrade', upgradeId: EMAIL_UPGRADE } })
	// Email Pro is not sold yet: given to the organization directly.
	await withDatabase((db) =>
		db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select organization_id, id, $2 from public.organization_modules where organization_id = $1 and module_id = $3`,
			[orgId, EMAIL_PRO, P2P],
		),
	)
	await page.goto(`/app/modules/${P2P}`)
	await connectImap(page, imap.user, imap.password)
	const card = page.getByRole('region', { name: 'Integrations' })
	const another = card.getByRole('region', { name: 'Connect another mailbox' })
	await expect(another).toContainText('1 of 5 mailboxes connected.')
	await connectImap(page, SECOND.user, SECOND.password)
	const mailboxes = card.getByRole('list', { name: 'Connected mailboxes' }).getByRole('listitem')
	await expect(mailboxes).toHaveCount(2)
	await expect(mailboxes.nth(0)).toContainText(imap.user)
	await expect(mailboxes.nth(1)).toContainText(SECOND.user)
	await expect(another).toContainText('2 of 5 mailboxes connected.')

	await page.getByRole('region', { name: 'Email sync' }).getByRole('button', { name: 'Sync now' }).click()
	await expect(page.getByText('Sync finished: 2 new payments').first()).toBeVisible()
	const methods = async () =>
		withDatabase(
			async (db) =>
				(
					await db.query<{ payment_method: string }>(
						`select payment_method::text from public.transactions where organization_id = $1 order by 1`,
						[orgId],
					)
				).rows,
		)
	expect(await methods()).toEqual([{ payment_method: 'Venmo' }, { payment_method: 'Zelle' }])
	await expect(mailboxes.nth(1)).not.toContainText('Never')

	// Email Pro lapses: the oldest mailbox stays, the other is paused and says why; back with Email Pro.
	const pro = (sql: string) => withDatabase((db) => db.query(sql, [orgId, EMAIL_PRO, P2P]))
	await pro(`delete from public.organization_module_upgrades where organization_id = $1 and upgrade_id = $2 and $3::uuid is not null`)
	await page.goto(`/app/modules/${P2P}`)
	await expect(mailboxes.nth(0)).not.toContainText('Paused')
	await expect(mailboxes.nth(1)).toContainText('Paused')
	await expect(mailboxes.nth(1)).toContainText('without Email Pro only the first mailbox is read')
	await expect(card.getByRole('region', { name: 'Connect another mailbox' })).toHaveCount(0)
	await pro(
		`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
		 select organization_id, id, $2 from public.organization_modules where organization_id = $1 and module_id = $3`,
	)
	await page.goto(`/app/modules/${P2P}`)
	await expect(mailboxes.nth(1)).not.toContainText('Paused')

	await card.getByRole('button', { name: `Disconnect ${SECOND.user}` }).click()
	await expect(page.getByText(`Disconnected from ${SECOND.user}`).first()).toBeVisible()
	await expect(mailboxes).toHaveCount(1)
	await expect(mailboxes.first()).toContainText(imap.user)
	await expect(mailboxes.first()).toContainText('Connected')
	expect(await methods()).toHaveLength(2)

	// The card in Spanish and Portuguese.
	for (const [lng, heading] of [
		['es', 'Conectar otro buzón'],
		['pt-BR', 'Conectar outra caixa de correio'],
	] as const) {
		await useLanguage(page, lng)
		await page.goto(`/app/modules/${P2P}`)
		await expect(page.getByRole('heading', { name: heading })).toBeVisible()
	}
	await useLanguage(page, 'en')
})
