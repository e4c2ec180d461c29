import { parse as parseStream } from 'csv-parse'
import { parse } from 'csv-parse/sync'
import { parseIsoDate } from '#app/lib/dates.ts'
import { MAX_IMPORT_COLUMNS, MAX_IMPORT_LINE_CHARS, MAX_IMPORT_ROWS } from '#app/lib/imports.ts'
import { decimalCommaToDot } from '#app/lib/schemas/fields.ts'
import { MAX_AMOUNT, type PaymentMethod } from '#app/lib/schemas/transactions.ts'

/**
 * What every parser shares: the CSV reading (csv-parse, records as arrays with their line
 * numbers), header lookup by name (never by position), amounts and dates as the exports write
 * them, and the shape of a parsed row. Parsers are pure functions from text to rows; they never
 * touch the database (docs/product.md, Imports).
 */

/** The file layouts the import screen recognises. `email` is the mail notices' channel. */
export const FILE_SOURCES = [
	'venmo',
	'paypal',
	'cashapp',
	'chase',
	'bofa',
	'wellsfargo',
	'capitalone',
	'td',
	'navyfederal',
	'truist',
	'usbank',
	'generic',
] as const
export type FileSource = (typeof FILE_SOURCES)[number]
export const IMPORT_SOURCES = [...FILE_SOURCES, 'email'] as const
export type ImportSource = (typeof IMPORT_SOURCES)[number]

/**
 * A received payment, normalised: what the pipeline dedupes, matches and commits, from a file
 * or from a mail notice alike.
 */
export type NormalizedPayment = {
	/** YYYY-MM-DD, the day as the source shows it. */
	date: string
	/** Positive, 'digits.dd'. */
	amount: string
	/** The fee the source charged, positive 'digits.dd', or null. */
	fee: string | null
	/** The tip the payer added (Venmo's "Amount (tip)"), part of `amount`, positive 'digits.dd'; null or absent: none. */
	tip?: string | null
	/** The payer's name as the source wrote it. */
	payer: string
	/** The payer's email when the source gives one (PayPal): matched to a client's email. */
	payerEmail?: string | null
	description: string | null
	/** The source's own id for the payment, exactly as written (Venmo ids have 19 digits). */
	externalId: string | null
	method: PaymentMethod
	/**
	 * Whose ids `externalId` are: two payments with the same provider and id are one payment,
	 * whichever channel (file or mail) brought them. 'venmo', 'paypal', 'cashapp', 'chase',
	 * 'bofa', 'csv', or a bank name for Zelle notices.
	 */
	provider: string
	/**
	 * A dedupe key of the caller's own, for a payment without an id: the email sync gives an
	 * id-less notice its message's key, so the same notice read twice is one payment and two
	 * alike notices (even in two runs) are two (docs/decisions/017-email-sync-runs.md).
	 */
	dedupeKey?: string | null
}

export type IgnoreReason = 'outgoing' | 'notReceived' | 'notCompleted' | 'memo' | 'summary'
export type FailReason =
	| 'amountInvalid'
	| 'amountMissing'
	| 'dateInvalid'
	| 'payerMissing'
	| 'currency'
	| 'idMissing'
	| 'tooLong'
	| 'methodInvalid'
	/** A line even the tolerant reading could not split into the file's columns (`readLoose`). */
	| 'unreadable'

/**
 * Money that left the account, read from an outgoing row (docs/product.md, Expense Tracking): an
 * expense (a payment to someone: `payment.payer` is the payee) or a refund sent back to a payer.
 * Transfers to the user's own bank are neither and carry none. The row stays `ignored` for the
 * transactions; the pipeline makes it an expense only while the organization has the module.
 */
export type OutgoingPayment = { kind: 'expense' | 'refund'; payment: NormalizedPayment }

export type ParsedRow =
	| { line: number; kind: 'payment'; payment: NormalizedPayment }
	| { line: number; kind: 'ignored'; reason: IgnoreReason; outgoing?: OutgoingPayment }
	| { line: number; kind: 'failed'; reason: FailReason; value: string }

