/**
 * What an invoice's public page (/i/{token}) reads, as anon, by the token of the link the client
 * was sent (supabase/migrations/20261206020000_invoice_public_page.sql): the invoice as sent, its
 * lines, its state and what was received, and where the organization is paid.
 */
import { HANDLE_KINDS } from '#app/lib/schemas/payment-handles.ts'
import { asAnon, sql } from '../db/index.ts'
import { INVOICE_TOKEN } from './sending.ts'

export type InvoiceState = 'sent' | 'partly_paid' | 'paid' | 'overdue' | 'void'

export type PublicInvoice = {
	number: number
	state: InvoiceState
	language: string
	billTo: string | null
	issueDate: string
	dueDate: string
	notes: string | null
	subtotal: string
	discount: string
	taxRate: string
	total: string
	amountPaid: string
	balance: string
	code: string | null
	organization: { name: string; logoUrl: string | null }
	handles: Record<(typeof HANDLE_KINDS)[number], string | null>
	lines: Array<{ description: string; quantity: string; unitPrice: string; amount: string }>
}

type Row = {
	number: number
	state: InvoiceState
	language: string
	bill_to_name: string | null
	issue_date: string | Date
	due_date: string | Date
	notes: string | null
	subtotal: string
	discount: string
	tax_rate: string
	total: string
	amount_paid: string
	balance: string
	memo_code: string | null
	organization_name: string
	organization_logo_url: string | null
} & Record<(typeof HANDLE_KINDS)[number], string | null>

const day = (v: string | Date) => (v instanceof Date ? v.toISOString() : String(v)).slice(0, 10)
const money = (v: string | number) => Number(v).toFixed(2)

/** The invoice a page token names, or null (a malformed token, a token of no invoice). */
export async function getPublicInvoice(token: string): Promise<PublicInvoice | null> {
	if (!INVOICE_TOKEN.test(token)) return null
	return asAnon(async (trx) => {
		const row = (await sql<Row>`select * from public.get_public_invoice(${token})`.execute(trx)).rows[0]
		if (!row) return null
		const lines = await sql<{ description: string; quantity: string; unit_price: string; amount: string }>`
			select * from public.get_public_invoice_lines(${token})`.execute(trx)
		return {
			number: row.number,
			state: row.state,
			language: row.language,
			billTo: row.bill_to_name,
			issueDate: day(row.issue_date),
			dueDate: day(row.due_date),
			notes: row.notes,
			subtotal: money(row.subtotal),
			discount: money(row.discount),
			taxRate: String(Number(row.tax_rate)),
			total: money(row.total),
			amountPaid: money(row.amount_paid),
			balance: money(row.balance),
			// Nothing to pay on a void or paid invoice: no code to write in a payment.
			code: row.state === 'void' || row.state === 'paid' ? null : row.memo_code,
			organization: { name: row.organization_name, logoUrl: row.organization_logo_url },
			handles: Object.fromEntries(HANDLE_KINDS.map((k) => [k, row[k]])) as PublicInvoice['handles'],
			lines: lines.rows.map((l) => ({
				description: l.description,
				quantity: String(Number(l.quantity)),
				unitPrice: money(l.unit_price),
				amount: money(l.amount),
			})),
		}
	})
}
