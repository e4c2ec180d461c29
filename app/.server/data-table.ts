import { createHash } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import type { z } from 'zod'
import { withoutEditMode } from '#app/lib/table-params.ts'
import { MAX_ROWS_PER_SAVE } from '#app/lib/schemas/transactions.ts'
import { dbErrorCode, sql } from './db/index.ts'
import { redirectWithToast } from './toast.ts'

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

type BatchResult<V> =
	| { ok: true; inserted: number; updated: number; deleted: number }
	| { ok: false; rowErrors: Record<number, Record<string, string>>; conflicts: Record<number, V> }

/**
 * An editable table's action, end to end: the body read with its cap, other intents handed to
 * their handlers, conform's list intents (add or remove a row without JavaScript) answered with
 * the form's new state, the batch saved all or nothing, and the outcome as the screen expects:
 * row errors and conflicts with a 400/409, or a redirect out of edit mode with a toast.
 */
export async function tableAction<S extends z.ZodType<{ rows: unknown[] }>, V>(
	request: Request,
	options: {
		schema: S
		save: (rows: z.output<S>['rows']) => Promise<BatchResult<V>>
		intents?: Record<string, (url: URL) => Promise<Response>>
	},
) {
	let formData: FormData
	try {
		formData = await readFormData(request)
	} catch (error) {
		if (error instanceof BodyTooLargeError) return tableError('tooLarge', 413)
		throw error
	}
	const url = new URL(request.url)
	const intent = formData.get('intent')
	// Object.hasOwn: an intent such as '__proto__' or 'toString' is unknown, not inherited.
	const other = typeof intent === 'string' && options.intents && Object.hasOwn(options.intents, intent) ? options.intents[intent] : undefined
	if (other) return other(url)
	if (intent !== 'save' && !formData.has('__intent__')) return tableError('unknownIntent')
	if (listLength(formData, 'rows') > MAX_ROWS_PER_SAVE) return tableError('tooManyRows', 413)

	const submission = parseWithZod(formData, { schema: options.schema })
	if (submission.status !== 'success') {
		return data(
			{ result: submission.reply(), formError: submission.status === 'error' ? 'saveFailed' : undefined, conflicts: undefined },
			{ status: submission.status === 'error' ? 400 : 200 },
		)
	}
	let result: BatchResult<V>
	try {
		result = await options.save((submission.value as z.output<S>).rows)
	} catch (error) {
		if (!isInputError(error)) throw error
		return data({ result: submission.reply(), formError: 'saveFailed', conflicts: undefined }, { status: 400 })
	}
	if (!result.ok) {
		const conflicted = Object.keys(result.conflicts).length > 0
		return data(
			{
				result: submission.reply({ fieldErrors: rowFieldErrors(result.rowErrors) }),
				formError: conflicted ? 'conflict' : 'saveFailed',
				conflicts: result.conflicts,
			},
			{ status: conflicted ? 409 : 400 },
		)
	}
	const { inserted, updated, deleted } = result
	const changed = inserted + updated + deleted
	const title = changed === 0 ? 'table:toast.noChanges' : inserted + updated === 0 ? 'table:toast.deleted' : 'table:toast.saved'
	return redirectWithToast(withoutEditMode(url), {
		type: 'success',
		title,
		description: changed > 0 ? 'table:toast.savedSummary' : undefined,
		values: { inserted, updated, deleted },
	})
}
