import { MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS } from '#app/lib/imports.ts'
import { parseBofa, parseChase, isBofaHeader, isChaseHeader } from './banks.ts'
import { isCashappHeader, parseCashapp } from './cashapp.ts'
import { readRecords, readRecordsAsync, type FileSource, type ParseResult, type ParsedRow, type Rec } from './common.ts'
import { mappingFits, parseGeneric, type GenericMapping } from './generic.ts'
import { isPaypalHeader, parsePaypal } from './paypal.ts'
import { parseUsBank, US_BANK_LAYOUTS } from './us-banks.ts'
import { isVenmoHeader, parseVenmo } from './venmo.ts'

export * from './common.ts'
export { genericMappingSchema, headerSignature, type GenericMapping } from './generic.ts'

type Layout = {
	source: Exclude<FileSource, 'generic'>
	fits: (f: string[]) => boolean
	parse: (h: string[], r: Rec[]) => ParsedRow[]
	/** A download without a header line (Wells Fargo): the line `fits` recognised is data, read with this header. */
	headerless?: string[]
}

/** The known layouts, tried in this order on each of the first lines until one fits. */
const LAYOUTS: Layout[] = [
	{ source: 'venmo', fits: isVenmoHeader, parse: parseVenmo },
	{ source: 'paypal', fits: isPaypalHeader, parse: parsePaypal },
	{ source: 'cashapp', fits: isCashappHeader, parse: parseCashapp },
	{ source: 'chase', fits: isChaseHeader, parse: parseChase },
	{ source: 'bofa', fits: isBofaHeader, parse: parseBofa },
	...US_BANK_LAYOUTS.map((l) => ({
		source: l.source,
		fits: l.fits,
		headerless: l.headerless,
		parse: (h: string[], r: Rec[]) => parseUsBank(l, h, r),
	})),
]

/**
 * A layout's rows, with the tolerant pass's records checked first: a line it could not read, or
 * split into fewer or more fields than the header has (one more is Chase's trailing comma), is reported as
 * unreadable with its start, never read into the wrong columns.
 */
function rowsOf(layout: { parse: (h: string[], r: Rec[]) => ParsedRow[] }, header: string[], records: Rec[]): ParsedRow[] {
	const rows: ParsedRow[] = []
	let clean: Rec[] = []
	for (const rec of records) {
		const misfit = rec.loose && (rec.fields.length < header.length || rec.fields.length > header.length + 1)
		const broken = rec.unreadable ?? (misfit ? rec.fields.join(',').slice(0, 80) : null)
		if (broken === null) {
			clean.push(rec)
			continue
		}
		if (clean.length) rows.push(...layout.parse(header, clean))
		clean = []
		rows.push({ line: rec.line, kind: 'failed', reason: 'unreadable', value: broken })
	}
	if (clean.length) rows.push(...layout.parse(header, clean))
	return rows
}

/**
 * Whether a file the tolerant pass had to read is rather not CSV at all: more of its lines could
 * not be read than could (and more than a handful), as a text or binary file saved as .csv.
 */
function mostlyUnreadable(unreadable: number, records: number) {
	return unreadable > 10 && unreadable * 2 > records
}

/** How far down a file its header may be (Bank of America's summary block is ~6 lines). */
const HEADER_SEARCH_LINES = 15

/**
 * A CSV file's received payments: the layout is recognised from its header (searched in the
 * first lines, so preambles and summary blocks are passed over); a file no layout fits needs a
 * generic mapping, which must name columns of its first line.
 */
export function parseImportFile(text: string, mapping?: GenericMapping | null): ParseResult {
	if (!text.trim()) return { ok: false, error: 'empty' }
	return parseRecords(readRecords(text), mapping)
}

/** Where `parseImportFileAsync` hands what it reads. */
export type RowSink = {
	/** The file's layout, once its header is found (before any row). */
	layout(source: FileSource): void
	row(row: ParsedRow): void
	/** Awaited between two chunks of the file: the sink may write what it holds. */
	drain?(): Promise<void>
}

export type StreamResult = { ok: true; source: FileSource; headers: string[]; rows: number } | Exclude<ParseResult, { ok: true }>

/**
 * As `parseImportFile`, reading in chunks (the event loop stays free, and the share read is
 * reported) and handing each row to `sink` as soon as its record is read, so a large file's
 * rows are never all held at once. The reading stops as soon as its outcome is known: a file
 * that needs a column mapping (none given, or one that does not fit) after the lines its header
 * may be in, and a record past the bounds of app/lib/imports.ts (rows, fields), whatever the
 * caller checked before.
 */
