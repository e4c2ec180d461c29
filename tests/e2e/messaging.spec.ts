/**
 * Reminders & Messaging (docs/product.md, Reminders & Messaging) in the browser: the owner edits
 * the Spanish overdue template and previews it on the server (a placeholder the kind does not
 * know is refused by name, with or without JavaScript); the reminders job, run by a second
 * instance of the server on the same database (as a scaled-out install runs it), mails the
 * overdue reminder in the client's language; an invoice paid with its code gets none; the
 * unsubscribe page, without JavaScript, stops the rest. At a phone's width.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import PostalMime from 'postal-mime'
import { deriveKey, seal } from '../../app/.server/secrets.ts'
import { withDatabase } from './db.ts'
import { expect, latestMailTo, mailsTo, test } from './fixtures.ts'
import { signUpFresh, useLanguage } from './reports-data.ts'

const INVOICING = 'b0000000-0000-4000-8000-000000000005'
const MESSAGING = 'b0000000-0000-4000-8000-000000000006'
// The e2e server's keys (playwright.config.ts): the second instance must sign and seal as it does.
const SESSION_SECRET = 'e2e-session-secret-of-at-least-32-characters'
const SECRETS_KEY = 'e2e-secrets-key-of-at-least-32-characters'

test.use({ viewport: { width: 390, height: 844 } })

type Org = { orgId: string; userId: string; name: string }

/** A new owner whose organization has Invoicing and Reminders & Messaging, in UTC, reminding 1 day after the due date. */
async function messagingOwner(page: Page, name: string): Promise<Org> {
	const account = await signUpFresh(page, page.request, name)
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ organization_id: string; user_id: string; name: string }>(
			`select m.organization_id, m.user_id, o.name from public.organization_members m join auth.users u on u.id = m.user_id
			 join public.organizations o on o.id = m.organization_id where u.email = $1`,
			[account.email],
		)
		const org = rows[0]!
		await db.query(`insert into public.organization_modules (organization_id, module_id) values ($1, $2), ($1, $3)`, [
			org.organization_id,
			INVOICING,
			MESSAGING,
		])
		await db.query(`update public.booking_settings set timezone = 'UTC' where organization_id = $1`, [org.organization_id])
		await db.query(`update public.messaging_settings set days_before = '{}', days_after = '{1}' where organization_id = $1`, [
			org.organization_id,
		])
		return { orgId: org.organization_id, userId: org.user_id, name: org.name }
	})
}

/** The page has nothing wider than the phone's screen. */
async function fitsTheScreen(page: Page) {
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
}

test('the owner edits the Spanish overdue template and previews it; a placeholder it does not know is refused by name @nojs', async ({
	page,
}) => {
	const org = await messagingOwner(page, 'Plantillas Owner')
	await page.goto('/app/messaging')
	await expect(page.getByRole('heading', { name: 'Reminders & Messaging', level: 1 })).toBeVisible()
	await page
		.getByRole('region', { name: 'Invoice reminder after the due date' })
		.getByRole('link', { name: /Español/ })
		.click()
	await expect(page.getByRole('heading', { name: 'Invoice reminder after the due date · Español' })).toBeVisible()
	await expect(page.getByLabel('Subject')).toHaveValue('Vencida: factura n.º {{invoice_number}} de {{organization_name}}')

	await page.getByLabel('Subject').fill('Factura {{invoice_number}} vencida')
	await page.getByLabel('Message').fill('Hola {{client_name}}, quedan {{balance}} de {{total}}.\n\nCódigo: {{memo_code}}')
	await page.getByRole('button', { name: 'Preview' }).click()
	await expect(page.getByText('{{total}} is not a placeholder of this message. Use one of the list.')).toBeVisible()
	await expect(page.getByTestId('template-preview')).toHaveCount(0)

	await page.getByLabel('Message').fill('Hola {{client_name}}, quedan {{balance}}.\n\nCódigo: {{memo_code}} <b>')
	await page.getByRole('button', { name: 'Preview' }).click()
	const preview = page.getByTestId('template-preview')
	await expect(preview.getByText('Subject: Factura 1042 vencida')).toBeVisible()
	await expect(preview).toContainText(/Hola Ana Silva, quedan 100,00\sUS\$\./)
	await expect(preview).toContainText('Código: K7QM4P <b>')
	expect(await templates(org.orgId)).toEqual([])
	await fitsTheScreen(page)

	await page.getByRole('button', { name: 'Save template' }).click()
	await expect(page.getByText('Template saved').first()).toBeVisible()
	expect(await templates(org.orgId)).toEqual([
		{
			kind: 'invoice_after',
			language: 'es',
			subject: 'Factura {{invoice_number}} vencida',
			body: 'Hola {{client_name}}, quedan {{balance}}.\n\nCódigo: {{memo_code}} <b>',
		},
	])
	await expect(
		page.getByRole('region', { name: 'Invoice reminder after the due date' }).getByRole('link', { name: /Español/ }),
	).toContainText('Edited')

	// The screen in Portuguese.
	await useLanguage(page, 'pt-BR')
	await page.goto('/app/messaging')
	await expect(page.getByRole('heading', { name: 'Lembretes e mensagens', level: 1 })).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Lembretes de faturas' })).toBeVisible()
})

