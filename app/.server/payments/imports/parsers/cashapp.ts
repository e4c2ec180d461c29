import { hasColumns, outgoingRow, paymentRow, rowReader, type ParsedRow, type Rec } from './common.ts'

/**
 * Cash App report: amounts `$250` and `-$2.90`, dates `2026-03-01 14:22:05 EST` (or EDT; the
 * calendar day as written is kept), only `Received P2P` rows are received payments.
 */
export const CASHAPP_COLUMNS = ['transaction id', 'date', 'transaction type', 'amount', 'name of sender/receiver']

/**
 * The statuses of a payment that reached the account. Cash App's reports have been seen to write
 * a received payment's status as "COMPLETE" and as "PAYMENT DEPOSITED"; anything else (pending,
 * failed, refunded…) is passed over as not completed.
 */
const RECEIVED_STATUSES = ['complete', 'completed', 'payment deposited', 'deposited']

export function isCashappHeader(fields: string[]) {
	return hasColumns(fields, CASHAPP_COLUMNS)
}

export function parseCashapp(header: string[], records: Rec[]): ParsedRow[] {
	const get = rowReader(header)
	const rows: ParsedRow[] = []
	for (const { fields, line } of records) {
		const type = get(fields, 'transaction type').toLowerCase()
		if (type !== 'received p2p') {
			rows.push(cashappOther(line, type, fields, get))
			continue
		}
		const status = get(fields, 'status').toLowerCase()
		if (status && !RECEIVED_STATUSES.includes(status)) {
			rows.push({ line, kind: 'ignored', reason: 'notCompleted' })
			continue
		}
		rows.push(
			paymentRow(
				line,
				{
					date: get(fields, 'date'),
					amount: get(fields, 'amount'),
					fee: get(fields, 'fee'),
					payer: get(fields, 'name of sender/receiver'),
					description: get(fields, 'notes'),
					externalId: get(fields, 'transaction id'),
				},
				{ method: 'CashApp', provider: 'cashapp', requireId: true },
			),
		)
	}
	return rows
}

/**
 * A row other than a received payment (docs/product.md, Expense Tracking): a payment sent to
 * someone is an expense, a refund sent back (`Refund`, `Refunded P2P`, a refund of a received
 * payment) is a refund, a cash out to the user's bank is passed over; any other row is not received.
 */
function cashappOther(line: number, type: string, fields: string[], get: ReturnType<typeof rowReader>): ParsedRow {
	const amount = get(fields, 'amount')
	const sent = type.startsWith('sent')
	const refund = type.includes('refund') && amount.trim().startsWith('-')
	if (!sent && !refund) return { line, kind: 'ignored', reason: 'notReceived' }
	const status = get(fields, 'status').toLowerCase()
	if (status && !['complete', 'completed'].includes(status)) return { line, kind: 'ignored', reason: 'outgoing' }
	return outgoingRow(
		line,
		refund ? 'refund' : 'expense',
		{
			date: get(fields, 'date'),
			amount,
			fee: get(fields, 'fee'),
			payee: get(fields, 'name of sender/receiver'),
			description: get(fields, 'notes'),
			externalId: get(fields, 'transaction id'),
		},
		{ method: 'CashApp', provider: 'cashapp' },
	)
}
