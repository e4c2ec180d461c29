/**
 * Invoice drafts and the reading of one invoice (docs/product.md, Invoicing): a member starts a
 * draft, edits its client, language, dates, discount, tax, notes and lines, and deletes it; the
 * database keeps the totals (supabase/migrations/20261206010000_invoices.sql) and refuses any
 * change once the invoice is sent. Every query runs as the member (RLS, column grants) and names
 * the current organization: an invoice of another organization is not found here.
 */
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { addDays } from '#app/lib/dates.ts'
import { DEFAULT_DUE_DAYS, type InvoiceState } from '#app/lib/invoices.ts'
import { invoiceDraftSchemaIn, type InvoiceDraftValues, type InvoiceLineText } from '#app/lib/schemas/invoices.ts'
import { asUser, dbErrorCode, sql, type Tx } from '../db/index.ts'
import { versionOf } from '../data-table.ts'
import { redirectWithToast } from '../toast.ts'
import { mailInvoice } from './mail.ts'
import { sendInvoice, type SendRefusal } from './sending.ts'

/** Why a draft was not saved or deleted. */
export const DRAFT_REFUSALS = ['not_found', 'not_draft', 'stale', 'clientNotFound', 'clientAmbiguous', 'discountTooLarge'] as const
export type DraftRefusal = (typeof DRAFT_REFUSALS)[number]

class Refused extends Error {
	constructor(readonly code: DraftRefusal) {
		super(code)
	}
}

/** The draft form's values as the form shows them (amounts in dot form; the page writes them in its language). */
export type InvoiceFormValues = {
	version: string
	clientId: string
	client: string
	language: string
	issueDate: string
	dueDate: string
	discount: string
	taxRate: string
	notes: string
	lines: InvoiceLineText[]
}

/** A new invoice's form: no client, the page's language, issued today (the organization's), due DEFAULT_DUE_DAYS later, one line. */
export function newInvoiceValues(today: string, language: string): InvoiceFormValues {
	return {
		version: '',
		clientId: '',
		client: '',
		language,
		issueDate: today,
		dueDate: addDays(today, DEFAULT_DUE_DAYS),
		discount: '',
		taxRate: '',
		notes: '',
		lines: [{ description: '', quantity: '1', unitPrice: '' }],
	}
}

/** One invoice as its page shows it. Amounts are numeric strings ('1234.50'). */
export type InvoiceDetail = {
	id: string
	number: number | null
	state: InvoiceState
	clientId: string | null
	/** Who it is billed to: as sent, else the draft's client. */
	clientName: string | null
	clientEmail: string | null
	language: string
	issueDate: string
	dueDate: string
	notes: string | null
	taxRate: string
	discount: string
	subtotal: string
	tax: string
	total: string
	amountPaid: string
	balance: string
	overpaid: string
	memoCode: string | null
	/** Marked paid by hand (public.mark_invoice_paid): the rest of the total counts as received. */
	markedPaid: boolean
	sentAt: string | null
	/** updated_at in microseconds: a draft's save refuses to overwrite a newer one. */
	version: string
	lines: Array<InvoiceLineText & { amount: string }>
}

type DetailRow = {
	id: string
	number: number | null
	state: InvoiceState
	client_id: string | null
	client_name: string | null
	client_email: string | null
	language: string
	issue_date: string
	due_date: string
	notes: string | null
	tax_rate: string
	discount: string
	subtotal: string
	total: string
	amount_paid: string
	balance: string
	overpaid: string
	memo_code: string | null
	marked_paid: boolean
	sent_at: Date | string | null
	version: string
}

const plain = (v: string) => String(Number(v))
const money = (v: string) => Number(v).toFixed(2)

