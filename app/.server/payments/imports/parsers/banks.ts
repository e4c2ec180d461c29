import { hasColumns, outgoingRow, paymentRow, rowReader, type ParsedRow, type Rec } from './common.ts'

/**
 * Bank exports, for the Zelle payments (and incoming wires) among a checking account's lines. Each
 * layout below names where its header was seen in public open-source importers; docs/product.md
 * (Imports) lists which are covered. A line is a received Zelle payment when its text says Zelle:
 * the payer, the note and the bank's Zelle id are read wherever the bank writes them
 * (`readZelle`), and the direction from the text when it says ("from" / "to"), else from the
 * amount's sign (Bank of America's 2022 `Zelle Transfer Conf# ID; NAME` says neither).
 *
 * Chase: `Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #` with a trailing
 * comma on every data line (one field more than the header); received Zelle payments are
 * `QUICKPAY_CREDIT` rows, or `PARTNERFI_TO_CHASE` ones when the sender's bank is another
 * ("Zelle payment from NAME 12345678901" or "… WFCT0YWDL6TT": Zelle's transaction number, digits
 * or letters and digits); incoming wires are credits described "WIRE TRANSFER …" / "FEDWIRE
 * CREDIT …". Before September 2016 the checking download was `Type,Post Date,Description,Amount,
 * Check or Slip #` (Type DEBIT / CREDIT / CHECK …).
 *
 * Bank of America: a summary block (`Description,,Summary Amt.` and its lines) before the
 * header `Date,Description,Amount,Running Bal.`; "Zelle payment from NAME for "NOTE"; Conf#
 * abc123", "Zelle Transfer Conf# abc123; NAME", "Zelle Scheduled payment from NAME Conf# …"
 * (the confirmation code is the id, wherever it stands, a stray quote after it dropped); its
 * memos' quotes are not escaped, which the tolerant reading repairs (common.ts, `looseRecords`);
 * a "Beginning balance" line without an amount.
 */
export const CHASE_COLUMNS = ['details', 'posting date', 'description', 'amount', 'type']
export const CHASE_2016_COLUMNS = ['type', 'post date', 'description', 'amount', 'check or slip #']
export const BOFA_COLUMNS = ['date', 'description', 'amount', 'running bal.']

export function isChaseHeader(fields: string[]) {
	return hasColumns(fields, CHASE_COLUMNS) || hasColumns(fields, CHASE_2016_COLUMNS)
}

export function isBofaHeader(fields: string[]) {
	return hasColumns(fields, BOFA_COLUMNS)
}

export type ZelleLine = { direction: 'in' | 'out' | null; payer: string; memo: string; id: string }

const ZELLE = /\bzelle\b/i
const CONF = /;?\s*\bconf(?:irmation)?\s*#?\s*:?\s*([a-z0-9]{4,})"*/i
const REF = /\s+(?:ref|trn|id)\s*#\s*:?\s*([a-z0-9]{6,})"*/i
const HEAD =
	/\bzelle\b(?:\s+(?:scheduled|recurring|instant))?(?:\s+(?:payment|transfer|pmt|money|credit|deposit))?(?:\s+(?:received|sent|recd))?\s*(from|to)?\b\s*/i
const ACH_ZELLE = /\bdes:\s*zelle\b.*?\bid:\s*(.+?)(?:\s+(?:indn|co id|ppd|ccd|web):.*)?$/i
const FOR_MEMO = /\s+for\s+"?(.*?)"?\s*$/i
const ON_DATE = /\s+on\s+\d{1,2}\/\d{1,2}(?:\/\d{2,4})?\b.*$/i
const TRAILING_ID = /\s+([a-z0-9]*\d[a-z0-9]*)"?$/i

/**
 * A bank line's Zelle payment: who, the note, the id and which way, or null when the line is not
 * a Zelle one. Reads the wordings of docs/product.md (Imports): "Zelle payment from NAME for
 * "NOTE"; Conf# ID", "Zelle Transfer Conf# ID; NAME", "Zelle Scheduled payment from NAME …",
 * "Zelle payment from NAME 12345678901", "ZELLE FROM NAME ON 03/01 REF # ID", and an ACH line
 * "BANK DES:ZELLE ID:NAME INDN:…".
 */
