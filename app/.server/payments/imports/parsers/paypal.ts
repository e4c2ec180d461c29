import { hasAnyColumns, headerIndex, outgoingRow, paymentRow, pickColumn, rowReader, type ParsedRow, type Rec } from './common.ts'

/**
 * PayPal activity download: an optional byte-order mark, every column quoted, `Gross`, `Fee`
 * and `Net` (fees negative), `Balance Impact` Credit / Debit / Memo (memo rows, such as a
 * pending authorisation or a currency hold, move no money and are skipped), `Transaction ID`.
 *
 * Also read: the shorter download `Date,Time,TimeZone,Name,Type,Status,Currency,Amount,Receipt
 * ID,Balance` (no Gross, no Transaction ID: `Receipt ID` is the id when it is filled, else the
 * payment is recognised by its content), and the same download in French and Brazilian
 * Portuguese (`Nom`, `Devise`, `Avant commission` / `Brut`, `Numéro de transaction`, `Impact sur le
 * solde`; `Nome`, `Moeda`, `Bruto`, `Tarifa`, `Código da transação`, `Impacto no saldo`), whose
 * dates are day first and amounts have decimal commas.
 */
const DATE = ['date', 'data']
const NAME = ['name', 'nom', 'nome']
const TYPE = ['type', 'tipo']
const STATUS = ['status', 'état', 'etat', 'statut']
const CURRENCY = ['currency', 'devise', 'moeda']
const GROSS = ['gross', 'avant commission', 'brut', 'bruto', 'amount', 'montant', 'valor']
const FEE = ['fee', 'commission', 'frais', 'tarifa', 'taxa']
const ID = ['transaction id', 'numéro de transaction', 'código da transação', 'id da transação', 'receipt id']
const EMAIL = [
	'from email address',
	"de l'adresse email",
	"de l'adresse e-mail",
	'endereço de e-mail do remetente',
	'do endereço de e-mail',
]
const IMPACT = ['balance impact', 'impact sur le solde', 'impacto no saldo']
const NOTE = [
	'note',
	'message',
	'remarque',
	'mensagem',
	'observação',
	'subject',
	'objet',
	'assunto',
	'item title',
	"titre de l'objet",
	'título do item',
]

export const PAYPAL_COLUMNS = [DATE, NAME, TYPE, STATUS, CURRENCY, GROSS] as const

const COMPLETED = new Set(['completed', 'terminé', 'termine', 'concluído', 'concluido'])
const MEMO = new Set(['memo', 'mémo', 'memorando'])
const DEBIT = new Set(['debit', 'débit', 'débito', 'debito'])
/** Money moved between the account and the user's own bank or card, or between currencies: not a payment received. */
const NOT_PAYMENT = /withdraw|bank deposit|card deposit|add funds|currency conversion|conversion de devise|conversão de moeda|transfer/i

export function isPaypalHeader(fields: string[]) {
	return hasAnyColumns(fields, PAYPAL_COLUMNS)
}

type Columns = Record<'date' | 'name' | 'type' | 'status' | 'currency' | 'gross' | 'fee' | 'id' | 'email' | 'impact', string> & {
	notes: string[]
	/** The English download has ids on every payment; the short one and the translated ones may not. */
	requireId: boolean
	dayFirst: boolean
}
const columnsOf = new WeakMap<string[], Columns>()

function columns(header: string[]): Columns {
	const known = columnsOf.get(header)
	if (known) return known
	const index = headerIndex(header)
	const cols: Columns = {
		date: pickColumn(header, DATE),
		name: pickColumn(header, NAME),
		type: pickColumn(header, TYPE),
		status: pickColumn(header, STATUS),
		currency: pickColumn(header, CURRENCY),
		gross: pickColumn(header, GROSS),
		fee: pickColumn(header, FEE),
		id: pickColumn(header, ID),
		email: pickColumn(header, EMAIL),
		impact: pickColumn(header, IMPACT),
		notes: NOTE.filter((n) => index.has(n)),
		requireId: index.has('transaction id'),
		// English columns: month first (the US download); French and Portuguese: day first.
		dayFirst: !index.has('name'),
	}
	columnsOf.set(header, cols)
	return cols
}

export function parsePaypal(header: string[], records: Rec[]): ParsedRow[] {
	const get = rowReader(header)
	const cols = columns(header)
	const rows: ParsedRow[] = []
	for (const { fields, line } of records) {
		const impact = get(fields, cols.impact).toLowerCase()
		if (MEMO.has(impact)) {
			rows.push({ line, kind: 'ignored', reason: 'memo' })
			continue
		}
		const gross = get(fields, cols.gross).trim()
		if (DEBIT.has(impact) || gross.startsWith('-') || gross.startsWith('(')) {
			rows.push(paypalOutgoing(line, gross, fields, get, cols))
			continue
		}
		if (NOT_PAYMENT.test(get(fields, cols.type))) {
			rows.push({ line, kind: 'ignored', reason: 'notReceived' })
			continue
		}
		const status = get(fields, cols.status).toLowerCase()
		if (status && !COMPLETED.has(status)) {
			rows.push({ line, kind: 'ignored', reason: 'notCompleted' })
			continue
		}
		const currency = get(fields, cols.currency).toUpperCase()
		if (currency && currency !== 'USD') {
			rows.push({ line, kind: 'failed', reason: 'currency', value: currency })
			continue
		}
		const email = get(fields, cols.email)
		rows.push(
			paymentRow(
				line,
				{
					date: get(fields, cols.date),
					amount: gross,
					fee: get(fields, cols.fee),
					payer: get(fields, cols.name) || email,
					payerEmail: email,
					description: cols.notes.map((n) => get(fields, n)).find(Boolean) ?? '',
					externalId: get(fields, cols.id),
				},
				{ method: 'PayPal', provider: 'paypal', requireId: cols.requireId, dateOrder: cols.dayFirst ? 'dmy' : 'mdy' },
			),
		)
	}
	return rows
}

/**
 * A debit row (docs/product.md, Expense Tracking): a withdrawal or transfer to the user's own bank
 * (and a currency conversion) is passed over; a refund (`Payment Refund`, `Refund`, `Reembolso`,
 * `Remboursement`) is a refund; any other completed payment in dollars is an expense to `Name`.
 */
function paypalOutgoing(line: number, gross: string, fields: string[], get: ReturnType<typeof rowReader>, cols: Columns): ParsedRow {
	const plain: ParsedRow = { line, kind: 'ignored', reason: 'outgoing' }
	const type = get(fields, cols.type)
	const refund = /refund|reembolso|rembours/i.test(type)
	if (!refund && NOT_PAYMENT.test(type)) return plain
	const status = get(fields, cols.status).toLowerCase()
	if (status && !COMPLETED.has(status)) return plain
	const currency = get(fields, cols.currency).toUpperCase()
	if (currency && currency !== 'USD') return plain
	return outgoingRow(
		line,
		refund ? 'refund' : 'expense',
		{
			date: get(fields, cols.date),
			amount: gross,
			fee: get(fields, cols.fee),
			payee: get(fields, cols.name) || get(fields, cols.email),
			description: cols.notes.map((n) => get(fields, n)).find(Boolean) ?? '',
			externalId: get(fields, cols.id),
		},
		{ method: 'PayPal', provider: 'paypal', dateOrder: cols.dayFirst ? 'dmy' : 'mdy' },
	)
}
