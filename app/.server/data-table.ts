import { createHash } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import type { z } from 'zod'
import {
	FORM_END_FIELD,
	MAX_ROWS_PER_SAVE,
	SAVE_KEY,
	SAVE_KEY_FIELD,
	type BatchResult,
	type RowErrors,
	type SaveCounts,
	type SaveHow,
	type SaveOutcome,
	type SaveWarning,
} from '#app/lib/editable-rows.ts'
import { readTableState, withoutEditMode, type SortDirection } from '#app/lib/table-params.ts'
import type { RouterContextProvider } from 'react-router'
import { readCapped } from './request-guard.ts'
import { requireMember } from './auth/session.ts'
import { asUser, dbErrorCode, sql, type Tx } from './db/index.ts'
import { redirectWithToast } from './toast.ts'

/**
 * The server half of the editable-table kit. A table declares its zod schema and a save
 * function built on saveBatch (which rows to lock, how to write them); tableAction does the
 * rest: the body read with a size cap, other intents, a form posted before it had loaded whole,
 * conform's list intents, the confirmation a deletion (or a warning) needs, and the outcome as
 * the screen expects it.
 */

/** A table loader's start: the member asking, the URL, and the table's state read from it. */
export function readTableRequest<S extends string>(
	request: Request,
	context: Readonly<RouterContextProvider>,
	sorts: readonly S[],
	defaults: { readonly sort: S; readonly dir: SortDirection },
) {
	const member = requireMember(context)
	const url = new URL(request.url)
	return { ...member, url, state: readTableState(url.searchParams, sorts, defaults) }
}

/**
 * A page past the last one (an old bookmark, the last rows deleted) goes to the last page
 * instead of showing "no rows yet" beside a total: a redirect that keeps the rest of the URL.
 */
export function redirectPastLastPage(url: URL, page: number, pageSize: number, found: { rows: unknown[]; total: number }) {
	if (page <= 1 || found.rows.length > 0 || found.total === 0) return
	const next = new URL(url)
	const last = Math.ceil(found.total / pageSize)
	if (last > 1) next.searchParams.set('page', String(last))
	else next.searchParams.delete('page')
	throw redirect(next.pathname + next.search)
}

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
	const bytes = await readCapped(request, maxBytes)
	if (bytes === null) throw new BodyTooLargeError()
	return new TextDecoder().decode(bytes)
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
export function rowFieldErrors(rowErrors: RowErrors, list = 'rows') {
	const fieldErrors: Record<string, string[]> = {}
	for (const [index, fields] of Object.entries(rowErrors)) {
		for (const [field, code] of Object.entries(fields)) fieldErrors[`${list}[${index}].${field}`] = [code]
	}
	return fieldErrors
}

/** A table action's refusal before any parsing: a form-level error (table:errors.{code}). */
export function tableError(formError: string, status = 400) {
	return data({ result: undefined, formError, conflicts: undefined, confirm: undefined }, { status })
}

/** The field a confirmation step posts back: "yes, save with these deletions". */
export const CONFIRM_FIELD = 'confirmed'

/**
 * An editable table's action, end to end: the body read with its cap, other intents handed to
 * their handlers (looked up as own keys only: `__proto__` or `toString` is an unknown intent),
 * a post without the form's last field refused (FORM_END_FIELD), conform's intents (add or
 * remove a row, validate) answered with the form's new state, the batch saved all or nothing,
 * and the outcome as the screen expects: row errors and conflicts with a 400/409, a question
 * when the save deletes rows or has warnings (answered by posting again with `confirmed=1`), or
 * a redirect out of edit mode with a toast.
 */
type TableForm<S extends z.ZodType<{ rows: unknown[] }>, V> = {
	schema: S
	save: (rows: z.output<S>['rows'], how: SaveHow) => Promise<BatchResult<V>>
}

