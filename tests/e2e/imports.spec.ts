import type { APIRequestContext, Page } from '@playwright/test'
import { withDatabase } from './db.ts'
import { decodeQuotedPrintable, expect, mailsTo, newAccount, signUpByRequest, test } from './fixtures.ts'
import { useLanguage } from './reports-data.ts'

const latestMail = (to: string) => mailsTo(to).at(-1) ?? ''

/** The import journeys (docs/product.md, Imports), with and without JavaScript. */

const VENMO = [
	'Account Statement - (@studio) ,,,,,,,,,,,',
	'Account Activity,,,,,,,,,,,',
	',ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (fee),Beginning Balance,Disclaimer',
	',,,,,,,,,,$0.00,',
	',3921234567890123456,2026-03-01T14:22:05,Payment,Complete,Yoga,Ana Silva,Studio,"+ $1,250.00",,,',
	',3921234567890123457,2026-03-02T09:00:00,Payment,Complete,Class,Bruno Costa,Studio,+ $80.00,,,',
	',3921234567890123458,2026-03-03T09:00:00,Charge,Complete,Rent,Studio,Mystery Payer,+ $15.00,,,',
	',3921234567890123459,2026-03-04T09:00:00,Payment,Complete,Supplies,Studio,Shop,- $45.00,,,',
	',3921234567890123460,2026-03-05T09:00:00,Payment,Complete,Typo,Carla Dias,Studio,+ $1.234,,,',
	',,,,,,,,,,,"Disclaimer text"',
].join('\n')

const paypal = (rows: [id: string, date: string, name: string, gross: string][]) =>
	[
		'\uFEFF"Date","Time","TimeZone","Name","Type","Status","Currency","Gross","Fee","Net","From Email Address","Transaction ID","Balance Impact"',
		...rows.map(
			([id, date, name, gross]) =>
				`"${date}","10:00:00","PST","${name}","General Payment","Completed","USD","${gross}","-1.00","${gross}","x@example.com","${id}","Credit"`,
		),
	].join('\n')

async function signUp(page: Page, request: APIRequestContext, name: string) {
	const account = newAccount(name)
	await signUpByRequest(request, account)
	await page.context().addCookies((await request.storageState()).cookies)
	const orgId = await withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string }>(
			'select m.organization_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1',
			[account.email],
		)
		const org = rows[0]!.organization_id
		for (const [name, email] of [
			['Ana Silva', null],
			['Bruno Costa', 'bruno.one@example.com'],
			['Bruno  costa', 'bruno.two@example.com'],
		]) {
			await db.query('insert into public.clients (organization_id, name, email) values ($1, $2, $3)', [org, name, email])
		}
		return org
	})
	return { account, orgId }
}

async function transactions(orgId: string) {
	return withDatabase(
		async (db) =>
			(
				await db.query<{ external_id: string; amount: string; category: string; client: string | null; email: string | null }>(
					`select t.external_id, t.amount::text, t.category::text, c.name as client, c.email
				 from public.transactions t left join public.clients c on c.id = t.client_id
				 where t.organization_id = $1 order by t.date_received, t.external_id`,
					[orgId],
				)
			).rows,
	)
}

async function upload(page: Page, name: string, text: string, { preview = true } = {}) {
	await page.goto('/app/transactions/import')
	await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) })
	await page.getByRole('button', { name: 'Upload and preview' }).click()
	if (preview) await expect(page).toHaveURL(/\/app\/transactions\/import\/[0-9a-f-]{36}$/)
}

async function commit(page: Page, count: number) {
	await page.getByRole('button', { name: count === 1 ? 'Import 1 payment' : `Import ${count} payments` }).click()
	await expect(page).toHaveURL(/\/app\/transactions\/import\/history$/)
}