export async function parseImportFileAsync(
	text: string,
	mapping: GenericMapping | null | undefined,
	sink: RowSink,
	onProgress?: (share: number) => void,
): Promise<StreamResult> {
	if (!text.trim()) return { ok: false, error: 'empty' }
	const head: Rec[] = []
	let convert: ((rec: Rec) => ParsedRow[]) | null = null
	let found: { source: FileSource; header: string[] } | null = null
	let refused: Exclude<ParseResult, { ok: true }> | null = null
	let records = 0
	let unreadable = 0
	let count = 0
	const emit = (rows: ParsedRow[]) => {
		for (const row of rows) {
			if (row.kind === 'failed' && row.reason === 'unreadable') unreadable++
			sink.row(row)
		}
		count += rows.length
	}
	const read = await readRecordsAsync(
		text,
		(rec) => {
			if (rec.fields.length > MAX_IMPORT_COLUMNS) refused = { ok: false, error: 'tooManyColumns' }
			else if (++records > MAX_IMPORT_ROWS + 1) refused = { ok: false, error: 'tooManyRows' }
			if (refused) return false
			if (convert) return emit(convert(rec))
			head.push(rec)
			const layout = LAYOUTS.find((l) => l.fits(rec.fields))
			if (layout) {
				const header = layout.headerless ?? rec.fields
				found = { source: layout.source, header }
				sink.layout(layout.source)
				convert = (r) => rowsOf(layout, header, [r])
				head.length = 0
				if (layout.headerless) emit(convert(rec))
			} else if (head.length >= HEADER_SEARCH_LINES) {
				// No known layout: the file's first line is its header, for a mapping.
				const header = head[0]!.fields
				const rest = head.slice(1)
				head.length = 0
				// As parseRecords says it, without reading the rest of the file.
				if (header.length < 2) refused = { ok: false, error: 'notCsv' }
				else if (!mapping) refused = { ok: false, error: 'mappingRequired', headers: header }
				else if (!mappingFits(header, mapping)) refused = { ok: false, error: 'mappingInvalid', headers: header }
				if (refused) return false
				found = { source: 'generic', header }
				sink.layout('generic')
				const generic = { parse: (h: string[], r: Rec[]) => parseGeneric(h, r, mapping!) }
				convert = (r) => rowsOf(generic, header, [r])
				for (const r of rest) emit(convert(r))
			}
		},
		onProgress,
		sink.drain?.bind(sink),
	)
	if (refused) return refused
	if (!read || mostlyUnreadable(unreadable, records)) return { ok: false, error: 'notCsv' }
	if (!found) {
		// A short file: all its records are in `head`, and no layout is among them.
		const whole = parseRecords(head, mapping)
		if (!whole.ok) return whole
		sink.layout(whole.source)
		for (const row of whole.rows) sink.row(row)
		return { ok: true, source: whole.source, headers: whole.headers, rows: whole.rows.length }
	}
	const { source, header } = found
	if (count === 0) return { ok: false, error: 'noRows', headers: header }
	return { ok: true, source, headers: header, rows: count }
}

function parseRecords(records: Rec[] | null, mapping?: GenericMapping | null): ParseResult {
	if (!records) return { ok: false, error: 'notCsv' }
	if (records.length === 0) return { ok: false, error: 'empty' }
	for (let i = 0; i < Math.min(records.length, HEADER_SEARCH_LINES); i++) {
		const layout = LAYOUTS.find((l) => l.fits(records[i]!.fields))
		if (!layout) continue
		const header = layout.headerless ?? records[i]!.fields
		return finish(layout.source, header, rowsOf(layout, header, records.slice(layout.headerless ? i : i + 1)), records.length)
	}
	const header = records[0]!.fields
	if (header.length < 2) return { ok: false, error: 'notCsv' }
	// A header alone: said at once, before the user is asked to map columns of nothing.
	if (records.length === 1) return { ok: false, error: 'noRows', headers: header }
	if (!mapping) return { ok: false, error: 'mappingRequired', headers: header }
	if (!mappingFits(header, mapping)) return { ok: false, error: 'mappingInvalid', headers: header }
	const generic = { parse: (h: string[], r: Rec[]) => parseGeneric(h, r, mapping) }
	return finish('generic', header, rowsOf(generic, header, records.slice(1)), records.length)
}

function finish(source: FileSource, headers: string[], rows: ParsedRow[], records: number): ParseResult {
	const unreadable = rows.filter((r) => r.kind === 'failed' && r.reason === 'unreadable').length
	if (mostlyUnreadable(unreadable, records)) return { ok: false, error: 'notCsv' }
	if (rows.length === 0) return { ok: false, error: 'noRows', headers }
	return { ok: true, source, rows, headers }
}
