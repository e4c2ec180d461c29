/**
 * Reads a PDF back as a client's PDF reader would: pdf-lib loads its structure (page count), and
 * PDF.js (the reader of Firefox and many others, `pdfjs-dist`) extracts its text through the
 * fonts' Unicode maps, so a test sees the characters a reader would copy out of the file, accents
 * included. Text of each page, its runs joined by spaces, with no-break spaces as plain ones.
 */
import { PDFDocument } from 'pdf-lib'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'

export async function readPdf(bytes: Uint8Array): Promise<{ pageCount: number; pages: string[]; text: string }> {
	const structure = await PDFDocument.load(bytes)
	const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise
	const pages: string[] = []
	for (let n = 1; n <= pdf.numPages; n++) {
		const content = await (await pdf.getPage(n)).getTextContent()
		pages.push(
			content.items
				.map((item) => ('str' in item ? item.str : ''))
				.join(' ')
				.replace(/\u00a0|\u202f/g, ' '),
		)
	}
	await pdf.destroy()
	return { pageCount: structure.getPageCount(), pages, text: pages.join('\n') }
}
