import { bankRow } from './banks.ts'
import { hasColumns, parseLooseDate, parseSignedAmount, rowReader, type FileSource, type ParsedRow, type Rec } from './common.ts'

/**
 * Checking-account downloads of more US banks, read for their received Zelle payments and incoming
 * wires (`bankRow`: the payer, note and id from the line's text, the direction from the text or the
 * sign). Each layout was taken from public open-source importers that read the bank's real download
 * (named on each); the Zelle wording of these banks is read by the shared rules of `readZelle`
 * ("Zelle … from NAME …", a `REF #` or trailing id), not from a sample of each bank. docs/product.md
 * (Imports) lists what is covered and what is not.
 */
type BankLayout = {
	source: Extract<FileSource, 'wellsfargo' | 'capitalone' | 'td' | 'navyfederal' | 'truist' | 'usbank'>
	fits: (fields: string[]) => boolean
	/** A download without a header line: `fits` recognises a data line, which is read too. */
	headerless?: string[]
	read: (
		get: (fields: string[], name: string) => string,
		fields: string[],
	) => { date: string; amount: string; description: string; credit?: boolean }
}

/** A debit and a credit column as one signed amount (the credit when it is filled). */
function debitCredit(debit: string, credit: string) {
	if (credit.trim()) return credit.trim()
	const d = debit.trim().replace(/^-/, '')
	return d ? `-${d}` : ''
}

const WELLS_FARGO_HEADER = ['date', 'amount', '*', 'check number', 'description']

export const US_BANK_LAYOUTS: BankLayout[] = [
	{
		// Wells Fargo: no header, five quoted columns "date","amount","*","check number","description"
		// (ofxgen's Wells Fargo profile; dataextractai's Wells Fargo bank parser).
		source: 'wellsfargo',
		headerless: WELLS_FARGO_HEADER,
		fits: (f) => f.length === 5 && f[2] === '*' && parseLooseDate(f[0]!) !== null && parseSignedAmount(f[1]!) !== null,
		read: (get, f) => ({ date: get(f, 'date'), amount: get(f, 'amount'), description: get(f, 'description') }),
	},
	{
		// Capital One 360 checking: Account Number,Transaction Date,Transaction Amount,Transaction
		// Type,Transaction Description,Balance, dates as 06/04/20 (Venice's capitalone-bank import format).
		source: 'capitalone',
		fits: (f) => hasColumns(f, ['transaction date', 'transaction amount', 'transaction type', 'transaction description']),
		read: (get, f) => {
			const type = get(f, 'transaction type').toLowerCase()
			const amount = get(f, 'transaction amount')
			return {
				date: get(f, 'transaction date'),
				amount: type === 'debit' && !amount.trim().startsWith('-') ? `-${amount.trim()}` : amount,
				description: get(f, 'transaction description'),
				credit: type === 'credit' ? true : type === 'debit' ? false : undefined,
			}
		},
	},
	{
		// TD Bank (US): Date,Bank RTN,Account Number,Transaction Type,Description,Debit,Credit,Check
		// Number,Account Running Balance (ledgerly's CSV parser tests).
		source: 'td',
		fits: (f) => hasColumns(f, ['date', 'bank rtn', 'transaction type', 'description', 'debit', 'credit']),
		read: (get, f) => ({
			date: get(f, 'date'),
			amount: debitCredit(get(f, 'debit'), get(f, 'credit')),
			description: get(f, 'description'),
		}),
	},
	{
		// Navy Federal: Posting Date,Transaction Date,Amount,Credit Debit Indicator,type,Type Group,
		// Reference,…,Description,Category,… with unsigned amounts (a public NFCU download script).
		source: 'navyfederal',
		fits: (f) => hasColumns(f, ['posting date', 'transaction date', 'amount', 'credit debit indicator', 'description']),
		read: (get, f) => {
			const credit = get(f, 'credit debit indicator').toLowerCase()
			const amount = get(f, 'amount').trim()
			return {
				date: get(f, 'transaction date') || get(f, 'posting date'),
				amount: credit === 'debit' && !amount.startsWith('-') ? `-${amount}` : amount,
				description: get(f, 'description'),
				credit: credit === 'credit' ? true : credit === 'debit' ? false : undefined,
			}
		},
	},
	{
		// Truist: Posted Date,Transaction Date,Transaction Type,Check/Serial #,Description (or Full
		// description, Merchant name, Category name, Sub-category name),Amount,Daily Posted Balance,
		// amounts as $+1000 and ($42) (public importer profiles and tests of Truist downloads).
		source: 'truist',
		fits: (f) =>
			hasColumns(f, ['amount', 'daily posted balance']) && (hasColumns(f, ['description']) || hasColumns(f, ['full description'])),
		read: (get, f) => ({
			date: get(f, 'transaction date') || get(f, 'posted date') || get(f, 'date'),
			amount: get(f, 'amount'),
			description: get(f, 'full description') || get(f, 'description'),
		}),
	},
	{
		// U.S. Bank: "Date","Transaction","Name","Memo","Amount", Transaction DEBIT / CREDIT (a budgeting
		// app's U.S. Bank import tests; a U.S. Bank checking sample generator).
		source: 'usbank',
		fits: (f) => hasColumns(f, ['date', 'transaction', 'name', 'memo', 'amount']),
		read: (get, f) => {
			const type = get(f, 'transaction').toLowerCase()
			return {
				date: get(f, 'date'),
				amount: get(f, 'amount'),
				// The name is the line's text; the memo holds card references, not a note.
				description: get(f, 'name'),
				credit: type === 'credit' ? true : type === 'debit' ? false : undefined,
			}
		},
	},
]

/** The rows of one of these banks' files. */
export function parseUsBank(layout: BankLayout, header: string[], records: Rec[]): ParsedRow[] {
	const get = rowReader(header)
	return records.map(({ fields, line }) => bankRow(line, layout.read(get, fields), layout.source))
}