/** A file over one of the bounds of app/lib/imports.ts (its size in bytes is checked before it is read). */
export type BoundsError = 'tooManyRows' | 'tooManyColumns' | 'lineTooLong'

export type FileError = 'empty' | 'notCsv' | 'unknownHeaders' | 'mappingRequired' | 'mappingInvalid' | 'noRows' | BoundsError

export type ParseResult =
	| { ok: true; source: FileSource; rows: ParsedRow[]; headers: string[] }
	| { ok: false; error: FileError; line?: number; headers?: string[] }

/**
 * One CSV record with its file line. `loose`: read by the tolerant pass (its fields may be fewer or
 * more than the header's when the bank's quoting was past repair); `unreadable`: a line that pass
 * could not split at all, with its start for the preview (its `fields` are empty).
 */
export type Rec = { fields: string[]; line: number; loose?: true; unreadable?: string }

// max_record_size: a record longer than a line may be is an error (not CSV), never one long read.
const CSV_OPTIONS = {
	bom: true,
	relax_column_count: true,
	skip_empty_lines: true,
	info: true,
	max_record_size: MAX_IMPORT_LINE_CHARS,
} as const
type RawRecord = { record: string[]; info: { lines: number } }

/**
 * csv-parse's `on_record`, typed as it runs with `info: true` (the record comes with its info),
 * dropping every record from the parser's own output: the caller takes each one as it is read.
 */
function onEachRecord(take: (raw: RawRecord) => void) {
	return ((raw: unknown) => {
		take(raw as RawRecord)
		return null
	}) as unknown as (record: string[]) => null
}

function toRec({ record, info }: RawRecord): Rec | null {
	const fields = record.map((f) => f.trim())
	return fields.some((f) => f !== '') ? { fields, line: info.lines } : null
}

/**
 * The file's field separator: a semicolon when one of its first lines holds more semicolons than
 * any holds commas (Excel saves CSV that way where the decimal mark is a comma, as in es and
 * pt-BR), else a comma.
 */
export function delimiterOf(text: string): ',' | ';' {
	let commas = 0
	let semicolons = 0
	for (const line of text.slice(0, 64 * 1024).split('\n', 20)) {
		// Outside quotes only: a quoted "Silva, Ana" or "A; B" is one field's text.
		let quoted = false
		let [c, s] = [0, 0]
		for (const char of line) {
			if (char === '"') quoted = !quoted
			else if (!quoted && char === ',') c++
			else if (!quoted && char === ';') s++
		}
		commas = Math.max(commas, c)
		semicolons = Math.max(semicolons, s)
	}
	return semicolons > commas ? ';' : ','
}

/**
 * The records of a CSV text, or null when it is not CSV (binary). Read strictly; where the strict
 * reading fails (a bank's unescaped quotes), the rest of the file is read line by line by the
 * tolerant pass (`looseRecords`), so one badly quoted line never refuses the whole file.
 */
export function readRecords(text: string): Rec[] | null {
	if (text.includes('\0')) return null
	const delimiter = delimiterOf(text)
	const out: Rec[] = []
	let lastLine = 0
	try {
		parse(text, {
			...CSV_OPTIONS,
			delimiter,
			on_record: onEachRecord((raw) => {
				lastLine = raw.info.lines
				const rec = toRec(raw)
				if (rec) out.push(rec)
			}),
		})
	} catch {
		for (const rec of looseRecords(text, lastLine, delimiter)) out.push(rec)
	}
	return out
}

/** Lines the tolerant pass reads between two turns of the event loop. */
const LOOSE_LINES = 500

/**
 * The tolerant pass: the text's lines from `fromLine` (the lines the strict reading had read
 * before it failed are skipped), each line one record. A quoted field ends at a quote followed by
 * the separator or the line's end; any other quote inside it is text, as Bank of America writes
 * `"Zelle payment from NAME for "Rent"; Conf# x"`. A line whose quoted field never ends, or longer
 * than a record may be, is an unreadable record. Only run where the strict reading failed: it is
 * the slower of the two and cannot read a field over several lines.
 */