/** The invoice of the organization with its lines, or null (not one of its invoices, or not an id). */
export async function getInvoice(userId: string, organizationId: string, invoiceId: string): Promise<InvoiceDetail | null> {
	return asUser(userId, async (trx) => {
		const { rows } = await sql<DetailRow>`
			select o.id, o.number, o.state, o.client_id, coalesce(o.bill_to_name, c.name) as client_name,
				case when o.status = 'draft' then c.email else o.bill_to_email end as client_email,
				o.language, to_char(o.issue_date, 'YYYY-MM-DD') as issue_date, to_char(o.due_date, 'YYYY-MM-DD') as due_date,
				o.notes, o.tax_rate::text as tax_rate, o.discount::text as discount, o.subtotal::text as subtotal, o.total::text as total,
				o.amount_paid::text as amount_paid, o.balance::text as balance, o.overpaid::text as overpaid, o.memo_code,
				coalesce(e.marked_paid_by is not null, false) as marked_paid, o.sent_at, ${versionOf('o.updated_at')} as version
			from public.invoice_overview o
			left join public.clients c on c.id = o.client_id
			left join public.payment_expectations e on e.id = o.expectation_id
			where o.id = ${invoiceId} and o.organization_id = ${organizationId}`.execute(trx)
		const row = rows[0]
		if (!row) return null
		const lines = await trx
			.selectFrom('invoice_lines')
			.select(['description', 'quantity', 'unit_price', 'amount'])
			.where('invoice_id', '=', invoiceId)
			.where('organization_id', '=', organizationId)
			.orderBy('position')
			.execute()
		const net = Number(row.subtotal) - Number(row.discount)
		return {
			id: row.id,
			number: row.number,
			state: row.state,
			clientId: row.client_id,
			clientName: row.client_name,
			clientEmail: row.client_email?.trim() || null,
			language: row.language,
			issueDate: row.issue_date,
			dueDate: row.due_date,
			notes: row.notes,
			taxRate: plain(row.tax_rate),
			discount: money(row.discount),
			subtotal: money(row.subtotal),
			tax: (Number(row.total) - net).toFixed(2),
			total: money(row.total),
			amountPaid: money(row.amount_paid),
			balance: money(row.balance),
			overpaid: money(row.overpaid),
			memoCode: row.memo_code,
			markedPaid: row.marked_paid,
			sentAt: row.sent_at === null ? null : new Date(row.sent_at).toISOString(),
			version: row.version,
			lines: lines.map((l) => ({
				description: l.description,
				quantity: plain(String(l.quantity)),
				unitPrice: money(String(l.unit_price)),
				amount: money(String(l.amount ?? 0)),
			})),
		}
	})
}

/** Whether the invoice is one of the organization's (an action answers 404 for anything else before reading its form). */
export async function isOrganizationInvoice(userId: string, organizationId: string, invoiceId: string) {
	const row = await asUser(userId, (trx) =>
		trx.selectFrom('invoices').select('id').where('id', '=', invoiceId).where('organization_id', '=', organizationId).executeTakeFirst(),
	)
	return row !== undefined
}

/** A draft's values for its form; `clientText` is what the client field shows (the suggestions' value for its client). */
export function draftFormValues(invoice: InvoiceDetail, clientText: string | null): InvoiceFormValues {
	return {
		version: invoice.version,
		clientId: invoice.clientId ?? '',
		client: clientText ?? invoice.clientName ?? '',
		language: invoice.language,
		issueDate: invoice.issueDate,
		dueDate: invoice.dueDate,
		discount: Number(invoice.discount) === 0 ? '' : invoice.discount,
		taxRate: Number(invoice.taxRate) === 0 ? '' : invoice.taxRate,
		notes: invoice.notes ?? '',
		lines: invoice.lines.map(({ description, quantity, unitPrice }) => ({ description, quantity, unitPrice })),
	}
}

const NAME_WITH_EMAIL = /^(.+?)\s*<([^<>\s]+@[^<>\s]+)>$/

/**
 * The client a typed name names: the draft's own client when the name is still theirs, else the
 * one client of that name (any case), or of that name and e-mail ("Name <email>", as the
 * suggestions write namesakes). Empty: no client (a draft may wait for one; sending asks for it).
 */
async function resolveClient(trx: Tx, organizationId: string, typed: string, current: string | null): Promise<string | null> {
	const text = typed.trim()
	if (!text) return null
	const withEmail = NAME_WITH_EMAIL.exec(text)
	const { rows } = await sql<{ id: string; name: string; email: string | null }>`
		select c.id, c.name, c.email from public.clients c
		where c.organization_id = ${organizationId} and lower(c.name) = any(${[text.toLowerCase(), (withEmail?.[1] ?? '').toLowerCase()]}::text[])`.execute(
		trx,
	)
	let candidates = rows.filter((c) => c.name.toLowerCase() === text.toLowerCase())
	if (candidates.length === 0 && withEmail) {
		const [, name = '', email = ''] = withEmail
		candidates = rows.filter((c) => c.name.toLowerCase() === name.toLowerCase() && c.email?.toLowerCase() === email.toLowerCase())
	}
	if (current && candidates.some((c) => c.id === current)) return current
	if (candidates.length === 1) return candidates[0]!.id
	throw new Refused(candidates.length === 0 ? 'clientNotFound' : 'clientAmbiguous')
}

