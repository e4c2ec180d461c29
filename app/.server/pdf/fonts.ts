/**
 * The fonts every PDF of the app is set in (invoices, reports: docs/decisions/045-invoice-pdf.md),
 * read and parsed once per process and shared by every document.
 *
 * Text is set in DejaVu Sans (the `dejavu-fonts-ttf` package: Bitstream Vera licence, free to
 * embed), a subset of the glyphs used embedded in each file, which covers every character of
 * English, Spanish and Portuguese. These languages need no shaping once text is NFC (accents
 * precomposed), so each character is drawn with its own glyph (`unshaped`): fontkit's OpenType
 * layout, which pdf-lib runs for every text it measures or draws, was most of a render's time
 * (bench/README.md, invoice-pdf.ts).
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import * as fontkitModule from '@pdf-lib/fontkit'
import { PDFDocument, type PDFFont } from 'pdf-lib'

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0]
type FontkitFont = ReturnType<Fontkit['create']>

// The package is a UMD bundle: Node's import gives its exports as `default`, a bundler as the namespace.
const fontkit = (fontkitModule as unknown as { default?: Fontkit }).default ?? (fontkitModule as unknown as Fontkit)

const FONT_FILES = { regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf', bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf' } as const

/**
 * The font as pdf-lib reads it, but laid out one glyph per character (no ligature, no kerning, no
 * mark positioning): pdf-lib takes only the glyphs of a layout, to measure text and to draw it.
 */
function unshaped(font: FontkitFont): FontkitFont {
	const glyphs = new Map<number, ReturnType<FontkitFont['glyphForCodePoint']>>()
	const glyph = (c: string) => {
		const point = c.codePointAt(0)!
		let found = glyphs.get(point)
		if (!found) {
			// Bounded: a text of rare characters makes new entries, the three languages use a few hundred.
			if (glyphs.size >= 5000) glyphs.clear()
			glyphs.set(point, (found = font.glyphForCodePoint(point)))
		}
		return found
	}
	const layout = (text: string) => ({ glyphs: Array.from(text, glyph) })
	return new Proxy(font, { get: (target, key) => (key === 'layout' ? layout : Reflect.get(target, key, target)) })
}

let fonts: Promise<{ regular: Uint8Array; bold: Uint8Array; parsed: Map<Uint8Array, FontkitFont> }> | null = null

/** The two font files, read once; their parsed fonts, made once (a parse of DejaVu Sans takes tens of milliseconds). */
function loadFonts() {
	fonts ??= (async () => {
		const require = createRequire(import.meta.url)
		const [regular, bold] = await Promise.all([readFile(require.resolve(FONT_FILES.regular)), readFile(require.resolve(FONT_FILES.bold))])
		return { regular: new Uint8Array(regular), bold: new Uint8Array(bold), parsed: new Map<Uint8Array, FontkitFont>() }
	})().catch((error: unknown) => {
		fonts = null
		throw error
	})
	return fonts
}

/**
 * A new PDF document with DejaVu Sans regular and bold embedded (subsets of the glyphs used), the
 * parsed fonts shared across documents so that a render does not parse them again.
 */
export async function pdfWithFonts(): Promise<{ doc: PDFDocument; regular: PDFFont; bold: PDFFont }> {
	const files = await loadFonts()
	const doc = await PDFDocument.create()
	doc.registerFontkit({
		create(bytes) {
			let font = files.parsed.get(bytes)
			if (!font) {
				font = unshaped(fontkit.create(bytes))
				files.parsed.set(bytes, font)
			}
			return font
		},
	})
	const [regular, bold] = await Promise.all([doc.embedFont(files.regular, { subset: true }), doc.embedFont(files.bold, { subset: true })])
	return { doc, regular, bold }
}

/** Text as the font draws it: NFC (precomposed accents), control characters and tabs as spaces. */
export const cleanPdfText = (text: string) => text.normalize('NFC').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
