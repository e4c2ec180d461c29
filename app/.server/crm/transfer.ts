import { supportedLanguages, type Language } from '#app/lib/i18n.ts'
import { MAX_IMPORT_ROWS } from '#app/lib/imports.ts'
import { CLIENT_STATUSES, EMAIL_PATTERN, type ClientStatus } from '#app/lib/schemas/clients.ts'
import { isSingleLine, PHONE } from '#app/lib/schemas/fields.ts'
import { asUser, sql } from '../db/index.ts'
import { tIn } from '../i18n.ts'
import { csvLine } from '../payments/analytics.ts'
import { clientFilter, clientOrder, type ListClientsOptions } from '../payments/clients.ts'
import { payerKey } from '../query.ts'
import { checkCsvBounds, normalizeHeader, readRecords } from '../payments/imports/parsers/common.ts'
import { crmCall } from './notes.ts'

/**
 * Client CSV export and import (docs/product.md, Clients › CSV import and export; CRM Basic
 * Fields). The export is the list as filtered, every page, with a header in the member's
 * language; the import reads the same layout with the header in any of the three languages (so
 * a file exported in Spanish imports in English), previews what it would do, and commits through
 * `public.import_clients`, which dedupes by e-mail (docs/decisions/048-crm.md).
 */

/** The columns, in the file's order; each header is clients:columns.<column> (tags: clients:crm.tags.column). */
export const CSV_COLUMNS = ['name', 'email', 'phone', 'company', 'status', 'tags'] as const
type CsvColumn = (typeof CSV_COLUMNS)[number]

/** The largest client file read (a few thousand clients fit). */
export const MAX_CLIENT_FILE_BYTES = 1024 * 1024
/** The most rows one import takes (public.import_clients refuses more). */
export const MAX_CLIENT_ROWS = Math.min(5000, MAX_IMPORT_ROWS)
const EXPORT_BATCH = 1000

function headerOf(column: CsvColumn, language: Language) {
	const t = tIn(language, 'clients')
	return column === 'tags' ? t('crm.tags.column') : t(`columns.${column}`)
}

function statusLabel(status: ClientStatus, language: Language) {
	return tIn(language, 'clients')(`statuses.${status}`)
}

/** The export's file: a byte order mark, the header, then every client of the filtered list. */
export async function* exportClients(
	userId: string,
	organizationId: string,
	options: Pick<ListClientsOptions, 'q' | 'tag' | 'sort' | 'dir'>,
	language: Language,
): AsyncGenerator<string> {
	yield `\uFEFF${csvLine(CSV_COLUMNS.map((c) => headerOf(c, language)))}`
	const where = clientFilter(organizationId, options)
	const order = clientOrder(options)
	for (let offset = 0; ; offset += EXPORT_BATCH) {
		const { rows } = await asUser(userId, (trx) =>
			sql<{ name: string; email: string | null; phone: string | null; company: string | null; status: ClientStatus; tags: string[] }>`
				select c.name, c.email, c.phone, c.company, c.status, c.tags from public.clients c where ${where}
				order by ${order} offset ${offset} limit ${EXPORT_BATCH}`.execute(trx),
		)
		if (rows.length === 0) return
		yield rows.map((r) => csvLine([r.name, r.email, r.phone, r.company, statusLabel(r.status, language), r.tags.join(', ')])).join('')
		if (rows.length < EXPORT_BATCH) return
	}
}

/** A row of the file as the import reads it. */
export type ImportedClient = {
	line: number
	name: string
	email: string | null
	phone: string | null
	company: string | null
	status: ClientStatus
	tags: string[]
}

export type ImportRowError = {
	line: number
	code: 'emailInvalid' | 'phoneInvalid' | 'nameRequired' | 'statusInvalid' | 'tagInvalid' | 'tooLong'
}

export type ReadClientFile =
	| { ok: true; rows: ImportedClient[]; errors: ImportRowError[] }
	| { ok: false; code: 'empty' | 'notCsv' | 'unknownHeaders' | 'noRows' | 'tooManyRows' | 'tooBig' }

/** Every language's header words, normalised, to the column they name. */
function headerWords(): Map<string, CsvColumn> {
	const words = new Map<string, CsvColumn>()
	for (const column of CSV_COLUMNS) {
		words.set(column, column)
		for (const language of supportedLanguages) words.set(normalizeHeader(headerOf(column, language)), column)
	}
	return words
}

