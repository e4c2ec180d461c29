import { MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS } from '#app/lib/imports.ts'
import { parseBofa, parseChase, isBofaHeader, isChaseHeader } from './banks.ts'
import { isCashappHeader, parseCashapp } from './cashapp.ts'
import { readRecords, readRecordsAsync, type FileSource, type ParseResult, type ParsedRow, type Rec } from './common.ts'
import { mappingFits, parseGeneric, type GenericMapping } from './generic.ts'
import { isPaypalHeader, parsePaypal } from './paypal.ts'
import { isVenmoHeader, parseVenmo } from './venmo.ts'

export * from './common.ts'
export { genericMappingSchema, headerSignature, type GenericMapping } from './generic.ts'

/** The known layouts, tried in this order on each of the first lines until one fits. */
const LAYOUTS: { source: Exclude<FileSource, 'generic'>; fits: (f: string[]) => boolean; parse: (h: string[], r: Rec[]) => ParsedRow[] }[] =
	[
		{ source: 'venmo', fits: isVenmoHeader, parse: parseVenmo },
		{ source: 'paypal', fits: isPaypalHeader, parse: parsePaypal },
		{ source: 'cashapp', fits: isCashappHeader, parse: parseCashapp },
		{ source: 'chase', fits: isChaseHeader, parse: parseChase },
		{ source: 'bofa', fits: isBofaHeader, parse: parseBofa },
	]

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
	let count = 0
	const emit = (rows: ParsedRow[]) => {
		for (const row of rows) sink.row(row)
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
				found = { source: layout.source, header: rec.fields }
				sink.layout(layout.source)
				convert = (r) => layout.parse(rec.fields, [r])
				head.length = 0
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
				convert = (r) => parseGeneric(header, [r], mapping!)
				for (const r of rest) emit(convert(r))
			}
		},
		onProgress,
		sink.drain?.bind(sink),
	)
	if (refused) return refused
	if (!read) return { ok: false, error: 'notCsv' }
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
		const header = records[i]!.fields
		const layout = LAYOUTS.find((l) => l.fits(header))
		if (layout) return finish(layout.source, header, layout.parse(header, records.slice(i + 1)))
	}
	const header = records[0]!.fields
	if (header.length < 2) return { ok: false, error: 'notCsv' }
	// A header alone: said at once, before the user is asked to map columns of nothing.
	if (records.length === 1) return { ok: false, error: 'noRows', headers: header }
	if (!mapping) return { ok: false, error: 'mappingRequired', headers: header }
	if (!mappingFits(header, mapping)) return { ok: false, error: 'mappingInvalid', headers: header }
	return finish('generic', header, parseGeneric(header, records.slice(1), mapping))
}

function finish(source: FileSource, headers: string[], rows: ParsedRow[]): ParseResult {
	if (rows.length === 0) return { ok: false, error: 'noRows', headers }
	return { ok: true, source, rows, headers }
}
