/**
 * A sent invoice's payments (docs/product.md, Invoicing): the payments the matching engine (or a
 * member) linked to it, each with how it was matched; linking a payment of the organization by
 * hand and undoing a link, with the engine's own functions (public.match_payment,
 * public.unmatch_payment of docs/decisions/040-one-matching-engine.md: an undone pair is
 * remembered, so the engine never links it again); voiding and marking paid by hand
 * (public.void_invoice, public.mark_invoice_paid). Each refusal comes back as a stable code the
 * screen explains; what is refused changes nothing.
 */
import type { MatchMethod } from '#app/lib/invoices.ts'
import { asUser, dbErrorCode, sql, type Tx } from '../db/index.ts'
import { likePattern, normalizeSearch } from '../query.ts'

/** Why a change to a sent invoice was refused (the SQL functions' codes, and ours). */
export const INVOICE_REFUSALS = [
	'not_found',
	'not_open',
	'already_matched',
	'invoice_has_payments',
	'invoice_not_open',
	'invoice_is_draft',
	'invoice_void',
] as const
export type InvoiceRefusal = (typeof INVOICE_REFUSALS)[number]

class Refused extends Error {
	constructor(readonly code: InvoiceRefusal) {
		super(code)
	}
}

export type Outcome = { ok: true } | { ok: false; code: InvoiceRefusal }

async function attempt(userId: string, fn: (trx: Tx) => Promise<void>): Promise<Outcome> {
	try {
		await asUser(userId, fn)
		return { ok: true }
	} catch (error) {
		if (error instanceof Refused) return { ok: false, code: error.code }
		const code = dbErrorCode(error)
		if ((INVOICE_REFUSALS as readonly string[]).includes(code ?? '')) return { ok: false, code: code as InvoiceRefusal }
		throw error
	}
}

/** The invoice's expectation (what the engine waits for), when the invoice is the organization's; refused otherwise. */
async function ownInvoice(trx: Tx, organizationId: string, invoiceId: string) {
	const row = await trx
		.selectFrom('invoices')
		.select(['id', 'expectation_id'])
		.where('id', '=', invoiceId)
		.where('organization_id', '=', organizationId)
		.executeTakeFirst()
	if (!row) throw new Refused('not_found')
	return row
}

/** One payment linked to an invoice, as its page lists it. */
export type LinkedPayment = {
	matchId: string
	date: string
	/** The payment's client, else the payer its source named, else null. */
	payer: string | null
	amount: string
	paymentMethod: string
	how: MatchMethod
}

/** The payments linked to the invoice, oldest first (none for a draft). */
export async function listInvoicePayments(userId: string, organizationId: string, invoiceId: string): Promise<LinkedPayment[]> {
	return asUser(userId, async (trx) => {
		const { rows } = await sql<LinkedPayment>`
			select m.id as "matchId", to_char(t.date_received, 'YYYY-MM-DD') as date, coalesce(c.name, t.raw_payer) as payer,
				m.amount::text as amount, t.payment_method::text as "paymentMethod", m.method as how
			from public.invoices i
			join public.payment_matches m on m.expectation_id = i.expectation_id
			join public.transactions t on t.id = m.transaction_id
			left join public.clients c on c.id = t.client_id
			where i.id = ${invoiceId} and i.organization_id = ${organizationId}
			order by t.date_received, m.created_at, m.id`.execute(trx)
		return rows
	})
}

/** A payment a member may link by hand: one of the organization's, matched to nothing. */
export type LinkablePayment = {
	id: string
	date: string
	payer: string | null
	amount: string
	paymentMethod: string
	description: string | null
}

/** How many payments the picker offers at once (a search narrows them). */
export const LINKABLE_LIMIT = 20

/**
 * The organization's payments matched to nothing that a member may link to the invoice: with no
 * search, the invoice client's newest, then the organization's newest; with one, those whose
 * payer, client, description or amount holds the text. At most LINKABLE_LIMIT, newest first.
 */
