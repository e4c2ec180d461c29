import type { APIRequestContext } from '@playwright/test'
import { expect, newAccount, signUpThroughUi, test, verifyByRequest, type Account } from './fixtures.ts'

// docs/product.md, Time zones: an organization whose zone nobody chose (made through Google
// sign-up, which gives no zone, or before sign-up asked) starts in UTC, and the shell asks its
// owner once: this device's zone in one tap with JavaScript, a select of zones in words without.

/** Signs up as Google sign-up does, with no zone from a form: the organization starts in UTC, unconfirmed. */
async function signUpWithoutZone(request: APIRequestContext, account: Account) {
	const response = await request.post('/auth?mode=signup', {
		form: {
			intent: 'signup',
			fullName: account.fullName,
			email: account.email,
			password: account.password,
			confirmPassword: account.password,
		},
		maxRedirects: 0,
	})
	expect(response.status()).toBe(302)
	await request.get(response.headers().location ?? '/app/dashboard')
	await verifyByRequest(request, account.email)
}

test.describe('on a device in UTC', () => {
	test.use({ timezoneId: 'UTC' })

	test('the owner picks the zone from a select of zones in words, and is not asked again @nojs', async ({ page }) => {
		await signUpWithoutZone(page.request, newAccount('Zone Asker'))
		await page.goto('/app/dashboard')
		const question = page.getByRole('region', { name: /clock is set to Coordinated Universal Time/ })
		await expect(question).toBeVisible()
		await question.getByLabel('Time zone of your business').selectOption({ label: 'Brasilia Standard Time (São Paulo)' })
		await question.getByRole('button', { name: 'Use this time zone' }).click()
		await expect(page).toHaveURL(/\/app\/dashboard$/)
		await expect(page.getByText(/clock is now on Brasilia Standard Time \(São Paulo\)\./)).toBeVisible()
		await expect(question).toHaveCount(0)
		await page.goto('/app/settings/organization')
		await expect(page.getByLabel('Timezone')).toHaveValue('America/Sao_Paulo')
		await expect(page.getByRole('region', { name: /clock is set to/ })).toHaveCount(0)
	})

	test('keeping UTC is an answer too, in Spanish @nojs', async ({ page }) => {
		const account = newAccount('Zone Keeper')
		await signUpWithoutZone(page.request, account)
		await page.request.post('/preferences', { form: { intent: 'language', language: 'es', redirectTo: '/app/dashboard' } })
		await page.goto('/app/dashboard')
		const question = page.getByRole('region', { name: /El reloj de tu negocio está en/ })
		await question.getByRole('button', { name: /^Mantener / }).click()
		await expect(page.getByText(/El reloj de tu negocio sigue en/)).toBeVisible()
		await expect(question).toHaveCount(0)
		await page.reload()
		await expect(page.getByRole('region', { name: /El reloj de tu negocio está en/ })).toHaveCount(0)
	})
})

test.describe('on a device in Los Angeles', () => {
	test.use({ timezoneId: 'America/Los_Angeles' })

	test("the owner takes this device's zone in one tap", async ({ page }) => {
		await signUpWithoutZone(page.request, newAccount('Zone Tapper'))
		await page.goto('/app/dashboard')
		const question = page.getByRole('region', { name: /this device is on Pacific Time \(Los Angeles\)/ })
		await question.getByRole('button', { name: 'Use Pacific Time (Los Angeles)' }).click()
		await expect(question).toHaveCount(0)
		await page.goto('/app/settings/organization')
		await expect(page.getByLabel('Timezone')).toHaveValue('America/Los_Angeles')
	})

	test('an owner who signed up with the form is never asked', async ({ page }) => {
		await signUpThroughUi(page, newAccount('Form Owner'))
		await expect(page.getByRole('navigation').first()).toBeVisible()
		await expect(page.getByRole('region', { name: /clock is set to/ })).toHaveCount(0)
	})
})