/** Runs a change as the member; a refusal (ours or the database's) rolls it back and comes back as its code. */
async function attempt<T>(
	userId: string,
	fn: (trx: Tx) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; code: DraftRefusal }> {
	try {
		return { ok: true, value: await asUser(userId, fn) }
	} catch (error) {
		if (error instanceof Refused) return { ok: false, code: error.code }
		const code = dbErrorCode(error)
		if (code === 'invoice_not_draft') return { ok: false, code: 'not_draft' }
		// The discount above the subtotal (invoices' check), should the form's own check have been bypassed.
		if (code === '23514') return { ok: false, code: 'discountTooLarge' }
		throw error
	}
}

/**
 * Saves a draft of the organization: a new one (`invoiceId` null) or an existing one, whose
 * fields and lines become the form's, in one transaction. Refused: `not_found`, `not_draft` (sent
 * meanwhile), `stale` (saved by someone else since the form was loaded), `clientNotFound`,
 * `clientAmbiguous`, `discountTooLarge`. Returns the draft's id.
 */
export function saveDraft(userId: string, organizationId: string, invoiceId: string | null, values: InvoiceDraftValues) {
	return attempt(userId, async (trx) => {
		let current: { id: string; client_id: string | null; version: string } | undefined
		if (invoiceId) {
			await ownDraft(trx, organizationId, invoiceId)
			// Locked until the save ends (a draft only: the policy leaves a sent invoice out of FOR UPDATE).
			const { rows } = await sql<{ id: string; client_id: string | null; version: string }>`
				select i.id, i.client_id, ${versionOf('i.updated_at')} as version from public.invoices i
				where i.id = ${invoiceId} and i.organization_id = ${organizationId} and i.status = 'draft' for update`.execute(trx)
			current = rows[0]
			if (!current) throw new Refused('not_draft')
			if (values.version && values.version !== current.version) throw new Refused('stale')
		}
		const clientId = await resolveClient(trx, organizationId, values.client, current?.client_id ?? values.clientId)
		const fields = {
			client_id: clientId,
			language: values.language,
			issue_date: values.issueDate,
			due_date: values.dueDate,
			notes: values.notes || null,
			tax_rate: values.taxRate,
			// The discount follows the lines (it may not exceed their subtotal at any step).
			discount: '0',
		}
		let id: string
		if (current) {
			await trx.updateTable('invoices').set(fields).where('id', '=', current.id).execute()
			await trx.deleteFrom('invoice_lines').where('invoice_id', '=', current.id).execute()
			id = current.id
		} else {
			const created = await trx
				.insertInto('invoices')
				.values({ ...fields, organization_id: organizationId, created_by: userId })
				.returning('id')
				.executeTakeFirstOrThrow()
			id = created.id
		}
		if (values.lines.length > 0) {
			await trx
				.insertInto('invoice_lines')
				.values(
					values.lines.map((line, position) => ({
						organization_id: organizationId,
						invoice_id: id,
						position,
						description: line.description,
						quantity: line.quantity,
						unit_price: line.unitPrice,
					})),
				)
				.execute()
		}
		if (Number(values.discount) > 0) await trx.updateTable('invoices').set({ discount: values.discount }).where('id', '=', id).execute()
		return id
	})
}

/** Refused unless the invoice is one of the organization's and a draft. */
async function ownDraft(trx: Tx, organizationId: string, invoiceId: string) {
	const row = await trx
		.selectFrom('invoices')
		.select('status')
		.where('id', '=', invoiceId)
		.where('organization_id', '=', organizationId)
		.executeTakeFirst()
	if (!row) throw new Refused('not_found')
	if (row.status !== 'draft') throw new Refused('not_draft')
}

/** Deletes a draft of the organization (a sent invoice is voided instead): `not_found`, `not_draft`. */
export function deleteDraft(userId: string, organizationId: string, invoiceId: string) {
	return attempt(userId, async (trx) => {
		await ownDraft(trx, organizationId, invoiceId)
		// The policy deletes drafts only: one sent meanwhile stays.
		const deleted = await trx.deleteFrom('invoices').where('id', '=', invoiceId).where('status', '=', 'draft').returning('id').execute()
		if (deleted.length === 0) throw new Refused('not_draft')
		return invoiceId
	})
}

