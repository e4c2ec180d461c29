import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'

const P2P = 'b0000000-0000-4000-8000-000000000001'
const EMAIL_UPGRADE = 'c0000000-0000-4000-8000-000000000001'

test('Transactions › Sync names the one step still to take, never one already done, and then the mailbox @nojs', async ({ page }) => {
	const account = newAccount('Sync Steps')
	await signUpByRequest(page.request, account)
	const orgId = await withDatabase(
		async (db) =>
			(
				await db.query<{ organization_id: string }>(
					`select m.organization_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
					[account.email],
				)
			).rows[0]!.organization_id,
	)
	const sync = async () => {
		await page.goto('/app/transactions')
		await page.getByRole('button', { name: 'Sync', exact: true }).click()
		await expect(page.getByTestId('sync-status')).toHaveText('No source connected')
	}
	// The module is included: the step is the email upgrade, with the way to add it.
	await sync()
	await expect(page.getByTestId('sync-next-step')).toHaveText(
		'Next step: add the email upgrade of the P2P Transaction Tracking module, then connect a mailbox.',
	)
	await expect(page.getByText(/activate the P2P Transaction Tracking module/i)).toHaveCount(0)
	await expect(page.getByRole('link', { name: 'Add the email upgrade' })).toHaveAttribute(
		'href',
		`/app/modules/${P2P}?upgrade=${EMAIL_UPGRADE}`,
	)

	// The upgrade added: the step is connecting a mailbox, said in the toast and under the status.
	await page.goto(`/app/modules/${P2P}?upgrade=${EMAIL_UPGRADE}`)
	await page
		.getByRole('dialog', { name: /P2P Tracking - Email/ })
		.getByRole('button', { name: /gears/ })
		.click()
	await expect(page.getByText('Upgrade activated successfully').first()).toBeVisible()
	await sync()
	await expect(
		page.getByText('The email upgrade is active: connect a mailbox in the P2P Transaction Tracking module.').first(),
	).toBeVisible()
	await expect(page.getByTestId('sync-next-step')).toHaveText(
		'The email upgrade is active. Next step: connect the mailbox where your payment emails arrive.',
	)
	await expect(page.getByText(/add (its|the) email upgrade/i)).toHaveCount(0)
	await expect(page.getByRole('link', { name: 'Connect a mailbox' })).toHaveAttribute('href', `/app/modules/${P2P}#integrations`)

	// A mailbox connected: no step left; the old "no source" gives way to the mailbox and its state.
	await withDatabase((db) =>
		db.query(
			`insert into public.integration_credentials (organization_id, upgrade_id, provider, scope, status, account)
			 values ($1, $2, 'imap', 'imap', 'connected', 'payments@example.test')`,
			[orgId, EMAIL_UPGRADE],
		),
	)
	await page.goto('/app/transactions')
	await expect(page.getByTestId('sync-mailbox')).toHaveText('payments@example.test, connected')
	await expect(page.getByTestId('sync-status')).toHaveText('Idle')
	await expect(page.getByTestId('sync-next-step')).toHaveCount(0)
	await expect(page.getByRole('link', { name: 'Connect a mailbox' })).toHaveCount(0)
})
