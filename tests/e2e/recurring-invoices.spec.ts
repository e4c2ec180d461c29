/**
 * Recurring invoices (docs/product.md, Recurring invoices), at a phone's width: an owner with the
 * upgrade creates a monthly schedule whose first date is today; its invoice is made and sent at
 * once (through the scheduler's own claim, as the job would), shows in the schedule's history and
 * reaches the client's mailbox with its amount and memo code. Without JavaScript, in Spanish, the
 * upgrade's notice before it is bought, then the same form (a line added by the server, a wrong
 * count refused); pausing, resuming and deleting from the list. In Portuguese, the client's page
 * lists their invoices and the dashboard adds the open and the overdue ones.
 */
import { createHash, randomBytes } from 'node:crypto'
import { withDatabase } from './db.ts'
import { decodeQuotedPrintable, expect, latestMailTo, newAccount, signUpByRequest, test } from './fixtures.ts'
import { useLanguage } from './reports-data.ts'

const INVOICING = 'b0000000-0000-4000-8000-000000000005'
const RECURRING = 'c0000000-0000-4000-8000-000000000013'

test.use({ viewport: { width: 390, height: 844 } })

type World = { orgId: string; userId: string; clientId: string; clientEmail: string }

/** An owner signed in on `page`, with Invoicing (and the upgrade, unless `upgrade` is false), payment handles and a client. */
async function world(page: import('@playwright/test').Page, name: string, { upgrade = true } = {}): Promise<World> {
	const account = newAccount(name)
	await signUpByRequest(page.request, account)
	const clientEmail = `client-${randomBytes(6).toString('hex')}@client.example`
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string; user_id: string }>(
			`select m.organization_id, m.user_id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		)
		const { organization_id: orgId, user_id: userId } = rows[0]!
		await db.query(`insert into public.organization_modules (organization_id, module_id) values ($1, $2)`, [orgId, INVOICING])
		if (upgrade) await addUpgrade(orgId)
		await db.query(`insert into public.payment_handles (organization_id, venmo) values ($1, 'Studio-Nine')`, [orgId])
		const client = await db.query<{ id: string }>(
			`insert into public.clients (organization_id, name, email, status) values ($1, 'Marta Díaz', $2, 'active') returning id`,
			[orgId, clientEmail],
		)
		return { orgId, userId, clientId: client.rows[0]!.id, clientEmail }
	})
}

async function addUpgrade(orgId: string) {
	await withDatabase((db) =>
		db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select m.organization_id, m.id, $2 from public.organization_modules m where m.organization_id = $1 and m.module_id = $3`,
			[orgId, RECURRING, INVOICING],
		),
	)
}

/** The memo code of the organization's invoice number `n`. */
async function memoCode(orgId: string, n: number) {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ memo_code: string }>(
			`select e.memo_code from public.invoices i join public.payment_expectations e on e.id = i.expectation_id
			 where i.organization_id = $1 and i.number = $2`,
			[orgId, n],
		)
		return rows[0]!.memo_code
	})
}

/** An invoice of `amount` for the client, sent as the owner: due in 14 days, or (`overdue`) issued 30 days ago and due 5 days ago. */
async function sentInvoice(w: World, amount: number, { overdue = false } = {}) {
	await withDatabase(async (db) => {
		await db.query('begin')
		await db.query(`select set_config('request.jwt.claim.sub', $1, true)`, [w.userId])
		const { rows } = await db.query<{ id: string }>(
			`insert into public.invoices (organization_id, client_id, created_by, issue_date, due_date)
			 values ($1, $2, $3, current_date - $4::int, current_date + $5::int) returning id`,
			[w.orgId, w.clientId, w.userId, overdue ? 30 : 0, overdue ? -5 : 14],
		)
		await db.query(
			`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price) values ($1, $2, 0, 'Setup', 1, $3)`,
			[w.orgId, rows[0]!.id, amount],
		)
		await db.query(`select public.send_invoice($1, $2, null)`, [rows[0]!.id, createHash('sha256').update(randomBytes(16)).digest('hex')])
		await db.query('commit')
	})
}

test("a monthly schedule starting today sends its first invoice at once: in its history and in the client's mailbox", async ({ page }) => {
	const w = await world(page, 'Retainer Owner')
	await page.goto('/app/invoices/recurring')
	await expect(page.getByRole('heading', { name: 'No recurring invoices yet' })).toBeVisible()
	await page.getByRole('link', { name: 'New schedule' }).click()

	await page.getByLabel('Client', { exact: true }).fill('Marta Díaz')
	await expect(page.getByLabel('Repeats')).toHaveValue('monthly')
	await expect(page.getByText('The first date is today: its invoice is sent as soon as you save.')).toBeVisible()
	await page.getByLabel('Description, line 1').fill('Monthly retainer')
	await page.getByLabel('Unit price, line 1').fill('450')
	await expect(page.getByTestId('recurring-total')).toHaveText('$450.00')
	await page.getByRole('button', { name: 'Create schedule' }).click()

	await expect(page.getByText("Today's invoice was made and sent.")).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Recurring invoice: Marta Díaz', level: 1 })).toBeVisible()
	const history = page.getByRole('region', { name: 'Invoices made' })
	await expect(history.getByRole('link', { name: '#1' })).toBeVisible()
	await expect(history.getByText('Sent', { exact: true })).toBeVisible()

	const mail = decodeQuotedPrintable(await latestMailTo(w.clientEmail, 10_000))
	expect(mail).toContain('$450.00')
	expect(mail).toContain(await memoCode(w.orgId, 1))
})

