import { parseBofa, parseChase, isBofaHeader, isChaseHeader } from './banks.ts'
import { isCashappHeader, parseCashapp } from './cashapp.ts'
import { readRecords, readRecordsAsync, type FileSource, type ParseResult, type ParsedRow, type Rec } from './common.ts'
import { mappingFits, parseGeneric, type GenericMapping } from './generic.ts'
import { isPaypalHeader, parsePaypal } from './paypal.ts'
import { isVenmoHeader, parseVenmo } from './venmo.ts'

export * from './common.ts'
export { genericMappingSchema, headerSignature, type GenericMapping } from './generic.ts'

/** The known layouts, tried in this order on each of the first lines until one fits. */
const LAYOUTS: { source: Exclude<FileSource, 'generic'>; fits: (f: string[]) => boolean; parse: (h: string[], r: Rec[]) => ParsedRow[] }[] = [
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

/**
 * As `parseImportFile`, reading in chunks and reporting the share read (for large files): each
 * record after the header becomes its parsed row as soon as it is read.
 */
export async function parseImportFileAsync(text: string, mapping?: GenericMapping | null, onProgress?: (share: number) => void): Promise<ParseResult> {
	if (!text.trim()) return { ok: false, error: 'empty' }
	const head: Rec[] = []
	let convert: ((rec: Rec) => ParsedRow[]) | null = null
	let found: { source: FileSource; header: string[] } | null = null
	const rows: ParsedRow[] = []
	const read = await readRecordsAsync(
		text,
		(rec) => {
			if (convert) {
				for (const row of convert(rec)) rows.push(row)
				return
			}
			head.push(rec)
			const layout = LAYOUTS.find((l) => l.fits(rec.fields))
			if (layout) {
				found = { source: layout.source, header: rec.fields }
				convert = (r) => layout.parse(rec.fields, [r])
				head.length = 0
			} else if (head.length >= HEADER_SEARCH_LINES) {
				// No known layout: the file's first line is its header, for a mapping.
				const header = head[0]!.fields
				const rest = head.slice(1)
				head.length = 0
				if (mapping && header.length >= 2 && mappingFits(header, mapping)) {
					found = { source: 'generic', header }
					convert = (r) => parseGeneric(header, [r], mapping)
					for (const r of rest) rows.push(...convert(r))
				} else {
					// Left to parseImportFile below, which says what is missing.
					convert = () => []
				}
			}
		},
		onProgress,
	)
	if (!read) return { ok: false, error: 'notCsv' }
	if (!found) {
		// A short file (no layout in its lines) or one whose generic mapping did not fit.
		return parseImportFile(text, mapping)
	}
	const { source, header } = found
	return finish(source, header, rows)
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
	if (!mapping) return { ok: false, error: 'mappingRequired', headers: header }
	if (!mappingFits(header, mapping)) return { ok: false, error: 'mappingInvalid', headers: header }
	return finish('generic', header, parseGeneric(header, records.slice(1), mapping))
}

function finish(source: FileSource, headers: string[], rows: ParsedRow[]): ParseResult {
	if (rows.length === 0) return { ok: false, error: 'noRows', headers }
	return { ok: true, source, rows, headers }
}
