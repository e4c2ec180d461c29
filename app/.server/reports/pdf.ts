/**
 * Any report as a PDF (docs/product.md, Reports › Report Export): one renderer for every report's
 * `ReportDocument` (./document.ts) — the reports page, the tax year, the analytics and the mailed
 * scheduled reports — so all of them have the same header, tables, page breaks and footer.
 *
 * The page: the report's title, the organization and the subtitle; then each section under its
 * heading with its figures (three to a row), its paragraphs (wrapped) and its tables (amount
 * columns right aligned, long cells wrapped, the table's header repeated on every page a table
 * runs onto, the footer row of totals in bold); the disclaimer in small type at the end; and on
 * every page a footer with the organization, the title and the page's label ("Page 2 of 5").
 * Text is set in the shared fonts (../pdf/fonts.ts), which cover English, Spanish and Portuguese.
 */
import { rgb, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib'
import { cleanPdfText as clean, pdfWithFonts } from '../pdf/fonts.ts'
import type { ReportDocument, ReportTable } from './document.ts'

const PAGE = { width: 612, height: 792 } // US Letter; the text area fits A4 too
const MARGIN = { left: 50, right: 50, top: 50, bottom: 60 }
const RIGHT = PAGE.width - MARGIN.right
const WIDTH = RIGHT - MARGIN.left
const INK = rgb(0.09, 0.09, 0.11)
const MUTED = rgb(0.38, 0.38, 0.42)
const RULE = rgb(0.8, 0.8, 0.82)
/** The space between two columns of a table. */
const GUTTER = 12
/** Sizes of a table's text and the height of one of its lines. */
const CELL = 9
const HEAD = 8.5
const LINE = 12

type Color = ReturnType<typeof rgb>

/** Writes the pages of one report, keeping the cursor and starting a new page when a block does not fit. */
class Writer {
	page!: PDFPage
	y = 0
	readonly pages: PDFPage[] = []
	/** Drawn at the top of each new page (the header of the table that runs onto it). */
	onNewPage: (() => void) | null = null
	constructor(
		readonly doc: PDFDocument,
		readonly regular: PDFFont,
		readonly bold: PDFFont,
	) {
		this.addPage()
	}

	addPage() {
		this.page = this.doc.addPage([PAGE.width, PAGE.height])
		this.pages.push(this.page)
		this.y = PAGE.height - MARGIN.top
	}

	/** Makes room for `height` points, on a new page (with the running table's header) when this one is full. */
	ensure(height: number) {
		if (this.y - height >= MARGIN.bottom) return
		this.addPage()
		this.onNewPage?.()
	}

	width(text: string, size: number, font = this.regular) {
		return font.widthOfTextAtSize(clean(text), size)
	}

	/** Lines of `text` no wider than `width`: broken between words, and inside a word longer than a line. */
	wrap(text: string, size: number, width: number, font = this.regular): string[] {
		const lines: string[] = []
		for (const paragraph of text.split(/\r?\n/)) {
			let line = ''
			for (const word of clean(paragraph).split(/ +/)) {
				const candidate = line ? `${line} ${word}` : word
				if (font.widthOfTextAtSize(candidate, size) <= width) {
					line = candidate
					continue
				}
				if (line) lines.push(line)
				line = word
				while (line.length > 1 && font.widthOfTextAtSize(line, size) > width) {
					let cut = line.length - 1
					while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--
					lines.push(line.slice(0, cut))
					line = line.slice(cut)
				}
			}
			lines.push(line)
		}
		return lines
	}

	/** One line of text on the cursor's baseline, at `x` (its right end at `x` when right aligned). */
	text(text: string, x: number, size: number, options: { font?: PDFFont; color?: Color; align?: 'left' | 'right' } = {}) {
		const font = options.font ?? this.regular
		const value = clean(text)
		const left = options.align === 'right' ? x - font.widthOfTextAtSize(value, size) : x
		this.page.drawText(value, { x: left, y: this.y, size, font, color: options.color ?? INK })
	}

	/** A paragraph at the left margin, wrapped to the page, moving the cursor below it. */
	paragraph(text: string, size: number, options: { font?: PDFFont; color?: Color } = {}) {
		const lead = size * 1.4
		for (const line of this.wrap(text, size, WIDTH, options.font)) {
			this.ensure(lead)
			this.y -= size
			this.text(line, MARGIN.left, size, options)
			this.y -= lead - size
		}
	}

	rule(gap = 6, color = RULE) {
		this.y -= gap
		this.page.drawLine({ start: { x: MARGIN.left, y: this.y }, end: { x: RIGHT, y: this.y }, thickness: 0.6, color })
		this.y -= gap
	}
}

/** A left-aligned column's widest word counts up to this much toward its width; a longer word is cut. */
const MAX_WORD = 140

/**
 * Where each column of a table starts and how wide it is: right-aligned columns (amounts, counts)
 * as wide as their widest cell; left-aligned ones at least as wide as their widest word, sharing
 * the rest of the page in proportion to what more their longest cell would take (their text wraps
 * when the table is wider than the page). Without room for that, every column gets its share.
 */
function layoutColumns(w: Writer, table: ReportTable): { x: number; width: number; right: boolean }[] {
	const count = table.columns.length
	const cells = (i: number) => [
		{ text: table.columns[i]!.label, size: HEAD, font: w.bold },
		...table.rows.map((row) => ({ text: row[i] ?? '', size: CELL, font: w.regular })),
		{ text: table.footer?.[i] ?? '', size: CELL, font: w.bold },
	]
	const right = table.columns.map((column) => column.align === 'right')
	const natural = table.columns.map((_, i) => Math.max(8, ...cells(i).map((c) => w.width(c.text, c.size, c.font))))
	const least = table.columns.map((_, i) =>
		right[i]
			? natural[i]!
			: Math.min(MAX_WORD, Math.max(8, ...cells(i).flatMap((c) => c.text.split(/\s+/).map((word) => w.width(word, c.size, c.font))))),
	)
	const available = WIDTH - GUTTER * (count - 1)
	const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)
	let widths: number[]
	if (sum(natural) <= available) {
		// Room to spare: amounts end at the right margin, the first column takes the rest.
		widths = natural.slice()
		widths[0] = widths[0]! + available - sum(natural)
	} else if (sum(least) <= available) {
		const room = available - sum(least)
		const wanted = sum(natural.map((n, i) => n - least[i]!))
		widths = least.map((l, i) => l + (wanted > 0 ? ((natural[i]! - l) / wanted) * room : 0))
	} else widths = least.map((l) => (l / sum(least)) * available)
	let x = MARGIN.left
	return widths.map((width, i) => {
		const column = { x, width, right: right[i]! }
		x += width + GUTTER
		return column
	})
}