test("in Portuguese, the client page lists the client's invoices and the dashboard adds the open and the overdue ones @nojs", async ({
	page,
}) => {
	const w = await world(page, 'Dona Faturas', { upgrade: false })
	await sentInvoice(w, 450)
	await sentInvoice(w, 80, { overdue: true })
	await useLanguage(page, 'pt-BR')

	await page.goto(`/app/clients/${w.clientId}`)
	const invoices = page.getByRole('region', { name: 'Faturas' })
	await expect(invoices.getByRole('link', { name: 'nº 1' })).toBeVisible()
	await expect(invoices.getByText('Enviada', { exact: true })).toBeVisible()
	await expect(invoices.getByText('Vencida', { exact: true })).toBeVisible()

	await page.goto('/app/dashboard')
	const open = page.getByRole('group', { name: 'Faturas em aberto' })
	await expect(open.getByTestId('stat-value')).toHaveText('US$ 530,00')
	await expect(open).toContainText('2 faturas')
	const overdue = page.getByRole('group', { name: 'Faturas vencidas' })
	await expect(overdue.getByTestId('stat-value')).toHaveText('US$ 80,00')
	await expect(overdue).toContainText('1 fatura')
	await expect(overdue.getByRole('link', { name: 'Ver as faturas vencidas' })).toHaveAttribute('href', '/app/invoices?state=overdue')
})

test('without JavaScript, in Spanish: the upgrade asked for, then a schedule with two lines checked, made and mailed @nojs', async ({
	page,
}) => {
	const w = await world(page, 'Dueña Recurrente', { upgrade: false })
	await useLanguage(page, 'es')
	await page.goto('/app/invoices/recurring')
	await expect(page.getByRole('heading', { name: 'Las facturas recurrentes son una mejora de Facturación' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Nueva programación' })).toHaveCount(0)

	await addUpgrade(w.orgId)
	await page.goto('/app/invoices/recurring/new')
	await page.getByLabel('Cliente', { exact: true }).fill('Marta Díaz')
	await page.getByLabel('Idioma', { exact: true }).selectOption('es')
	await page.getByLabel('Descripción, línea 1').fill('Iguala mensual')
	await page.getByLabel('Precio unitario, línea 1').fill('1.200,50')
	// "Add a line" without JavaScript: the server answers with the form, the typed values kept.
	await page.getByRole('button', { name: 'Añadir una línea' }).click()
	await expect(page.getByLabel('Descripción, línea 1')).toHaveValue('Iguala mensual')
	await page.getByLabel('Descripción, línea 2').fill('Alojamiento')
	await page.getByLabel('Precio unitario, línea 2').fill('20')
	await page.getByRole('radio', { name: 'Tras un número de facturas' }).check()
	await page.getByRole('textbox', { name: 'Número de facturas' }).fill('0')
	await page.getByRole('button', { name: 'Crear programación' }).click()
	await expect(page.getByText('Introduce un número entero de 1 a 1000.')).toBeVisible()
	await page.getByRole('textbox', { name: 'Número de facturas' }).fill('3')
	await page.getByRole('button', { name: 'Crear programación' }).click()

	await expect(page.getByText('La factura de hoy se creó y se envió.')).toBeVisible()
	const history = page.getByRole('region', { name: 'Facturas creadas' })
	await expect(history.getByRole('link', { name: 'n.º 1' })).toBeVisible()
	await expect(page.getByText('Termina tras 3 facturas')).toBeVisible()
	const mail = decodeQuotedPrintable(await latestMailTo(w.clientEmail, 10_000))
	expect(mail).toContain('1.220,50')
	expect(mail).toContain(await memoCode(w.orgId, 1))
})

test('a schedule is paused, resumed and deleted from the list, deletion asked first @nojs', async ({ page }) => {
	const w = await world(page, 'Pausing Owner')
	// A weekly schedule whose first date is ten days away: nothing is made meanwhile.
	await withDatabase(async (db) => {
		const { rows } = await db.query<{ id: string }>(
			`insert into public.recurring_invoices (organization_id, client_id, cadence, anchor_date, created_by)
			 values ($1, $2, 'weekly', current_date + 10, $3) returning id`,
			[w.orgId, w.clientId, w.userId],
		)
		await db.query(
			`insert into public.recurring_invoice_lines (organization_id, recurring_invoice_id, position, description, quantity, unit_price)
			 values ($1, $2, 0, 'Weekly lesson', 1, 60)`,
			[w.orgId, rows[0]!.id],
		)
	})
	await page.goto('/app/invoices/recurring')
	await expect(page.getByText('Active', { exact: true })).toBeVisible()
	await page.getByRole('button', { name: 'Pause the schedule for Marta Díaz' }).click()
	await expect(page.getByText('Schedule paused')).toBeVisible()
	await expect(page.getByText('Paused', { exact: true })).toBeVisible()
	await page.getByRole('button', { name: 'Resume the schedule for Marta Díaz' }).click()
	await expect(page.getByText('Schedule resumed')).toBeVisible()
	await expect(page.getByText('Active', { exact: true })).toBeVisible()

	await page.getByRole('link', { name: 'Delete the schedule for Marta Díaz' }).click()
	await expect(page.getByText('Delete the schedule for Marta Díaz?')).toBeVisible()
	await page.getByRole('button', { name: 'Delete schedule' }).click()
	await expect(page.getByText('Schedule deleted')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'No recurring invoices yet' })).toBeVisible()
	const left = await withDatabase((db) => db.query('select 1 from public.recurring_invoices where organization_id = $1', [w.orgId]))
	expect(left.rowCount).toBe(0)
})