export function* looseRecords(text: string, fromLine: number, delimiter: ',' | ';'): Generator<Rec> {
	let start = 0
	let line = 0
	while (line < fromLine && start < text.length) {
		const next = nextLineBreak(text, start)
		start = next.end
		line++
	}
	while (start < text.length) {
		const next = nextLineBreak(text, start)
		const raw = text.slice(start, next.at).trim()
		start = next.end
		line++
		if (!raw) continue
		const fields = raw.length > MAX_IMPORT_LINE_CHARS ? null : splitLoose(raw, delimiter)
		if (!fields) yield { fields: [], line, unreadable: raw.slice(0, 80) }
		else if (fields.some((f) => f !== '')) yield { fields, line, loose: true }
	}
}

function nextLineBreak(text: string, from: number): { at: number; end: number } {
	for (let i = from; i < text.length; i++) {
		const c = text.charCodeAt(i)
		if (c === LF) return { at: i, end: i + 1 }
		if (c === CR) return { at: i, end: text.charCodeAt(i + 1) === LF ? i + 2 : i + 1 }
	}
	return { at: text.length, end: text.length }
}

/** One line's fields by the tolerant rules (`looseRecords`), or null when a quoted field never ends. */
export function splitLoose(line: string, delimiter: string): string[] | null {
	const fields: string[] = []
	let i = 0
	for (;;) {
		while (line[i] === ' ' || line[i] === '\t') i++
		if (line[i] !== '"') {
			const end = line.indexOf(delimiter, i)
			if (end < 0) {
				fields.push(line.slice(i).trim())
				return fields
			}
			fields.push(line.slice(i, end).trim())
			i = end + 1
			continue
		}
		let value = ''
		let j = i + 1
		let closed = false
		while (j < line.length) {
			const c = line[j]!
			if (c !== '"') {
				value += c
				j++
				continue
			}
			const next = line[j + 1]
			if (next === undefined || next === delimiter) {
				closed = true
				j++
				break
			}
			// `""`: an escaped quote, or a stray quote right before the closing one.
			if (next === '"') {
				value += '"'
				j += 2
				if (line[j] === undefined || line[j] === delimiter) {
					closed = true
					break
				}
				continue
			}
			value += '"'
			j++
		}
		if (!closed) return null
		fields.push(value.trim())
		if (j >= line.length) return fields
		i = j + 1
		if (i >= line.length) {
			fields.push('')
			return fields
		}
	}
}

/**
 * Characters fed to the parser between two turns of the event loop (and progress reports): some
 * 150 rows of a bank export, a few milliseconds of parsing, so that other requests are answered
 * while a large file is read (bench/README.md, import-latency.ts).
 */
const CHUNK = 16 * 1024

/** Characters the bounds check scans between two turns of the event loop. */
const SCAN_SLICE = 512 * 1024

const QUOTE = 34
const LF = 10
const CR = 13

/**
 * Whether a CSV text keeps within the bounds of an import (app/lib/imports.ts): at most
 * MAX_IMPORT_ROWS records besides the header, MAX_IMPORT_COLUMNS fields and MAX_IMPORT_LINE_CHARS
 * characters in a line (a record over several lines is bounded by the parser's `max_record_size`,
 * past which the tolerant pass reads the rest line by line). One pass over the characters (quotes respected, so a quoted line break
 * or separator is part of its field; empty and blank lines are not records), yielding to the event
 * loop between slices, stopping at the first bound passed: a 10 MB file of tiny rows is refused in
 * milliseconds, before anything is parsed or staged. The parser checks the same bounds again as it
 * reads (`parseImportFileAsync`), so that a text this scan and csv-parse would count differently
 * still cannot pass them.
 */
