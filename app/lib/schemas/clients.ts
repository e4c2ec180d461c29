import { z } from 'zod'
import { MAX_ROWS_PER_SAVE } from './transactions.ts'

/**
 * The clients table: its URL parameters and the edit-mode form, shared by the browser
 * (conform) and the action. Messages are translation keys under clients:errors.
 */
export const CLIENT_STATUSES = ['active', 'inactive', 'pending'] as const
export type ClientStatus = (typeof CLIENT_STATUSES)[number]

export const CLIENT_SORTS = ['name', 'email', 'phone', 'company', 'status', 'created_at'] as const
export type ClientSort = (typeof CLIENT_SORTS)[number]
export const CLIENT_DEFAULT_SORT = { sort: 'name', dir: 'asc' } as const

/** The same test as the database's check: text, an @, text, a dot and text, no spaces. */
export const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/

const optionalText = (max: number, tooLong: string) => z.string().trim().max(max, tooLong).optional()

export const clientRowSchema = z
	.object({
		id: z.uuid({ error: 'rowInvalid' }).optional(),
		version: z.string().regex(/^\d{1,20}$/, 'rowInvalid').optional(),
		fingerprint: z.string().max(64, 'rowInvalid').optional(),
		name: optionalText(200, 'nameTooLong'),
		email: optionalText(254, 'emailTooLong'),
		phone: optionalText(40, 'phoneTooLong'),
		company: optionalText(200, 'companyTooLong'),
		status: z.enum(CLIENT_STATUSES, { error: 'statusInvalid' }),
		deleted: z.boolean().optional(),
	})
	.superRefine((row, ctx) => {
		if (row.id && !row.version) ctx.addIssue({ code: 'custom', message: 'rowInvalid', path: ['id'] })
		if (row.deleted) return
		if (!row.name) ctx.addIssue({ code: 'custom', message: 'nameRequired', path: ['name'] })
		if (row.email && !EMAIL_PATTERN.test(row.email)) ctx.addIssue({ code: 'custom', message: 'emailInvalid', path: ['email'] })
	})
	.transform((row) => ({
		id: row.id ?? null,
		version: row.version ?? null,
		fingerprint: row.fingerprint ?? null,
		name: row.name ?? '',
		// SPEC §5: empty email, phone and company are stored as null.
		email: row.email || null,
		phone: row.phone || null,
		company: row.company || null,
		status: row.status,
		deleted: row.deleted ?? false,
	}))

export type ClientRowInput = z.output<typeof clientRowSchema>

export const clientsSaveSchema = z.object({
	rows: z.array(clientRowSchema).max(MAX_ROWS_PER_SAVE, 'tooManyRows').default([]),
})

/** A new client's values (SPEC §5): an empty name, status active. */
export function newClientRow() {
	return { name: '', email: '', phone: '', company: '', status: 'active' }
}