test.describe('imports @nojs', () => {
	test('a Venmo statement: preview, commit, matched / review / unmatched; importing it again creates nothing', async ({
		page,
		request,
	}) => {
		const { orgId, account } = await signUp(page, request, 'Venmo Importer')
		await page.goto('/app/transactions')
		await page.getByRole('link', { name: 'Import payments' }).first().click()
		await expect(page).toHaveURL(/\/app\/transactions\/import$/)

		await upload(page, 'venmo.csv', VENMO)
		await expect(page.getByText('venmo.csv · Venmo statement · rows read: 5')).toBeVisible()
		await expect(page.getByTestId('count-create')).toHaveText('3')
		await expect(page.getByTestId('count-ignored')).toHaveText('1')
		await expect(page.getByTestId('count-failed')).toHaveText('1')
		await expect(page.getByTestId('import-failures')).toContainText('The amount cannot be read')
		await expect(
			page.getByText('Of the new payments: matched to a client: 1; to review (several clients): 1; without a client: 1.'),
		).toBeVisible()
		expect(await transactions(orgId)).toEqual([])

		await commit(page, 3)
		await expect(page.getByTestId('history-created').first()).toHaveText('3')
		expect(await transactions(orgId)).toEqual([
			{ external_id: '3921234567890123456', amount: '1250.00', category: 'matched', client: 'Ana Silva', email: null },
			{ external_id: '3921234567890123457', amount: '80.00', category: 'review', client: null, email: null },
			{ external_id: '3921234567890123458', amount: '15.00', category: 'unmatched', client: null, email: null },
		])
		// One "transaction alerts" digest for the whole import, never one mail per payment.
		await expect.poll(() => mailsTo(account.email).filter((m) => decodeQuotedPrintable(m).includes('3 new payments in')).length).toBe(1)
		expect(decodeQuotedPrintable(latestMail(account.email))).toContain('$1,345.00')

		await upload(page, 'venmo.csv', VENMO)
		await expect(page.getByTestId('count-create')).toHaveText('0')
		await expect(page.getByTestId('count-duplicates')).toHaveText('3')
		await expect(page.getByText('Nothing new to import from this file.')).toBeVisible()
		expect(await transactions(orgId)).toHaveLength(3)
		expect(mailsTo(account.email).filter((m) => decodeQuotedPrintable(m).includes('new payments in'))).toHaveLength(1)
	})

	test('an overlapping PayPal download creates only the new payment', async ({ page, request }) => {
		const { orgId } = await signUp(page, request, 'PayPal Importer')
		await upload(
			page,
			'march.csv',
			paypal([
				['1AA', '03/01/2026', 'Ana Silva', '100.00'],
				['2BB', '03/10/2026', 'Ana Silva', '50.00'],
			]),
		)
		await commit(page, 2)
		await upload(
			page,
			'march-april.csv',
			paypal([
				['2BB', '03/10/2026', 'Ana Silva', '50.00'],
				['3CC', '04/02/2026', 'Ana Silva', '75.00'],
			]),
		)
		await expect(page.getByTestId('count-create')).toHaveText('1')
		await expect(page.getByTestId('count-duplicates')).toHaveText('1')
		await commit(page, 1)
		await expect(page.getByTestId('history-created').first()).toHaveText('1')
		await expect(page.getByTestId('history-duplicates').first()).toHaveText('1')
		expect((await transactions(orgId)).map((t) => t.external_id)).toEqual(['1AA', '2BB', '3CC'])
	})

	test('the review queue: pick the client, remember the payer; the next import matches by the alias', async ({ page, request }) => {
		const { orgId } = await signUp(page, request, 'Reviewer')
		await upload(page, 'venmo.csv', VENMO)
		await commit(page, 3)
		await page.goto('/app/transactions/import/review')
		const byPayer = (payer: string) =>
			page.getByTestId('review-row').filter({ has: page.getByTestId('review-payer').getByText(payer, { exact: true }) })
		const row = byPayer('Bruno Costa')
		await expect(row).toContainText('Several clients match')
		// The tables kit's combobox: type to search the clients (a native list: it works without JavaScript too).
		await expect(row).toContainText('2 clients match this payer: check it is the right one.')
		await expect(page.locator('#review-clients option[value="Bruno  costa"]')).toHaveText('bruno.two@example.com')
		await row.getByLabel('Client for Bruno Costa').fill('Bruno  costa')
		await expect(row.getByLabel('Remember “Bruno Costa” as this client')).toBeChecked()
		// What Save also does is read (and tabbed to) before Save.
		const before = await row
			.getByLabel('Remember “Bruno Costa” as this client')
			.evaluate(
				(box, save) => !!(box.compareDocumentPosition(save!) & Node.DOCUMENT_POSITION_FOLLOWING),
				await row.getByRole('button', { name: 'Save' }).elementHandle(),
			)
		expect(before).toBe(true)
		await row.getByRole('button', { name: 'Save' }).click()
		await expect(byPayer('Bruno Costa')).toHaveCount(0)
		await expect(byPayer('Mystery Payer')).toHaveCount(1)
		expect((await transactions(orgId)).find((t) => t.external_id === '3921234567890123457')).toMatchObject({
			category: 'matched',
			email: 'bruno.two@example.com',
		})

		const next = VENMO.replace('3921234567890123457', '3921234567890123999')
		await upload(page, 'venmo-next.csv', next)
		await expect(page.getByTestId('count-create')).toHaveText('1')
		await expect(page.getByTestId('import-rows').getByRole('row').filter({ hasText: 'Bruno Costa' })).toContainText('New · client found')
		await commit(page, 1)
		expect((await transactions(orgId)).find((t) => t.external_id === '3921234567890123999')).toMatchObject({
			category: 'matched',
			email: 'bruno.two@example.com',
		})
	})

	test('the review queue makes a client of a payer no client is named after; a namesake added meanwhile is not doubled', async ({
		page,
		request,
	}) => {
		const { orgId } = await signUp(page, request, 'Client Maker')
		await upload(page, 'venmo.csv', VENMO)
		await commit(page, 3)
		await page.goto('/app/transactions/import/review')
		const byPayer = (payer: string) =>
			page.getByTestId('review-row').filter({ has: page.getByTestId('review-payer').getByText(payer, { exact: true }) })
		// Several clients match Bruno Costa: a new one would be one namesake more, so it is not offered.
		await expect(byPayer('Bruno Costa')).not.toContainText('No client is named')
		const mystery = byPayer('Mystery Payer')
		// No client has the payer's name: the box holds it, and saving it makes that client.
		await expect(mystery.getByLabel('Client for Mystery Payer')).toHaveValue('Mystery Payer')
		await expect(mystery).toContainText('No client is named “Mystery Payer” yet: saving this name creates that client.')
		await mystery.getByRole('button', { name: 'Save' }).click()
		await expect(page.getByText('Client saved and alias remembered: the payment from this payer has the client.')).toBeVisible()
		await expect(byPayer('Mystery Payer')).toHaveCount(0)
		expect((await transactions(orgId)).find((t) => t.external_id === '3921234567890123458')).toMatchObject({
			category: 'matched',
			client: 'Mystery Payer',
		})

		// Another unmatched payer; someone adds a client of that name (in another case) while the queue is open.
		await upload(page, 'paypal.csv', paypal([['9ZZ', '03/12/2026', 'Dana Reyes', '20.00']]))
		await commit(page, 1)
		await page.goto('/app/transactions/import/review')
		await withDatabase((db) => db.query(`insert into public.clients (organization_id, name) values ($1, 'dana  REYES')`, [orgId]))
		await byPayer('Dana Reyes').getByRole('button', { name: 'Save' }).click()
		await expect(byPayer('Dana Reyes')).toContainText('A client with this name already exists: choose it in the list.')
		await expect(page.locator('#review-clients option[value="dana  REYES"]')).toHaveCount(1)
		const named = await withDatabase((db) =>
			db.query(`select name from public.clients where organization_id = $1 and public.payer_key(name) = 'dana reyes'`, [orgId]),
		)
		expect(named.rows).toEqual([{ name: 'dana  REYES' }])
		expect((await transactions(orgId)).find((t) => t.external_id === '9ZZ')).toMatchObject({ category: 'unmatched', client: null })
	})

	test('undo removes what an import created, except what was edited since', async ({ page, request }) => {
		const { orgId } = await signUp(page, request, 'Undoer')
		await upload(page, 'venmo.csv', VENMO)
		await commit(page, 3)
		await withDatabase((db) =>
			db.query(`update public.transactions set description = 'edited' where organization_id = $1 and external_id = '3921234567890123458'`, [
				orgId,
			]),
		)
		// When it ran, in the organization's timezone (Tokyo here), as the rest of the app shows moments.
		await withDatabase((db) => db.query(`update public.booking_settings set timezone = 'Asia/Tokyo' where organization_id = $1`, [orgId]))
		const ran = await withDatabase((db) =>
			db.query<{ at: Date }>(`select committed_at as at from public.import_batches where organization_id = $1`, [orgId]),
		).then((r) => r.rows[0]!.at)
		const tokyo = Object.fromEntries(
			new Intl.DateTimeFormat('en-US', {
				timeZone: 'Asia/Tokyo',
				year: 'numeric',
				month: '2-digit',
				day: '2-digit',
				hour: 'numeric',
				minute: '2-digit',
				hourCycle: 'h12',
			})
				.formatToParts(ran)
				.map((p) => [p.type, p.value]),
		)
		await page.reload()
		// English writes 12-hour times (formatTime): 9:05 PM.
		await expect(page.getByTestId('import-history').getByRole('row').nth(1)).toContainText(
			`${tokyo.month}/${tokyo.day}/${tokyo.year} ${tokyo.hour}:${tokyo.minute} ${tokyo.dayPeriod}`,
		)

		// Undo asks first, with the count; keeping it changes nothing.
		await page.getByRole('link', { name: /^Undo the import of / }).click()
		const ask = page.getByRole('alertdialog', { name: 'Undo this import?' })
		await expect(ask).toContainText(
			'added 3 payments. Those edited since stay, as they are: 1 of them (a client chosen in the review queue counts as an edit)',
		)
		await ask.getByRole('link', { name: 'Keep it' }).click()
		await expect(page.getByRole('alertdialog')).toHaveCount(0)
		expect(await transactions(orgId)).toHaveLength(3)
		await page.getByRole('link', { name: /^Undo the import of / }).click()
		await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, undo it' }).click()
		await expect(page.getByTestId('import-history')).toContainText('Undone: 2 removed')
		await expect(page.getByRole('alertdialog')).toHaveCount(0)
		// On a laptop, in Spanish (its longest labels), the history fits its card: no sideways scroll.
		await useLanguage(page, 'es')
		await page.setViewportSize({ width: 1280, height: 800 })
		await page.goto('/app/transactions/import/history')
		const container = page.locator('[data-slot=table-container]').filter({ has: page.getByTestId('import-history') })
		expect(await container.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0)
		expect((await transactions(orgId)).map((t) => t.external_id)).toEqual(['3921234567890123458'])
	})

	test('bad files get a clear message and write nothing', async ({ page, request }) => {
		const { orgId } = await signUp(page, request, 'Bad Files')
		await page.goto('/app/transactions/import')
		await page
			.getByLabel('CSV file')
			.setInputFiles({ name: 'photo.csv', mimeType: 'text/csv', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]) })
		await page.getByRole('button', { name: 'Upload and preview' }).click()
		await expect(page.getByText('This file is not a CSV file (or its quoting is broken).')).toBeVisible()
		await page.getByLabel('CSV file').setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.from('') })
		await page.getByRole('button', { name: 'Upload and preview' }).click()
		await expect(page.getByText('The file is empty.')).toBeVisible()
		// A header of unknown columns and no rows: said at once, no mapping asked.
		await page.getByLabel('CSV file').setInputFiles({ name: 'header.csv', mimeType: 'text/csv', buffer: Buffer.from('Posted,Who,Value\n') })
		await page.getByRole('button', { name: 'Upload and preview' }).click()
		await expect(page.getByText('The file has a header but no rows.')).toBeVisible()
		await expect(page.getByRole('heading', { name: 'Map the columns' })).toHaveCount(0)
		expect(await transactions(orgId)).toEqual([])
	})

	test('a file over 10 MB is refused on the upload screen, with its message, and writes nothing', async ({
		page,
		request,
		javaScriptEnabled,
	}) => {
		const { orgId } = await signUp(page, request, 'Big Files')
		await page.goto('/app/transactions/import')
		const big = Buffer.concat([Buffer.from('Posted,Who,Value\n'), Buffer.alloc(13 * 1024 * 1024, '2026-03-01,Ana,1.00\n')])
		const input = page.getByLabel('CSV file')
		await input.setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: big })
		const message = 'The file is larger than 10 MB. Export a shorter period.'
		if (javaScriptEnabled) {
			// Refused before it is sent: the browser's own check says why.
			await page.getByRole('button', { name: 'Upload and preview' }).click()
			expect(await input.evaluate((el: HTMLInputElement) => el.validationMessage)).toBe(message)
			await expect(page).toHaveURL(/\/app\/transactions\/import$/)
		} else {
			await page.getByRole('button', { name: 'Upload and preview' }).click()
			await expect(page).toHaveURL(/\/app\/transactions\/import\?error=tooLarge$/)
			await expect(page.getByText(message)).toBeVisible()
			await expect(page.getByLabel('CSV file')).toBeVisible()
		}
		expect(await transactions(orgId)).toEqual([])
	})

	test('the upload screen states the row limit; a file of 100,001 rows gets the message and stages nothing', async ({ page, request }) => {
		const { orgId } = await signUp(page, request, 'Row Limit')
		await page.goto('/app/transactions/import')
		await expect(page.getByText('Up to 10 MB and 100,000 rows.')).toBeVisible()
		// 1.6 MB: well under the size limit, over the row limit.
		const rows = (n: number) => Buffer.from(`Posted,Who,Value\n${'2026-03-01,Ana,1.00\n'.repeat(n)}`)
		await page.getByLabel('CSV file').setInputFiles({ name: 'long.csv', mimeType: 'text/csv', buffer: rows(100_001) })
		await page.getByRole('button', { name: 'Upload and preview' }).click()
		await expect(page.getByText('The file has more than 100,000 rows. Export a shorter period, or split the file.')).toBeVisible()
		await expect(page).toHaveURL(/\/app\/transactions\/import$/)
		await expect(page.getByLabel('CSV file')).toBeVisible()
		const batches = await withDatabase((db) => db.query('select id from public.import_batches where organization_id = $1', [orgId]))
		expect(batches.rows).toEqual([])
		expect(await transactions(orgId)).toEqual([])
	})

	test('while another import of the organization is in progress, a file is refused with a link to it', async ({ page, request }) => {
		const { orgId } = await signUp(page, request, 'Second Import')
		// A teammate's file being read right now (the import screen of another session, or another server).
		const blocking = await withDatabase(async (db) => {
			const { rows } = await db.query<{ id: string }>(
				`insert into public.import_batches (organization_id, source, file_name, claim) values ($1, 'venmo', 'teammate.csv', true) returning id`,
				[orgId],
			)
			return rows[0]!.id
		})
		await upload(page, 'venmo.csv', VENMO, { preview: false })
		await expect(
			page.getByText('Another import of this organization is in progress: one import runs at a time.', { exact: false }),
		).toBeVisible()
		await page.getByRole('link', { name: /^Open the import in progress: teammate\.csv/ }).click()
		await expect(page).toHaveURL(`/app/transactions/import/${blocking}`)
		await expect(page.getByText('teammate.csv is still being read.', { exact: false })).toBeVisible()
		expect(await transactions(orgId)).toEqual([])
	})

	test('a generic CSV: map the columns once; the mapping is offered for the next file', async ({ page, request }) => {
		const { orgId } = await signUp(page, request, 'Mapper')
		const file = 'Posted,Who,Value,Ref\n2026-03-01,Ana Silva,$100.00,G-1\n'
		await upload(page, 'bank.csv', file, { preview: false })
		await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeVisible()
		await page.getByLabel('Date', { exact: true }).selectOption('Posted')
		await expect(page.getByLabel('Dates are written')).toHaveValue('mdy')
		await page.getByLabel('Amount').selectOption('Value')
		await page.getByLabel('Payer').selectOption('Who')
		await page.getByLabel('External ID (optional)').selectOption('Ref')
		await page.getByLabel('Payment method').selectOption('Zelle')
		await page.getByRole('button', { name: 'Save mapping and preview' }).click()
		await expect(page.getByTestId('count-create')).toHaveText('1')
		await commit(page, 1)
		await upload(page, 'bank-2.csv', 'Posted,Who,Value,Ref\n2026-03-02,Ana Silva,$20.00,G-2\n')
		await expect(page.getByTestId('count-create')).toHaveText('1')
		await commit(page, 1)
		expect((await transactions(orgId)).map((t) => [t.external_id, t.client])).toEqual([
			['G-1', 'Ana Silva'],
			['G-2', 'Ana Silva'],
		])

		// The saved mapping is listed on the upload screen; forgotten, the next such file asks again.
		await page.goto('/app/transactions/import')
		const saved = page.getByRole('list', { name: 'Saved column mappings' }).getByRole('listitem')
		await expect(saved).toHaveCount(1)
		await expect(saved).toContainText('posted · who · value · ref')
		await expect(saved).toContainText('Date: Posted, amount: Value, payer: Who · Month first (12/31/2026) · Zelle')
		await saved.getByRole('button', { name: 'Forget the mapping of posted, who, value, ref' }).click()
		await expect(page.getByText('Mapping forgotten: the next file with these columns asks for its columns again.')).toBeVisible()
		await expect(page.getByRole('list', { name: 'Saved column mappings' })).toHaveCount(0)
		await upload(page, 'bank-3.csv', 'Posted,Who,Value,Ref\n2026-03-03,Ana Silva,$30.00,G-3\n', { preview: false })
		await expect(page.getByRole('heading', { name: 'Map the columns' })).toBeVisible()
	})
})

