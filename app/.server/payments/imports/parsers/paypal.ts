import { hasColumns, paymentRow, rowReader, type ParsedRow, type Rec } from './common.ts'

/**
 * PayPal activity download: an optional byte-order mark, every column quoted, `Gross`, `Fee`
 * and `Net` (fees negative), `Balance Impact` Credit / Debit / Memo (memo rows, such as a
 * pending authorisation or a currency hold, move no money and are skipped), `Transaction ID`.
 */
export const PAYPAL_COLUMNS = ['date', 'name', 'type', 'status', 'currency', 'gross', 'transaction id']

export function isPaypalHeader(fields: string[]) {
	return hasColumns(fields, PAYPAL_COLUMNS)
}

export function parsePaypal(header: string[], records: Rec[]): ParsedRow[] {
	const get = rowReader(header)
	const rows: ParsedRow[] = []
	for (const { fields, line } of records) {
		const impact = get(fields, 'balance impact').toLowerCase()
		if (impact === 'memo') {
			rows.push({ line, kind: 'ignored', reason: 'memo' })
			continue
		}
		const gross = get(fields, 'gross').trim()
		if (impact === 'debit' || gross.startsWith('-')) {
			rows.push({ line, kind: 'ignored', reason: 'outgoing' })
			continue
		}
		const status = get(fields, 'status').toLowerCase()
		if (status && status !== 'completed') {
			rows.push({ line, kind: 'ignored', reason: 'notCompleted' })
			continue
		}
		const currency = get(fields, 'currency').toUpperCase()
		if (currency && currency !== 'USD') {
			rows.push({ line, kind: 'failed', reason: 'currency', value: currency })
			continue
		}
		rows.push(
			paymentRow(
				line,
				{
					date: get(fields, 'date'),
					amount: gross,
					fee: get(fields, 'fee'),
					payer: get(fields, 'name') || get(fields, 'from email address'),
					payerEmail: get(fields, 'from email address'),
					description: get(fields, 'note') || get(fields, 'subject') || get(fields, 'item title'),
					externalId: get(fields, 'transaction id'),
				},
				{ method: 'PayPal', provider: 'paypal', requireId: true },
			),
		)
	}
	return rows
}
