/**
 * What the invoice screens share in the browser and on the server (docs/product.md, Invoicing):
 * the states an invoice shows, and its totals as the database computes them
 * (supabase/migrations/20261206010000_invoices.sql), so the form's preview is the figure the
 * save will store, to the cent.
 */

/** The states of public.invoice_overview, in the order the list's filter offers them. */
export const INVOICE_STATES = ['draft', 'sent', 'partly_paid', 'overdue', 'paid', 'void'] as const
export type InvoiceState = (typeof INVOICE_STATES)[number]

export function isInvoiceState(value: unknown): value is InvoiceState {
	return typeof value === 'string' && (INVOICE_STATES as readonly string[]).includes(value)
}

/** What the list filters by: a state, or 'open' (still owed: sent, partly paid or overdue; the dashboard links to it). */
export const INVOICE_FILTERS = ['open', ...INVOICE_STATES] as const
export type InvoiceFilter = (typeof INVOICE_FILTERS)[number]

export function isInvoiceFilter(value: unknown): value is InvoiceFilter {
	return typeof value === 'string' && (INVOICE_FILTERS as readonly string[]).includes(value)
}

/** How a payment was linked to an invoice (payment_matches.method). */
export const MATCH_METHODS = ['memo_code', 'payer_amount', 'manual'] as const
export type MatchMethod = (typeof MATCH_METHODS)[number]

/** The longest list of lines an invoice holds (invoice_lines.position < 200). */
export const MAX_INVOICE_LINES = 200

/** Days from the issue date to the due date of a new invoice (the database's default too). */
export const DEFAULT_DUE_DAYS = 14

/** A non-negative decimal text ("12", "12.5", "0.125") as an integer count of 10^-scale units; null if it has more decimals. */
function units(text: string, scale: number): bigint | null {
	const match = /^(\d*)(?:\.(\d*))?$/.exec(text.trim())
	if (!match || (match[1] === '' && !match[2])) return null
	const fraction = match[2] ?? ''
	if (fraction.length > scale) return null
	return BigInt(match[1] || '0') * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0')
}

/** n / d rounded half away from zero, for n, d ≥ 0 (PostgreSQL's round() of a numeric). */
function divideRounded(n: bigint, d: bigint) {
	const q = n / d
	return (n % d) * 2n >= d ? q + 1n : q
}

/** Cents as 'digits.dd'. */
function centsText(cents: bigint) {
	const sign = cents < 0n ? '-' : ''
	const abs = cents < 0n ? -cents : cents
	return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`
}

export type TotalsInput = {
	/** Each line's quantity (up to 3 decimals) and unit price (up to 2), in dot form. */
	lines: Array<{ quantity: string; unitPrice: string }>
	/** An amount off the subtotal (dot form). */
	discount: string
	/** A percentage on what is left (up to 2 decimals). */
	taxRate: string
}

export type InvoiceTotals = {
	/** Each line's amount: round(quantity × unit price, 2); null for a line whose figures do not read. */
	lines: Array<string | null>
	subtotal: string
	discount: string
	tax: string
	total: string
}

/**
 * The totals the database's triggers store: each line round(quantity × unit price, 2), the
 * subtotal their sum, then round((subtotal − discount) × (1 + tax rate / 100), 2). Figures that
 * do not read count as 0 (the preview of a form still being typed); null when the discount is
 * above the subtotal or a figure is unreadable, for the caller that needs to know.
 */
export function invoiceTotals(input: TotalsInput): InvoiceTotals & { valid: boolean } {
	let valid = true
	let subtotal = 0n
	const lines = input.lines.map((line) => {
		const quantity = units(line.quantity, 3)
		const price = units(line.unitPrice, 2)
		if (quantity === null || price === null) {
			valid = false
			return null
		}
		const amount = divideRounded(quantity * price, 1000n)
		subtotal += amount
		return centsText(amount)
	})
	const discount = units(input.discount || '0', 2)
	const rate = units(input.taxRate || '0', 2)
	if (discount === null || rate === null) valid = false
	const off = discount ?? 0n
	const net = subtotal - off
	if (net < 0n) valid = false
	const base = net < 0n ? 0n : net
	const total = divideRounded(base * (10_000n + (rate ?? 0n)), 10_000n)
	return {
		valid,
		lines,
		subtotal: centsText(subtotal),
		discount: centsText(off),
		tax: centsText(total - base),
		total: centsText(total),
	}
}
