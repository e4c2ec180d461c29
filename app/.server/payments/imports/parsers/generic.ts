import { z } from 'zod'
import { PAYMENT_METHODS } from '#app/lib/schemas/transactions.ts'
import { headerIndex, normalizeHeader, paymentRow, rowReader, type ParsedRow, type Rec } from './common.ts'

/**
 * Any other CSV: the user names, once, which header holds the date, the amount, the payer and
 * optionally the external id and the description, which payment method the file's rows are,
 * and whether its dates are written month or day first. The mapping is saved per organization under the file's header signature and offered
 * the next time a file with the same headers comes.
 */
export const genericMappingSchema = z.object({
	date: z.string().trim().min(1).max(200),
	amount: z.string().trim().min(1).max(200),
	payer: z.string().trim().min(1).max(200),
	externalId: z.string().trim().max(200).optional().default(''),
	description: z.string().trim().max(200).optional().default(''),
	method: z.enum(PAYMENT_METHODS).default('Other'),
	/** 03/04/2026: March 4 (mdy, the United States) or 3 April (dmy). */
	dateOrder: z.enum(['mdy', 'dmy']).default('mdy'),
})
export type GenericMapping = z.output<typeof genericMappingSchema>

/** The signature a mapping is saved under: the header's names, normalised, in file order. */
export function headerSignature(header: string[]) {
	return header.map(normalizeHeader).join('|').slice(0, 2000)
}

/** Whether every column the mapping names is in the header. */
export function mappingFits(header: string[], mapping: GenericMapping) {
	const index = headerIndex(header)
	return [mapping.date, mapping.amount, mapping.payer, mapping.externalId, mapping.description]
		.filter(Boolean)
		.every((name) => index.has(normalizeHeader(name)))
}

export function parseGeneric(header: string[], records: Rec[], mapping: GenericMapping): ParsedRow[] {
	const get = rowReader(header)
	const col = (fields: string[], name: string) => (name ? get(fields, normalizeHeader(name)) : '')
	return records.map(({ fields, line }) =>
		paymentRow(
			line,
			{
				date: col(fields, mapping.date),
				amount: col(fields, mapping.amount),
				payer: col(fields, mapping.payer),
				externalId: col(fields, mapping.externalId),
				description: col(fields, mapping.description),
			},
			{ method: mapping.method, provider: 'csv', dateOrder: mapping.dateOrder },
		),
	)
}
