/**
 * Receipts of expenses (docs/product.md, Expense Tracking; docs/security.md, Receipts): a photo
 * (JPEG, PNG or WebP) or a PDF attached to one expense, in the private bucket `receipts` of the
 * storage port, served only to the organization's members (app/routes/app/expenses/receipt.ts).
 *
 * Nothing of the upload is trusted but its bytes. The type is read from the first bytes (the name
 * and declared type are ignored), the size is capped (MAX_RECEIPT_BYTES), and what is stored is
 * never the upload itself:
 * - a picture is decoded and encoded again with sharp (its header read first: over
 *   MAX_RECEIPT_PIXELS it is refused before any pixel is decoded), fitted inside RECEIPT_BOX,
 *   the EXIF orientation applied and every piece of metadata (GPS location, comments) dropped;
 * - a PDF must be parsed by pdf-lib, unencrypted, and hold no active content (JavaScript, launch
 *   or submit actions, embedded files, rich media, XFA): such a file is refused, not cleaned.
 *   Its pages are then copied into a new document, which leaves behind the catalogue's open
 *   actions, names, forms, metadata and incremental updates; that new document is stored.
 */
import { randomBytes } from 'node:crypto'
import { PDFDict, PDFDocument, PDFName, PDFStream } from 'pdf-lib'
import sharp from 'sharp'
import { logError } from '../log.ts'
import { storage } from '../storage/index.ts'

/** The largest receipt accepted, a photo or a PDF. */
export const MAX_RECEIPT_BYTES = 10 * 1024 * 1024
/** The most pixels a receipt photo may have (a 24-megapixel camera's). */
export const MAX_RECEIPT_PIXELS = 6000 * 4000
/** The box a receipt photo is fitted inside, its aspect ratio kept, never enlarged: readable, not a poster. */
export const RECEIPT_BOX = 2000
/** The most pages a receipt PDF may have. */
export const MAX_RECEIPT_PAGES = 50
export const RECEIPTS_BUCKET = 'receipts' as const

export type ReceiptType = 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf'
/** Why a receipt is refused: its type, its size, its pixels, or (a PDF) active content or encryption. */
export type ReceiptRefusal = 'receiptType' | 'receiptTooLarge' | 'receiptTooManyPixels' | 'receiptActiveContent' | 'receiptUnreadable'

