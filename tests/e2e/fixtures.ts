import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { test as playwrightTest, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test'

export { expect }

export type Account = { email: string; password: string; fullName: string }

export function newAccount(name = 'E2E User'): Account {
	return { email: `e2e-${randomUUID()}@example.test`, password: 'correct-horse-1', fullName: name }
}

/**
 * Signs up through the real form post (no UI), leaving the session cookie in `request`; then,
 * unless `verify` is false, verifies the address as its owner would: the link of the mail the
 * sign-up sent, confirmed signed in (docs/decisions/037-verified-addresses.md), so the account
 * can take invitations and the shell shows no reminder.
 */
export async function signUpByRequest(request: APIRequestContext, account: Account, { verify = true } = {}) {
	const response = await request.post('/auth?mode=signup', {
		form: {
			intent: 'signup',
			...{ fullName: account.fullName, email: account.email, password: account.password, confirmPassword: account.password },
			// As the form sends it: the browser's zone (the test machine's, UTC), so the shell does not ask for one.
			timezone: 'UTC',
		},
		maxRedirects: 0,
	})
	expect(response.status(), 'sign-up redirects').toBe(302)
	// Read the "Account created!" flash here, so it does not pop up over the test's first page.
	await request.get(response.headers().location ?? '/app/dashboard')
	if (verify) await verifyByRequest(request, account.email)
}

/** The path and query of the newest link to `path` (e.g. '/auth/verify-email') in a mail to `to`, waiting for the mail. */
export async function mailedLink(to: string, path: string, timeout = 5_000) {
	const pattern = new RegExp(`https?://[^\\s]+${path.replace(/\//g, '\\/')}\\?[^\\s]+`)
	const until = Date.now() + timeout
	for (;;) {
		const found = mailsTo(to)
			.map(decodeQuotedPrintable)
			.reverse()
			.map((mail) => pattern.exec(mail)?.[0])
			.find(Boolean)
		if (found) return new URL(found).pathname + new URL(found).search
		if (Date.now() > until) throw new Error(`no mail to ${to} with a ${path} link`)
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
}

/** Confirms the newest verification link mailed to `email`, signed in as its account in `request`. */
export async function verifyByRequest(request: APIRequestContext, email: string) {
	const token = new URL(await mailedLink(email, '/auth/verify-email'), 'http://x').searchParams.get('token')!
	const verified = await request.post('/auth/verify-email', { form: { intent: 'verify', token }, maxRedirects: 0 })
	expect(verified.headers().location, 'the verification link verifies').toBe('/app/dashboard')
	await request.get('/app/dashboard')
}

/** Signs up through the UI and lands on the dashboard. */
export async function signUpThroughUi(page: Page, account: Account) {
	await page.goto('/auth?mode=signup')
	await page.getByLabel('Full Name').fill(account.fullName)
	await page.getByLabel('Email').fill(account.email)
	await page.getByLabel('Password', { exact: true }).fill(account.password)
	await page.getByLabel('Confirm Password').fill(account.password)
	await page.getByRole('button', { name: 'Create Account' }).click()
	await expect(page).toHaveURL(/\/app\/dashboard$/)
}

export async function signInThroughUi(page: Page, account: Pick<Account, 'email' | 'password'>) {
	await page.goto('/auth')
	await page.getByLabel('Email').fill(account.email)
	await page.getByLabel('Password', { exact: true }).fill(account.password)
	await page.getByRole('button', { name: 'Sign In' }).click()
}

/** Every .eml in the e2e server's outbox addressed to `to`, oldest first. */
export function mailsTo(to: string) {
	const outbox = path.resolve(process.env.E2E_DATA_DIR!, 'outbox')
	const safeTo = to.replace(/[^a-zA-Z0-9@._-]/g, '_')
	let files: string[] = []
	try {
		files = readdirSync(outbox)
			.filter((f) => f.endsWith(`-${safeTo}.eml`))
			.sort()
	} catch {
		// no outbox yet: no mail
	}
	return files.map((f) => readFileSync(path.join(outbox, f), 'utf8'))
}

/**
 * Closes the toast on screen, as a user would before clicking what it covers (bottom right). A
 * toast still sliding in can cover a link between the press and the release, so the click goes
 * nowhere (a trace of the full run showed it: the link focused, no navigation); and sonner keeps a
 * toast while the pointer is over it. Without JavaScript there is no toast (the notice is part of
 * the page) and nothing to close.
 */
export async function closeToast(page: Page) {
	// The toast on screen, not one still leaving (for a fifth of a second) as the next came in.
	const close = page.locator('[data-sonner-toast]:not([data-removed="true"])').getByRole('button', { name: 'Close notification' })
	// It may go by itself between the count and the click.
	if (await close.count())
		await close
			.first()
			.click({ timeout: 3_000 })
			.catch(() => {})
	await expect(close).toHaveCount(0)
}

/** Presses Tab until `target` has the focus, as a keyboard user reaches it; fails after `max` presses. */
export async function tabTo(page: Page, target: Locator, max = 80) {
	for (let i = 0; i < max; i++) {
		if (await target.evaluate((el) => el === document.activeElement)) return
		await page.keyboard.press('Tab')
	}
	await expect(target).toBeFocused()
}

/**
 * The newest mail to `to`, waiting for it (the server sends mail after answering). `containing`:
 * the newest one whose (decoded) text has it, for an address that has had mail before (a sign-up
 * mails its verification link).
 */
export async function latestMailTo(to: string, timeout = 5_000, containing?: string) {
	const until = Date.now() + timeout
	for (;;) {
		const last = mailsTo(to)
			.filter((mail) => !containing || decodeQuotedPrintable(mail).includes(containing))
			.at(-1)
		if (last) return last
		if (Date.now() > until) throw new Error(`no mail to ${to}`)
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
}

export function decodeQuotedPrintable(text: string) {
	return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/**
 * With JavaScript on, `page.goto` resolves once React has hydrated (the root marks <html>),
 * so a test never types into a page whose scripts are still loading.
 */
const base = playwrightTest.extend({
	page: async ({ page, javaScriptEnabled }, use) => {
		if (javaScriptEnabled) {
			const goto = page.goto.bind(page)
			page.goto = async (url, options) => {
				const response = await goto(url, options)
				await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
				return response
			}
			const reload = page.reload.bind(page)
			page.reload = async (options) => {
				const response = await reload(options)
				await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
				return response
			}
		}
		await use(page)
	},
})

type WorkerFixtures = { workerAccount: Account; workerStorageState: string }

/**
 * `page` of tests that use `signedInTest` starts signed in as one user per worker: signed up
 * once, its storage state reused.
 */
export const signedInTest = base.extend<{ account: Account }, WorkerFixtures>({
	workerAccount: [
		async ({}, use, workerInfo) => {
			await use(newAccount(`Worker ${workerInfo.workerIndex}`))
		},
		{ scope: 'worker' },
	],
	workerStorageState: [
		async ({ playwright, workerAccount }, use, workerInfo) => {
			const baseURL = workerInfo.project.use.baseURL
			const request = await playwright.request.newContext({ baseURL })
			await signUpByRequest(request, workerAccount)
			const file = path.resolve(`tests/.tmp/storage-${workerInfo.project.name}-${workerInfo.workerIndex}.json`)
			await request.storageState({ path: file })
			await request.dispose()
			await use(file)
		},
		{ scope: 'worker' },
	],
	storageState: async ({ workerStorageState }, use) => {
		await use(workerStorageState)
	},
	account: async ({ workerAccount }, use) => {
		await use(workerAccount)
	},
})

export const test = base
