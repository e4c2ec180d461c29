/**
 * The largest CSV the import screen accepts: checked in the browser before sending (with
 * JavaScript) and by the server; the request guard caps the whole body at 12 MB and sends a
 * larger upload back to the screen with the same message.
 */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024

/**
 * The other bounds of an import file, each checked on the whole text before anything is parsed
 * or staged (app/.server/payments/imports/parsers/common.ts, `checkCsvBounds`), and again while it is
 * parsed: rows besides the header (also the most payments one batch may stage, in SQL too:
 * migration 20261203030000), fields in a row, and characters in a row (which bounds a cell, and
 * the work of reading one record in one go). The upload screen says the row limit.
 */
export const MAX_IMPORT_ROWS = 100_000
export const MAX_IMPORT_COLUMNS = 100
export const MAX_IMPORT_LINE_CHARS = 20_000
