import { expect, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

test('plans: Professional is the current plan, choosing another says plans cannot be changed online yet @nojs', async ({
	page,
	request,
}) => {
	await signUpFresh(page, request, 'Plan Chooser')
	await page.goto('/app/plans')
	await expect(page.getByRole('heading', { name: 'Plans', level: 1 })).toBeVisible()
	await expect(page.getByRole('heading', { name: 'What are Gears?' })).toBeVisible()
	const professional = page.getByRole('article', { name: 'Professional' })
	await expect(professional.getByText('Most Popular')).toBeVisible()
	await expect(professional.getByRole('button', { name: 'Current Plan' })).toBeDisabled()
	await expect(page.getByRole('article', { name: 'Enterprise' })).toContainText('50,000+')
	await expect(page.getByText('Unused gears roll over to the next month.')).toBeVisible()
	await page.getByRole('button', { name: 'Choose the Starter plan' }).click()
	await expect(
		page.getByText('You selected the Starter plan. Plans cannot be changed online yet: nothing was changed.').first(),
	).toBeVisible()
	await expect(page).toHaveURL(/\/app\/plans$/)
})

test('plans render in Spanish and Brazilian Portuguese @nojs', async ({ page, request }) => {
	await signUpFresh(page, request, 'Plan Polyglot')
	await useLanguage(page, 'es')
	await page.goto('/app/plans')
	await expect(page.getByRole('heading', { name: '¿Qué son los engranajes?' })).toBeVisible()
	await useLanguage(page, 'pt-BR')
	await page.goto('/app/plans')
	await expect(page.getByRole('heading', { name: 'O que são engrenagens?' })).toBeVisible()
})
