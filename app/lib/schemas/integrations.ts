import { z } from 'zod'
// No control characters (fields.ts; a NUL byte cannot even be stored in PostgreSQL text).
import { SINGLE_LINE as NO_CONTROL } from './fields.ts'

/**
 * The IMAP connect form (docs/product.md, Integrations). The host is a DNS name or an IP
 * address; the password is an app password, never shown again.
 */
export const imapConnectSchema = z.object({
	intent: z.literal('connectImap'),
	host: z
		.string({ error: 'integrations.errors.hostRequired' })
		.trim()
		.max(253, 'integrations.errors.hostInvalid')
		.regex(
			/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$|^\[?[0-9a-f:.]+\]?$/i,
			'integrations.errors.hostInvalid',
		),
	port: z.coerce
		.number({ error: 'integrations.errors.portInvalid' })
		.int('integrations.errors.portInvalid')
		.min(1, 'integrations.errors.portInvalid')
		.max(65535, 'integrations.errors.portInvalid'),
	tls: z.boolean().optional(),
	user: z
		.string({ error: 'integrations.errors.userRequired' })
		.trim()
		.max(320, 'integrations.errors.userTooLong')
		.regex(NO_CONTROL, 'integrations.errors.userInvalid'),
	password: z
		.string({ error: 'integrations.errors.passwordRequired' })
		.max(1000, 'integrations.errors.passwordTooLong')
		.regex(NO_CONTROL, 'integrations.errors.passwordInvalid'),
})

export type ImapConnectInput = z.infer<typeof imapConnectSchema>

/** The integration card's other buttons: connect with Google, refresh, disconnect. */
export const integrationActionSchema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('connectGoogle') }),
	z.object({ intent: z.literal('refreshIntegration'), credentialId: z.uuid() }),
	z.object({ intent: z.literal('disconnectIntegration'), credentialId: z.uuid() }),
])

export const INTEGRATION_INTENTS = ['connectImap', 'connectGoogle', 'refreshIntegration', 'disconnectIntegration'] as const
