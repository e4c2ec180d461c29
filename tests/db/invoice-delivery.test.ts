/**
 * What the client of a sent invoice receives (docs/product.md, Invoicing › The client's page, PDF
 * and mail): the mail read back from the outbox, in the invoice's language (Portuguese, Spanish),
 * with the amount, the due date, the organization's handles, the memo code and the page's link;
 * sent once; and the PDF of the page's token read back with a PDF reader. On PGlite and on the
 * PostgreSQL server.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import PostalMime from 'postal-mime'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { invoiceMail, mailInvoice } from '#app/.server/invoices/mail.ts'
import { openPublicInvoice } from '#app/.server/invoices/page-access.ts'
import { invoicePdf, logoForPdf } from '#app/.server/invoices/pdf.ts'
import { getPublicInvoice } from '#app/.server/invoices/public-page.ts'
import { sendInvoice } from '#app/.server/invoices/sending.ts'
import { invoiceView } from '#app/.server/invoices/view.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { setLogo } from '#app/.server/organizations/settings.ts'
import { savePaymentHandles } from '#app/.server/payments/handles.ts'
import { LIMITS } from '#app/.server/rate-limit.ts'
import { readPdf } from '../support/pdf-text.ts'
import { createUser, type TestUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()
process.env.SECRETS_KEY ??= 'db-test-secrets-key-of-at-least-32-characters'
process.env.PUBLIC_URL = 'https://invoices.example.test'

const INVOICING = 'b0000000-0000-4000-8000-000000000005'

/** An organization with Invoicing on, Zelle and Venmo handles, and a draft for a client with (or without) an address. */
async function draft(language: 'pt-BR' | 'es' | 'en', options: { email?: string | null; logo?: boolean } = {}) {
	const owner = await createUser('Ana Souza')
	await asSystem(async (trx) => {
		await sql`insert into public.organization_modules (organization_id, module_id) values (${owner.orgId}, ${INVOICING})`.execute(trx)
		await sql`update public.organizations set name = 'Estúdio Canção' where id = ${owner.orgId}`.execute(trx)
	})
	expect(
		await savePaymentHandles(owner.userId, owner.orgId, { zelle: 'pay@studio.example', venmo: 'Studio-Nine', cashapp: null, paypal: null }),
	).toBe(true)
	if (options.logo) {
		const png = await sharp({ create: { width: 200, height: 80, channels: 3, background: '#0f766e' } })
			.png()
			.toBuffer()
		const set = await setLogo(owner.userId, owner.orgId, new Blob([new Uint8Array(png)], { type: 'image/png' }))
		expect(set.ok).toBe(true)
	}
	const email = options.email === undefined ? `client-${owner.orgId.slice(0, 8)}@example.test` : options.email
	const client = await asSystem((trx) =>
		trx
			.insertInto('clients')
			.values({ organization_id: owner.orgId, name: 'João Araújo', email, status: 'active' })
			.returning('id')
			.executeTakeFirstOrThrow(),
	)
	const invoiceId = await asUser(owner.userId, async (trx) => {
		const invoice = await trx
			.insertInto('invoices')
			.values({
				organization_id: owner.orgId,
				client_id: client.id,
				language,
				due_date: '2031-03-15',
				issue_date: '2031-03-01',
				tax_rate: 10,
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		await trx
			.insertInto('invoice_lines')
			.values([
				{
					organization_id: owner.orgId,
					invoice_id: invoice.id,
					position: 0,
					description: 'Aula de violão — iniciação',
					quantity: 4,
					unit_price: 45,
				},
				{ organization_id: owner.orgId, invoice_id: invoice.id, position: 1, description: 'Matrícula', quantity: 1, unit_price: 20 },
			])
			.execute()
		return invoice.id
	})
	return { owner, invoiceId, email: email ?? '' }
}

/** Intl writes a no-break space inside amounts ("US$ 220,00"): compared as a plain one. */
const plain = (text: string) => text.replace(/\u00a0/g, ' ')

/** The mails to `to`, their subject and text with plain spaces. */
async function mailsOf(to: string) {
	return (await mailsTo(to)).map((m) => ({ ...m, subject: plain(m.subject), text: plain(m.text) }))
}

async function send(owner: TestUser, invoiceId: string) {
	const sent = await sendInvoice(owner.userId, owner.orgId, invoiceId)
	if (!sent.ok) throw new Error(sent.code)
	return sent
}

/** The HTML part of every mail to `to`, parsed from the outbox's files. */
async function htmlTo(to: string) {
	const outbox = path.join(process.env.DATA_DIR!, 'outbox')
	const files = readdirSync(outbox).filter((f) => f.endsWith(`-${to}.eml`))
	return Promise.all(files.map(async (f) => (await PostalMime.parse(readFileSync(path.join(outbox, f)))).html ?? ''))
}

describe('the invoice mail', () => {
	test('in Portuguese: number, amount, due date, the handles, the memo code and the page’s link; text and HTML; once', async () => {
		const { owner, invoiceId, email } = await draft('pt-BR', { logo: true })
		const sent = await send(owner, invoiceId)
		const code = (await getPublicInvoice(sent.token))!.code!
		expect(code).toMatch(/^[A-Z0-9]{4,}$/)

		expect(await mailInvoice(owner.userId, owner.orgId, invoiceId, sent.token)).toEqual({ sent: true })
		// A double submit, a retried request: no second mail.
		expect(await mailInvoice(owner.userId, owner.orgId, invoiceId, sent.token)).toEqual({ sent: false })
		await drainMail()

		const mails = await mailsOf(email)
		expect(mails).toHaveLength(1)
		const mail = mails[0]!
		expect(mail.subject).toBe(`Fatura nº ${sent.number} de Estúdio Canção: US$ 220,00, vence em 15/03/2031`)
		const link = `https://invoices.example.test/i/${sent.token}`
		for (const expected of [
			'Olá, João Araújo! Estúdio Canção enviou uma fatura para você.',
			`Fatura nº ${sent.number}`,
			'Valor a pagar: US$ 220,00',
			'Vencimento: 15/03/2031',
			code,
			'Zelle',
			'pay@studio.example',
			'@Studio-Nine: https://venmo.com/Studio-Nine',
			link,
		])
			expect(mail.text).toContain(expected)
		expect(mail.text).toMatch(new RegExp(`US\\$ 220,00.*${code}|${code}.*US\\$ 220,00`))

		const [html] = await htmlTo(email)
		expect(html).toContain(`href="${link}"`)
		expect(html).toContain('Ver a fatura')
		expect(html).toContain(code)
		expect(html).toContain('href="https://venmo.com/Studio-Nine"')
		// The organization's logo, by an address a mail reader can load.
		expect(html).toMatch(/<img src="https:\/\/invoices\.example\.test\/storage\/logos\/[0-9a-f-]{36}\/logo\.png\?v=[^"]+"/)
	})

	test('in Spanish, to the address the invoice was sent to', async () => {
		const { owner, invoiceId, email } = await draft('es')
		const sent = await send(owner, invoiceId)
		expect(await mailInvoice(owner.userId, owner.orgId, invoiceId, sent.token)).toEqual({ sent: true })
		await drainMail()
		const [mail] = await mailsOf(email)
		expect(mail!.subject).toBe(`Factura n.º ${sent.number} de Estúdio Canção: 220,00 US$, vence el 15/03/2031`)
		expect(mail!.text).toContain('Hola, João Araújo: Estúdio Canção te envió una factura.')
		expect(mail!.text).toContain('Fecha de vencimiento: 15/03/2031')
		expect(mail!.text).toContain('Mira la factura y descárgala en PDF:')
		expect(mail!.text).toContain(`/i/${sent.token}`)
	})

	test('nothing is sent without an address, for a draft, with another invoice’s token, or by another organization', async () => {
		const none = await draft('en', { email: null })
		const sentNone = await send(none.owner, none.invoiceId)
		expect(await mailInvoice(none.owner.userId, none.owner.orgId, none.invoiceId, sentNone.token)).toEqual({ sent: false })

		const { owner, invoiceId, email } = await draft('en')
		const other = await draft('en')
		const otherSent = await send(other.owner, other.invoiceId)
		// Still a draft: nothing to mail, whatever token is given.
		expect(await mailInvoice(owner.userId, owner.orgId, invoiceId, otherSent.token)).toEqual({ sent: false })
		const sent = await send(owner, invoiceId)
		for (const [userId, orgId, token] of [
			[owner.userId, owner.orgId, otherSent.token], // another invoice's token
			[owner.userId, owner.orgId, sent.token.slice(0, -1) + (sent.token.endsWith('0') ? '1' : '0')], // a changed one
			[owner.userId, owner.orgId, 'not-a-token'],
			[other.owner.userId, other.owner.orgId, sent.token], // another organization's member
			[other.owner.userId, owner.orgId, sent.token],
		] as const)
			expect(await mailInvoice(userId, orgId, invoiceId, token)).toEqual({ sent: false })
		await drainMail()
		expect(await mailsTo(email)).toHaveLength(0)
		// The right call still sends it (the refusals above recorded nothing).
		expect(await mailInvoice(owner.userId, owner.orgId, invoiceId, sent.token)).toEqual({ sent: true })
		await drainMail()
		expect(await mailsTo(email)).toHaveLength(1)
	})

	test('writes hostile names as text in the HTML part', async () => {
		const { owner, invoiceId } = await draft('en')
		const sent = await send(owner, invoiceId)
		const invoice = (await getPublicInvoice(sent.token))!
		const mail = invoiceMail(
			{ ...invoice, billTo: '<script>alert(1)</script>', organization: { name: '"><img src=x onerror=alert(1)>', logoUrl: null } },
			{
				to: 'x@example.test',
				link: 'https://invoices.example.test/i/x',
				branding: { logoUrl: null, primary: '#2563eb', secondary: '#64748b' },
			},
		)
		expect(mail.html).not.toContain('<script>alert(1)</script>')
		expect(mail.html).not.toContain('<img src=x onerror')
		expect(mail.html).toContain('&lt;script&gt;')
		expect(mail.subject).not.toMatch(/[\r\n]/)
	})
})

describe('the invoice PDF of a sent invoice', () => {
	test('read back: number, client, the Portuguese lines, total, balance after a part payment, the memo code and the logo', async () => {
		const { owner, invoiceId } = await draft('pt-BR', { logo: true })
		const sent = await send(owner, invoiceId)
		const code = (await getPublicInvoice(sent.token))!.code!
		await asUser(owner.userId, (trx) =>
			trx
				.insertInto('transactions')
				.values({
					organization_id: owner.orgId,
					amount: 18,
					description: `pix ${code}`,
					date_received: new Date().toISOString().slice(0, 10),
				})
				.execute(),
		)
		const invoice = (await getPublicInvoice(sent.token))!
		expect(invoice.balance).toBe('202.00')
		const logo = await logoForPdf(invoice.organization.logoUrl)
		expect(logo?.kind).toBe('png')
		const bytes = await invoicePdf(invoiceView(invoice), logo)
		const { text, pageCount } = await readPdf(bytes)
		expect(pageCount).toBe(1)
		for (const expected of [
			`Fatura nº ${sent.number}`,
			'João Araújo',
			'Aula de violão — iniciação',
			'Matrícula',
			'US$ 220,00',
			'US$ 18,00',
			'US$ 202,00',
			'Saldo a pagar',
			code,
			'Estúdio Canção',
		])
			expect(text).toContain(expected)
		expect(Buffer.from(bytes).toString('latin1')).toMatch(/\/Subtype\s*\/Image/)
	})
})

describe('the page’s token, asked for from one address', () => {
	test('a guesser is refused after too many wrong tokens, their valid one too; a client who opens their link often never is', async () => {
		const { owner, invoiceId } = await draft('en')
		const sent = await send(owner, invoiceId)
		const client = `198.51.100.${Math.floor(Math.random() * 250)}:client:${sent.token.slice(0, 8)}`
		for (let i = 0; i < LIMITS['invoice-page-miss'].limit + 20; i++) expect((await openPublicInvoice(sent.token, client)).ok).toBe(true)

		const guesser = `203.0.113.7:guesser:${sent.token.slice(0, 8)}`
		const misses = ['not-a-token', 'f'.repeat(64), sent.token.toUpperCase()]
		for (let i = 0; i < LIMITS['invoice-page-miss'].limit; i++)
			expect(await openPublicInvoice(misses[i % misses.length]!, guesser)).toEqual({ ok: false, code: 'notFound' })
		expect(await openPublicInvoice('0'.repeat(64), guesser)).toEqual({ ok: false, code: 'rateLimited' })
		// Refused whatever the token, so the refusal tells nothing about one.
		expect(await openPublicInvoice(sent.token, guesser)).toEqual({ ok: false, code: 'rateLimited' })
		expect((await openPublicInvoice(sent.token, client)).ok).toBe(true)
	})
})
