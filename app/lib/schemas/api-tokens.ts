import { z } from 'zod'
import { CONTROL_CHARACTERS, SINGLE_LINE } from './fields.ts'

/** What a personal API token may read (docs/api.md). */
export const API_SCOPES = ['payments:read', 'clients:read'] as const
export type ApiScope = (typeof API_SCOPES)[number]

/** The form that makes a token; messages are keys under settings:apiTokens.errors. */
export const createTokenSchema = z.object({
	name: z.string({ error: 'nameRequired' }).trim().min(1, 'nameRequired').max(100, 'nameTooLong').regex(SINGLE_LINE, CONTROL_CHARACTERS),
	scopes: z
		.array(z.enum(API_SCOPES, { error: 'scopesRequired' }), { error: 'scopesRequired' })
		.min(1, 'scopesRequired')
		.max(2),
})