/** Every language's status words (and the codes) to the status. */
function statusWords(): Map<string, ClientStatus> {
	const words = new Map<string, ClientStatus>()
	for (const status of CLIENT_STATUSES) {
		words.set(status, status)
		for (const language of supportedLanguages) words.set(statusLabel(status, language).toLowerCase(), status)
	}
	return words
}

/** The export put an apostrophe before a formula start (csvField); the import takes it off again. */
function unguard(value: string) {
	return value.replace(/^'(?=[=+\-@\t\r])/, '').trim()
}

/** Reads a client file: its rows, and the lines that cannot be imported with why. Nothing is written. */
export async function readClientFile(text: string): Promise<ReadClientFile> {
	if (text.trim() === '') return { ok: false, code: 'empty' }
	if (text.length > MAX_CLIENT_FILE_BYTES) return { ok: false, code: 'tooBig' }
	const bounds = await checkCsvBounds(text)
	if (bounds) return { ok: false, code: bounds === 'tooManyRows' ? 'tooManyRows' : 'notCsv' }
	const records = readRecords(text)
	if (!records) return { ok: false, code: 'notCsv' }
	const [header, ...body] = records
	if (!header) return { ok: false, code: 'empty' }
	const words = headerWords()
	const index = new Map<CsvColumn, number>()
	header.fields.forEach((field, i) => {
		const column = words.get(normalizeHeader(field))
		if (column && !index.has(column)) index.set(column, i)
	})
	if (!index.has('name') && !index.has('email')) return { ok: false, code: 'unknownHeaders' }
	if (body.length === 0) return { ok: false, code: 'noRows' }
	if (body.length > MAX_CLIENT_ROWS) return { ok: false, code: 'tooManyRows' }
	const statuses = statusWords()
	const rows: ImportedClient[] = []
	const errors: ImportRowError[] = []
	for (const rec of body) {
		const get = (c: CsvColumn) => (index.has(c) ? unguard(rec.fields[index.get(c)!] ?? '') : '')
		const [name, email, phone, company, status] = [get('name'), get('email'), get('phone'), get('company'), get('status')]
		const tags = get('tags')
			.split(',')
			.map((t) => t.trim().toLowerCase().replace(/\s+/g, ' '))
			.filter(Boolean)
		const fail = (code: ImportRowError['code']) => errors.push({ line: rec.line, code })
		if (!name && !email) fail('nameRequired')
		else if (name.length > 200 || email.length > 254 || company.length > 200) fail('tooLong')
		else if (![name, email, phone, company].every(isSingleLine)) fail('tooLong')
		else if (email && !EMAIL_PATTERN.test(email)) fail('emailInvalid')
		else if (phone && !PHONE.test(phone)) fail('phoneInvalid')
		else if (status && !statuses.has(status.toLowerCase())) fail('statusInvalid')
		else if (tags.length > 20 || tags.some((t) => t.length > 40 || !isSingleLine(t))) fail('tagInvalid')
		else
			rows.push({
				line: rec.line,
				name,
				email: email || null,
				phone: phone || null,
				company: company || null,
				status: status ? statuses.get(status.toLowerCase())! : 'active',
				tags: [...new Set(tags)],
			})
	}
	return { ok: true, rows, errors }
}

export type ImportPreviewRow = ImportedClient & { outcome: 'add' | 'fill' | 'same' }

/**
 * What committing the rows would do, row by row, as public.import_clients decides it: `add` a new
 * client, `fill` an existing one's blanks (or add tags), or leave the `same` client unchanged.
 */
export async function previewClientImport(userId: string, organizationId: string, rows: ImportedClient[]): Promise<ImportPreviewRow[]> {
	const emails = [...new Set(rows.flatMap((r) => (r.email ? [r.email.toLowerCase()] : [])))]
	const names = [...new Set(rows.flatMap((r) => (!r.email && r.name ? [payerKey(r.name)] : [])))]
	const { rows: found } = await asUser(userId, (trx) =>
		sql<{ email: string | null; name_key: string; name: string; phone: string | null; company: string | null; tags: string[] }>`
			select distinct on (coalesce(lower(c.email), '~' || public.payer_key(c.name)))
				lower(c.email) as email, public.payer_key(c.name) as name_key, c.name, c.phone, c.company, c.tags
			from public.clients c
			where c.organization_id = ${organizationId}
				and (lower(c.email) = any(${emails}::text[]) or (c.email is null and public.payer_key(c.name) = any(${names}::text[])))
			order by coalesce(lower(c.email), '~' || public.payer_key(c.name)), c.created_at, c.id`.execute(trx),
	)
	type Known = { name: string; phone: string | null; company: string | null; tags: string[] }
	const known = new Map<string, Known>()
	for (const f of found) known.set(f.email ?? `~${f.name_key}`, f)
	return rows.map((row) => {
		const key = row.email ? row.email.toLowerCase() : row.name ? `~${payerKey(row.name)}` : null
		const existing = key ? known.get(key) : undefined
		if (!existing) {
			if (key) known.set(key, { name: row.name, phone: row.phone, company: row.company, tags: row.tags })
			return { ...row, outcome: 'add' }
		}
		const fills =
			(!existing.name && !!row.name) ||
			(!existing.phone && !!row.phone) ||
			(!existing.company && !!row.company) ||
			row.tags.some((t) => !existing.tags.includes(t))
		if (fills)
			known.set(key!, {
				name: existing.name || row.name,
				phone: existing.phone ?? row.phone,
				company: existing.company ?? row.company,
				tags: [...new Set([...existing.tags, ...row.tags])],
			})
		return { ...row, outcome: fills ? 'fill' : 'same' }
	})
}

export type ImportCounts = { added: number; filled: number; unchanged: number }

/** Commits the rows (all or nothing). */
export function importClients(userId: string, organizationId: string, rows: ImportedClient[]) {
	const payload = rows.map(({ name, email, phone, company, status, tags }) => ({ name, email, phone, company, status, tags }))
	return crmCall(userId, async (trx) => {
		const { rows: out } = await sql<{ counts: ImportCounts }>`
			select public.import_clients(${organizationId}, ${JSON.stringify(payload)}::jsonb) as counts`.execute(trx)
		return out[0]!.counts
	})
}

/** The preview rows the page lists (the counts cover every row). */
export const PREVIEW_ROWS = 200

/** A file's bytes as text: UTF-8, else Windows-1252 (as the payments' import reads them); null when binary. */
function decode(bytes: Uint8Array): string | null {
	if (bytes.includes(0)) return null
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '')
	} catch {
		return new TextDecoder('windows-1252').decode(bytes)
	}
}