test.describe('imports in Spanish @nojs', () => {
	test('a spreadsheet that writes the day first is read day first, and the saved mapping remembers it', async ({ page, request }) => {
		const { orgId } = await signUp(page, request, 'Importador')
		await useLanguage(page, 'es')
		const header = 'Fecha;Importe;Pagador;Referencia'
		await page.goto('/app/transactions/import')
		await page.getByLabel('Archivo CSV').setInputFiles({
			name: 'banco.csv',
			mimeType: 'text/csv',
			buffer: Buffer.from(`${header}\n05/11/2026;1.250,50;Ana Silva;ES-1\n20/11/2026;99,99;Bruno Costa;ES-2\n`),
		})
		await page.getByRole('button', { name: 'Subir y ver vista previa' }).click()
		await expect(page.getByRole('heading', { name: 'Asigna las columnas' })).toBeVisible()
		await expect(page.getByLabel('Las fechas se escriben')).toHaveValue('dmy')
		await page.getByLabel('Fecha', { exact: true }).selectOption('Fecha')
		await page.getByLabel('Monto', { exact: true }).selectOption('Importe')
		await page.getByLabel('Pagador', { exact: true }).selectOption('Pagador')
		await page.getByLabel('ID externo (opcional)').selectOption('Referencia')
		await page.getByRole('button', { name: 'Guardar asignación y ver vista previa' }).click()
		await expect(page.getByTestId('count-create')).toHaveText('2')
		await page.getByRole('button', { name: 'Importar 2 pagos' }).click()
		await expect(page).toHaveURL(/\/history$/)
		// A later file with the same columns: the mapping, day first included, applies by itself.
		await page.goto('/app/transactions/import')
		await page
			.getByLabel('Archivo CSV')
			.setInputFiles({ name: 'banco-2.csv', mimeType: 'text/csv', buffer: Buffer.from(`${header}\n03/12/2026;10,00;Ana Silva;ES-3\n`) })
		await page.getByRole('button', { name: 'Subir y ver vista previa' }).click()
		await page.getByRole('button', { name: 'Importar 1 pago' }).click()
		await expect(page).toHaveURL(/\/history$/)
		const dates = await withDatabase((db) =>
			db.query(
				`select external_id, date_received::text as date, amount::text from public.transactions where organization_id = $1 order by external_id`,
				[orgId],
			),
		)
		expect(dates.rows).toEqual([
			{ external_id: 'ES-1', date: '2026-11-05', amount: '1250.50' },
			{ external_id: 'ES-2', date: '2026-11-20', amount: '99.99' },
			{ external_id: 'ES-3', date: '2026-12-03', amount: '10.00' },
		])
	})
})

