import { hasAnyColumns, isRoundedNumber, outgoingRow, paymentRow, pickColumn, rowReader, type ParsedRow, type Rec } from './common.ts'

/**
 * Venmo statement: two preamble lines ("Account Statement - (@user)", "Account Activity"), a
 * header whose first column is blank, a beginning-balance row and a disclaimer row without an
 * ID, amounts as `+ $1,250.00` (received) or `- $45.00` (sent). The payer is `From` on a
 * Payment and `To` on a Charge (a charge is a request the other person paid). `ID` is kept as
 * the exact string: it has 19 digits, beyond a JavaScript number.
 *
 * Re-saved by a spreadsheet, the same file may have its columns renamed (`Date` for `Datetime`,
 * `Amount` for `Amount (total)`, `Transaction ID` for `ID`), its amounts written as plain numbers
 * (`1250`, `-45`: the sign still says which way) and its ids rounded (`3.18E+18`): a rounded id is
 * never used (the payment is then recognised by its date, amount, payer and note, and the preview
 * says so).
 */
const ID = ['id', 'transaction id']
const DATETIME = ['datetime', 'date', 'date and time', 'date/time']
const AMOUNT = ['amount (total)', 'amount', 'total amount', 'amount total']
export const VENMO_COLUMNS = [ID, DATETIME, 'type', 'status', 'from', 'to', AMOUNT] as const

export function isVenmoHeader(fields: string[]) {
	return hasAnyColumns(fields, VENMO_COLUMNS)
}

/** The column names of one Venmo header, read once per file. */
const columnsOf = new WeakMap<string[], { id: string; datetime: string; amount: string }>()

export function parseVenmo(header: string[], records: Rec[]): ParsedRow[] {
	const get = rowReader(header)
	let cols = columnsOf.get(header)
	if (!cols) {
		cols = { id: pickColumn(header, ID), datetime: pickColumn(header, DATETIME), amount: pickColumn(header, AMOUNT) }
		columnsOf.set(header, cols)
	}
	const rows: ParsedRow[] = []
	for (const { fields, line } of records) {
		const id = get(fields, cols.id)
		// Balance, totals and disclaimer rows have no ID.
		if (!id) continue
		const type = get(fields, 'type').toLowerCase()
		const amount = get(fields, cols.amount).trim()
		// Venmo signs every amount; a spreadsheet drops the `+` of a received one, never the `-`.
		if (!amount || amount.startsWith('-') || amount.startsWith('(')) {
			rows.push(
				amount ? venmoOutgoing(line, type, id, amount, fields, get, cols.datetime) : { line, kind: 'ignored', reason: 'notReceived' },
			)
			continue
		}
		if (type !== 'payment' && type !== 'charge') {
			rows.push({ line, kind: 'ignored', reason: 'notReceived' })
			continue
		}
		const status = get(fields, 'status').toLowerCase()
		if (status && status !== 'complete' && status !== 'completed') {
			rows.push({ line, kind: 'ignored', reason: 'notCompleted' })
			continue
		}
		const rounded = isRoundedNumber(id)
		rows.push(
			paymentRow(
				line,
				{
					date: get(fields, cols.datetime),
					amount,
					fee: get(fields, 'amount (fee)'),
					tip: get(fields, 'amount (tip)'),
					payer: type === 'charge' ? get(fields, 'to') : get(fields, 'from'),
					description: get(fields, 'note'),
					externalId: rounded ? '' : id,
				},
				{ method: 'Venmo', provider: 'venmo', requireId: !rounded },
			),
		)
	}
	return rows
}

/** Venmo's transfers of the balance to the user's own bank: money out, but neither an expense nor a refund. */
const OWN_TRANSFERS = new Set(['standard transfer', 'instant transfer'])

/**
 * A sent row (docs/product.md, Expense Tracking): a refund, a transfer to the user's own bank
 * (passed over), or a payment: to `To` on a Payment, to `From` on a Charge (a request the user paid).
 */
function venmoOutgoing(
	line: number,
	type: string,
	id: string,
	amount: string,
	fields: string[],
	get: ReturnType<typeof rowReader>,
	datetime: string,
): ParsedRow {
	if (OWN_TRANSFERS.has(type)) return { line, kind: 'ignored', reason: 'outgoing' }
	const status = get(fields, 'status').toLowerCase()
	if (status && status !== 'complete' && status !== 'completed') return { line, kind: 'ignored', reason: 'outgoing' }
	const refund = type.includes('refund')
	return outgoingRow(
		line,
		refund ? 'refund' : 'expense',
		{
			date: get(fields, datetime),
			amount,
			fee: get(fields, 'amount (fee)'),
			payee: type === 'charge' ? get(fields, 'from') : get(fields, 'to') || get(fields, 'from'),
			description: get(fields, 'note'),
			externalId: isRoundedNumber(id) ? '' : id,
		},
		{ method: 'Venmo', provider: 'venmo' },
	)
}
