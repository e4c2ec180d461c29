import { hasColumns, paymentRow, rowReader, type ParsedRow, type Rec } from './common.ts'

/**
 * Bank exports, for the Zelle payments (and incoming wires) among a checking account's lines.
 *
 * Chase: `Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #` with a trailing
 * comma on every data line (one field more than the header); received Zelle payments are
 * `QUICKPAY_CREDIT` rows ("Zelle payment from NAME 12345678901", the number is Zelle's
 * transaction number); incoming wires are credits described "WIRE TRANSFER …" / "FEDWIRE CREDIT …".
 *
 * Bank of America: a summary block (`Description,,Summary Amt.` and its lines) before the
 * header `Date,Description,Amount,Running Bal.`; "Zelle payment from NAME for "NOTE"; Conf#
 * abc123" (the confirmation code is the id); a "Beginning balance" line without an amount.
 */
export const CHASE_COLUMNS = ['details', 'posting date', 'description', 'amount', 'type']
export const BOFA_COLUMNS = ['date', 'description', 'amount', 'running bal.']

export function isChaseHeader(fields: string[]) {
	return hasColumns(fields, CHASE_COLUMNS)
}

export function isBofaHeader(fields: string[]) {
	return hasColumns(fields, BOFA_COLUMNS)
}

const ZELLE_FROM = /zelle (?:payment|transfer) from\s+(.+?)(?:\s+for\s+"?(.*?)"?)?(?:;?\s*conf#\s*([a-z0-9]+)|\s+(\d{6,}))?\s*$/i
const WIRE = /^(?:wire transfer|fedwire credit|wire type:\s*wire in|incoming wire)/i
const WIRE_FROM = /(?:orig:|from:?|b\/o:)\s*(.+?)(?:\s+(?:id:|srf#|trn:|imad:|obi:)|$)/i
const WIRE_ID = /(?:trn:|srf#|imad:)\s*([a-z0-9]+)/i

function zelle(description: string) {
	const m = ZELLE_FROM.exec(description)
	if (!m) return null
	return { payer: m[1] ?? '', memo: m[2] ?? '', id: m[3] ?? m[4] ?? '' }
}

function wire(description: string) {
	if (!WIRE.test(description)) return null
	return { payer: WIRE_FROM.exec(description)?.[1] ?? '', id: WIRE_ID.exec(description)?.[1] ?? '' }
}

export function parseChase(header: string[], records: Rec[]): ParsedRow[] {
	const get = rowReader(header)
	const rows: ParsedRow[] = []
	for (const { fields, line } of records) {
		const type = get(fields, 'type').toUpperCase()
		const description = get(fields, 'description')
		const amount = get(fields, 'amount')
		const base = { date: get(fields, 'posting date'), amount }
		if (type === 'QUICKPAY_CREDIT') {
			const z = zelle(description)
			rows.push(
				paymentRow(
					line,
					{ ...base, payer: z?.payer ?? '', description: z?.memo || description, externalId: z?.id },
					{ method: 'Zelle', provider: 'chase' },
				),
			)
			continue
		}
		const w = get(fields, 'details').toUpperCase() === 'CREDIT' ? wire(description) : null
		if (w) {
			rows.push(
				paymentRow(line, { ...base, payer: w.payer, description, externalId: w.id }, { method: 'Wire Transfer', provider: 'chase' }),
			)
			continue
		}
		rows.push({ line, kind: 'ignored', reason: amount.trim().startsWith('-') ? 'outgoing' : 'notReceived' })
	}
	return rows
}

export function parseBofa(header: string[], records: Rec[]): ParsedRow[] {
	const get = rowReader(header)
	const rows: ParsedRow[] = []
	for (const { fields, line } of records) {
		const description = get(fields, 'description')
		const amount = get(fields, 'amount')
		if (!amount.trim() && /^beginning balance/i.test(description)) {
			rows.push({ line, kind: 'ignored', reason: 'summary' })
			continue
		}
		const base = { date: get(fields, 'date'), amount }
		const z = /zelle (?:payment|transfer) from/i.test(description) ? zelle(description) : null
		if (z) {
			rows.push(
				paymentRow(
					line,
					{ ...base, payer: z.payer, description: z.memo || description, externalId: z.id },
					{ method: 'Zelle', provider: 'bofa' },
				),
			)
			continue
		}
		const w = amount.trim().startsWith('-') ? null : wire(description)
		if (w) {
			rows.push(paymentRow(line, { ...base, payer: w.payer, description, externalId: w.id }, { method: 'Wire Transfer', provider: 'bofa' }))
			continue
		}
		rows.push({ line, kind: 'ignored', reason: amount.trim().startsWith('-') ? 'outgoing' : 'notReceived' })
	}
	return rows
}
