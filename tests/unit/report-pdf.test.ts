/**
 * Any report's PDF read back as a client's reader reads it (app/.server/reports/pdf.ts): title,
 * organization, figures, paragraphs and tables in the document's language with every accent of
 * Spanish and Portuguese intact, long tables running onto further pages with their header again
 * and a numbered footer on every page, the totals row and the disclaimer once at the end.
 */
import { describe, expect, test } from 'vitest'
import { PDFDocument, PDFName } from 'pdf-lib'
import type { ReportDocument } from '#app/.server/reports/document.ts'
import { renderReportPdf } from '#app/.server/reports/pdf.ts'
import { readPdf } from '../support/pdf-text.ts'

function report(over: Partial<ReportDocument> = {}): ReportDocument {
	return {
		title: 'Relatório: 1 jan – 31 dez 2030',
		organizationName: 'Estúdio Ação & Canção',
		subtitle: 'Gerado em 02/01/2031',
		sections: [
			{
				heading: 'Resumo',
				stats: [
					{ label: 'Recebido', value: 'US$ 12.340,50' },
					{ label: 'Pagamentos', value: '318' },
					{ label: 'Média por pagamento', value: 'US$ 38,81' },
					{ label: 'Clientes', value: '41' },
				],
				paragraphs: [
					'Valores recebidos por trilho de pagamento; reembolsos já descontados. Não é orientação fiscal — consulte um contador.',
				],
			},
		],
		disclaimer: 'Este relatório não é orientação fiscal.',
		pageLabel: (page, pages) => `Página ${page} de ${pages}`,
		language: 'pt-BR',
		...over,
	}
}

describe('the report PDF', () => {
	test('says the report in Portuguese, accents intact, with its language in the metadata', async () => {
		const bytes = await renderReportPdf(report())
		expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-')
		const { pageCount, text } = await readPdf(bytes)
		expect(pageCount).toBe(1)
		for (const expected of [
			'Relatório: 1 jan – 31 dez 2030',
			'Estúdio Ação & Canção',
			'Gerado em 02/01/2031',
			'Resumo',
			'Recebido',
			'US$ 12.340,50',
			'Média por pagamento',
			'Não é orientação fiscal — consulte um contador.',
			'Este relatório não é orientação fiscal.',
			'Página 1 de 1',
		])
			expect(text).toContain(expected)
		const loaded = await PDFDocument.load(bytes, { updateMetadata: false })
		expect(loaded.getTitle()).toBe('Relatório: 1 jan – 31 dez 2030 · Estúdio Ação & Canção')
		expect(loaded.catalog.get(PDFName.of('Lang'))?.toString()).toBe('(pt-BR)')
	})

	test('a long Spanish table runs onto further pages: header on each, numbered footer on each, totals once at the end', async () => {
		const rows = Array.from({ length: 140 }, (_, i) => [
			`${String((i % 28) + 1).padStart(2, '0')}/03/2030`,
			i === 7 ? `Señora ${'ñ'.repeat(150)} fin` : `Cliente nº ${i + 1} — Añoranza Peñalosa`,
			'Zelle',
			`${i + 1},50 US$`,
		])
		const doc = report({
			language: 'es',
			title: 'Año fiscal 2030',
			organizationName: 'Academia Ñandú',
			pageLabel: (page, pages) => `Página ${page} de ${pages}`,
			sections: [
				{
					heading: 'Pagos recibidos',
					tables: [
						{
							caption: 'Por día',
							columns: [{ label: 'Fecha' }, { label: 'Cliente' }, { label: 'Vía' }, { label: 'Importe', align: 'right' }],
							rows,
							footer: ['Total', '', '', '9.940,00 US$'],
						},
					],
				},
			],
			disclaimer: 'Esto no es asesoramiento fiscal.',
		})
		const { pageCount, pages } = await readPdf(await renderReportPdf(doc))
		expect(pageCount).toBeGreaterThanOrEqual(3)
		pages.forEach((page, i) => {
			expect(page).toContain(`Página ${i + 1} de ${pageCount}`)
			expect(page).toContain('Importe')
		})
		const all = pages.join(' ')
		for (let i = 1; i <= 140; i++) if (i !== 8) expect(all).toContain(`Cliente nº ${i} — Añoranza Peñalosa`)
		// The 150-character word is cut into pieces, none lost.
		expect(all.replace(/\s+/g, '')).toContain(`Señora${'ñ'.repeat(150)}fin`)
		expect(pages.at(-1)).toContain('9.940,00 US$')
		expect(pages.at(-1)).toContain('Esto no es asesoramiento fiscal.')
		expect(all.match(/9\.940,00 US\$/g)).toHaveLength(1)
	})

	test('amounts are right aligned: each ends at the same x, whatever its length', async () => {
		const doc = report({
			sections: [
				{
					heading: 'Por trilho',
					tables: [
						{
							columns: [{ label: 'Trilho' }, { label: 'Valor', align: 'right' }],
							rows: [
								['Zelle', 'US$ 1,00'],
								['PayPal', 'US$ 12.345.678,00'],
							],
						},
					],
				},
			],
		})
		const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs')
		const pdf = await getDocument({ data: await renderReportPdf(doc), verbosity: 0 }).promise
		const items = (await (await pdf.getPage(1)).getTextContent()).items.flatMap((item) =>
			'str' in item && /^US\$/.test(item.str) && item.str.length > 4 ? [item.transform[4] + item.width] : [],
		)
		await pdf.destroy()
		expect(items.length).toBeGreaterThanOrEqual(2)
		expect(Math.abs(items[0]! - items[1]!)).toBeLessThan(0.5)
	})

	test('decomposed accents come out composed; control characters and an emoji break nothing around them', async () => {
		const doc = report({ sections: [{ heading: 'Notas', paragraphs: ['Joa\u0303o — cafe\u0301 🎸 fim', 'Tab\there\u0007bell'] }] })
		const { text } = await readPdf(await renderReportPdf(doc))
		expect(text).toContain('João — café')
		expect(text).toContain('fim')
		expect(text).toContain('Tab here bell')
	})
})
