import { hasColumns, paymentRow, rowReader, type ParsedRow, type Rec } from './common.ts'

/**
 * Venmo statement: two preamble lines ("Account Statement - (@user)", "Account Activity"), a
 * header whose first column is blank, a beginning-balance row and a disclaimer row without an
 * ID, amounts as `+ $1,250.00` (received) or `- $45.00` (sent). The payer is `From` on a
 * Payment and `To` on a Charge (a charge is a request the other person paid). `ID` is kept as
 * the exact string: it has 19 digits, beyond a JavaScript number.
 */
export const VENMO_COLUMNS = ['id', 'datetime', 'type', 'status', 'from', 'to', 'amount (total)']

export function isVenmoHeader(fields: string[]) {
	return hasColumns(fields, VENMO_COLUMNS)
}

export function parseVenmo(header: string[], records: Rec[]): ParsedRow[] {
	const get = rowReader(header)
	const rows: ParsedRow[] = []
	for (const { fields, line } of records) {
		const id = get(fields, 'id')
		// Balance, totals and disclaimer rows have no ID.
		if (!id) continue
		const type = get(fields, 'type').toLowerCase()
		const amount = get(fields, 'amount (total)')
		if (!amount.trim().startsWith('+')) {
			rows.push({ line, kind: 'ignored', reason: amount.trim().startsWith('-') ? 'outgoing' : 'notReceived' })
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
		rows.push(
			paymentRow(
				line,
				{
					date: get(fields, 'datetime'),
					amount,
					fee: get(fields, 'amount (fee)'),
					payer: type === 'charge' ? get(fields, 'to') : get(fields, 'from'),
					description: get(fields, 'note'),
					externalId: id,
				},
				{ method: 'Venmo', provider: 'venmo', requireId: true },
			),
		)
	}
	return rows
}
