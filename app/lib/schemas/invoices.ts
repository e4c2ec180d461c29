import { z } from 'zod'
import { isValidDate } from '#app/lib/dates.ts'
import { supportedLanguages } from '#app/lib/i18n.ts'
import { invoiceTotals, MAX_INVOICE_LINES } from '#app/lib/invoices.ts'
import {
	bothAmountWritings,
	CONTROL_CHARACTERS,
	CONTROL_CHARACTERS_IN_TEXT,
	MULTI_LINE,
	SINGLE_LINE,
	toDotDecimal,
} from '#app/lib/schemas/fields.ts'
import { parseAmount } from '#app/lib/schemas/transactions.ts'

/**
 * The invoice draft form (docs/product.md, Invoicing), shared by the browser (conform) and the
 * action: the client, language, dates, discount, tax, notes and the lines, with amounts read as
 * the page's language writes them. Messages are keys under invoices:errors. The limits are the
 * database's (supabase/migrations/20261206010000_invoices.sql), so what passes here saves.
 */

/** The largest unit price and quantity of a line (invoice_lines' checks). */
export const MAX_UNIT_PRICE = 10_000_000
export const MAX_QUANTITY = 1_000_000

type Parsed = { ok: true; value: string } | { ok: false; error: string }

/** A quantity as typed: more than 0, at most MAX_QUANTITY, up to 3 decimals ("1,5" in es and pt-BR). */
export function parseQuantity(input: string, { dotGroups = false } = {}): Parsed {
	const text = toDotDecimal(input.trim(), { dotGroups })
	if (text.startsWith('-')) return { ok: false, error: 'quantityPositive' }
	const match = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/.exec(text)
	if (!match) return { ok: false, error: 'quantityInvalid' }
	const fraction = match[2] ?? match[3] ?? ''
	if (fraction.length > 3) return { ok: false, error: 'quantityDecimals' }
	const value = Number(`${match[1] ?? '0'}.${fraction || '0'}`)
	if (value <= 0) return { ok: false, error: 'quantityPositive' }
	if (value > MAX_QUANTITY) return { ok: false, error: 'quantityTooLarge' }
	return { ok: true, value: String(value) }
}

/** A tax rate as typed: a percentage from 0 to 100, up to 2 decimals ("8,25" in es and pt-BR); "%" may follow. */
export function parseTaxRate(input: string, { dotGroups = false } = {}): Parsed {
	const text = toDotDecimal(input.replace(/\s*%\s*$/, '').trim(), { dotGroups })
	if (!/^\d+(\.\d*)?$|^\.\d+$/.test(text)) return { ok: false, error: 'taxInvalid' }
	if ((text.split('.')[1] ?? '').length > 2) return { ok: false, error: 'taxDecimals' }
	const value = Number(text)
	if (value > 100) return { ok: false, error: 'taxTooLarge' }
	return { ok: true, value: String(value) }
}

/** A unit price or the discount: an amount (parseAmount's rules), at most MAX_UNIT_PRICE. */
function parsePrice(input: string, dotGroups: boolean): Parsed {
	const amount = parseAmount(input, { dotGroups })
	if (!amount.ok) return amount
	if (Number(amount.value) > MAX_UNIT_PRICE) return { ok: false, error: 'amountTooLarge' }
	return amount
}

/** Optional text of at most `max` characters, without control characters (line breaks only when multi-line). */
export const optionalText = (max: number, tooLong: string, { multiLine = false } = {}) =>
	z
		.string()
		.trim()
		.max(max, tooLong)
		.regex(multiLine ? MULTI_LINE : SINGLE_LINE, multiLine ? CONTROL_CHARACTERS_IN_TEXT : CONTROL_CHARACTERS)
		.optional()

/** Whether a posted line holds anything but its quantity: a line without a description or a price is left out. */
export const filled = (line: { description?: string; unitPrice?: string }) => Boolean(line.description || line.unitPrice)

/** A line as posted: every field may be missing (a blank line is left out; a half-filled one says what it lacks). */
export const lineSchema = z.object({
	description: optionalText(500, 'descriptionTooLong'),
	quantity: z.string().max(40, 'quantityInvalid').optional(),
	unitPrice: z.string().max(40, 'amountInvalid').optional(),
})