/** What a post of the draft form came to, for the route to answer. */
export type DraftSubmission =
	/** The form again: its errors (400), a list intent's new lines (200), or a refusal that is no field's. */
	| { kind: 'reply'; result: SubmissionResult<string[]>; status: 200 | 400 | 404 | 409; refusal?: DraftRefusal }
	| { kind: 'saved'; id: string }
	/** Saved and sent: its number, and whether its mail went (to `email`); without an e-mail, the link still works. */
	| { kind: 'sent'; id: string; number: number; mailed: boolean; email: string | null }
	/** Saved, but the send was refused (public.send_invoice's code): the draft stays a draft. */
	| { kind: 'sendRefused'; id: string; code: SendRefusal }

/** The refusals a field of the form shows under itself. */
const FIELD_OF: Partial<Record<DraftRefusal, string>> = {
	clientNotFound: 'client',
	clientAmbiguous: 'client',
	discountTooLarge: 'discount',
}

/**
 * A post of the draft form (`invoiceId` null: a new draft), read as `language` writes amounts:
 * conform's list intents ("Add a line", a line's remove) answer with the form as typed; a valid
 * `save` saves the draft, a valid `send` saves it and sends it (sendInvoice, then the mail of
 * ./mail.ts). Nothing is saved when a field is wrong; a refusal comes back under its field, or
 * as the form's (the draft was sent or changed meanwhile).
 */
export async function submitDraftForm(
	userId: string,
	organizationId: string,
	invoiceId: string | null,
	formData: FormData,
	language: string,
): Promise<DraftSubmission> {
	const submission = parseWithZod(formData, { schema: invoiceDraftSchemaIn(language) })
	if (submission.status !== 'success')
		return { kind: 'reply', result: submission.reply(), status: submission.status === 'error' ? 400 : 200 }
	const intent = formData.get('intent') === 'send' ? 'send' : 'save'
	const saved = await saveDraft(userId, organizationId, invoiceId, submission.value)
	if (!saved.ok) {
		const field = FIELD_OF[saved.code]
		if (field) return { kind: 'reply', result: submission.reply({ fieldErrors: { [field]: [saved.code] } }), status: 400 }
		return { kind: 'reply', result: submission.reply(), status: saved.code === 'not_found' ? 404 : 409, refusal: saved.code }
	}
	const id = saved.value
	if (intent === 'save') return { kind: 'saved', id }
	const sent = await sendInvoice(userId, organizationId, id)
	if (!sent.ok) return { kind: 'sendRefused', id, code: sent.code }
	const mailed = await mailInvoice(userId, organizationId, id, sent.token)
	const email = await asUser(userId, (trx) =>
		trx
			.selectFrom('invoices')
			.select('bill_to_email')
			.where('id', '=', id)
			.where('organization_id', '=', organizationId)
			.executeTakeFirst(),
	)
	return { kind: 'sent', id, number: sent.number, mailed: mailed.sent, email: email?.bill_to_email?.trim() || null }
}

/**
 * The answer to a post of the draft form: the form again (with its status), or the draft's page
 * with a toast: saved; sent, with or without its mail; or saved but not sent, and why.
 */
export function answerDraftSubmission(outcome: DraftSubmission) {
	switch (outcome.kind) {
		case 'reply':
			return data({ result: outcome.result, refusal: outcome.refusal }, { status: outcome.status })
		case 'saved':
			return redirectWithToast(`/app/invoices/${outcome.id}`, { type: 'success', title: 'invoices:toast.saved' })
		case 'sendRefused':
			return redirectWithToast(`/app/invoices/${outcome.id}`, {
				type: 'error',
				title: 'invoices:toast.notSent',
				description: `invoices:sendRefusals.${outcome.code}`,
			})
		case 'sent':
			return redirectWithToast(
				`/app/invoices/${outcome.id}`,
				outcome.mailed && outcome.email
					? {
							type: 'success',
							title: 'invoices:toast.sent',
							description: 'invoices:toast.mailed',
							values: { number: String(outcome.number), email: outcome.email },
						}
					: {
							type: 'info',
							title: 'invoices:toast.sent',
							description: 'invoices:toast.notMailed',
							values: { number: String(outcome.number) },
						},
			)
	}
}
