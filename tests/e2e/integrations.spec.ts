import type { APIRequestContext, Page } from '@playwright/test'
import { startImapServer, type ImapServer } from '../support/imap-server.ts'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'
import { signUpFresh } from './reports-data.ts'

// docs/product.md, Integrations: a mailbox connected to the 'P2P Tracking - Email' upgrade,
// against a real IMAP server started by the test (dovecot).
const P2P = 'b0000000-0000-4000-8000-000000000001'
const EMAIL_UPGRADE = 'c0000000-0000-4000-8000-000000000001'

let imap: ImapServer
test.beforeAll(async () => {
	imap = await startImapServer({ user: 'payments@example.test', password: 'Right-App-Password-42' })
})
test.afterAll(async () => {
	await imap?.stop()
})

async function owner(page: Page, request: APIRequestContext, name: string) {
	const account = await signUpFresh(page, request, name)
	const { rows } = await withDatabase((db) =>
		db.query<{ organization_id: string }>(
			`select m.organization_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		),
	)
	return { account, orgId: rows[0]!.organization_id }
}

async function stored(orgId: string) {
	return withDatabase(async (db) => ({
		credentials: (
			await db.query<{ provider: string; status: string; account: string | null; error_message: string | null }>(
				`select provider, status::text, account, error_message from public.integration_credentials where organization_id = $1`,
				[orgId],
			)
		).rows,
		secrets: (
			await db.query<{ row: string }>(
				`select row_to_json(t)::text as row from private.integration_tokens t
			 join public.integration_credentials c on c.id = t.credential_id where c.organization_id = $1`,
				[orgId],
			)
		).rows.map((r) => r.row),
	}))
}

async function fillImap(page: Page, password: string, port = imap.port) {
	const form = page.getByRole('region', { name: 'Any mailbox over IMAP' })
	await form.getByLabel('IMAP server').fill(imap.host)
	await form.getByLabel('Port').fill(String(port))
	await form.getByLabel('Use TLS (SSL)').uncheck()
	await form.getByLabel('User name').fill(imap.user)
	await form.getByLabel('App password').fill(password)
	await form.getByRole('button', { name: 'Connect mailbox' }).click()
}

test('an owner connects a mailbox over IMAP: a wrong password is refused and nothing stored; the right one connects, sealed, never sent back; refresh; disconnect @nojs', async ({
	page,
	request,
}) => {
	const { orgId } = await owner(page, request, 'Mailbox Owner')
	await page.goto(`/app/modules/${P2P}?upgrade=${EMAIL_UPGRADE}`)
	const dialog = page.getByRole('dialog', { name: /P2P Tracking - Email/ })
	await expect(dialog.getByRole('heading', { name: 'Integrations' })).toBeVisible()
	await expect(dialog).toContainText('Any mailbox over IMAP (server, port, TLS, user, app password), read-only.')
	await expect(dialog).toContainText('Outlook: coming soon')
	await dialog.getByRole('button', { name: /gears/ }).click()
	await expect(page.getByText('Upgrade activated successfully').first()).toBeVisible()

	const card = page.getByRole('region', { name: 'Integrations' })
	await expect(card).toContainText('No mailbox is connected.')
	await expect(page.getByText('Integration status').locator('xpath=following-sibling::dd[1]')).toHaveText('Not connected')

	// Bad input: field errors, nothing tried.
	await page.getByRole('region', { name: 'Any mailbox over IMAP' }).getByLabel('IMAP server').fill('not a host!')
	await page.getByRole('region', { name: 'Any mailbox over IMAP' }).getByRole('button', { name: 'Connect mailbox' }).click()
	await expect(page.getByText('Enter a server name such as imap.example.com.')).toBeVisible()
	await expect(page.getByText('Enter the app password.')).toBeVisible()

	// What the server answers to a post never carries the password back.
	// Read through the route (not the response event, whose body the browser may drop under load).
	const answers: Promise<string>[] = []
	await page.route('**/app/modules/**', async (route) => {
		if (route.request().method() !== 'POST') return route.continue()
		const response = await route.fetch({ maxRedirects: 0 })
		const body = await response.text()
		answers.push(Promise.resolve(body))
		await route.fulfill({ response, body })
	})
	await fillImap(page, 'Wrong-Password-17')
	await expect(page.getByText('The mailbox refused the user name or password.')).toBeVisible()
	if (test.info().project.use.javaScriptEnabled === false) {
		await expect(page.getByRole('region', { name: 'Any mailbox over IMAP' }).getByLabel('App password')).toHaveValue('')
	}
	await expect(page.getByRole('region', { name: 'Any mailbox over IMAP' }).getByLabel('User name')).toHaveValue(imap.user)
	expect((await Promise.all(answers)).join('\n')).not.toContain('Wrong-Password-17')
	expect((await Promise.all(answers)).join('\n')).toContain(imap.user) // the answers were read
	expect(await stored(orgId)).toEqual({ credentials: [], secrets: [] })

	// A port where nothing listens: unreachable, said so, nothing stored.
	await fillImap(page, imap.password, 1)
	await expect(page.getByText('The server could not be reached. Check the server name and port.')).toBeVisible()
	expect(await stored(orgId)).toEqual({ credentials: [], secrets: [] })

	await fillImap(page, imap.password)
	await expect(page.getByText(`Connected to ${imap.user}`).first()).toBeVisible()
	await expect(card).toContainText('IMAP mailbox')
	await expect(card).toContainText('Connected')
	await expect(card).toContainText(imap.user)
	await expect(card).toContainText('Last sync')
	await expect(card.getByRole('button', { name: 'Refresh Status' })).toBeVisible()
	await expect(page.getByText('Integration status').locator('xpath=following-sibling::dd[1]')).toHaveText('Connected (IMAP mailbox)')
	const { credentials, secrets } = await stored(orgId)
	expect(credentials).toEqual([{ provider: 'imap', status: 'connected', account: imap.user, error_message: null }])
	expect(secrets).toHaveLength(1)
	expect(secrets[0]).not.toContain(imap.password)
	// The password reaches neither the page nor its loader data.
	expect(await page.content()).not.toContain(imap.password)
	const html = await (await page.request.get(`/app/modules/${P2P}`)).text()
	const loaderData = await (await page.request.get(`/app/modules/${P2P}.data`)).text()
	expect(html).toContain(imap.user)
	expect(html).not.toContain(imap.password)
	expect(loaderData).toContain(imap.user)
	expect(loaderData).not.toContain(imap.password)
	expect(loaderData).not.toContain('v1.')
	expect((await Promise.all(answers)).join('\n')).not.toContain(imap.password)

	await card.getByRole('button', { name: 'Refresh Status' }).click()
	await expect(page.getByText('The connection works').first()).toBeVisible()

	await card.getByRole('button', { name: 'Disconnect' }).click()
	await expect(page.getByText(`Disconnected from ${imap.user}`).first()).toBeVisible()
	await expect(card).toContainText('Disconnected')
	// The email sync no longer offers a sync, nor a past run's state, with no mailbox to read.
	const sync = page.getByRole('region', { name: 'Email sync' })
	await expect(sync).toContainText('No mailbox is connected.')
	await expect(sync.getByRole('button', { name: 'Sync now' })).toHaveCount(0)
	await expect(card.getByRole('button', { name: 'Connect Gmail' })).toBeVisible()
	expect(await stored(orgId)).toEqual({
		credentials: [{ provider: 'imap', status: 'disconnected', account: imap.user, error_message: null }],
		secrets: [],
	})
})

test('without a Google client configured Connect Gmail is shown disabled with the reason; a forged connect stores nothing @nojs', async ({
	page,
	request,
}) => {
	const { orgId } = await owner(page, request, 'Gmail Owner')
	await page.request.post(`/app/modules/${P2P}`, { form: { intent: 'purchaseUpgrade', upgradeId: EMAIL_UPGRADE } })
	await page.goto(`/app/modules/${P2P}`)
	const card = page.getByRole('region', { name: 'Integrations' })
	const gmail = card.getByRole('button', { name: 'Connect Gmail' })
	await expect(gmail).toBeDisabled()
	await expect(gmail).toHaveAccessibleDescription(/Gmail is not set up on this server .* Connect the mailbox with IMAP below\./)
	// The IMAP form is the way in.
	await expect(card.getByRole('button', { name: 'Connect mailbox' })).toBeEnabled()
	const forged = await page.request.post(`/app/modules/${P2P}`, { form: { intent: 'connectGoogle' }, maxRedirects: 0 })
	expect(forged.status()).toBe(302)
	await page.goto(`/app/modules/${P2P}`)
	await expect(page.getByText('Failed to connect to Gmail').first()).toBeVisible()
	await expect(page.getByText(/Gmail is not set up on this server/).first()).toBeVisible()
	expect(await stored(orgId)).toEqual({ credentials: [], secrets: [] })
})

test('a member who is not the owner sees no connect form, and a forged connect is refused with nothing stored @nojs', async ({
	page,
	request,
	browser,
}) => {
	const { orgId } = await owner(page, request, 'Owner Of Mailbox')
	await page.request.post(`/app/modules/${P2P}`, { form: { intent: 'purchaseUpgrade', upgradeId: EMAIL_UPGRADE } })
	const member = newAccount('Plain Member')
	const context = await browser.newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled })
	await signUpByRequest(context.request, member)
	await withDatabase((db) =>
		db.query(
			`insert into public.organization_members (organization_id, user_id, role, joined_at)
			 select $1, id, 'administrator', '2000-01-01' from auth.users where email = $2`,
			[orgId, member.email],
		),
	)
	const memberPage = await context.newPage()
	await memberPage.goto(`/app/modules/${P2P}`)
	const card = memberPage.getByRole('region', { name: 'Integrations' })
	await expect(card).toContainText('Only owners connect, check or disconnect a mailbox.')
	await expect(card.getByRole('button')).toHaveCount(0)
	const forged = await context.request.post(`/app/modules/${P2P}`, {
		form: { intent: 'connectImap', host: imap.host, port: String(imap.port), user: imap.user, password: imap.password },
		maxRedirects: 0,
	})
	expect(forged.status()).toBe(403)
	expect(await stored(orgId)).toEqual({ credentials: [], secrets: [] })
	await context.close()
})

test('a Google callback that this browser did not start (no or another state) is refused and stores nothing', async ({ page, request }) => {
	const { orgId } = await owner(page, request, 'Callback Owner')
	await page.request.post(`/app/modules/${P2P}`, { form: { intent: 'purchaseUpgrade', upgradeId: EMAIL_UPGRADE } })
	await page.goto('/app/integrations/google/callback?state=forged-state&code=forged-code')
	await expect(page).toHaveURL(/\/app\/module-marketplace$/)
	await expect(page.getByText('Failed to connect to Gmail').first()).toBeVisible()
	await expect(page.getByText('The answer from Google could not be verified. Please try again.').first()).toBeVisible()
	expect(await stored(orgId)).toEqual({ credentials: [], secrets: [] })
})