/** The receipt type the bytes start with, or null (HEIC and every other type are not read). */
export function sniffReceipt(bytes: Uint8Array): ReceiptType | null {
	const starts = (offset: number, ...sig: number[]) => sig.every((b, i) => bytes[offset + i] === b)
	if (starts(0, 0xff, 0xd8, 0xff)) return 'image/jpeg'
	if (starts(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png'
	if (starts(0, 0x52, 0x49, 0x46, 0x46) && starts(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp'
	if (starts(0, 0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf'
	return null
}

export type CleanReceipt = { bytes: Buffer; type: ReceiptType; ext: 'jpg' | 'png' | 'webp' | 'pdf' }

/** The receipt, checked and re-encoded, or why it is refused. Nothing is stored. */
export async function cleanReceipt(
	file: Blob | Uint8Array,
): Promise<{ ok: true; receipt: CleanReceipt } | { ok: false; code: ReceiptRefusal }> {
	const size = file instanceof Uint8Array ? file.byteLength : file.size
	if (size > MAX_RECEIPT_BYTES) return { ok: false, code: 'receiptTooLarge' }
	const input = file instanceof Uint8Array ? file : new Uint8Array(await file.arrayBuffer())
	const type = sniffReceipt(input)
	if (!type) return { ok: false, code: 'receiptType' }
	return type === 'application/pdf' ? cleanPdf(input) : cleanPicture(input, type)
}

async function cleanPicture(input: Uint8Array, type: Exclude<ReceiptType, 'application/pdf'>) {
	try {
		const header = await sharp(input, { limitInputPixels: false }).metadata()
		const width = header.width ?? 0
		const height = header.pageHeight ?? header.height ?? 0
		if (width < 1 || height < 1) return { ok: false as const, code: 'receiptType' as const }
		if (width * height > MAX_RECEIPT_PIXELS) return { ok: false as const, code: 'receiptTooManyPixels' as const }
		const pipeline = sharp(input, { limitInputPixels: MAX_RECEIPT_PIXELS, sequentialRead: true, pages: 1 })
			.timeout({ seconds: 15 })
			.rotate()
			.resize(RECEIPT_BOX, RECEIPT_BOX, { fit: 'inside', withoutEnlargement: true })
		const bytes =
			type === 'image/jpeg'
				? await pipeline.jpeg({ quality: 85, mozjpeg: true }).toBuffer()
				: type === 'image/png'
					? await pipeline.png({ compressionLevel: 9 }).toBuffer()
					: await pipeline.webp({ quality: 85 }).toBuffer()
		const ext = type === 'image/jpeg' ? 'jpg' : type === 'image/png' ? 'png' : 'webp'
		return { ok: true as const, receipt: { bytes, type, ext } satisfies CleanReceipt }
	} catch {
		return { ok: false as const, code: 'receiptType' as const }
	}
}

/** Keys of a PDF dictionary that run or carry something besides the page's marks. */
const ACTIVE_KEYS = ['JS', 'JavaScript', 'Launch', 'EmbeddedFile', 'EmbeddedFiles', 'RichMedia', 'XFA', 'SubmitForm', 'ImportData', 'GoToE']
const ACTIVE_TYPES = [
	'JavaScript',
	'Launch',
	'SubmitForm',
	'ImportData',
	'RichMedia',
	'GoToE',
	'EmbeddedFile',
	'Rendition',
	'Sound',
	'Movie',
]

/** Whether any object of the parsed document is active content (ACTIVE_KEYS, or an action or object of ACTIVE_TYPES). */
function hasActiveContent(doc: PDFDocument) {
	for (const [, object] of doc.context.enumerateIndirectObjects()) {
		const dict = object instanceof PDFDict ? object : object instanceof PDFStream ? object.dict : null
		if (!dict) continue
		for (const key of dict.keys()) if (ACTIVE_KEYS.includes(key.decodeText())) return true
		for (const field of ['S', 'Type', 'Subtype']) {
			const value = dict.get(PDFName.of(field))
			if (value instanceof PDFName && ACTIVE_TYPES.includes(value.decodeText())) return true
		}
	}
	return false
}

async function cleanPdf(input: Uint8Array) {
	let source: PDFDocument
	try {
		source = await PDFDocument.load(input, { updateMetadata: false, throwOnInvalidObject: true })
	} catch {
		// Not a PDF pdf-lib can read, or an encrypted one (pdf-lib refuses those).
		return { ok: false as const, code: 'receiptUnreadable' as const }
	}
	try {
		if (hasActiveContent(source) || rawMentionsScript(input)) return { ok: false as const, code: 'receiptActiveContent' as const }
		const pages = source.getPageCount()
		if (pages < 1 || pages > MAX_RECEIPT_PAGES) return { ok: false as const, code: 'receiptUnreadable' as const }
		const clean = await PDFDocument.create({ updateMetadata: false })
		const copied = await clean.copyPages(source, source.getPageIndices())
		for (const page of copied) {
			// Links and form fields stay behind: a receipt is its marks, nothing to click.
			page.node.delete(PDFName.of('Annots'))
			page.node.delete(PDFName.of('AA'))
			clean.addPage(page)
		}
		const bytes = Buffer.from(await clean.save({ useObjectStreams: false }))
		return { ok: true as const, receipt: { bytes, type: 'application/pdf' as const, ext: 'pdf' as const } satisfies CleanReceipt }
	} catch {
		return { ok: false as const, code: 'receiptUnreadable' as const }
	}
}

/**
 * A second look at the raw bytes: a script in an object pdf-lib skipped (a broken one, or one
 * only a lenient reader would find) still names itself as `/JavaScript` in plain text. (`/JS`
 * alone is too short to look for in compressed bytes; the parsed objects are checked for it.)
 */
function rawMentionsScript(input: Uint8Array) {
	return Buffer.from(input).includes('/JavaScript', 0, 'latin1')
}

/** A new key for an expense's receipt: a fresh name each time, so a replaced receipt is never served from a cache. */
export function receiptKey(organizationId: string, expenseId: string, ext: CleanReceipt['ext']) {
	return `${organizationId}/${expenseId}-${randomBytes(9)
		.toString('base64url')
		.replace(/[^A-Za-z0-9]/g, 'x')}.${ext}`
}

/** Stores a clean receipt under `key`. */
export async function putReceipt(key: string, receipt: CleanReceipt) {
	await storage().put(RECEIPTS_BUCKET, key, receipt.bytes, receipt.type)
}

/** The stored receipt, or null. */
export async function getReceipt(key: string) {
	return storage().get(RECEIPTS_BUCKET, key)
}

/** Removes a receipt; a failure is logged, never thrown (the row is already gone or changed). */
export async function deleteReceipt(key: string | null) {
	if (!key) return
	await storage()
		.delete(RECEIPTS_BUCKET, key)
		.catch((error) => logError(error, { what: 'receipt delete', key }))
}
