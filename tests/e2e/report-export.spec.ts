/**
 * Report Export and Automation (docs/product.md, Reports › Report Export, Reports › Automation):
 * the overview's PDF, downloaded, carries the page's totals; the automation form is saved without
 * JavaScript in Spanish, and a bad amount is refused with a Spanish message; without the upgrades
 * the screens explain them and the PDF answers a translated 403. The mailed reports and the
 * once-only rules are checked in tests/db/report-automation.test.ts.
 */
import { readFile } from 'node:fs/promises'
import { readPdf } from '../support/pdf-text.ts'
import { withDatabase } from './db.ts'
import { expect, test } from './fixtures.ts'
import { monthsAgo, seedPayments, signUpFresh, useLanguage } from './reports-data.ts'

const REPORTS = 'b0000000-0000-4000-8000-000000000004'
const EXPORT = 'c0000000-0000-4000-8000-000000000012'
const AUTOMATION = 'c0000000-0000-4000-8000-000000000011'

/** Gives the account's organization upgrades of Reports & Analytics, as a purchase would. */
async function grant(orgId: string, ...upgrades: string[]) {
	await withDatabase(async (db) => {
		await db.query(
			`insert into public.organization_modules (organization_id, module_id)
			 select $1, $2 where not exists (select 1 from public.organization_modules where organization_id = $1 and module_id = $2)`,
			[orgId, REPORTS],
		)
		for (const upgrade of upgrades)
			await db.query(
				`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
				 select $1, id, $3 from public.organization_modules where organization_id = $1 and module_id = $2`,
				[orgId, REPORTS, upgrade],
			)
	})
}

test('the overview PDF carries the totals the page shows', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Export Owner')
	const { orgId } = await seedPayments(
		account.email,
		['Ana'],
		[
			{ client: 0, amount: '1200.50', date: monthsAgo(2, 3), category: 'matched' },
			{ client: null, amount: '99.50', date: monthsAgo(1, 5), category: 'pending' },
		],
	)
	await grant(orgId, EXPORT)
	await page.goto('/app/reports?range=last-12-months')
	await expect(page.getByText('$1,300.00').first()).toBeVisible()
	const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PDF' }).click()])
	const pdf = await readPdf(new Uint8Array(await readFile(await download.path())))
	for (const expected of ['Report', 'Total Revenue', '$1,300.00', '$650.00', 'Category breakdown', 'Monthly trends', 'Page 1 of 1'])
		expect(pdf.text).toContain(expected)
})

test('the automation form is saved without JavaScript, in Spanish, and a bad amount is refused @nojs', async ({ page, request }) => {
	const account = await signUpFresh(page, request, 'Dueña Automática')
	const { orgId } = await seedPayments(account.email, [], [])
	await grant(orgId, AUTOMATION)
	await useLanguage(page, 'es')
	await page.goto('/app/reports/automation')
	await expect(page.getByRole('heading', { name: 'Automatización', level: 1 })).toBeVisible()
	await page.getByLabel('Informe semanal, cada lunes, de la semana anterior').check()
	await page.getByLabel(/Dueña Automática/).check()
	await page.getByLabel('Recibido más de este monto en una semana').fill('abc')
	await page.getByRole('button', { name: 'Guardar automatización' }).click()
	await expect(page.getByText('Escribe un monto mayor que cero, como 5.000,00.')).toBeVisible()

	await page.getByLabel('Recibido más de este monto en una semana').fill('1.500,25')
	await page.getByLabel('Un cliente lleva estas semanas sin pagar').fill('6')
	await page.getByRole('button', { name: 'Guardar automatización' }).click()
	await expect(page.getByText('Automatización guardada')).toBeVisible()
	await page.goto('/app/reports/automation')
	await expect(page.getByLabel('Informe semanal, cada lunes, de la semana anterior')).toBeChecked()
	await expect(page.getByLabel('Informe mensual, el día 1, del mes anterior')).not.toBeChecked()
	await expect(page.getByLabel(/Dueña Automática/)).toBeChecked()
	await expect(page.getByLabel('Recibido más de este monto en una semana')).toHaveValue('1500,25')
	await expect(page.getByLabel('Un cliente lleva estas semanas sin pagar')).toHaveValue('6')
})

test('without the upgrades the screens explain them and the PDF is refused in the reader’s language', async ({ page, request }) => {
	await signUpFresh(page, request, 'Sem Upgrade')
	await useLanguage(page, 'pt-BR')
	await page.goto('/app/reports/automation')
	await expect(page.getByTestId('automation-inactive')).toContainText('A automação é um upgrade de Relatórios e análises')
	await expect(page.getByRole('link', { name: 'Adquirir Automação na loja de módulos' })).toHaveAttribute('href', `/app/modules/${REPORTS}`)
	await page.goto('/app/reports')
	await expect(page.getByTestId('report-pdf-locked')).toHaveText('A exportação em PDF vem com o upgrade Exportação de relatórios')
	const response = await page.request.get('/app/reports/report.pdf?range=all')
	expect(response.status()).toBe(403)
	expect(response.headers()['content-type']).toContain('text/html')
	expect(await response.text()).toContain('<h1>Exportar em PDF requer o upgrade Exportação de relatórios</h1>')
	const post = await page.request.post('/app/reports/automation', {
		form: { intent: 'save', weeklyReport: 'on' },
		headers: { origin: new URL(page.url()).origin },
	})
	expect(post.status()).toBe(403)
})
