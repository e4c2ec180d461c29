/** The mailbox integrations of the email upgrade (docs/product.md, Integrations). */

export const INTEGRATION_PROVIDERS = ['imap', 'gmail'] as const
export type IntegrationProvider = (typeof INTEGRATION_PROVIDERS)[number]

/** The scope stored with each provider's connection: read-only in both cases. */
export const PROVIDER_SCOPES: Record<IntegrationProvider, string> = {
	imap: 'imap:read-only',
	gmail: 'https://www.googleapis.com/auth/gmail.readonly',
}

/**
 * What a failed connection check says, each with a translated message. `unreachable` covers
 * everything that goes wrong before the server's IMAP greeting (an unknown or private host, a
 * closed port, another service on the port, a failed TLS handshake, no greeting in time), so
 * the answer never tells an open port from a closed one; the others happen after the greeting:
 * `auth` a refused login, `timeout` the deadline passed, `tls` STARTTLS failed, `protocol` an
 * answer that could not be used (or past a size cap).
 */
export const CHECK_FAILURES = ['auth', 'unreachable', 'timeout', 'tls', 'protocol'] as const
export type CheckFailure = (typeof CHECK_FAILURES)[number]

/** Why an email sync run failed: a check failure of the mailbox, or the sync's own trouble. */
export const SYNC_FAILURES = [...CHECK_FAILURES, 'internal'] as const
export type SyncFailure = (typeof SYNC_FAILURES)[number]