export type UploadOutcome =
	| { ok: false; error: Extract<ReadClientFile, { ok: false }>['code'] | 'missing' }
	| {
			ok: true
			preview: {
				csv: string
				rows: Array<Pick<ImportPreviewRow, 'line' | 'name' | 'email' | 'outcome'>>
				total: number
				counts: { add: number; fill: number; same: number }
				errors: ImportRowError[]
			}
	  }

/** The preview step: the posted file read and compared with the saved clients; nothing is written. */
export async function previewUpload(userId: string, organizationId: string, form: FormData): Promise<UploadOutcome> {
	const file = form.get('file')
	if (!(file instanceof File) || file.size === 0) return { ok: false, error: file instanceof File && file.name ? 'empty' : 'missing' }
	if (file.size > MAX_CLIENT_FILE_BYTES) return { ok: false, error: 'tooBig' }
	const text = decode(new Uint8Array(await file.arrayBuffer()))
	if (text === null) return { ok: false, error: 'notCsv' }
	const read = await readClientFile(text)
	if (!read.ok) return { ok: false, error: read.code }
	const rows = await previewClientImport(userId, organizationId, read.rows)
	const counts = { add: 0, fill: 0, same: 0 }
	for (const r of rows) counts[r.outcome]++
	return {
		ok: true,
		preview: {
			csv: text,
			rows: rows.slice(0, PREVIEW_ROWS).map(({ line, name, email, outcome }) => ({ line, name, email, outcome })),
			total: rows.length,
			counts,
			errors: read.errors.slice(0, PREVIEW_ROWS),
		},
	}
}

/** The commit step: the previewed file's text read again and imported (its valid rows, all or nothing). */
export async function commitUpload(userId: string, organizationId: string, form: FormData) {
	const csv = form.get('csv')
	if (typeof csv !== 'string') return { ok: false as const, code: 'missing' as const }
	const read = await readClientFile(csv)
	if (!read.ok) return { ok: false as const, code: read.code }
	return importClients(userId, organizationId, read.rows)
}
