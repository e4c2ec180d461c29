import { z } from 'zod'
import { CONTROL_CHARACTERS, CONTROL_CHARACTERS_IN_TEXT, MULTI_LINE, PHONE, SINGLE_LINE } from '#app/lib/schemas/fields.ts'

/**
 * The public details form (docs/product.md, Public booking). Messages are translation keys under
 * book:errors. Name: required, whitespace alone counts as empty. Email: text, an @, text, a dot
 * and text. Phone: written as a phone number (PHONE), required only when the organization
 * requires it. Notes may span lines; the other fields are one line without control characters
 * (fields.ts). The limits are the database's (create_booking).
 */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const optionalText = (max: number, message: string) =>
	z.preprocess((v) => (typeof v === 'string' ? v.trim() || undefined : v), z.string().max(max, message).optional())

export const contactSchema = z.object({
	name: z.preprocess(
		(v) => (typeof v === 'string' ? v.trim() : v),
		z.string({ error: 'nameRequired' }).min(1, 'nameRequired').max(120, 'nameTooLong').regex(SINGLE_LINE, CONTROL_CHARACTERS),
	),
	email: z.preprocess(
		(v) => (typeof v === 'string' ? v.trim() : v),
		z
			.string({ error: 'emailRequired' })
			.min(1, 'emailRequired')
			.max(254, 'emailInvalid')
			.regex(EMAIL, 'emailInvalid')
			.regex(SINGLE_LINE, 'emailInvalid'),
	),
	phone: optionalText(40, 'phoneTooLong').refine((v) => v === undefined || PHONE.test(v), 'phoneInvalid'),
	notes: optionalText(2000, 'notesTooLong').refine((v) => v === undefined || MULTI_LINE.test(v), CONTROL_CHARACTERS_IN_TEXT),
	createAccount: z.preprocess((v) => v === 'on' || v === true, z.boolean()).optional(),
})
export type ContactValues = z.infer<typeof contactSchema>

/** The form with the organization's phone rule (a field rule, so it shows with the others). */
export function contactFormSchema(requirePhone: boolean) {
	if (!requirePhone) return contactSchema
	return contactSchema.extend({
		phone: z.preprocess(
			(v) => (typeof v === 'string' ? v.trim() : v),
			z.string({ error: 'phoneRequired' }).min(1, 'phoneRequired').max(40, 'phoneTooLong').regex(PHONE, 'phoneInvalid'),
		),
	})
}
