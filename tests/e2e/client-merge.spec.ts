import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'
import { useLanguage } from './reports-data.ts'

// docs/product.md, Clients › Duplicates and merges (CRM Enterprise): the screen finds two clients
// sharing an email; merging them, after a question, keeps the merged one's payment, invoice and
// note on the kept client's page; Undo brings the merged client back with its records. "Not
// duplicates" hides a pair. With and without JavaScript; in English, Spanish and Portuguese.

const CRM = 'b0000000-0000-4000-8000-000000000002'
const INVOICING = 'b0000000-0000-4000-8000-000000000005'
const BASIC = 'c0000000-0000-4000-8000-000000000004'
const ENTERPRISE = 'c0000000-0000-4000-8000-000000000006'

/** An owner signed in on `page`, with CRM Basic Fields and CRM Enterprise, and two clients who are one person. */
async function twins(page: Page) {
	const owner = newAccount('Dora Owner')
	await signUpByRequest(page.request, owner)
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ orgId: string; userId: string }>(
			`select m.organization_id as "orgId", m.user_id as "userId" from public.organization_members m
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[owner.email],
		)
		const { orgId, userId } = rows[0]!
		await db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select $1, om.id, u from public.organization_modules om, unnest($3::uuid[]) u
			 where om.organization_id = $1 and om.module_id = $2`,
			[orgId, CRM, [BASIC, ENTERPRISE]],
		)
		await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [orgId, INVOICING])
		const client = async (name: string, email: string) =>
			(
				await db.query<{ id: string }>(
					'insert into public.clients (organization_id, user_id, name, email) values ($1, $2, $3, $4) returning id',
					[orgId, userId, name, email],
				)
			).rows[0]!.id
		const kept = await client('Rita Walker', 'rita@example.com')
		const merged = await client('Rita W.', 'RITA@example.com')
		await db.query('insert into public.transactions (organization_id, client_id, amount, description) values ($1, $2, 40, $3)', [
			orgId,
			merged,
			'Last visit',
		])
		await db.query('insert into public.invoices (organization_id, client_id, created_by) values ($1, $2, $3)', [orgId, merged, userId])
		await db.query('insert into public.client_notes (organization_id, client_id, author_id, body) values ($1, $2, $3, $4)', [
			orgId,
			merged,
			userId,
			'Prefers mornings',
		])
		return { kept, merged }
	})
}

test('a pair found by email is merged, and the kept client’s page holds everything the other had @nojs', async ({ page }) => {
	const { kept } = await twins(page)
	await page.goto('/app/clients')
	await page.getByRole('link', { name: 'Possible duplicates' }).click()
	const pair = page.getByRole('listitem', { name: /Rita Walker · rita@example\.com/ })
	await expect(pair.getByText('Same email')).toBeVisible()
	await pair
		.getByRole('link', { name: 'Keep this one: Rita Walker · rita@example.com, and merge Rita W. · RITA@example.com into it' })
		.click()
	await expect(page.getByRole('heading', { name: 'Merge Rita W. into Rita Walker?' })).toBeVisible()
	await page.getByRole('button', { name: 'Yes, merge them' }).click()

	await expect(page).toHaveURL(new RegExp(`/app/clients/${kept}$`))
	await expect(page.getByText('Clients merged: both histories are on this page')).toBeVisible()
	await expect(page.getByText('Last visit')).toBeVisible()
	await expect(page.getByRole('link', { name: 'Draft' })).toBeVisible()
	await expect(page.getByTestId('client-notes').getByText('Prefers mornings')).toBeVisible()
})

test('Undo under Recent merges brings the merged client back with its records @nojs', async ({ page }) => {
	const { kept, merged } = await twins(page)
	await page.goto(`/app/clients/duplicates?keep=${kept}&merge=${merged}`)
	await page.getByRole('button', { name: 'Yes, merge them' }).click()
	await expect(page).toHaveURL(new RegExp(`/app/clients/${kept}$`))

	await page.goto('/app/clients/duplicates')
	const merges = page.getByRole('list', { name: 'Recent merges' })
	await expect(merges.getByText(/can be undone until \d\d\/\d\d\/\d{4}/)).toBeVisible()
	await merges.getByRole('button', { name: 'Undo the merge of Rita W. into Rita Walker' }).click()
	await expect(page).toHaveURL(new RegExp(`/app/clients/${merged}$`))
	await expect(page.getByText('Merge undone: the client is back with their records')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Rita W.' })).toBeVisible()
	await expect(page.getByText('Last visit')).toBeVisible()
	await expect(page.getByTestId('client-notes').getByText('Prefers mornings')).toBeVisible()
	await page.goto(`/app/clients/${kept}`)
	await expect(page.getByRole('heading', { name: 'Rita Walker' })).toBeVisible()
	await expect(page.getByText('Last visit')).toHaveCount(0)
})

const WORDS = {
	es: {
		link: 'Posibles duplicados',
		reason: 'Mismo correo',
		dismiss: (a: string, b: string) => `No son duplicados: ${a} y ${b}`,
		done: 'La pareja queda oculta: no son duplicados',
		none: 'No hay posibles duplicados.',
	},
	'pt-BR': {
		link: 'Possíveis duplicados',
		reason: 'Mesmo e-mail',
		dismiss: (a: string, b: string) => `Não são duplicados: ${a} e ${b}`,
		done: 'O par fica oculto: não são duplicados',
		none: 'Nenhum possível duplicado.',
	},
} as const

for (const lng of ['es', 'pt-BR'] as const) {
	test(`in ${lng}, the pair is found by email and "Not duplicates" hides it @nojs`, async ({ page }) => {
		const words = WORDS[lng]
		await useLanguage(page, lng)
		const { kept, merged } = await twins(page)
		// The pair names its clients in id order.
		const walker = 'Rita Walker · rita@example.com'
		const w = 'Rita W. · RITA@example.com'
		await page.goto('/app/clients')
		await page.getByRole('link', { name: words.link }).click()
		await expect(page.getByRole('heading', { name: words.link, level: 1 })).toBeVisible()
		await expect(page.getByText(words.reason, { exact: true })).toBeVisible()
		await page.getByRole('button', { name: kept < merged ? words.dismiss(walker, w) : words.dismiss(w, walker) }).click()
		await expect(page.getByText(words.done)).toBeVisible()
		await expect(page.getByText(words.none)).toBeVisible()
	})
}

test('the duplicates screen, a pair and a merge on it, has no serious or critical accessibility violation', async ({ page }) => {
	const { kept, merged } = await twins(page)
	await withDatabase((db) =>
		db.query(
			`insert into public.client_merges (organization_id, kept_client_id, merged_client_id, merged_client, kept_before, kept_after)
			 select organization_id, id, gen_random_uuid(), '{"name": "Rita Older"}', '{}', '{}' from public.clients where id = $1`,
			[kept],
		),
	)
	await page.goto(`/app/clients/duplicates?keep=${kept}&merge=${merged}`)
	await expect(page.getByRole('button', { name: 'Undo the merge of Rita Older into Rita Walker' })).toBeVisible()
	const { violations } = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
		.analyze()
	expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
})
