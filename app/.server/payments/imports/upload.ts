import { genericMappingSchema, headerSignature, readRecords, type GenericMapping } from './parsers/index.ts'
import { MAX_IMPORT_BYTES } from '#app/lib/imports.ts'
import { importPayments, type BlockingImport, type ImportError } from './pipeline.ts'
import { isProgressToken, reportProgress } from './progress.ts'
import { getSavedMapping, saveMapping } from './queries.ts'

export type UploadError = ImportError | 'missing' | 'tooLarge'

export type MappingStep = {
	headers: string[]
	/** Up to three values of each column, from the file's first rows: shown beside each choice. */
	samples: string[][]
	csv: string
	fileName: string
	errors?: Partial<Record<keyof GenericMapping, 'required'>>
	invalid?: boolean
}

export type UploadOutcome =
	| { ok: true; batchId: string }
	| { ok: false; error: UploadError; blocking?: BlockingImport | null }
	| { ok: false; error: 'mappingRequired'; mapping: MappingStep }

/**
 * An import post, parsed from the form: a file (intent `upload`) or the text of a file
 * sent back with its column mapping (intent `map`). Stages a preview batch and returns its id,
 * or the error to show, or the mapping form to show.
 */
export async function handleUpload(form: FormData, user: { userId: string }, organizationId: string): Promise<UploadOutcome> {
	const token = form.get('progress')
	const progressToken = isProgressToken(token) ? token : null
	const intent = form.get('intent')
	let text: string
	let fileName: string
	let mapping: GenericMapping | null = null
	if (intent === 'map') {
		const csv = form.get('csv')
		if (typeof csv !== 'string' || !csv.trim()) return { ok: false, error: 'missing' }
		if (Buffer.byteLength(csv) > MAX_IMPORT_BYTES) return { ok: false, error: 'tooLarge' }
		text = csv
		fileName = String(form.get('fileName') ?? '').slice(0, 255)
		const raw = Object.fromEntries(
			['date', 'amount', 'payer', 'externalId', 'description', 'method', 'dateOrder'].map((k) => [k, form.get(k) ?? undefined]),
		)
		const parsed = genericMappingSchema.safeParse(raw)
		const headers = headersOf(text)
		if (!parsed.success) {
			const errors: MappingStep['errors'] = {}
			for (const issue of parsed.error.issues) errors[issue.path[0] as keyof GenericMapping] = 'required'
			return {
				ok: false,
				error: 'mappingRequired',
				mapping: { headers, samples: samplesOf(text, headers.length), csv: text, fileName, errors },
			}
		}
		mapping = parsed.data
	} else {
		const file = form.get('file')
		if (!(file instanceof File) || file.size === 0) return { ok: false, error: file instanceof File && file.name ? 'empty' : 'missing' }
		if (file.size > MAX_IMPORT_BYTES) return { ok: false, error: 'tooLarge' }
		const decoded = decode(new Uint8Array(await file.arrayBuffer()))
		if (decoded === null) return { ok: false, error: 'notCsv' }
		text = decoded
		fileName = file.name.slice(0, 255)
	}
	const report = (phase: 'reading' | 'checking' | 'committing', share: number) =>
		reportProgress(progressToken, organizationId, phase, share)
	const run = (m: GenericMapping | null) =>
		importPayments({ organizationId, userId: user.userId, file: text, mapping: m, label: fileName, mode: 'preview', onProgress: report })
	let result = await run(mapping)
	if (!result.ok && result.error === 'mappingRequired' && result.headers) {
		const saved = await getSavedMapping(user.userId, organizationId, headerSignature(result.headers))
		if (saved) result = await run(saved)
	}
	reportProgress(progressToken, organizationId, 'done', 1)
	if (!result.ok) {
		if ((result.error === 'mappingRequired' || result.error === 'mappingInvalid') && result.headers) {
			return {
				ok: false,
				error: 'mappingRequired',
				mapping: {
					headers: result.headers,
					samples: samplesOf(text, result.headers.length),
					csv: text,
					fileName,
					invalid: result.error === 'mappingInvalid',
				},
			}
		}
		return { ok: false, error: result.error, blocking: result.blocking ?? null }
	}
	if (mapping && result.ok) await saveMapping(user.userId, organizationId, headerSignature(headersOf(text)), mapping)
	return { ok: true, batchId: result.batch.batchId }
}

/** The first line's fields (for the mapping form). */
function headersOf(text: string): string[] {
	const first = text.split(/\r?\n/, 1)[0] ?? ''
	return (readRecords(first)?.[0]?.fields ?? []).slice(0, 100)
}

/** The first values under each of a file's columns (its first lines after the header), each cut to 40 characters. */
function samplesOf(text: string, columns: number): string[][] {
	const head = text.split(/\r?\n/, 12).join('\n')
	const rows = (readRecords(head) ?? []).slice(1, 4)
	return Array.from({ length: Math.min(columns, 100) }, (_, i) => rows.map((r) => (r.fields[i] ?? '').slice(0, 40)).filter(Boolean))
}

/** UTF-8 (with or without BOM); else Windows-1252, as some banks export; null for binary. */
function decode(bytes: Uint8Array): string | null {
	if (bytes.includes(0)) return null
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
	} catch {
		return new TextDecoder('windows-1252').decode(bytes)
	}
}