export async function listLinkablePayments(
	userId: string,
	organizationId: string,
	invoiceId: string,
	search: string | null,
): Promise<LinkablePayment[]> {
	const q = normalizeSearch(search)
	return asUser(userId, async (trx) => {
		const invoice = await trx
			.selectFrom('invoices')
			.select('client_id')
			.where('id', '=', invoiceId)
			.where('organization_id', '=', organizationId)
			.executeTakeFirst()
		if (!invoice) return []
		const columns = sql`t.id, to_char(t.date_received, 'YYYY-MM-DD') as date, coalesce(c.name, t.raw_payer) as payer,
			t.amount::text as amount, t.payment_method::text as "paymentMethod", t.description`
		const free = sql`t.organization_id = ${organizationId} and t.amount > 0
			and not exists (select 1 from public.payment_matches m where m.transaction_id = t.id)`
		if (!q) {
			const { rows } = await sql<LinkablePayment & { mine: boolean }>`
				(select ${columns}, true as mine from public.transactions t left join public.clients c on c.id = t.client_id
					where ${free} and t.client_id = ${invoice.client_id} order by t.date_received desc, t.created_at desc, t.id desc limit ${LINKABLE_LIMIT})
				union all
				(select ${columns}, false as mine from public.transactions t left join public.clients c on c.id = t.client_id
					where ${free} order by t.date_received desc, t.created_at desc, t.id desc limit ${LINKABLE_LIMIT})`.execute(trx)
			const seen = new Set<string>()
			return rows
				.filter((r) => !seen.has(r.id) && seen.add(r.id))
				.slice(0, LINKABLE_LIMIT)
				.map(({ mine: _mine, ...r }) => r)
		}
		const pattern = likePattern(q)
		const amount = /^\$?\s*\d{1,10}(?:[.,]\d{1,2})?$/.test(q) ? q.replace(/^\$\s*/, '').replace(',', '.') : null
		const { rows } = await sql<LinkablePayment>`
			select ${columns} from public.transactions t left join public.clients c on c.id = t.client_id
			where ${free} and (t.description_key like public.name_sort_key(${pattern}) or t.raw_payer ilike ${pattern}
				or c.name_key like public.name_sort_key(${pattern})${amount === null ? sql`` : sql` or t.amount = ${amount}::numeric`})
			order by t.date_received desc, t.created_at desc, t.id desc limit ${LINKABLE_LIMIT}`.execute(trx)
		return rows
	})
}

/**
 * Links a payment of the organization to the invoice by hand (public.match_payment: method
 * manual; a pair once undone may be linked again this way). Refused: `not_found` (the invoice or
 * the payment is not the organization's, or the invoice is a draft), `already_matched` (the
 * payment is linked elsewhere), `not_open` (the invoice is paid or void).
 */
export function linkInvoicePayment(userId: string, organizationId: string, invoiceId: string, transactionId: string) {
	return attempt(userId, async (trx) => {
		const invoice = await ownInvoice(trx, organizationId, invoiceId)
		if (!invoice.expectation_id) throw new Refused('not_found')
		const payment = await trx
			.selectFrom('transactions')
			.select('id')
			.where('id', '=', transactionId)
			.where('organization_id', '=', organizationId)
			.executeTakeFirst()
		if (!payment) throw new Refused('not_found')
		await sql`select public.match_payment(${invoice.expectation_id}, ${payment.id})`.execute(trx)
	})
}

/**
 * Undoes one of the invoice's links (public.unmatch_payment): the payment is free again and the
 * engine never links it to this invoice again; the invoice is owed again when it is now short.
 * Refused: `not_found` (no such link on this invoice of the organization).
 */
export function unlinkInvoicePayment(userId: string, organizationId: string, invoiceId: string, matchId: string) {
	return attempt(userId, async (trx) => {
		const invoice = await ownInvoice(trx, organizationId, invoiceId)
		const match = await trx
			.selectFrom('payment_matches')
			.select('id')
			.where('id', '=', matchId)
			.where('organization_id', '=', organizationId)
			.where('expectation_id', '=', invoice.expectation_id ?? '00000000-0000-0000-0000-000000000000')
			.executeTakeFirst()
		if (!match) throw new Refused('not_found')
		await sql`select public.unmatch_payment(${match.id})`.execute(trx)
	})
}

/** Voids a sent invoice (public.void_invoice): refused with `invoice_has_payments` while payments are linked. */
export function voidInvoice(userId: string, organizationId: string, invoiceId: string) {
	return attempt(userId, async (trx) => {
		await ownInvoice(trx, organizationId, invoiceId)
		await sql`select public.void_invoice(${invoiceId})`.execute(trx)
	})
}

/** Marks a sent invoice paid by hand (public.mark_invoice_paid): `invoice_not_open` when it is a draft, void or paid. */
export function markInvoicePaid(userId: string, organizationId: string, invoiceId: string) {
	return attempt(userId, async (trx) => {
		await ownInvoice(trx, organizationId, invoiceId)
		await sql`select public.mark_invoice_paid(${invoiceId})`.execute(trx)
	})
}