export async function tableAction<S extends z.ZodType<{ rows: unknown[] }>, V>(
	request: Request,
	options: TableForm<S, V> & { intents?: Record<string, (url: URL) => Promise<Response>> },
) {
	let formData: FormData
	try {
		formData = await readFormData(request)
	} catch (error) {
		if (error instanceof BodyTooLargeError) return tableError('tooLarge', 413)
		throw error
	}
	const url = new URL(request.url)
	const confirmed = formData.get(CONFIRM_FIELD) === '1'
	const intent = formData.get('intent') ?? (confirmed ? 'save' : null)
	const intents = options.intents ?? {}
	if (typeof intent === 'string' && Object.hasOwn(intents, intent)) return intents[intent]!(url)
	if (intent === 'cancel') return cancelEdit(formData, url, options)
	if (intent !== 'save' && !formData.has('__intent__')) return tableError('unknownIntent')
	if (listLength(formData, 'rows') > MAX_ROWS_PER_SAVE) return tableError('tooManyRows', 413)
	if (!formData.has(FORM_END_FIELD)) return tableError('incomplete')

	const submission = parseWithZod(formData, { schema: options.schema })
	if (submission.status !== 'success') {
		return data(
			{
				result: submission.reply(),
				formError: submission.status === 'error' ? 'saveFailed' : undefined,
				conflicts: undefined,
				confirm: undefined,
			},
			{ status: submission.status === 'error' ? 400 : 200 },
		)
	}
	let result: BatchResult<V>
	try {
		const saveKey = formData.get(SAVE_KEY_FIELD)
		result = await options.save((submission.value as z.output<S>).rows, {
			confirmed,
			saveKey: typeof saveKey === 'string' && SAVE_KEY.test(saveKey) ? saveKey : undefined,
		})
	} catch (error) {
		if (!isInputError(error)) throw error
		return data({ result: submission.reply(), formError: 'saveFailed', conflicts: undefined, confirm: undefined }, { status: 400 })
	}
	if (!result.ok && 'confirm' in result) {
		return data({ result: submission.reply(), formError: undefined, conflicts: undefined, confirm: result.confirm }, { status: 200 })
	}
	if (!result.ok) {
		const conflicted = Object.keys(result.conflicts).length > 0
		return data(
			{
				result: submission.reply({ fieldErrors: rowFieldErrors(result.rowErrors) }),
				formError: conflicted ? 'conflict' : 'saveFailed',
				conflicts: result.conflicts,
				confirm: undefined,
			},
			{ status: conflicted ? 409 : 400 },
		)
	}
	if (result.alreadySaved) return redirectWithToast(withoutEditMode(url), { type: 'info', title: 'table:toast.alreadySaved' })
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

/**
 * Cancel posted by a page without JavaScript (with it, Cancel navigates and the page asks):
 * back to the table when the rows are as loaded, else "Discard unsaved changes?" above the
 * table, with what was typed kept in it. What changed is what a save would do (`planOnly`).
 */
async function cancelEdit<S extends z.ZodType<{ rows: unknown[] }>, V>(formData: FormData, url: URL, options: TableForm<S, V>) {
	const submission = parseWithZod(formData, { schema: options.schema })
	if (submission.status === 'success') {
		const plan = await options.save((submission.value as z.output<S>).rows, { confirmed: false, planOnly: true })
		if (plan.ok && plan.inserted + plan.updated + plan.deleted === 0) return redirect(withoutEditMode(url))
	}
	// The values as typed, without the errors a check of them would show: nothing was saved.
	const result = { ...submission.reply(), status: undefined, error: undefined }
	return data({ result, formError: undefined, conflicts: undefined, confirm: undefined, discard: true }, { status: 200 })
}

// ---------------------------------------------------------------------------------------------
// Saving a batch of rows
// ---------------------------------------------------------------------------------------------

/** What every editable row carries besides its values (see lib/editable-rows.ts). */
export type BatchRow = { id: string | null; version: string | null; fingerprint: string | null; deleted: boolean }

export type Written<R> = { index: number; row: R }

/** What a batch will do, once each row has been checked. */
export type BatchPlan<R> = { inserts: Written<R>[]; updates: Written<R>[]; deletes: string[] }

export type Fail = (index: number, field: string, code: string) => void

/** A saved row as the save locks it: a submitted row's version is checked against it. */
type Loaded = { id: string; version: string }

/**
 * How one table saves: its table name, how to lock and read the rows being saved, what the
 * fingerprint of a submitted row is (to skip rows the user left alone), and how to write.
 * `prepare` checks what only the database can tell (e.g. a client's name), failing rows or
 * returning what `write` needs; `warn` names what deserves a second look before saving.
 */
export type BatchSpec<R extends BatchRow, Current extends Loaded, V, P> = {
	table: 'transactions' | 'clients' | 'booking_services' | 'booking_providers'
	/** The saved rows of these ids (of this organization only), locked until the save ends. */
	lock: (trx: Tx, ids: string[]) => Promise<Current[]>
	fingerprint: (row: R) => string
	conflictValues: (current: Current) => V
	prepare: (trx: Tx, plan: BatchPlan<R>, current: Map<string, Current>, fail: Fail) => Promise<P>
	warn?: (trx: Tx, plan: BatchPlan<R>, current: Map<string, Current>) => Promise<SaveWarning[]>
	write: (trx: Tx, plan: BatchPlan<R>, prepared: P) => Promise<void>
}

class Refused<V> extends Error {
	constructor(readonly result: BatchResult<V>) {
		super('refused')
	}
}

/**
 * Saves every row or none, in one transaction: new rows are inserted, rows the user edited are
 * updated and rows marked deleted are removed, provided each was not changed by someone else
 * since it was loaded (its version). Rows the user left alone are skipped, and so are new rows
 * marked deleted (an untouched new row is one: see lib/editable-rows.ts). Any refused row
 * refuses the whole batch, with each row's errors. Unless `confirmed`, a batch that deletes
 * rows or has warnings is not written: the answer is the question to ask, with the counts.
 * With a `saveKey` (SAVE_KEY_FIELD), a key a save already claimed writes nothing: the answer is
 * `alreadySaved`. The claim is part of the transaction, so a refused save leaves the key free.
 * `planOnly` answers the counts of what the save would do, and writes nothing.
 */
export async function saveBatch<R extends BatchRow, Current extends Loaded, V, P>(
	userId: string,
	organizationId: string,
	input: R[],
	spec: BatchSpec<R, Current, V, P>,
	{ confirmed, saveKey, planOnly }: SaveHow = { confirmed: true },
): Promise<BatchResult<V>> {
	try {
		return await asUser(userId, async (trx) => {
			if (saveKey && !planOnly) {
				const { rows } = await sql<{ claimed: boolean }>`select public.claim_table_save(${organizationId}, ${saveKey}) as claimed`.execute(
					trx,
				)
				if (!rows[0]?.claimed) return { ok: true as const, alreadySaved: true, inserted: 0, updated: 0, deleted: 0 }
			}
			const rowErrors: RowErrors = {}
			const conflicts: Record<number, V> = {}
			const fail: Fail = (index, field, code) => {
				rowErrors[index] ??= {}
				rowErrors[index][field] ??= code
			}
			const ids = input.flatMap((r) => (r.id ? [r.id] : []))
			const current = new Map((ids.length > 0 ? await spec.lock(trx, ids) : []).map((row) => [row.id, row]))
			const plan: BatchPlan<R> = { inserts: [], updates: [], deletes: [] }
			const seen = new Set<string>()
			input.forEach((row, index) => {
				if (!row.id) {
					if (!row.deleted) plan.inserts.push({ index, row })
					return
				}
				const existing = current.get(row.id)
				if (!existing || seen.has(row.id)) return fail(index, 'row', 'rowNotFound')
				seen.add(row.id)
				if (!row.deleted && row.fingerprint === spec.fingerprint(row)) return
				if (existing.version !== row.version) {
					conflicts[index] = spec.conflictValues(existing)
					return fail(index, 'row', 'conflict')
				}
				if (row.deleted) plan.deletes.push(row.id)
				else plan.updates.push({ index, row })
			})
			if (planOnly) {
				const counts = {
					inserted: plan.inserts.length,
					updated: plan.updates.length + Object.keys(conflicts).length,
					deleted: plan.deletes.length,
				}
				throw new Refused<V>({ ok: true, planned: true, ...counts })
			}
			const prepared = await spec.prepare(trx, plan, current, fail)
			if (Object.keys(rowErrors).length > 0) throw new Refused<V>({ ok: false, rowErrors, conflicts })

			const counts: SaveCounts = { inserted: plan.inserts.length, updated: plan.updates.length, deleted: plan.deletes.length }
			if (!confirmed) {
				const warnings = (await spec.warn?.(trx, plan, current)) ?? []
				if (counts.deleted > 0 || warnings.length > 0) throw new Refused<V>({ ok: false, confirm: { ...counts, warnings } })
			}
			if (plan.deletes.length > 0) {
				await sql`delete from ${sql.table(`public.${spec.table}`)} as d
					where d.organization_id = ${organizationId} and d.id = any(${plan.deletes}::uuid[])`.execute(trx)
			}
			await spec.write(trx, plan, prepared)
			return { ok: true as const, ...counts }
		})
	} catch (error) {
		if (error instanceof Refused) return error.result as BatchResult<V>
		throw error
	}
}

/** A table's save: without `confirmed` it never asks (for direct calls and tests). */
export type BatchSaver<R, V> = {
	(userId: string, organizationId: string, input: R[]): Promise<SaveOutcome<V>>
	(userId: string, organizationId: string, input: R[], how: SaveHow): Promise<BatchResult<V>>
}

/** A table's save function from its BatchSpec (built per request: it knows who saves where). */
export function batchSaver<R extends BatchRow, Current extends Loaded, V, P>(
	spec: (userId: string, organizationId: string, input: R[]) => BatchSpec<R, Current, V, P>,
): BatchSaver<R, V> {
	return ((userId: string, organizationId: string, input: R[], how?: SaveHow) =>
		saveBatch(userId, organizationId, input, spec(userId, organizationId, input), how)) as BatchSaver<R, V>
}
