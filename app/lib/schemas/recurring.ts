import { z } from 'zod'
import { isValidDate } from '#app/lib/dates.ts'
import { supportedLanguages } from '#app/lib/i18n.ts'
import { invoiceTotals, MAX_INVOICE_LINES } from '#app/lib/invoices.ts'
import { bothAmountWritings } from '#app/lib/schemas/fields.ts'
import { filled, lineSchema, MAX_UNIT_PRICE, optionalText, parseQuantity, parseTaxRate } from '#app/lib/schemas/invoices.ts'
import { parseAmount } from '#app/lib/schemas/transactions.ts'

/**
 * The recurring invoice form (docs/product.md, Recurring invoices), shared by the browser (conform)
 * and the action: the client, language, cadence, first date, how it ends, days until due, discount,
 * tax, notes and the lines, with amounts read as the page's language writes them. Messages are keys
 * under recurring:errors (the lines' and amounts' are the invoice form's codes, which recurring.json
 * repeats). The limits are the database's (supabase/migrations/20261207200000_recurring_invoices.sql).
 */

export const CADENCES = ['weekly', 'monthly', 'yearly'] as const
export type Cadence = (typeof CADENCES)[number]

/** How a schedule ends: never, after an end date, or once it made a number of invoices. */
export const ENDINGS = ['never', 'onDate', 'afterCount'] as const
export type Ending = (typeof ENDINGS)[number]

/** The most invoices a schedule may be told to make, and the longest "days until due" (the table's checks). */
export const MAX_COUNT = 1000
export const MAX_DUE_DAYS = 365

type Parsed = { ok: true; value: string } | { ok: false; error: string }

function parsePrice(input: string, dotGroups: boolean): Parsed {
	const amount = parseAmount(input, { dotGroups })
	if (!amount.ok) return amount
	if (Number(amount.value) > MAX_UNIT_PRICE) return { ok: false, error: 'amountTooLarge' }
	return amount
}

/** A whole number as typed, within [min, max]; null when it is not one. */
function wholeNumber(input: string | undefined, min: number, max: number): number | null {
	const text = (input ?? '').trim()
	if (!/^\d{1,6}$/.test(text)) return null
	const value = Number(text)
	return value >= min && value <= max ? value : null
}

function recurringSchemaFor(dotGroups: boolean) {
	return z
		.object({
			/** The client the schedule had (its id), kept when the typed name is still theirs. */
			clientId: z.uuid({ error: 'clientNotFound' }).optional(),
			/** The client as typed: a name, or "Name <email>" for namesakes. */
			client: optionalText(300, 'clientNotFound'),
			language: z.enum(supportedLanguages, { error: 'languageInvalid' }),
			cadence: z.enum(CADENCES, { error: 'cadenceInvalid' }),
			startDate: z.string({ error: 'startDateRequired' }).trim().refine(isValidDate, 'dateInvalid'),
			ends: z.enum(ENDINGS, { error: 'endsInvalid' }),
			endDate: z.string().trim().optional(),
			count: z.string().trim().max(10, 'countInvalid').optional(),
			daysUntilDue: z.string({ error: 'dueDaysInvalid' }).trim().max(10, 'dueDaysInvalid'),
			discount: z.string().max(40, 'amountInvalid').optional(),
			taxRate: z.string().max(20, 'taxInvalid').optional(),
			notes: optionalText(2000, 'notesTooLong', { multiLine: true }),
			lines: z.array(lineSchema).max(MAX_INVOICE_LINES, 'tooManyLines').optional(),
		})
		.superRefine((form, ctx) => {
			if (!form.client) ctx.addIssue({ code: 'custom', message: 'clientRequired', path: ['client'] })
			if (form.ends === 'onDate') {
				if (!form.endDate) ctx.addIssue({ code: 'custom', message: 'endDateRequired', path: ['endDate'] })
				else if (!isValidDate(form.endDate)) ctx.addIssue({ code: 'custom', message: 'dateInvalid', path: ['endDate'] })
				else if (isValidDate(form.startDate) && form.endDate < form.startDate)
					ctx.addIssue({ code: 'custom', message: 'endBeforeStart', path: ['endDate'] })
			}
			if (form.ends === 'afterCount' && wholeNumber(form.count, 1, MAX_COUNT) === null)
				ctx.addIssue({ code: 'custom', message: form.count ? 'countInvalid' : 'countRequired', path: ['count'] })
			if (wholeNumber(form.daysUntilDue, 0, MAX_DUE_DAYS) === null)
				ctx.addIssue({ code: 'custom', message: 'dueDaysInvalid', path: ['daysUntilDue'] })
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
			if (read.length === (form.lines ?? []).filter(filled).length && read.length > 0) {
				const totals = invoiceTotals({
					lines: read,
					discount: discount?.ok ? discount.value : '0',
					taxRate: tax?.ok ? tax.value : '0',
				})
				if (!totals.valid) ctx.addIssue({ code: 'custom', message: 'discountTooLarge', path: ['discount'] })
				else if (Number(totals.total) <= 0) ctx.addIssue({ code: 'custom', message: 'totalZero', path: ['lines'] })
			}
		})
		.transform((form) => ({
			clientId: form.clientId ?? null,
			client: form.client ?? '',
			language: form.language,
			cadence: form.cadence,
			startDate: form.startDate,
			endDate: form.ends === 'onDate' ? form.endDate! : null,
			maxCount: form.ends === 'afterCount' ? wholeNumber(form.count, 1, MAX_COUNT)! : null,
			daysUntilDue: wholeNumber(form.daysUntilDue, 0, MAX_DUE_DAYS)!,
			discount: form.discount ? (parsePrice(form.discount, dotGroups) as { ok: true; value: string }).value : '0',
			taxRate: form.taxRate ? (parseTaxRate(form.taxRate, { dotGroups }) as { ok: true; value: string }).value : '0',
			notes: form.notes ?? '',
			lines: (form.lines ?? []).filter(filled).map((l) => ({
				description: l.description!,
				quantity: (parseQuantity(l.quantity!, { dotGroups }) as { ok: true; value: string }).value,
				unitPrice: (parsePrice(l.unitPrice!, dotGroups) as { ok: true; value: string }).value,
			})),
		}))
}

const schemas = bothAmountWritings(recurringSchemaFor)

/** The recurring invoice form's schema, amounts read as en writes them. */
export const recurringSchema = schemas.plain

/** The form's schema in a language (the page's). */
export const recurringSchemaIn = schemas.in

export type RecurringValues = z.output<typeof recurringSchema>
