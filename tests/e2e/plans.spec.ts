import { expect, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

test('plans: a new organization is on the free plan of its starting gears; the others offer a mail, nothing that pretends @nojs', async ({
	page,
	request,
}) => {
	await signUpFresh(page, request, 'Plan Reader')
	await page.goto('/app/plans')
	await expect(page.getByRole('heading', { name: 'Plans', level: 1 })).toBeVisible()
	await expect(page.getByRole('heading', { name: 'What are Gears?' })).toBeVisible()
	await expect(page.getByText('Nothing is charged per month or per use.')).toBeVisible()
	const mine = page.getByRole('region', { name: 'Your plan: Free' })
	await expect(mine).toContainText('15,000 gears to start, given once when the organization is created. Nothing is charged.')
	await expect(mine).toContainText('Current Plan')
	await expect(mine).toContainText('15,000 gears remaining')
	const professional = page.getByRole('article', { name: 'Professional' })
	await expect(professional).not.toContainText('Current Plan')
	await expect(page.getByRole('article', { name: 'Enterprise' })).toContainText('50,000+')
	// No button that does nothing, no promise the product cannot keep.
	await expect(page.getByRole('main').getByRole('button')).toHaveCount(0)
	await expect(page.getByText(/Change plans anytime|roll over|Choose Plan/)).toHaveCount(0)
	const contact = professional.getByRole('link', { name: 'Contact us about the Professional plan' })
	const href = (await contact.getAttribute('href'))!
	expect(href.startsWith('mailto:owner@p2p.example?subject=')).toBe(true)
	expect(decodeURIComponent(href.split('subject=')[1]!)).toMatch(/^The Professional plan for /)
	// The old form is gone: a post changes nothing and is not accepted.
	const post = await page.request.post('/app/plans', {
		form: { intent: 'choosePlan', plan: 'starter' },
		headers: { origin: test.info().project.use.baseURL! },
		maxRedirects: 0,
	})
	expect(post.status()).toBe(405)
})

test('plans render in Spanish and Brazilian Portuguese @nojs', async ({ page, request }) => {
	await signUpFresh(page, request, 'Plan Polyglot')
	await useLanguage(page, 'es')
	await page.goto('/app/plans')
	await expect(page.getByRole('heading', { name: '¿Qué son los engranajes?' })).toBeVisible()
	await expect(page.getByRole('region', { name: 'Tu plan: Gratis' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Contáctanos sobre el plan Professional' })).toBeVisible()
	await useLanguage(page, 'pt-BR')
	await page.goto('/app/plans')
	await expect(page.getByRole('heading', { name: 'O que são engrenagens?' })).toBeVisible()
	await expect(page.getByRole('region', { name: 'Seu plano: Grátis' })).toBeVisible()
})