export async function checkCsvBounds(text: string, delimiter: ',' | ';' = delimiterOf(text)): Promise<BoundsError | null> {
	const separator = delimiter.charCodeAt(0)
	let records = 0
	let fields = 1
	let length = 0
	let content = false
	let quoted = false
	for (let start = 0; start < text.length; start += SCAN_SLICE) {
		const end = Math.min(text.length, start + SCAN_SLICE)
		for (let i = start; i < end; i++) {
			const c = text.charCodeAt(i)
			if (c === QUOTE) {
				quoted = !quoted
			} else if (c === LF || c === CR) {
				// A line's length is bounded even inside quotes: a stray quote (a bank's bad quoting)
				// must not make the rest of the file one long line; the parser bounds a record's.
				length = 0
				if (quoted) continue
				if (content && ++records > MAX_IMPORT_ROWS + 1) return 'tooManyRows'
				fields = 1
				content = false
				continue
			} else if (!quoted && c === separator) {
				if (++fields > MAX_IMPORT_COLUMNS) return 'tooManyColumns'
			} else if (c > 32) {
				content = true
			}
			if (++length > MAX_IMPORT_LINE_CHARS) return 'lineTooLong'
		}
		if (end < text.length) await new Promise((resolve) => setImmediate(resolve))
	}
	if (content && ++records > MAX_IMPORT_ROWS + 1) return 'tooManyRows'
	return null
}

/**
 * As `readRecords`, in chunks that leave the event loop free between them (a 10 MB file does
 * not stall the server), handing each record to `onRecord` as it is read (so a large file's
 * records are never all held at once), reporting the share of the text read and awaiting
 * `afterChunk` between chunks. `onRecord` returning false stops the reading there (the rest of
 * the text is never parsed). False when the text is not CSV.
 */
export async function readRecordsAsync(
	text: string,
	onRecord: (rec: Rec) => boolean | void,
	onProgress?: (share: number) => void,
	afterChunk?: () => Promise<void>,
): Promise<boolean> {
	if (text.includes('\0')) return false
	const delimiter = delimiterOf(text)
	// Records are taken as the parser reads them (never buffered in the stream), so that those
	// read before a failure are known exactly, and the tolerant pass goes on after the last.
	let queue: Rec[] = []
	let lastLine = 0
	const parser = parseStream({
		...CSV_OPTIONS,
		delimiter,
		on_record: onEachRecord((raw) => {
			lastLine = raw.info.lines
			const rec = toRec(raw)
			if (rec) queue.push(rec)
		}),
	})
	parser.resume()
	let failed = false
	let stopped = false
	const take = () => {
		const taken = queue
		queue = []
		for (const rec of taken) {
			if (onRecord(rec) === false) {
				stopped = true
				return
			}
		}
	}
	const finished = new Promise<void>((resolve) => {
		parser.on('end', () => resolve())
		parser.on('error', () => {
			failed = true
			resolve()
		})
	})
	for (let i = 0; i < text.length && !failed && !stopped; i += CHUNK) {
		parser.write(text.slice(i, i + CHUNK))
		if (!failed) take()
		onProgress?.(i / text.length)
		await new Promise((resolve) => setImmediate(resolve))
		if (!failed && !stopped) await afterChunk?.()
	}
	if (stopped) {
		parser.destroy()
		return true
	}
	if (!failed) {
		parser.end()
		await finished
		if (!failed) {
			take()
			return true
		}
	}
	// The strict reading failed: the records it read stand, the rest is read tolerantly.
	take()
	if (stopped) return true
	let n = 0
	for (const rec of looseRecords(text, lastLine, delimiter)) {
		if (onRecord(rec) === false) return true
		if (++n % LOOSE_LINES === 0) {
			await new Promise((resolve) => setImmediate(resolve))
			await afterChunk?.()
		}
	}
	return true
}

/** A header row's columns by lowercased name; the first of two equal names wins. */
export function headerIndex(fields: string[]) {
	const map = new Map<string, number>()
	fields.forEach((name, i) => {
		const key = normalizeHeader(name)
		if (key && !map.has(key)) map.set(key, i)
	})
	return map
}

export function normalizeHeader(name: string) {
	return name
		.replace(/^\uFEFF/, '')
		.trim()
		.toLowerCase()
		.replace(/\s+/g, ' ')
}

/**
 * The first of several names a column goes by that the header has (normalised), or the first name
 * when none is there (`rowReader` then reads ''): a layout's columns renamed by a spreadsheet, a
 * newer export or another language.
 */
export function pickColumn(header: string[], names: readonly string[]): string {
	const index = headerIndex(header)
	return names.find((n) => index.has(n)) ?? names[0]!
}

