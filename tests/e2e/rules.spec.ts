import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { expect, newAccount, signUpByRequest, test } from './fixtures.ts'
import { useLanguage } from './reports-data.ts'

// docs/product.md, Rules: an owner writes a rule (memo contains "yoga", from a CSV import: set the
// category and the client), tests it against past payments ("would match"), saves it; a Venmo file
// imported afterwards comes in sorted, and the run shows in the history. In English, Spanish and
// Portuguese, with and without JavaScript. Without the module the screen says how to get it.

const AUTOMATION = 'b0000000-0000-4000-8000-000000000010'
type Lng = 'en' | 'es' | 'pt-BR'

function texts(lng: Lng) {
	const rules = JSON.parse(readFileSync(`public/locales/${lng}/rules.json`, 'utf8'))
	const imports = JSON.parse(readFileSync(`public/locales/${lng}/imports.json`, 'utf8'))
	return { rules, imports }
}

/** "Would match N past payments", in the language's plural form of N (Portuguese says "0 pagamento"). */
function wouldMatch(r: ReturnType<typeof texts>['rules'], lng: Lng, n: number): string {
	const form = new Intl.PluralRules(lng).select(n) === 'one' ? 'wouldMatch_one' : 'wouldMatch_other'
	return (r.form[form] as string).replace('{{count}}', String(n))
}

const VENMO = [
	'Account Statement - (@studio) ,,,,,,,,,,,',
	'Account Activity,,,,,,,,,,,',
	',ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (fee),Beginning Balance,Disclaimer',
	',,,,,,,,,,$0.00,',
	',3921234567890177456,2026-03-01T14:22:05,Payment,Complete,Yoga class,Zed Newcomer,Studio,+ $40.00,,,',
	',3921234567890177457,2026-03-02T09:00:00,Payment,Complete,Rent share,Yan Other,Studio,+ $80.00,,,',
	',,,,,,,,,,,"Disclaimer text"',
].join('\n')

/** An owner signed in on `page`, with the module (unless `module` is false) and the client "Studio Client". */
async function rulesWorld(page: Page, { module = true } = {}) {
	const owner = newAccount('Rules Owner')
	await signUpByRequest(page.request, owner)
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ orgId: string }>(
			`select m.organization_id as "orgId" from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[owner.email],
		)
		const { orgId } = rows[0]!
		if (module) await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [orgId, AUTOMATION])
		await db.query(`insert into public.clients (organization_id, name) values ($1, 'Studio Client')`, [orgId])
		return { orgId }
	})
}

async function payments(orgId: string) {
	return withDatabase(
		async (db) =>
			(
				await db.query<{ amount: string; category: string; client: string | null }>(
					`select t.amount::text, t.category::text, c.name as client from public.transactions t
					 left join public.clients c on c.id = t.client_id where t.organization_id = $1 order by t.amount`,
					[orgId],
				)
			).rows,
	)
}

/** The rule of these tests, saved as the form saves it: memo contains "yoga", from a CSV import: matched, to Studio Client. */
async function saveYogaRule(orgId: string) {
	await withDatabase((db) =>
		db.query(
			`insert into public.rules (organization_id, name, memo_contains, source, set_category, set_client_id)
			 select $1, 'Yoga', 'yoga', 'csv', 'matched', c.id from public.clients c where c.organization_id = $1 and c.name = 'Studio Client'`,
			[orgId],
		),
	)
}

for (const lng of ['en', 'es', 'pt-BR'] as const) {
	test(`${lng}: an owner writes a rule, tests it against past payments and saves it @nojs`, async ({ page }) => {
		const { rules: r } = texts(lng)
		const { orgId } = await rulesWorld(page)
		await useLanguage(page, lng)
		await page.goto('/app/rules')
		await expect(page.getByRole('heading', { name: r.title, exact: true })).toBeVisible()
		await expect(page.getByText(r.list.empty)).toBeVisible()

		// No condition: said, what was typed kept, nothing saved.
		await page.getByLabel(r.form.name, { exact: true }).fill('Yoga')
		await page.getByRole('button', { name: r.form.save }).click()
		await expect(page.getByText(r.errors.noCondition)).toBeVisible()
		await expect(page.getByLabel(r.form.name, { exact: true })).toHaveValue('Yoga')

		await page.getByLabel(r.form.memo).fill('yoga')
		await page.getByLabel(r.form.source).selectOption('csv')
		await page.getByLabel(r.form.setCategory).selectOption('matched')
		await page.getByLabel(r.form.setClient).selectOption({ label: 'Studio Client' })
		await page.getByRole('button', { name: r.form.preview }).click()
		await expect(page.getByTestId('rule-preview')).toHaveText(wouldMatch(r, lng, 0))
		await expect(page.getByLabel(r.form.memo)).toHaveValue('yoga')
		await page.getByRole('button', { name: r.form.save }).click()
		await expect(page).toHaveURL(/\/app\/rules$/)
		const rule = page.getByRole('listitem', { name: 'Yoga' })
		await expect(rule).toContainText(r.conditions.memo.replace('{{value}}', 'yoga'))
		await expect(rule).toContainText(r.actions.client.replace('{{value}}', 'Studio Client'))
		await expect(rule).toContainText(r.actions.category.replace('{{value}}', r.categories.matched))
		expect(
			await withDatabase(
				async (db) => (await db.query('select count(*)::int as n from public.rules where organization_id = $1', [orgId])).rows[0].n,
			),
		).toBe(1)
	})

	test(`${lng}: a rule categorises and assigns a CSV-imported payment and shows in its history @nojs`, async ({ page }) => {
		const { rules: r, imports: i } = texts(lng)
		const { orgId } = await rulesWorld(page)
		await saveYogaRule(orgId)
		await useLanguage(page, lng)

		// The file: the yoga payment comes in sorted, the other as it was.
		await page.goto('/app/transactions/import')
		await page.getByLabel(i.upload.label).setInputFiles({ name: 'venmo.csv', mimeType: 'text/csv', buffer: Buffer.from(VENMO) })
		await page.getByRole('button', { name: i.upload.submit }).click()
		await expect(page).toHaveURL(/\/app\/transactions\/import\/[0-9a-f-]{36}$/)
		await page.getByRole('button', { name: i.preview.commit_other.replace('{{count, number}}', '2') }).click()
		await expect(page).toHaveURL(/\/app\/transactions\/import\/history$/)
		expect(await payments(orgId)).toEqual([
			{ amount: '40.00', category: 'matched', client: 'Studio Client' },
			{ amount: '80.00', category: 'unmatched', client: null },
		])

		await page.goto('/app/rules')
		const row = page.getByRole('region', { name: r.history.heading }).getByRole('row').nth(1)
		await expect(row).toContainText('Yoga')
		await expect(row).toContainText('Zed Newcomer')
		await expect(row).toContainText(r.actions.client.replace('{{value}}', 'Studio Client'))
		// Tested again, the rule's conditions now find the imported payment.
		await page.getByLabel(r.form.memo).fill('yoga')
		await page.getByRole('button', { name: r.form.preview }).click()
		await expect(page.getByTestId('rule-preview')).toHaveText(wouldMatch(r, lng, 1))
	})
}

test('without Workflow Automation the screen says how to get it @nojs', async ({ page }) => {
	await rulesWorld(page, { module: false })
	await page.goto('/app/rules')
	await expect(page.getByRole('heading', { name: 'Workflow Automation is not active' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'See Workflow Automation in the marketplace' })).toHaveAttribute(
		'href',
		`/app/modules/${AUTOMATION}`,
	)
})