test.describe('imports on a phone', () => {
	test.use({ viewport: { width: 390, height: 844 } })

	/** Nothing of the page, and nothing inside its tables, scrolls sideways. */
	async function expectNoSidewaysScroll(page: Page, where: string) {
		const overflow = await page.evaluate(() =>
			[document.documentElement, ...document.querySelectorAll('[data-slot=table-container]')].map((el) => el.scrollWidth - el.clientWidth),
		)
		expect(Math.max(...overflow), where).toBeLessThanOrEqual(0)
	}

	test('the preview, the history with its Undo and the review queue with its choice fit a phone, in Spanish @nojs', async ({
		page,
		request,
	}) => {
		await signUp(page, request, 'Phone Importer')
		await useLanguage(page, 'es')
		await page.goto('/app/transactions/import')
		await page.getByLabel('Archivo CSV').setInputFiles({ name: 'venmo.csv', mimeType: 'text/csv', buffer: Buffer.from(VENMO) })
		await page.getByRole('button', { name: 'Subir y ver vista previa' }).click()
		await expect(page.getByTestId('import-failures')).toBeVisible()
		await expectNoSidewaysScroll(page, 'preview')
		await page.getByRole('button', { name: 'Importar 3 pagos' }).click()
		await expect(page).toHaveURL(/\/history$/)
		await expectNoSidewaysScroll(page, 'history')
		const undo = page.getByRole('link', { name: /^Deshacer/ }).first()
		await expect(undo).toBeInViewport({ ratio: 1 })
		await page.goto('/app/transactions/import/review')
		await expectNoSidewaysScroll(page, 'review')
		for (const control of [
			page.getByRole('combobox').first(),
			page.getByRole('checkbox').first(),
			page.getByRole('button', { name: 'Guardar' }).first(),
		]) {
			const box = (await control.boundingBox())!
			expect(box.x + box.width).toBeLessThanOrEqual(390)
		}
	})
})