/** A table: caption, header (again on every page it runs onto), rows with wrapped cells, bold footer row. */
function drawTable(w: Writer, table: ReportTable) {
	const columns = layoutColumns(w, table)
	const row = (cells: string[], size: number, font: PDFFont, color: Color = INK) => {
		const wrapped = columns.map((column, i) => w.wrap(cells[i] ?? '', size, column.width, font))
		const height = Math.max(1, ...wrapped.map((lines) => lines.length)) * LINE + 3
		w.ensure(height)
		const top = w.y
		wrapped.forEach((lines, i) => {
			const column = columns[i]!
			w.y = top - size
			for (const line of lines) {
				w.text(line, column.right ? column.x + column.width : column.x, size, { font, color, align: column.right ? 'right' : 'left' })
				w.y -= LINE
			}
		})
		w.y = top - height
	}
	const header = () => {
		row(
			table.columns.map((column) => column.label),
			HEAD,
			w.bold,
			MUTED,
		)
		w.rule(1)
	}
	if (table.caption) {
		w.ensure(LINE * 3 + 10)
		w.y -= 4
		w.paragraph(table.caption, 10, { font: w.bold })
	}
	w.ensure(LINE * 3)
	header()
	w.onNewPage = header
	for (const cells of table.rows) row(cells, CELL, w.regular)
	if (table.footer) {
		w.ensure(LINE + 6)
		w.rule(2, MUTED)
		row(table.footer, CELL, w.bold)
	}
	w.onNewPage = null
	w.y -= 10
}

/** The section's figures, three to a row: the label small and muted, the value large. */
function drawStats(w: Writer, stats: { label: string; value: string }[]) {
	const perRow = 3
	const cell = (WIDTH - GUTTER * (perRow - 1)) / perRow
	for (let i = 0; i < stats.length; i += perRow) {
		const group = stats.slice(i, i + perRow).map((stat) => ({
			label: w.wrap(stat.label, 8.5, cell),
			value: w.wrap(stat.value, 14, cell, w.bold),
		}))
		const height = Math.max(...group.map((s) => s.label.length * 11 + s.value.length * 18)) + 8
		w.ensure(height)
		const top = w.y
		group.forEach((stat, j) => {
			const x = MARGIN.left + j * (cell + GUTTER)
			w.y = top - 8.5
			for (const line of stat.label) {
				w.text(line, x, 8.5, { color: MUTED })
				w.y -= 11
			}
			w.y -= 6
			for (const line of stat.value) {
				w.text(line, x, 14, { font: w.bold })
				w.y -= 18
			}
		})
		w.y = top - height
	}
}

/**
 * The report's PDF: every section of `report` drawn in order over as many pages as it needs, each
 * page with its footer. A 12-month report renders in tens of milliseconds (bench/report-pdf.ts).
 */
export async function renderReportPdf(report: ReportDocument): Promise<Uint8Array> {
	const { doc, regular, bold } = await pdfWithFonts()
	const organization = clean(report.organizationName)
	doc.setTitle(`${clean(report.title)} · ${organization}`)
	doc.setAuthor(organization)
	if (report.subtitle) doc.setSubject(clean(report.subtitle))
	doc.setLanguage(report.language)
	doc.setCreator('P2P Transaction Tracker')
	doc.setProducer('pdf-lib')

	const w = new Writer(doc, regular, bold)
	for (const line of w.wrap(report.title, 18, WIDTH, bold)) {
		w.ensure(24)
		w.y -= 18
		w.text(line, MARGIN.left, 18, { font: bold })
		w.y -= 6
	}
	w.y -= 4
	w.paragraph(report.organizationName, 11)
	if (report.subtitle) w.paragraph(report.subtitle, 9.5, { color: MUTED })
	w.rule(8)

	for (const section of report.sections) {
		w.y -= 6
		w.ensure(60) // a heading is not left alone at the bottom of a page
		w.paragraph(section.heading, 13, { font: bold })
		w.y -= 4
		if (section.stats?.length) drawStats(w, section.stats)
		for (const text of section.paragraphs ?? []) {
			w.paragraph(text, 10)
			w.y -= 4
		}
		for (const table of section.tables ?? []) drawTable(w, table)
	}

	if (report.disclaimer) {
		w.y -= 8
		w.ensure(30)
		w.rule(4)
		w.paragraph(report.disclaimer, 8.5, { color: MUTED })
	}

	const pages = w.pages.length
	w.pages.forEach((page, i) => {
		const size = 8
		let footer = clean(`${report.organizationName} · ${report.title} · ${report.pageLabel(i + 1, pages)}`)
		if (regular.widthOfTextAtSize(footer, size) > WIDTH) footer = clean(report.pageLabel(i + 1, pages))
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