export function readZelle(description: string): ZelleLine | null {
	let text = description.replace(/\s+/g, ' ').trim()
	if (!ZELLE.test(text)) return null
	const ach = ACH_ZELLE.exec(text)
	if (ach) return { direction: null, payer: ach[1]!.trim(), memo: '', id: '' }
	let id = ''
	const ref = CONF.exec(text) ?? REF.exec(text)
	if (ref) {
		id = ref[1]!
		text = `${text.slice(0, ref.index)} ${text.slice(ref.index + ref[0].length)}`.replace(/\s+/g, ' ').trim()
	}
	const head = HEAD.exec(text)
	if (!head) return null
	const word = head[1]?.toLowerCase()
	let rest = text
		.slice(head.index + head[0].length)
		.replace(/^[;:,\s]+/, '')
		.trim()
	let memo = ''
	const forMemo = FOR_MEMO.exec(rest)
	if (forMemo) {
		memo = forMemo[1]!.replace(/^"+|"+$/g, '').trim()
		rest = rest.slice(0, forMemo.index)
	}
	rest = rest.replace(ON_DATE, '')
	if (!id) {
		const trailing = TRAILING_ID.exec(rest)
		if (trailing && trailing[1]!.length >= 8) {
			id = trailing[1]!
			rest = rest.slice(0, trailing.index)
		}
	}
	return {
		direction: word === 'from' ? 'in' : word === 'to' ? 'out' : null,
		payer: rest.replace(/[;"]+/g, ' ').replace(/\s+/g, ' ').trim(),
		memo,
		id: id.replace(/"+$/, ''),
	}
}

const WIRE = /^(?:wire transfer|fedwire credit|wire type:\s*wire in|incoming wire|wire in\b|wt fed|wire trans(?:fer)? (?:credit|in))/i
const WIRE_FROM = /(?:orig:|from:?|b\/o:)\s*(.+?)(?:\s+(?:id:|srf#|trn:|imad:|obi:)|$)/i
const WIRE_ID = /(?:trn:|srf#|imad:)\s*([a-z0-9]+)/i

function wire(description: string) {
	if (!WIRE.test(description)) return null
	return { payer: WIRE_FROM.exec(description)?.[1] ?? '', id: WIRE_ID.exec(description)?.[1] ?? '' }
}

/** One bank line, as its layout reads it. `credit`: the bank's own word that money came in (a type column), when it has one. */
export type BankLine = { date: string; amount: string; description: string; credit?: boolean; id?: string }

/**
 * A bank line's outcome: a received Zelle payment (the direction from the text, else the sign),
 * an incoming wire, or a line passed over (outgoing when its amount is negative).
 */
export function bankRow(line: number, raw: BankLine, provider: string): ParsedRow {
	const negative = /^\s*[-(]/.test(raw.amount)
	const z = readZelle(raw.description)
	if (z) {
		// A Zelle payment sent (docs/product.md, Expense Tracking): an expense to the person named.
		if (z.direction === 'out' || negative || raw.credit === false)
			return outgoingRow(
				line,
				'expense',
				{ date: raw.date, amount: raw.amount, payee: z.payer, description: z.memo || raw.description, externalId: z.id || raw.id },
				{ method: 'Zelle', provider },
			)
		return paymentRow(
			line,
			{ date: raw.date, amount: raw.amount, payer: z.payer, description: z.memo || raw.description, externalId: z.id || raw.id },
			{ method: 'Zelle', provider },
		)
	}
	const w = negative || raw.credit === false ? null : wire(raw.description)
	if (w) {
		return paymentRow(
			line,
			{ date: raw.date, amount: raw.amount, payer: w.payer, description: raw.description, externalId: w.id },
			{ method: 'Wire Transfer', provider },
		)
	}
	return { line, kind: 'ignored', reason: negative || raw.credit === false ? 'outgoing' : 'notReceived' }
}

/** Chase's types of a payment received from another person: Zelle within Chase, and from another bank. */
const CHASE_RECEIVED = new Set(['QUICKPAY_CREDIT', 'PARTNERFI_TO_CHASE'])

export function parseChase(header: string[], records: Rec[]): ParsedRow[] {
	const get = rowReader(header)
	const old = !hasColumns(header, ['posting date'])
	const rows: ParsedRow[] = []
	for (const { fields, line } of records) {
		const type = get(fields, 'type').toUpperCase()
		const description = get(fields, 'description')
		const amount = get(fields, 'amount')
		const date = get(fields, old ? 'post date' : 'posting date')
		if (CHASE_RECEIVED.has(type)) {
			const z = readZelle(description)
			// A PARTNERFI_TO_CHASE line that is not Zelle is the user's own transfer from another bank.
			if (!z && type === 'PARTNERFI_TO_CHASE') {
				rows.push({ line, kind: 'ignored', reason: 'notReceived' })
				continue
			}
			rows.push(
				paymentRow(
					line,
					{ date, amount, payer: z?.payer ?? '', description: z?.memo || description, externalId: z?.id },
					{ method: 'Zelle', provider: 'chase' },
				),
			)
			continue
		}
		const credit = (old ? type : get(fields, 'details').toUpperCase()) === 'CREDIT'
		if (credit && !old) {
			const w = wire(description)
			rows.push(
				w
					? paymentRow(
							line,
							{ date, amount, payer: w.payer, description, externalId: w.id },
							{ method: 'Wire Transfer', provider: 'chase' },
						)
					: { line, kind: 'ignored', reason: 'notReceived' },
			)
			continue
		}
		// The 2016 layout has no Zelle type: its credit lines are read by their text.
		rows.push(credit ? bankRow(line, { date, amount, description }, 'chase') : { line, kind: 'ignored', reason: 'outgoing' })
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
		rows.push(bankRow(line, { date: get(fields, 'date'), amount, description }, 'bofa'))
	}
	return rows
}
