/**
 * The invoice's PDF read back as a client's reader reads it (app/.server/invoices/pdf.ts): the
 * page's content in the invoice's language with every accent of Spanish and Portuguese intact,
 * long descriptions wrapped, many lines running onto further pages with a numbered footer, and
 * the logo embedded. The database side (a sent invoice by its token) is in
 * tests/db/invoice-pdf.test.ts.
 */
import { describe, expect, test } from 'vitest'
import sharp from 'sharp'
import { invoicePdf } from '#app/.server/invoices/pdf.ts'
import type { PublicInvoice } from '#app/.server/invoices/public-page.ts'
import { invoiceView } from '#app/.server/invoices/view.ts'
import { readPdf } from '../support/pdf-text.ts'

process.env.SESSION_SECRET ??= 'unit-test-session-secret-of-32-characters'

function invoice(over: Partial<PublicInvoice> = {}): PublicInvoice {
	return {
		number: 42,
		state: 'partly_paid',
		language: 'pt-BR',
		billTo: 'João Araújo',
		issueDate: '2031-03-01',
		dueDate: '2031-03-15',
		notes: 'Obrigado pela preferência — até a próxima aula!',
		subtotal: '200.00',
		discount: '20.00',
		taxRate: '10',
		total: '198.00',
		amountPaid: '50.00',
		balance: '148.00',
		code: 'K7Q2M9',
		organization: { name: 'Estúdio Ação & Canção', logoUrl: null },
		handles: { zelle: 'pay@studio.example', venmo: 'Studio-Nine', cashapp: null, paypal: null },
		lines: [
			{ description: 'Aula de violão — iniciação à canção', quantity: '4', unitPrice: '45.00', amount: '180.00' },
			{ description: 'Matrícula', quantity: '1', unitPrice: '20.00', amount: '20.00' },
		],
		...over,
	}
}

describe('the invoice PDF', () => {
	test('says what the page says, in Portuguese, accents intact, with how to pay and the memo code', async () => {
		const bytes = await invoicePdf(invoiceView(invoice()))
		expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-')
		const { pageCount, text } = await readPdf(bytes)
		expect(pageCount).toBe(1)
		for (const expected of [
			'Estúdio Ação & Canção',
			'Fatura nº 42',
			'Paga em parte',
			'Cobrado de',
			'João Araújo',
			'15/03/2031',
			'Aula de violão — iniciação à canção',
			'Matrícula',
			'US$ 180,00',
			'Desconto',
			'Imposto (10%)',
			'US$ 198,00',
			'Valor pago',
			'US$ 50,00',
			'Saldo a pagar',
			'US$ 148,00',
			'Obrigado pela preferência — até a próxima aula!',
			'Como pagar',
			'Venmo @Studio-Nine: https://venmo.com/Studio-Nine',
			'K7Q2M9',
		])
			expect(text).toContain(expected)
		// Nothing of another language leaks in.
		expect(text).not.toMatch(/Invoice|Balance|Factura/)
	})

	test('in Spanish too, with the signs of that language', async () => {
		const { text } = await readPdf(
			await invoicePdf(
				invoiceView(
					invoice({ language: 'es', notes: '¿Dudas? ¡Escríbenos! Año nuevo, señal €', state: 'overdue', lines: invoice().lines }),
				),
			),
		)
		for (const expected of ['Factura n.º 42', 'Vencida', '¿Dudas? ¡Escríbenos! Año nuevo, señal €', '148,00 US$', 'Saldo pendiente'])
			expect(text).toContain(expected)
	})

	test('decomposed accents come out composed; a character the font lacks (an emoji) breaks nothing around it', async () => {
		const lines = [{ description: 'Joa\u0303o — cafe\u0301 🎸 fim', quantity: '1', unitPrice: '5.00', amount: '5.00' }]
		const { text } = await readPdf(await invoicePdf(invoiceView(invoice({ lines, notes: 'Tab\there\u0007bell' }))))
		expect(text).toContain('João — café')
		expect(text).toContain('fim')
		expect(text).toContain('Tab here bell')
	})

	test('a paid invoice says so and asks for nothing (no code, no ways to pay)', async () => {
		const { text } = await readPdf(
			await invoicePdf(invoiceView(invoice({ state: 'paid', code: null, amountPaid: '198.00', balance: '0.00', language: 'en' }))),
		)
		expect(text).toContain('This invoice is paid. Thank you!')
		expect(text).not.toContain('How to pay')
		expect(text).not.toContain('K7Q2M9')
	})

	test('many lines run onto further pages, each with the table header and a numbered footer; long words wrap', async () => {
		const lines = Array.from({ length: 90 }, (_, i) => ({
			description: i === 3 ? `Sessão ${'x'.repeat(120)} fim` : `Sessão de mentoria nº ${i + 1} — revisão de projeto e orientação`,
			quantity: '1.5',
			unitPrice: '10.00',
			amount: '15.00',
		}))
		const { pageCount, pages } = await readPdf(await invoicePdf(invoiceView(invoice({ lines }))))
		expect(pageCount).toBeGreaterThanOrEqual(3)
		pages.forEach((page, i) => {
			expect(page).toContain(`Página ${i + 1} de ${pageCount}`)
			if (i < pageCount - 1) expect(page).toContain('Preço unitário')
		})
		const all = pages.join(' ')
		for (let i = 1; i <= 90; i++) if (i !== 4) expect(all).toContain(`Sessão de mentoria nº ${i} —`)
		expect(all).toContain('1,5')
		// The 120-character word is cut into pieces, none lost.
		expect(all.replace(/\s+/g, '')).toContain(`Sessão${'x'.repeat(120)}fim`)
		// The totals and the code come once, after the last line.
		expect(pages.at(-1)).toContain('K7Q2M9')
	})

	test('the organization’s logo is drawn (PNG and JPEG)', async () => {
		const png = await sharp({ create: { width: 300, height: 120, channels: 3, background: '#2563eb' } })
			.png()
			.toBuffer()
		const jpeg = await sharp(png).jpeg().toBuffer()
		const without = await invoicePdf(invoiceView(invoice()))
		for (const [kind, bytes] of [
			['png', png],
			['jpeg', jpeg],
		] as const) {
			const pdf = await invoicePdf(invoiceView(invoice()), { kind, bytes: new Uint8Array(bytes) })
			expect(Buffer.from(pdf).toString('latin1')).toMatch(/\/Subtype\s*\/Image/)
			expect(Buffer.from(without).toString('latin1')).not.toMatch(/\/Subtype\s*\/Image/)
			expect((await readPdf(pdf)).text).toContain('Fatura nº 42')
		}
	})
})
