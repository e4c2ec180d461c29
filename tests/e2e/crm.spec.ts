import type { Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'
import { useLanguage } from './reports-data.ts'

// docs/product.md, Clients (CRM Basic Fields, CRM Pipelines): tags filter the list and notes make a
// timeline; the list exported as CSV and imported back adds no one; a pipeline is created, a client
// added and moved with forms (without JavaScript too) and dragged once scripts run; a follow-up of
// today shows on the dashboard. In English, Spanish and Portuguese. Without the upgrades, an offer.

const CRM = 'b0000000-0000-4000-8000-000000000002'
const BASIC = 'c0000000-0000-4000-8000-000000000004'
const PIPELINES = 'c0000000-0000-4000-8000-000000000005'

/** An owner signed in on `page` with the CRM upgrades (unless `upgrades` is false) and these clients. */
async function crmWorld(page: Page, clients: Array<{ name: string; email?: string }>, { upgrades = true } = {}) {
	const owner = newAccount('Cora Owner')
	await signUpByRequest(page.request, owner)
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ orgId: string; userId: string }>(
			`select m.organization_id as "orgId", m.user_id as "userId" from public.organization_members m
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[owner.email],
		)
		const { orgId, userId } = rows[0]!
		if (upgrades)
			await db.query(
				`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
				 select $1, om.id, u from public.organization_modules om, unnest($3::uuid[]) u
				 where om.organization_id = $1 and om.module_id = $2`,
				[orgId, CRM, [BASIC, PIPELINES]],
			)
		const ids: Record<string, string> = {}
		for (const c of clients) {
			const r = await db.query<{ id: string }>(
				'insert into public.clients (organization_id, user_id, name, email) values ($1, $2, $3, $4) returning id',
				[orgId, userId, c.name, c.email ?? null],
			)
			ids[c.name] = r.rows[0]!.id
		}
		return { orgId, ids }
	})
}

const clientCount = (orgId: string) =>
	withDatabase(
		async (db) =>
			(await db.query<{ n: number }>('select count(*)::int as n from public.clients where organization_id = $1', [orgId])).rows[0]!.n,
	)

test('tags filter the clients list and notes make a timeline @nojs', async ({ page }) => {
	const { ids } = await crmWorld(page, [{ name: 'Ana Tagged', email: 'ana@example.test' }, { name: 'Bo Plain' }])
	await page.goto(`/app/clients/${ids['Ana Tagged']}`)
	await page.getByLabel('Tags, separated by commas').fill('VIP, Wholesale  buyer')
	await page.getByRole('button', { name: 'Save tags' }).click()
	await expect(page.getByText('Tags saved')).toBeVisible()
	await expect(page.getByRole('link', { name: 'wholesale buyer' })).toBeVisible()
	// A bad tag is refused with a reason, and the tags stay as they were.
	await page.getByLabel('Tags, separated by commas').fill(`vip, ${'x'.repeat(41)}`)
	await page.getByRole('button', { name: 'Save tags' }).click()
	await expect(page.getByText('A tag has at most 40 characters, without commas or line breaks.')).toBeVisible()
	await expect(page.getByRole('link', { name: 'wholesale buyer' })).toBeVisible()

	await page.getByLabel('New note').fill('Called, wants a quote for March')
	await page.getByRole('button', { name: 'Add note' }).click()
	await expect(page.getByText('Note added')).toBeVisible()
	const notes = page.getByTestId('client-notes')
	await expect(notes.getByText('Called, wants a quote for March')).toBeVisible()
	await expect(notes.getByText(/^Cora Owner, /)).toBeVisible()
	await notes.getByRole('button', { name: 'Delete note' }).click()
	await expect(page.getByText('No notes yet.')).toBeVisible()

	// The tag's link filters the list; the filter says so and clears.
	await page.getByRole('link', { name: 'vip' }).click()
	await expect(page.getByTestId('tag-filter')).toHaveText(/Clients tagged “vip”/)
	await expect(page.getByRole('link', { name: 'Ana Tagged' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Bo Plain' })).toHaveCount(0)
	await page.getByRole('link', { name: 'Show every client' }).click()
	await expect(page.getByRole('link', { name: 'Bo Plain' })).toBeVisible()
})

test('the clients exported as CSV and imported back add no one (es) @nojs', async ({ page }) => {
	await useLanguage(page, 'es')
	const { orgId, ids } = await crmWorld(page, [{ name: 'Ana Ida', email: 'ana@example.test' }, { name: 'Bo Sin Correo' }])
	await page.goto(`/app/clients/${ids['Ana Ida']}`)
	await page.getByLabel('Etiquetas, separadas por comas').fill('vip')
	await page.getByRole('button', { name: 'Guardar etiquetas' }).click()
	await expect(page.getByText('Etiquetas guardadas')).toBeVisible()

	await page.goto('/app/clients')
	const href = await page.getByRole('link', { name: 'Exportar CSV' }).getAttribute('href')
	const exported = await page.request.get(href!)
	expect(exported.headers()['content-type']).toBe('text/csv; charset=utf-8')
	const csv = (await exported.text()).replace(/^\uFEFF/, '')
	expect(csv.split('\r\n')[0]).toBe('Nombre,Correo electrónico,Teléfono,Empresa,Estado,Etiquetas')
	expect(csv).toContain('Ana Ida,ana@example.test,,,Activo,vip')

	await page.getByRole('link', { name: 'Importar CSV' }).click()
	await page.getByLabel('Archivo CSV').setInputFiles({ name: 'clientes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
	await page.getByRole('button', { name: 'Vista previa' }).click()
	await expect(page.getByTestId('client-import-counts')).toHaveText('0 nuevos, 0 completados, 2 sin cambios')
	await page.getByRole('button', { name: 'Importar 2 filas' }).click()
	await expect(page.getByText('Clientes importados: 0 nuevos, 0 completados, 2 sin cambios')).toBeVisible()
	expect(await clientCount(orgId)).toBe(2)
})

test('a client file with a new client and a bad line: the preview says what the import will do (es) @nojs', async ({ page }) => {
	await useLanguage(page, 'es')
	const { orgId } = await crmWorld(page, [{ name: 'Ana Ida', email: 'ana@example.test' }, { name: 'Bo Sin Correo' }])
	await page.goto('/app/clients/import')
	const more = [
		'Nombre,Correo electrónico,Teléfono,Empresa,Estado,Etiquetas',
		'ana ida,ANA@example.test,,,Activo,',
		'Bo Sin Correo,,,,Activo,',
		'Nueva Clienta,nueva@example.test,,,Pendiente,',
		'Mala,no-es-correo,,,,',
	].join('\r\n')
	await page.getByLabel('Archivo CSV').setInputFiles({ name: 'clientes.csv', mimeType: 'text/csv', buffer: Buffer.from(more) })
	await page.getByRole('button', { name: 'Vista previa' }).click()
	await expect(page.getByTestId('client-import-counts')).toHaveText('1 nuevos, 0 completados, 2 sin cambios')
	await expect(page.getByTestId('client-import-skipped')).toHaveText('Línea 5: El correo no es una dirección válida.')
	await page.getByRole('button', { name: 'Importar 3 filas' }).click()
	await expect(page.getByText('Clientes importados: 1 nuevos, 0 completados, 2 sin cambios')).toBeVisible()
	expect(await clientCount(orgId)).toBe(3)
})

test('a pipeline is created and a client moved with its form; today’s follow-up is on the dashboard (pt-BR) @nojs', async ({ page }) => {
	await useLanguage(page, 'pt-BR')
	await crmWorld(page, [{ name: 'Lia Lead', email: 'lia@example.test' }])
	await page.goto('/app/clients')
	await page.getByRole('link', { name: 'Funis' }).click()
	await expect(page.getByText('Nenhum funil ainda.')).toBeVisible()
	await page.getByLabel('Nome', { exact: true }).fill('Vendas')
	await page.getByLabel('Etapas, uma por linha, em ordem').fill('Lead\nProposta\nGanho')
	await page.getByRole('button', { name: 'Criar funil' }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'Vendas' })).toBeVisible()

	await page.getByLabel('Cliente', { exact: true }).selectOption({ label: 'Lia Lead <lia@example.test>' })
	await page.getByRole('button', { name: 'Adicionar ao funil' }).click()
	const lead = page.locator('section[data-stage="Lead"]')
	await expect(lead.getByRole('article', { name: 'Lia Lead' })).toBeVisible()

	// "Mover para" offers the other stages, the next one chosen.
	const card = page.getByRole('article', { name: 'Lia Lead' })
	await expect(card.getByLabel('Mover para')).toHaveValue(/.+/)
	await card.getByLabel('Mover para').selectOption({ label: 'Proposta' })
	await card.getByRole('button', { name: 'Mover: Lia Lead' }).click()
	await expect(page.getByText('Cliente movido para Proposta')).toBeVisible()
	await expect(page.locator('section[data-stage="Proposta"]').getByRole('article', { name: 'Lia Lead' })).toBeVisible()
	await expect(lead.getByText('Nenhum cliente nesta etapa.')).toBeVisible()

	// A follow-up today (the organization's zone is UTC) shows on the dashboard.
	const today = new Date().toISOString().slice(0, 10)
	const moved = page.getByRole('article', { name: 'Lia Lead' })
	await moved.getByText('Salvar acompanhamento').first().click()
	await moved.getByLabel('Acompanhar em').fill(today)
	await moved.getByRole('button', { name: 'Salvar acompanhamento' }).click()
	await expect(page.getByText('Acompanhamento salvo')).toBeVisible()
	await page.goto('/app/dashboard')
	const followUps = page.getByTestId('follow-ups-today')
	await expect(followUps.getByRole('heading', { name: 'Acompanhamentos de hoje' })).toBeVisible()
	await expect(followUps.getByRole('link', { name: 'Lia Lead' })).toBeVisible()
	await expect(followUps.getByRole('link', { name: 'Vendas: Proposta' })).toBeVisible()
})

test('once scripts run, a card dragged to another stage moves there', async ({ page }) => {
	const { ids } = await crmWorld(page, [{ name: 'Dee Drag' }])
	await page.goto('/app/clients/pipelines')
	await page.getByLabel('Name', { exact: true }).fill('Deals')
	await page.getByLabel('Stages, one per line, in order').fill('New\nWon')
	await page.getByRole('button', { name: 'Create pipeline' }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'Deals' })).toBeVisible()
	await page.getByLabel('Client', { exact: true }).selectOption(ids['Dee Drag']!)
	await page.getByRole('button', { name: 'Add to pipeline' }).click()
	await expect(page.locator('section[data-stage="New"]').getByRole('article', { name: 'Dee Drag' })).toBeVisible()
	await expect(page.getByText('Drag a card to another stage, or use its Move to button.')).toBeVisible()
	await page.getByRole('article', { name: 'Dee Drag' }).dragTo(page.locator('section[data-stage="Won"]'))
	await expect(page.getByText('Client moved to Won')).toBeVisible()
	await page.reload()
	await expect(page.locator('section[data-stage="Won"]').getByRole('article', { name: 'Dee Drag' })).toBeVisible()
})

test('without the upgrades, the clients screens offer them @nojs', async ({ page }) => {
	await crmWorld(page, [{ name: 'Nia None' }], { upgrades: false })
	await page.goto('/app/clients')
	const offer = page.getByTestId('crm-offer')
	await expect(offer).toContainText('Tags, a notes timeline and client CSV import and export come with the CRM Basic Fields upgrade.')
	await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveCount(0)
	await offer.getByRole('link', { name: 'See the upgrades' }).click()
	await expect(page).toHaveURL(new RegExp(`/app/modules/${CRM}$`))
	await page.goto('/app/clients/pipelines')
	await expect(page.getByTestId('crm-offer')).toContainText('CRM Pipelines upgrade')
})
