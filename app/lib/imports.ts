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

/** The columns a generic CSV's mapping names. */
export type MappedColumn = 'date' | 'amount' | 'payer' | 'externalId' | 'description'

/**
 * What each mapped column is called in the exports and spreadsheets of our three languages (en, es,
 * pt-BR), lowercased and without accents, the likeliest first: the mapping form pre-selects the
 * first header that reads as one of them.
 */
const COLUMN_NAMES: Record<MappedColumn, string[]> = {
	date: [
		'date',
		'fecha',
		'data',
		'posted',
		'posting date',
		'transaction date',
		'fecha de operacion',
		'data da transacao',
		'datetime',
		'dia',
	],
	amount: ['amount', 'importe', 'monto', 'valor', 'total', 'cantidad', 'quantia', 'credit', 'credito', 'abono', 'gross', 'value'],
	payer: [
		'payer',
		'pagador',
		'nombre',
		'nome',
		'name',
		'from',
		'de',
		'remitente',
		'remetente',
		'cliente',
		'client',
		'customer',
		'who',
		'sender',
	],
	externalId: [
		'id',
		'transaction id',
		'reference',
		'referencia',
		'ref',
		'id de transaccion',
		'id da transacao',
		'codigo',
		'numero',
		'confirmation',
	],
	description: [
		'description',
		'descripcion',
		'descricao',
		'memo',
		'note',
		'nota',
		'concepto',
		'observacion',
		'observacao',
		'detalle',
		'details',
		'historico',
	],
}

function plain(name: string) {
	return name
		.normalize('NFD')
		.replace(/\p{Diacritic}/gu, '')
		.replace(/^\uFEFF/, '')
		.trim()
		.toLowerCase()
		.replace(/[_\s]+/g, ' ')
}

/**
 * The mapping form's first guess: for each mapped column, the header whose name means it (exact
 * names first, then a header that starts with one, as `Fecha valor` or `Amount (USD)`), each header
 * used once. '' where no header reads as the column: the user picks it.
 */
export function guessMapping(headers: string[]): Record<MappedColumn, string> {
	const names = headers.map(plain)
	const used = new Set<number>()
	const guess = { date: '', amount: '', payer: '', externalId: '', description: '' } as Record<MappedColumn, string>
	for (const column of Object.keys(COLUMN_NAMES) as MappedColumn[]) {
		const wanted = COLUMN_NAMES[column]
		let found = -1
		for (const w of wanted) {
			found = names.findIndex((n, i) => !used.has(i) && n === w)
			if (found >= 0) break
		}
		if (found < 0) {
			for (const w of wanted) {
				if (w.length < 3) continue
				found = names.findIndex((n, i) => !used.has(i) && (n.startsWith(`${w} `) || n.startsWith(`${w}(`)))
				if (found >= 0) break
			}
		}
		if (found >= 0) {
			used.add(found)
			guess[column] = headers[found]!
		}
	}
	return guess
}