function invoiceSchemaFor(dotGroups: boolean) {
	return z
		.object({
			/** The draft's updated_at (microseconds) when the form was loaded: a save refuses to overwrite a newer one. */
			version: z
				.string()
				.regex(/^\d{1,20}$/, 'staleDraft')
				.optional(),
			/** The client the draft had (its id), kept when the typed name is still theirs. */
			clientId: z.uuid({ error: 'clientNotFound' }).optional(),
			/** The client as typed: a name, or "Name <email>" for namesakes (the suggestions' values). */
			client: optionalText(300, 'clientNotFound'),
			language: z.enum(supportedLanguages, { error: 'languageInvalid' }),
			issueDate: z.string({ error: 'issueDateRequired' }).trim().refine(isValidDate, 'dateInvalid'),
			dueDate: z.string({ error: 'dueDateRequired' }).trim().refine(isValidDate, 'dateInvalid'),
			discount: z.string().max(40, 'amountInvalid').optional(),
			taxRate: z.string().max(20, 'taxInvalid').optional(),
			notes: optionalText(2000, 'notesTooLong', { multiLine: true }),
			lines: z.array(lineSchema).max(MAX_INVOICE_LINES, 'tooManyLines').optional(),
		})
		.superRefine((form, ctx) => {
			if (form.issueDate && form.dueDate && isValidDate(form.issueDate) && isValidDate(form.dueDate) && form.dueDate < form.issueDate)
				ctx.addIssue({ code: 'custom', message: 'dueBeforeIssue', path: ['dueDate'] })
			const discount = form.discount ? parsePrice(form.discount, dotGroups) : null
			if (discount && !discount.ok) ctx.addIssue({ code: 'custom', message: discount.error, path: ['discount'] })
			const tax = form.taxRate ? parseTaxRate(form.taxRate, { dotGroups }) : null
			if (tax && !tax.ok) ctx.addIssue({ code: 'custom', message: tax.error, path: ['taxRate'] })
			const read: Array<{ quantity: string; unitPrice: string }> = []
			for (const [index, line] of (form.lines ?? []).entries()) {
				if (!filled(line)) continue
				const path = (field: string) => ['lines', index, field]
				if (!line.description) ctx.addIssue({ code: 'custom', message: 'descriptionRequired', path: path('description') })
				const quantity = line.quantity ? parseQuantity(line.quantity, { dotGroups }) : null
				if (!quantity) ctx.addIssue({ code: 'custom', message: 'quantityRequired', path: path('quantity') })
				else if (!quantity.ok) ctx.addIssue({ code: 'custom', message: quantity.error, path: path('quantity') })
				const price = line.unitPrice ? parsePrice(line.unitPrice, dotGroups) : null
				if (!price) ctx.addIssue({ code: 'custom', message: 'amountRequired', path: path('unitPrice') })
				else if (!price.ok) ctx.addIssue({ code: 'custom', message: price.error, path: path('unitPrice') })
				if (quantity?.ok && price?.ok) read.push({ quantity: quantity.value, unitPrice: price.value })
			}
			if (!(form.lines ?? []).some(filled)) ctx.addIssue({ code: 'custom', message: 'linesRequired', path: ['lines'] })
			if (discount?.ok && read.length === (form.lines ?? []).filter(filled).length) {
				const totals = invoiceTotals({ lines: read, discount: discount.value, taxRate: '0' })
				if (!totals.valid) ctx.addIssue({ code: 'custom', message: 'discountTooLarge', path: ['discount'] })
			}
		})
		.transform((form) => ({
			version: form.version ?? null,
			clientId: form.clientId ?? null,
			client: form.client ?? '',
			language: form.language,
			issueDate: form.issueDate,
			dueDate: form.dueDate,
			discount: form.discount ? (parsePrice(form.discount, dotGroups) as { ok: true; value: string }).value : '0.00',
			taxRate: form.taxRate ? (parseTaxRate(form.taxRate, { dotGroups }) as { ok: true; value: string }).value : '0',
			notes: form.notes ?? '',
			lines: (form.lines ?? []).filter(filled).map((l) => ({
				description: l.description!,
				quantity: (parseQuantity(l.quantity!, { dotGroups }) as { ok: true; value: string }).value,
				unitPrice: (parsePrice(l.unitPrice!, dotGroups) as { ok: true; value: string }).value,
			})),
		}))
}

const schemas = bothAmountWritings(invoiceSchemaFor)

/** The draft form's schema, amounts read as en writes them. */
export const invoiceDraftSchema = schemas.plain

/** The draft form's schema in a language (the page's). */
export const invoiceDraftSchemaIn = schemas.in

export type InvoiceDraftValues = z.output<typeof invoiceDraftSchema>

/** A line as the form holds it (text, as typed). */
export type InvoiceLineText = { description: string; quantity: string; unitPrice: string }

/** A new line of the form: nothing typed yet but a quantity of 1. */
export const BLANK_LINE: InvoiceLineText = { description: '', quantity: '1', unitPrice: '' }
