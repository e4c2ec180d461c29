/**
 * The invoice as a PDF (docs/product.md, Invoicing › The client's page, PDF and mail): built on
 * the server with pdf-lib from the same `InvoiceView` as the public page (./view.ts), so it says
 * what the page says in the same order: the organization's logo and name, the invoice's number
 * and state, who it was billed to and its dates, its lines (descriptions wrapped, amounts right
 * aligned, the table's header repeated on every page), the totals, the notes, and how to pay with
 * the memo code; a footer with the page's number on every page.
 *
 * Text is set in DejaVu Sans, drawn unshaped, the fonts read and parsed once per process
 * (../pdf/fonts.ts).
 */
import { PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib'
import { cleanPdfText as clean, pdfWithFonts } from '../pdf/fonts.ts'
import { sniffImage } from '../images.ts'
import { logError } from '../log.ts'
import { storage } from '../storage/index.ts'
import { tIn } from '../i18n.ts'
import type { InvoiceView } from './view.ts'

/** A logo the PDF can show: PNG or JPEG bytes (what the logos bucket holds: app/.server/images.ts). */
export type PdfLogo = { bytes: Uint8Array; kind: 'png' | 'jpeg' }

/**
 * The organization's stored logo, for the PDF: read from the storage port by the key its URL ends
 * with (`logos/{organization}/logo.{png|jpg}`, whichever adapter made the URL). Null when there is
 * none, when it is not PNG or JPEG, or when storage fails (the PDF is made without it).
 */
export async function logoForPdf(logoUrl: string | null): Promise<PdfLogo | null> {
	if (!logoUrl) return null
	let pathname: string
	try {
		pathname = new URL(logoUrl, 'http://local').pathname
	} catch {
		return null
	}
	const key = /\/logos\/([0-9a-f-]{36}\/logo\.(?:png|jpg))$/.exec(pathname)?.[1]
	if (!key) return null
	try {
		const file = await storage().get('logos', key)
		if (!file) return null
		const kind = sniffImage(file.bytes)
		return kind === 'png' || kind === 'jpeg' ? { bytes: new Uint8Array(file.bytes), kind } : null
	} catch (error) {
		logError(error, { event: 'invoice_pdf_logo_failed' })
		return null
	}
}

const PAGE = { width: 612, height: 792 } // US Letter; the text area fits A4 too (its margins are wider than the difference)
const MARGIN = { left: 50, right: 50, top: 50, bottom: 60 }
const RIGHT = PAGE.width - MARGIN.right
const WIDTH = RIGHT - MARGIN.left
const INK = rgb(0.09, 0.09, 0.11)
const MUTED = rgb(0.38, 0.38, 0.42)
const RULE = rgb(0.8, 0.8, 0.82)
/** The space between two columns of the table. */
const GUTTER = 16

/** Writes the pages of one invoice, keeping the cursor and starting a new page when a block does not fit. */
class Writer {
	page!: PDFPage
	y = 0
	readonly pages: PDFPage[] = []
	constructor(
		readonly doc: PDFDocument,
		readonly regular: PDFFont,
		readonly bold: PDFFont,
		readonly onNewPage: (w: Writer) => void = () => undefined,
	) {
		this.addPage()
	}

	addPage() {
		this.page = this.doc.addPage([PAGE.width, PAGE.height])
		this.pages.push(this.page)
		this.y = PAGE.height - MARGIN.top
	}

	/** Makes room for `height` points, on a new page (with its repeated header) when this one is full. */
	ensure(height: number) {
		if (this.y - height >= MARGIN.bottom) return
		this.addPage()
		this.onNewPage(this)
	}

	width(text: string, size: number, font = this.regular) {
		return font.widthOfTextAtSize(text, size)
	}

	/** Lines of `text` no wider than `width`: broken between words, and inside a word longer than a line. */
	wrap(text: string, size: number, width: number, font = this.regular): string[] {
		const lines: string[] = []
		for (const paragraph of text.split(/\r?\n/)) {
			let line = ''
			for (const word of clean(paragraph).split(/ +/)) {
				const candidate = line ? `${line} ${word}` : word
				if (this.width(candidate, size, font) <= width) {
					line = candidate
					continue
				}
				if (line) lines.push(line)
				line = word
				while (this.width(line, size, font) > width && line.length > 1) {
					let cut = line.length - 1
					while (cut > 1 && this.width(line.slice(0, cut), size, font) > width) cut--
					lines.push(line.slice(0, cut))
					line = line.slice(cut)
				}
			}
			lines.push(line)
		}
		return lines
	}

	text(text: string, x: number, size: number, options: { font?: PDFFont; color?: ReturnType<typeof rgb>; align?: 'left' | 'right' } = {}) {
		const font = options.font ?? this.regular
		const value = clean(text)
		const left = options.align === 'right' ? x - this.width(value, size, font) : x
		this.page.drawText(value, { x: left, y: this.y, size, font, color: options.color ?? INK })
	}

	/** A paragraph at the left margin (wrapped to `width`), moving the cursor below it. */
	paragraph(text: string, size: number, options: { font?: PDFFont; color?: ReturnType<typeof rgb>; width?: number; x?: number } = {}) {
		const lead = size * 1.35
		for (const line of this.wrap(text, size, options.width ?? WIDTH, options.font)) {
			this.ensure(lead)
			this.y -= size
			this.text(line, options.x ?? MARGIN.left, size, options)
			this.y -= lead - size
		}
	}

	rule(gap = 6) {
		this.y -= gap
		this.page.drawLine({ start: { x: MARGIN.left, y: this.y }, end: { x: RIGHT, y: this.y }, thickness: 0.6, color: RULE })
		this.y -= gap
	}
}

/** Where the table's columns end (amounts right aligned), each as wide as its widest cell, the description taking the rest. */
type Columns = { description: number; quantity: number; unitPrice: number; amount: number }

function columnsOf(w: Writer, view: InvoiceView): Columns {
	const widest = (key: 'quantity' | 'unitPrice' | 'amount') =>
		Math.max(w.width(view.columns[key], 9, w.bold), ...view.lines.map((l) => w.width(l[key], 10)))
	const amount = RIGHT
	const unitPrice = amount - widest('amount') - GUTTER
	const quantity = unitPrice - widest('unitPrice') - GUTTER
	return { amount, unitPrice, quantity, description: Math.max(quantity - widest('quantity') - GUTTER - MARGIN.left, 120) }
}

/** The table's header row: on the first page and again at the top of every page the lines run onto. */
function tableHeader(w: Writer, view: InvoiceView, columns: Columns) {
	w.y -= 9
	w.text(view.columns.description, MARGIN.left, 9, { font: w.bold, color: MUTED })
	w.text(view.columns.quantity, columns.quantity, 9, { font: w.bold, color: MUTED, align: 'right' })
	w.text(view.columns.unitPrice, columns.unitPrice, 9, { font: w.bold, color: MUTED, align: 'right' })
	w.text(view.columns.amount, columns.amount, 9, { font: w.bold, color: MUTED, align: 'right' })
	w.rule(5)
}

/**
 * The invoice's PDF, from the view the page shows (`invoiceView`) and its organization's logo.
 * A 30-line invoice renders in tens of milliseconds (bench/invoice-pdf.ts; budget 300 ms).
 */
export async function invoicePdf(view: InvoiceView, logo: PdfLogo | null = null): Promise<Uint8Array> {
	const { doc, regular, bold } = await pdfWithFonts()
	const t = tIn(view.language, 'invoice-page')
	doc.setTitle(`${view.title} · ${clean(view.organization.name)}`)
	doc.setAuthor(clean(view.organization.name))
	doc.setLanguage(view.language)
	doc.setCreator('P2P Transaction Tracker')
	doc.setProducer('pdf-lib')

	let image: PDFImage | null = null
	if (logo) {
		try {
			image = logo.kind === 'png' ? await doc.embedPng(logo.bytes) : await doc.embedJpg(logo.bytes)
		} catch (error) {
			logError(error, { event: 'invoice_pdf_logo_unreadable' })
		}
	}

	let inTable = false
	const w = new Writer(doc, regular, bold, (writer) => {
		if (inTable) tableHeader(writer, view, columns)
	})
	const columns = columnsOf(w, view)

	// Header: logo and organization on the left, number and state on the right.
	const top = w.y
	let left = MARGIN.left
	if (image) {
		const scale = Math.min(120 / image.width, 48 / image.height, 1)
		const size = { width: image.width * scale, height: image.height * scale }
		w.page.drawImage(image, { x: MARGIN.left, y: top - size.height, ...size })
		left += size.width + 10
	}
	w.y = top - 16
	const nameWidth = RIGHT - 200 - left
	for (const line of w.wrap(view.organization.name, 14, nameWidth, bold).slice(0, 2)) {
		w.text(line, left, 14, { font: bold })
		w.y -= 18
	}
	w.y = top - 18
	w.text(view.title, RIGHT, 18, { font: bold, align: 'right' })
	w.y -= 16
	w.text(view.stateLabel, RIGHT, 10, { color: MUTED, align: 'right' })
	w.y = Math.min(w.y, top - (image ? 48 : 36)) - 16

	if (view.banner) {
		w.paragraph(view.banner, 10.5, { font: bold })
		w.y -= 6
	}

	// Billed to and dates, side by side.
	w.ensure(34)
	const factTop = w.y
	view.facts.forEach((fact, i) => {
		const x = MARGIN.left + i * (WIDTH / Math.max(view.facts.length, 3))
		w.y = factTop - 9
		w.text(fact.label, x, 9, { color: MUTED })
		w.y -= 15
		w.text(w.wrap(fact.value, 11, WIDTH / 3 - 12)[0] ?? '', x, 11)
	})
	w.y = factTop - 40

	// Lines.
	w.ensure(40)
	tableHeader(w, view, columns)
	inTable = true
	for (const line of view.lines) {
		const wrapped = w.wrap(line.description, 10, columns.description)
		const height = wrapped.length * 13 + 5
		w.ensure(height)
		const rowTop = w.y
		w.y -= 10
		w.text(line.quantity, columns.quantity, 10, { align: 'right' })
		w.text(line.unitPrice, columns.unitPrice, 10, { align: 'right' })
		w.text(line.amount, columns.amount, 10, { align: 'right' })
		for (const text of wrapped) {
			w.text(text, MARGIN.left, 10)
			w.y -= 13
		}
		w.y = rowTop - height
	}
	inTable = false
	w.rule(4)

	// Totals, right aligned: the labels end where the widest amount begins.
	const labelsEnd = RIGHT - Math.max(...view.totals.map((x) => w.width(x.value, x.strong ? 12 : 10, x.strong ? bold : regular))) - GUTTER
	for (const total of view.totals) {
		const size = total.strong ? 12 : 10
		w.ensure(size + 6)
		w.y -= size + 2
		const font = total.strong ? bold : regular
		w.text(total.label, labelsEnd, size, { font, align: 'right' })
		w.text(total.value, RIGHT, size, { font, align: 'right' })
		w.y -= 4
	}

	if (view.notes) {
		w.y -= 12
		w.ensure(30)
		w.paragraph(view.notes.label, 10, { font: bold })
		w.paragraph(view.notes.text, 10)
	}

	if (view.pay) {
		const pay = view.pay
		w.y -= 14
		w.ensure(90)
		w.rule(0)
		w.y -= 8
		w.paragraph(pay.heading, 12, { font: bold })
		w.y -= 2
		w.paragraph(pay.none ?? pay.intro, 10)
		for (const way of pay.ways)
			w.paragraph(`•  ${way.label}${way.href ? `: ${way.href}` : ''}`, 10, { x: MARGIN.left + 8, width: WIDTH - 8 })
		w.y -= 6
		w.ensure(40)
		w.paragraph(pay.codeLabel, 9, { color: MUTED })
		w.paragraph(pay.code, 18, { font: bold })
		w.paragraph(pay.putInMemo, 9.5, { color: MUTED })
	}

	// Footer on every page: who, what, and the page's number.
	const pages = w.pages.length
	w.pages.forEach((page, i) => {
		const footer = clean(`${view.organization.name} · ${view.title} · ${t('page.pageOf', { page: i + 1, pages })}`)
		const size = 8
		page.drawText(footer, {
			x: (PAGE.width - regular.widthOfTextAtSize(footer, size)) / 2,
			y: MARGIN.bottom / 2,
			size,
			font: regular,
			color: MUTED,
		})
	})
	return doc.save()
}
