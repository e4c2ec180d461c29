import { createHash } from 'node:crypto'
import { data } from 'react-router'
import { dbErrorCode, sql } from './db/index.ts'

/**
 * What the editable tables' actions share: a form body read with a size cap, the row version
 * used for optimistic concurrency, and the fingerprint that tells an edited row from one the
 * user left alone.
 */

/** The largest form body a table save accepts (500 rows with long descriptions fit). */
export const MAX_FORM_BYTES = 2 * 1024 * 1024

export class BodyTooLargeError extends Error {
	constructor() {
		super('body_too_large')
	}
}

/**
 * The request's form data, refusing a body over `maxBytes` before parsing it (a declared
 * Content-Length is checked first; a chunked body is counted while it streams).
 */
export async function readFormData(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData> {
	const declared = Number(request.headers.get('content-length') ?? NaN)
	if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLargeError()
	const type = request.headers.get('content-type') ?? ''
	if (type.startsWith('multipart/form-data')) {
		if (!Number.isFinite(declared)) throw new BodyTooLargeError()
		return request.formData()
	}
	const text = await readText(request, maxBytes)
	const formData = new FormData()
	for (const [name, value] of new URLSearchParams(text)) formData.append(name, value)
	return formData
}

async function readText(request: Request, maxBytes: number) {
	if (!request.body) return ''
	const reader = request.body.getReader()
	const chunks: Uint8Array[] = []
	let size = 0
	for (;;) {
		const { done, value } = await reader.read()
		if (done) break
		size += value.byteLength
		if (size > maxBytes) {
			await reader.cancel().catch(() => undefined)
			throw new BodyTooLargeError()
		}
		chunks.push(value)
	}
	return new TextDecoder().decode(Buffer.concat(chunks))
}

/** A row's version: its updated_at in microseconds, exact (a JS Date would drop them). */
export function versionOf(column: string) {
	return sql<string>`(extract(epoch from ${sql.ref(column)}) * 1000000)::bigint::text`
}

/** A short hash of a row's editable values as the user saw them. */
export function fingerprint(values: readonly (string | null | undefined)[]) {
	return createHash('sha256')
		.update(JSON.stringify(values.map((v) => (v ?? '').trim())))
		.digest('base64url')
		.slice(0, 22)
}

/** Database refusals that mean "bad input" (a check, a type, a reference), not a fault. */
const inputErrorCodes = new Set(['22P02', '22007', '22008', '22003', '22001', '23502', '23503', '23514'])

export function isInputError(error: unknown) {
	const code = dbErrorCode(error)
	return code !== undefined && inputErrorCodes.has(code)
}

/**
 * How many list items a form names (`rows[0].…` … `rows[N].…` gives N + 1), read before
 * parsing, so that a forged `rows[999999]` cannot make the parser build a huge list.
 */
export function listLength(formData: FormData, list: string) {
	const pattern = new RegExp(`^${list}\\[(\\d{1,9})\\]`)
	let length = 0
	for (const key of formData.keys()) {
		const match = pattern.exec(key)
		if (match) length = Math.max(length, Number(match[1]) + 1)
	}
	return length
}

/** Row errors of a domain save as conform field errors: `rows[3].amount` → ['amountInvalid']. */
export function rowFieldErrors(rowErrors: Record<number, Record<string, string>>, list = 'rows') {
	const fieldErrors: Record<string, string[]> = {}
	for (const [index, fields] of Object.entries(rowErrors)) {
		for (const [field, code] of Object.entries(fields)) fieldErrors[`${list}[${index}].${field}`] = [code]
	}
	return fieldErrors
}

/** A table action's refusal before any parsing: a form-level error (table:errors.{code}). */
export function tableError(formError: string, status = 400) {
	return data({ result: undefined, formError, conflicts: undefined }, { status })
}