/** Whether a header row has, for each entry, its column or one of its other names. */
export function hasAnyColumns(fields: string[], names: readonly (string | readonly string[])[]) {
	const index = headerIndex(fields)
	return names.every((n) => (typeof n === 'string' ? index.has(n) : n.some((m) => index.has(m))))
}

/**
 * An id a spreadsheet turned into a rounded number (`3.18E+18`, `3,18E+18`): its digits are lost,
 * so it is never an id (two payments would share it, or the same one differ).
 */
export function isRoundedNumber(value: string) {
	return /^\d+(?:[.,]\d+)?e\+?\d+$/i.test(value.trim())
}

/** Whether a header row has every named column. */
export function hasColumns(fields: string[], names: string[]) {
	const index = headerIndex(fields)
	return names.every((n) => index.has(n))
}

type RowReader = (fields: string[], name: string) => string
/** One reader per header array: a large file's rows are parsed one at a time against it. */
const readers = new WeakMap<string[], RowReader>()

/** A row reader over a header: `get('gross')` is the field under that header, '' when absent. */
export function rowReader(header: string[]): RowReader {
	const known = readers.get(header)
	if (known) return known
	const index = headerIndex(header)
	const reader: RowReader = (fields, name) => {
		const i = index.get(name)
		return i === undefined ? '' : (fields[i] ?? '')
	}
	readers.set(header, reader)
	return reader
}

/**
 * A signed amount as the exports write it: `+ $1,250.00`, `- $45.00`, `$250`, `-$2.90`,
 * `1,250.00`, `(45.00)`, and with a decimal comma `1.250,00`, `-45,00`. Returns cents as a bigint-safe string pair, or null when unreadable.
 */
export function parseSignedAmount(input: string): { sign: 1 | -1; value: string } | null {
	let text = input.trim().replace(/\s+/g, '')
	if (!text) return null
	let sign: 1 | -1 = 1
	if (/^\(.*\)$/.test(text)) {
		sign = -1
		text = text.slice(1, -1)
	}
	if (text.startsWith('+')) text = text.slice(1)
	else if (text.startsWith('-')) {
		sign = -1
		text = text.slice(1)
	}
	text = text.replace(/^\$/, '').replace(/^USD/i, '').replace(/USD$/i, '')
	// Truist writes `$+1000` (and `($42)` for a debit).
	if (text.startsWith('+')) text = text.slice(1)
	else if (text.startsWith('-')) {
		sign = -1
		text = text.slice(1)
	}
	text = decimalCommaToDot(text)
	if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(text)) return null
	const [whole = '0', fraction = ''] = text.replaceAll(',', '').split('.')
	const value = `${BigInt(whole)}.${fraction.padEnd(2, '0')}`
	if (Number(value) > MAX_AMOUNT) return null
	return { sign, value }
}

/**
 * A date as the exports write it: ISO (`2026-03-01`, `2026-03-01T14:22:05`, `2026-03-01
 * 14:22:05 EST`) or US (`03/01/2026`, `3/1/26`). The calendar day as written (the source's
 * own timezone), or null.
 */
/** How a file writes a slashed date: month first (the United States) or day first. */
export type DateOrder = 'mdy' | 'dmy'

export function parseLooseDate(input: string, order: DateOrder = 'mdy'): string | null {
	const text = input.trim()
	let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T\s].*)?$/.exec(text)
	if (m) return parseIsoDate(`${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`)
	m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{2}|\d{4})(?:\s.*)?$/.exec(text)
	if (m) {
		const year = m[3]!.length === 2 ? `20${m[3]}` : m[3]!
		const [month, day] = order === 'dmy' ? [m[2]!, m[1]!] : [m[1]!, m[2]!]
		return parseIsoDate(`${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`)
	}
	return null
}

/** A description's limit, as the transactions form's and the database's (a payer name has its own, checked after). */
const MAX_TEXT = 2000

/** Collapses whitespace; null for empty; a longer text is kept to its first 2,000 characters. */
export function cleanText(value: string): string | null {
	const text = value.replace(/\s+/g, ' ').trim()
	return text ? text.slice(0, MAX_TEXT) : null
}

