import { z } from 'zod'
import { EVERY_ROW_ERROR, metaOf, rowList, rowMeta } from '../editable-rows.ts'
import { CONTROL_CHARACTERS, isSingleLine, PHONE } from './fields.ts'

/**
 * The clients table: its URL parameters and the edit-mode form, shared by the browser
 * (conform) and the action. Messages are translation keys under clients:errors.
 */
export const CLIENT_STATUSES = ['active', 'inactive', 'pending'] as const
export type ClientStatus = (typeof CLIENT_STATUSES)[number]

export const CLIENT_SORTS = ['name', 'email', 'phone', 'company', 'status', 'created_at'] as const
export type ClientSort = (typeof CLIENT_SORTS)[number]
export const CLIENT_DEFAULT_SORT = { sort: 'name', dir: 'asc' } as const

/** A client the transactions' client cell offers; `value` is what picking it types in the cell. */
export type ClientChoice = { id: string; name: string; email: string | null; value: string }

/** The same test as the database's check: text, an @, text, a dot and text, no spaces. */
export const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/

const optionalText = (max: number, tooLong: string) => z.string().trim().max(max, tooLong).optional()

export const clientRowSchema = z
	.object({
		...rowMeta,
		name: optionalText(200, 'nameTooLong'),
		email: optionalText(254, 'emailTooLong'),
		phone: optionalText(40, 'phoneTooLong'),
		company: optionalText(200, 'companyTooLong'),
		status: z.enum(CLIENT_STATUSES, { error: 'statusInvalid' }),
	})
	.superRefine((row, ctx) => {
		if (row.id && !row.version) ctx.addIssue({ code: 'custom', message: 'rowInvalid', path: ['id'] })
		if (row.deleted) return
		if (!row.name) ctx.addIssue({ code: 'custom', message: 'nameRequired', path: ['name'] })
		else if (!isSingleLine(row.name)) ctx.addIssue({ code: 'custom', message: CONTROL_CHARACTERS, path: ['name'] })
		if (typeof row.email === 'string' && row.email && (!EMAIL_PATTERN.test(row.email) || !isSingleLine(row.email))) {
			ctx.addIssue({ code: 'custom', message: 'emailInvalid', path: ['email'] })
		}
		// One line of plain text (fields.ts): a name or company is written into mails and calendar files.
		if (row.company && !isSingleLine(row.company)) ctx.addIssue({ code: 'custom', message: CONTROL_CHARACTERS, path: ['company'] })
		// A new row's phone is checked here, with the other fields; a saved row's only when it
		// changes, which the save knows (app/.server/payments/clients.ts: one saved before the rule stays).
		if (!row.id && row.phone && !PHONE.test(row.phone)) ctx.addIssue({ code: 'custom', message: 'phoneInvalid', path: ['phone'] })
	}, EVERY_ROW_ERROR)
	.transform((row) => ({
		...metaOf(row),
		name: row.name ?? '',
		// Empty email, phone and company are stored as null.
		email: row.email || null,
		phone: row.phone || null,
		company: row.company || null,
		status: row.status,
	}))

export type ClientRowInput = z.output<typeof clientRowSchema>

export const clientsSaveSchema = z.object({ rows: rowList(clientRowSchema) })

/** A new client's values: an empty name, status active. */
export function newClientRow() {
	return { name: '', email: '', phone: '', company: '', status: 'active' }
}
