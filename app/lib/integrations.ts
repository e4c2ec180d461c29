/** The mailbox integrations of the email upgrade (docs/product.md, Integrations). */

/** The upgrade whose dialog and card offer the mailbox connectors. */
export const MAIL_UPGRADE_NAME = 'P2P Tracking - Email'

export const INTEGRATION_PROVIDERS = ['imap', 'gmail'] as const
export type IntegrationProvider = (typeof INTEGRATION_PROVIDERS)[number]

/** The scope stored with each provider's connection: read-only in both cases. */
export const PROVIDER_SCOPES: Record<IntegrationProvider, string> = {
	imap: 'imap:read-only',
	gmail: 'https://www.googleapis.com/auth/gmail.readonly',
}

/** What a failed connection check says, each with a translated message. */
export const CHECK_FAILURES = ['auth', 'unreachable', 'timeout', 'tls', 'protocol'] as const
export type CheckFailure = (typeof CHECK_FAILURES)[number]

/** Why an email sync run failed: a check failure of the mailbox, or the sync's own trouble. */
export const SYNC_FAILURES = [...CHECK_FAILURES, 'internal'] as const
export type SyncFailure = (typeof SYNC_FAILURES)[number]