test('the screen, with a preview and an error, has no serious or critical accessibility violation at a phone’s width', async ({ page }) => {
	await messagingOwner(page, 'Axe Owner')
	await page.goto('/app/messaging?kind=appointment_reminder&lang=pt-BR')
	await page.getByRole('button', { name: 'Preview' }).click()
	await expect(page.getByTestId('template-preview')).toBeVisible()
	await page.getByLabel('Days after the due date').fill('0, 500')
	await page.getByRole('button', { name: 'Save reminder settings' }).click()
	await expect(page.getByText('Enter whole days from 1 to 120, separated by commas.')).toBeVisible()
	const { violations } = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
		.options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
		.analyze()
	const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
	expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join(' | ')}`)).toEqual([])
})

async function templates(orgId: string) {
	return withDatabase(async (db) => {
		const { rows } = await db.query(`select kind, language, subject, body from public.message_templates where organization_id = $1`, [
			orgId,
		])
		return rows
	})
}

/**
 * A client of `email` billed $250.00, due yesterday (so its one-day-overdue reminder is due now,
 * at 9:00 UTC or later), sent three days ago in `language`, with its page's token sealed as the
 * server seals it; `paid`: its payment, with the code, arrives in the same transaction.
 */
async function overdueInvoice(org: Org, email: string, { language = 'es', paid = false } = {}) {
	return withDatabase(async (db) => {
		await db.query('begin')
		try {
			const one = async (text: string, values: unknown[]) => (await db.query<{ id: string }>(text, values)).rows[0]!.id
			const clientId = await one(`insert into public.clients (organization_id, name, email) values ($1, 'Lucía Pérez', $2) returning id`, [
				org.orgId,
				email,
			])
			const id = await one(
				`insert into public.invoices (organization_id, client_id, language, issue_date, due_date)
				 values ($1, $2, $3, current_date - 30, ((now() at time zone 'UTC') - interval '9 hours')::date - 1) returning id`,
				[org.orgId, clientId, language],
			)
			await db.query(
				`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price) values ($1, $2, 0, 'Diseño', 2, 125)`,
				[org.orgId, id],
			)
			const token = randomBytes(32).toString('hex')
			const hash = createHash('sha256').update(token).digest('hex')
			const sealed = seal(token, `invoice-page-token:${id}`, deriveKey(SECRETS_KEY))
			await db.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: org.userId, role: 'authenticated' })])
			await db.query('set local role authenticated')
			await db.query('select public.send_invoice($1, $2, $3)', [id, hash, sealed])
			await db.query('reset role')
			await db.query(`update public.invoices set sent_at = now() - interval '3 days' where id = $1`, [id])
			const { rows } = await db.query<{ memo_code: string; number: number }>(
				`select memo_code, number from public.invoice_overview where id = $1`,
				[id],
			)
			if (paid) {
				await db.query(
					`insert into public.transactions (organization_id, amount, description, payment_method, date_received) values ($1, 250, $2, 'Venmo', current_date)`,
					[org.orgId, `invoice ${rows[0]!.memo_code}`],
				)
			}
			await db.query('commit')
			return { id, token, code: rows[0]!.memo_code, number: rows[0]!.number }
		} catch (error) {
			await db.query('rollback')
			throw error
		}
	})
}

/**
 * A second instance of the built server on the e2e database and outbox, ticking every half
 * second: its scheduler runs the invoice reminders (and every other job) as a scaled-out
 * install's would. `ready` resolves once it answers; the caller stops `child`.
 */
function secondInstance(): { child: ChildProcess; ready: Promise<void> } {
	const port = Number(process.env.E2E_PORT ?? 4173) + 10 + test.info().workerIndex
	const child = spawn(process.execPath, ['server.js'], {
		cwd: path.resolve(import.meta.dirname, '../..'),
		env: {
			PATH: process.env.PATH,
			PORT: String(port),
			HOST: '127.0.0.1',
			DATA_DIR: path.resolve(process.env.E2E_DATA_DIR!),
			DATABASE_URL: process.env.E2E_DATABASE_URL,
			SESSION_SECRET,
			SECRETS_KEY,
			SCHEDULER_TICK_MS: '500',
			LOG_LEVEL: 'silent',
		},
		stdio: 'ignore',
	})
	const ready = (async () => {
		const until = Date.now() + 20_000
		for (;;) {
			if (child.exitCode !== null) throw new Error(`the second instance exited with ${child.exitCode}`)
			const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
				(r) => r.ok,
				() => false,
			)
			if (up) return
			if (Date.now() > until) throw new Error('the second instance did not start')
			await new Promise((resolve) => setTimeout(resolve, 100))
		}
	})()
	// Awaited later, after the sign-up: a failure meanwhile is not an unhandled rejection.
	ready.catch(() => undefined)
	return { child, ready }
}

/** The newest mail to `to`, parsed, waiting for it. */
async function mailTo(to: string) {
	const mail = await PostalMime.parse(await latestMailTo(to, 8_000))
	const header = (key: string) => mail.headers.find((h) => h.key === key)?.value ?? ''
	return { subject: mail.subject ?? '', text: mail.text ?? '', header }
}

test('the overdue reminder goes in the client’s language; a paid invoice gets none; the unsubscribe page stops the rest @nojs', async ({
	page,
	javaScriptEnabled,
}) => {
	test.skip(javaScriptEnabled, 'a job and a page without JavaScript: the no-js project runs it')
	// Started first: it boots while the owner signs up.
	const instance = secondInstance()
	try {
		await remindersWalk(page, instance.ready)
	} finally {
		instance.child.kill('SIGTERM')
	}
})

/** The walk of the test above, while the second instance runs. */
async function remindersWalk(page: Page, instanceReady: Promise<void>) {
	const org = await messagingOwner(page, 'Estudio Recordatorios')
	await withDatabase((db) =>
		db.query(
			`insert into public.message_templates (organization_id, kind, language, subject, body) values ($1, 'invoice_after', 'es', $2, $3)`,
			[
				org.orgId,
				'Factura {{invoice_number}} vencida',
				'Hola {{client_name}}, quedan {{balance}}.\nCódigo: {{memo_code}}\nPagar: {{pay_link}}',
			],
		),
	)
	const tag = randomBytes(4).toString('hex')
	const lucia = `lucia-${tag}@client.example`
	const paidBy = `paid-${tag}@client.example`
	const control = `control-${tag}@client.example`
	await instanceReady
	const owed = await overdueInvoice(org, lucia)
	const reminder = await mailTo(lucia)
	expect(reminder.subject).toBe(`Factura ${owed.number} vencida`)
	expect(reminder.text).toMatch(/Hola Lucía Pérez, quedan 250,00\sUS\$\./)
	expect(reminder.text).toContain(`Código: ${owed.code}`)
	expect(reminder.text).toContain(`/i/${owed.token}`)
	expect(reminder.text).toContain('Recibes este correo porque')
	expect(reminder.header('list-unsubscribe')).toMatch(/^<http\S+\/unsubscribe\/client\?/)

	// Paid with its code in the transaction that sent it; the control, sent after it, proves a run looked.
	await overdueInvoice(org, paidBy, { paid: true })
	await overdueInvoice(org, control)
	await mailTo(control)
	expect(mailsTo(paidBy)).toEqual([])

	// The unsubscribe link, without JavaScript: opening it asks and changes nothing; the button does it.
	const link = /https?:\/\/[^/\s]+(\/unsubscribe\/client\?\S+)/.exec(reminder.text)![1]!
	await page.goto(link)
	await expect(page.getByText(`Stop the reminders that ${org.name} sends to ${lucia}?`)).toBeVisible()
	expect(await unsubscribed(org.orgId)).toEqual([])
	await fitsTheScreen(page)
	await page.getByRole('button', { name: 'Stop the reminders' }).click()
	await expect(page.getByText(`Done: ${org.name} will send no more reminders to ${lucia}.`)).toBeVisible()
	expect(await unsubscribed(org.orgId)).toEqual([lucia])

	const before = mailsTo(lucia).length
	await overdueInvoice(org, lucia)
	const secondControl = `control2-${tag}@client.example`
	await overdueInvoice(org, secondControl)
	await mailTo(secondControl)
	expect(mailsTo(lucia)).toHaveLength(before)
}

async function unsubscribed(orgId: string) {
	return withDatabase(async (db) => {
		const { rows } = await db.query<{ email: string }>(`select email from public.client_unsubscribes where organization_id = $1`, [orgId])
		return rows.map((r) => r.email)
	})
}