/** The checks every received payment passes before it is a payment row. */
export function paymentRow(
	line: number,
	raw: {
		date: string
		amount: string
		payer: string
		fee?: string
		tip?: string
		description?: string
		externalId?: string
		payerEmail?: string
	},
	fixed: { method: PaymentMethod; provider: string; requireId?: boolean; dateOrder?: DateOrder },
): ParsedRow {
	const date = parseLooseDate(raw.date, fixed.dateOrder)
	if (!date) return { line, kind: 'failed', reason: 'dateInvalid', value: raw.date }
	if (!raw.amount.trim()) return { line, kind: 'failed', reason: 'amountMissing', value: '' }
	const amount = parseSignedAmount(raw.amount)
	if (!amount || amount.value === '0.00') return { line, kind: 'failed', reason: 'amountInvalid', value: raw.amount }
	if (amount.sign < 0) return { line, kind: 'ignored', reason: 'outgoing' }
	const payer = cleanText(raw.payer)
	if (!payer) return { line, kind: 'failed', reason: 'payerMissing', value: '' }
	if (payer.length > 200) return { line, kind: 'failed', reason: 'tooLong', value: payer.slice(0, 40) }
	const externalId = raw.externalId?.trim() || null
	if (fixed.requireId && !externalId) return { line, kind: 'failed', reason: 'idMissing', value: '' }
	if (externalId && externalId.length > 200) return { line, kind: 'failed', reason: 'tooLong', value: externalId.slice(0, 40) }
	let fee: string | null = null
	if (raw.fee?.trim()) {
		const parsed = parseSignedAmount(raw.fee)
		if (!parsed) return { line, kind: 'failed', reason: 'amountInvalid', value: raw.fee }
		fee = parsed.value === '0.00' ? null : parsed.value
	}
	let tip: string | null = null
	if (raw.tip?.trim()) {
		const parsed = parseSignedAmount(raw.tip)
		if (!parsed) return { line, kind: 'failed', reason: 'amountInvalid', value: raw.tip }
		// A tip is part of the amount received; none or more than the amount is no tip the file means.
		tip = parsed.value === '0.00' || Number(parsed.value) > Number(amount.value) ? null : parsed.value
	}
	return {
		line,
		kind: 'payment',
		payment: {
			date,
			amount: amount.value,
			fee,
			// Only when there is one, so that rows of sources without tips read as before.
			...(tip ? { tip } : {}),
			payer,
			payerEmail: cleanText(raw.payerEmail ?? '')?.toLowerCase() ?? null,
			description: cleanText(raw.description ?? ''),
			externalId,
			method: fixed.method,
			provider: fixed.provider,
		},
	}
}

/**
 * An outgoing row (`ignored`, reason `outgoing`), with what it paid out when the row reads whole:
 * its date, its amount (positive), the payee, the fee and the id. A row that does not read stays a
 * plain outgoing row: an expense is never made of half a line.
 */
export function outgoingRow(
	line: number,
	kind: OutgoingPayment['kind'],
	raw: { date: string; amount: string; payee: string; fee?: string; description?: string; externalId?: string },
	fixed: { method: PaymentMethod; provider: string; dateOrder?: DateOrder },
): ParsedRow {
	const plain: ParsedRow = { line, kind: 'ignored', reason: 'outgoing' }
	const date = parseLooseDate(raw.date, fixed.dateOrder)
	const amount = parseSignedAmount(raw.amount)
	const payee = cleanText(raw.payee)
	if (!date || !amount || amount.value === '0.00' || Number(amount.value) > 99_999_999.99 || !payee || payee.length > 200) return plain
	const externalId = raw.externalId?.trim() || null
	if (externalId && externalId.length > 200) return plain
	const fee = raw.fee?.trim() ? parseSignedAmount(raw.fee) : null
	return {
		...plain,
		outgoing: {
			kind,
			payment: {
				date,
				amount: amount.value,
				fee: fee && fee.value !== '0.00' ? fee.value : null,
				payer: payee,
				description: cleanText(raw.description ?? ''),
				externalId,
				method: fixed.method,
				provider: fixed.provider,
			},
		},
	}
}
