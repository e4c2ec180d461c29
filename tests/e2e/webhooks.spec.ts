/**
 * Webhooks (docs/product.md, Webhooks; docs/webhooks.md): an owner adds an endpoint, copies its
 * secret once, and a payment is delivered to a receiver started by the test, which checks the
 * signature with its own code; the receiver's first answer is a 500, the delivery log says so, and
 * the retry is answered and logged as delivered. With JavaScript in English, without it in
 * Spanish (with a refused address), and the upgrade explained in Portuguese. The backoff schedule,
 * the once-only claim and the events of every path are checked in tests/db/webhooks.test.ts.
 */
import type { Page } from '@playwright/test'
import { startReceiver } from '../support/webhook-receiver.ts'
import { withDatabase } from './db.ts'
import { expect, test } from './fixtures.ts'
import { seedPayments, signUpFresh, useLanguage } from './reports-data.ts'

const AUTOMATION = 'b0000000-0000-4000-8000-000000000010'
const UNLIMITED = 'c0000000-0000-4000-8000-000000000015'

/** Gives the organization Workflow Automation and Automation Unlimited, as a purchase would. */
async function grant(orgId: string) {
	await withDatabase(async (db) => {
		await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [orgId, AUTOMATION])
		await db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select $1, id, $3 from public.organization_modules where organization_id = $1 and module_id = $2`,
			[orgId, AUTOMATION, UNLIMITED],
		)
	})
}

const today = () => new Date().toISOString().slice(0, 10)

/** The words of the flow, in the page's language. */
type Words = { url: string; add: string; secret: string; sendNow: string; resend: string; pending: string; delivered: string }

async function deliverWithRetry(page: Page, email: string, words: Words) {
	let secret: string | undefined
	const receiver = await startReceiver({ statuses: [500], secret: () => secret })
	try {
		await page.getByLabel(words.url).fill(receiver.url)
		await page.getByRole('button', { name: words.add }).click()
		const shown = page.getByLabel(words.secret)
		await expect(shown).toHaveValue(/^whsec_/)
		secret = await shown.inputValue()
		await expect(page.getByTestId('webhook-endpoint')).toContainText(receiver.url)

		await seedPayments(email, [], [{ client: null, amount: '125.50', date: today(), category: 'pending' }])
		await page.reload()
		const row = page.getByTestId('webhook-delivery')
		await expect(row).toHaveCount(1)
		await expect(row).toContainText('payment.received')
		await row.getByRole('button', { name: words.sendNow }).click()
		await expect(row).toContainText('500')
		await expect(row).toContainText(words.pending)
		expect(receiver.received).toHaveLength(1)

		await row.getByRole('button', { name: words.resend }).click()
		await expect(row).toContainText(words.delivered)
		await expect(row).toContainText('200')
		expect(receiver.received.map((r) => [r.answered, r.verified, r.headers['p2p-attempt']])).toEqual([
			[500, true, '1'],
			[200, true, '2'],
		])
		// One delivery, the same id on both attempts; the body is the documented payload.
		expect(new Set(receiver.received.map((r) => r.headers['p2p-delivery'])).size).toBe(1)
		expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({ type: 'payment.received', data: { amount: '125.50' } })
	} finally {
		await receiver.close()
	}
}

test('a payment is delivered signed, and retried after a 500', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Hook Owner')
	const { orgId } = await seedPayments(account.email, [], [])
	await grant(orgId)
	await page.goto('/app/webhooks')
	await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible()
	await deliverWithRetry(page, account.email, {
		url: 'Address (URL)',
		add: 'Add endpoint',
		secret: 'Signing secret',
		sendNow: 'Send now',
		resend: 'Resend',
		pending: 'Pending',
		delivered: 'Delivered',
	})
})

test('without JavaScript, in Spanish: a bad address is refused, then a delivery is retried @nojs', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Dueña Webhooks')
	const { orgId } = await seedPayments(account.email, [], [])
	await grant(orgId)
	await useLanguage(page, 'es')
	await page.goto('/app/webhooks')
	await page.getByLabel('Dirección (URL)').fill('ftp://example.com/hooks')
	await page.getByLabel(/llega un pago/).uncheck()
	await page.getByRole('button', { name: 'Añadir endpoint' }).click()
	await expect(page.getByText('Escribe una dirección completa http:// o https:// sin usuario ni contraseña.')).toBeVisible()
	await expect(page.getByText('Elige al menos un evento.')).toBeVisible()
	await expect(page.getByTestId('webhook-endpoint')).toHaveCount(0)
	await page.getByLabel(/llega un pago/).check()
	await deliverWithRetry(page, account.email, {
		url: 'Dirección (URL)',
		add: 'Añadir endpoint',
		secret: 'Secreto de firma',
		sendNow: 'Enviar ahora',
		resend: 'Reenviar',
		pending: 'Pendiente',
		delivered: 'Entregada',
	})
})

test('without the upgrade, the screen explains it, in Portuguese', async ({ page, request }) => {
	await signUpFresh(page, request, 'Dona Sem Upgrade')
	await useLanguage(page, 'pt-BR')
	await page.goto('/app/webhooks')
	await expect(page.getByTestId('webhooks-inactive')).toContainText('Os webhooks vêm com a Automação ilimitada')
	await expect(page.getByRole('link', { name: 'Obter a Automação ilimitada na loja de módulos' })).toBeVisible()
})

test('an endpoint is paused, resumed, and removed only after a confirmation, in Portuguese @nojs', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Dona Pausa')
	const { orgId } = await seedPayments(account.email, [], [])
	await grant(orgId)
	await useLanguage(page, 'pt-BR')
	await page.goto('/app/webhooks')
	await page.getByLabel('Endereço (URL)').fill('http://127.0.0.1:9/hooks')
	await page.getByRole('button', { name: 'Adicionar endpoint' }).click()
	const endpoint = page.getByTestId('webhook-endpoint')
	await expect(endpoint).toHaveCount(1)

	await endpoint.getByRole('button', { name: 'Pausar o endpoint http://127.0.0.1:9/hooks' }).click()
	await expect(endpoint).toContainText('Pausado')
	await endpoint.getByRole('button', { name: 'Retomar o endpoint http://127.0.0.1:9/hooks' }).click()
	await expect(endpoint).not.toContainText('Pausado')

	// Remove asks first; keeping it changes nothing.
	await endpoint.getByRole('link', { name: 'Remover o endpoint http://127.0.0.1:9/hooks' }).click()
	const confirm = page.getByRole('alertdialog', { name: 'Remover este endpoint?' })
	await expect(confirm).toContainText('não receberá mais eventos')
	await confirm.getByRole('link', { name: 'Manter' }).click()
	await expect(page.getByRole('alertdialog')).toHaveCount(0)
	await expect(endpoint).toHaveCount(1)
	await endpoint.getByRole('link', { name: 'Remover o endpoint http://127.0.0.1:9/hooks' }).click()
	await page.getByRole('alertdialog').getByRole('button', { name: 'Remover endpoint' }).click()
	await expect(page.getByText('Endpoint removido')).toBeVisible()
	await expect(endpoint).toHaveCount(0)
})
