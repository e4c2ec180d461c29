import { z } from 'zod'

/**
 * The isomorphic half of the editable-table kit: the fields every editable row carries, the
 * list of rows a save posts, and the answers a save gives. Shared by the browser (conform) and
 * the server (tableAction, saveBatch).
 */

/** Rows one save may carry. */
export const MAX_ROWS_PER_SAVE = 500

/**
 * The last field of a table's edit form. Without JavaScript a browser posts the fields it has
 * parsed so far: a button pressed while a long table is still arriving would post only the rows
 * above it. A post without this field is refused (nothing changed, the whole table shown again).
 */
export const FORM_END_FIELD = 'formEnd'

/**
 * The save key of the page a table's edit form is on (the signed-in layout makes one per load).
 * A save claims it in its own transaction: the same form posted twice (a double click with
 * JavaScript off, a retried request) writes once, and the second post says it was already saved.
 */
export const SAVE_KEY_FIELD = 'saveKey'
export const SAVE_KEY = /^[A-Za-z0-9_-]{20,100}$/

/**
 * The fields every row carries besides its values: the id and version it was loaded with, the
 * fingerprint of its values as shown (a row left alone is skipped), the delete checkbox, and,
 * for a new row, `blank`: the values it was added with, so that a new row nobody filled in is
 * left out of the save (see rowList).
 */
export const rowMeta = {
	id: z.uuid({ error: 'rowInvalid' }).optional(),
	version: z
		.string()
		.regex(/^\d{1,20}$/, 'rowInvalid')
		.optional(),
	fingerprint: z.string().max(64, 'rowInvalid').optional(),
	deleted: z.boolean().optional(),
}

/**
 * The option of a row's own rules (`superRefine`): they run even when a value of the row failed
 * its field check, so that Save shows every error of a row at once, where zod would stop at the
 * first. The rules must then read each value as possibly missing.
 */
export const EVERY_ROW_ERROR = { when: () => true }

/** The meta fields of a parsed row, as saveBatch expects them. */
export function metaOf(row: { id?: string; version?: string; fingerprint?: string; deleted?: boolean }) {
	return { id: row.id ?? null, version: row.version ?? null, fingerprint: row.fingerprint ?? null, deleted: row.deleted ?? false }
}

/** A new row's `blank` field: its starting values, as the form posts them. */
export function blankOf(values: Record<string, string>) {
	return JSON.stringify(values)
}

/**
 * A new row still equal to the values it was added with is treated as removed: "Add row" twice
 * and one row filled in saves one row, with or without JavaScript. Only the parsed value
 * changes; the form's state (sent back on an error) keeps the row as the user left it.
 */
function skipUntouched(raw: unknown) {
	if (!raw || typeof raw !== 'object') return raw
	const row = raw as Record<string, unknown>
	if (row.id || typeof row.blank !== 'string') return raw
	let blank: unknown
	try {
		blank = JSON.parse(row.blank)
	} catch {
		return raw
	}
	if (!blank || typeof blank !== 'object' || Array.isArray(blank)) return raw
	const untouched = Object.entries(blank).every(([key, value]) => String(row[key] ?? '').trim() === String(value ?? '').trim())
	return untouched ? { ...row, deleted: true } : raw
}

/** The `rows` list of a table's save form. */
export function rowList<T extends z.ZodType>(row: T) {
	return z.array(z.preprocess(skipUntouched, row)).max(MAX_ROWS_PER_SAVE, 'tooManyRows').default([])
}

export type RowErrors = Record<number, Record<string, string>>
export type SaveCounts = { inserted: number; updated: number; deleted: number }
/** Something a save should ask about first, e.g. a client name already taken ({ index, code, value }). */
export type SaveWarning = { index: number; code: string; value: string }
export type Confirmation = SaveCounts & { warnings: SaveWarning[] }

export type BatchResult<V> =
	| ({ ok: true; alreadySaved?: boolean; planned?: boolean } & SaveCounts)
	| { ok: false; rowErrors: RowErrors; conflicts: Record<number, V> }
	| { ok: false; confirm: Confirmation }

/**
 * How a save goes: `confirmed` (a deletion or a warning asked about first unless set), the
 * page's `saveKey` (SAVE_KEY_FIELD), and `planOnly`: count what the save would do, write
 * nothing (`planned`; a changed row someone else changed too counts as updated).
 */
export type SaveHow = { confirmed: boolean; saveKey?: string; planOnly?: boolean }

/** What a save answers when it was not asked to confirm (it never asks then). */
export type SaveOutcome<V> = Exclude<BatchResult<V>, { confirm: Confirmation }>
