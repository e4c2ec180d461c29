/**
 * Mailbox connections of the email upgrade (docs/product.md, Integrations). An IMAP mailbox is
 * saved only after logging in to it succeeded; its app password (and a Google connection's
 * tokens, app/.server/gmail.ts) is sealed (app/.server/secrets.ts) before it reaches the
 * database, kept in private.integration_tokens, opened only here, and deleted on disconnect.
 * Changes go through the owner-only SQL functions of migration 20261123003000_integrations.sql.
 */
import { ImapFlow } from 'imapflow'
import { asSystem, asUser, dbErrorCode, sql } from './db/index.ts'
import { open, seal } from './secrets.ts'
import { PROVIDER_SCOPES, type CheckFailure, type IntegrationProvider } from '#app/lib/integrations.ts'

export type ImapSettings = { host: string; port: number; tls: boolean; user: string }
export type ImapAccess = ImapSettings & { password: string }

export type CheckResult = { ok: true } | { ok: false; failure: CheckFailure }

/** How long a login check may take at most: connecting, the greeting, then each answer. */
const TIMEOUTS = { connectionTimeout: 8_000, greetingTimeout: 5_000, socketTimeout: 10_000 }

/** The imapflow options of a mailbox (read-only use is up to the caller: open with readOnly). */
export function imapClientOptions(access: ImapAccess) {
	return {
		host: access.host,
		port: access.port,
		secure: access.tls,
		auth: { user: access.user, pass: access.password },
		logger: false as const,
		// A short wait: an unreachable host must not hold the owner's request for minutes.
		...TIMEOUTS,
	}
}

/** Why a connection attempt failed, in the terms the card shows. */
export function classifyImapError(error: unknown): CheckFailure {
	const e = (error ?? {}) as { authenticationFailed?: boolean; code?: string; message?: string }
	if (e.authenticationFailed) return 'auth'
	const code = String(e.code ?? '')
	if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EADDRNOTAVAIL'].includes(code)) return 'unreachable'
	if (/TIMEOUT|ETIMEDOUT/i.test(code) || /timeout/i.test(e.message ?? '')) return 'timeout'
	if (/SSL|TLS|CERT|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code) || /ssl|tls|certificate/i.test(e.message ?? '')) return 'tls'
	return 'protocol'
}

/** Logs in to the mailbox and out again: whether these settings work, and if not, why. */
export async function checkImapLogin(access: ImapAccess): Promise<CheckResult> {
	const client = new ImapFlow(imapClientOptions(access))
	// imapflow also reports socket errors as events; without a listener they would be thrown.
	client.on('error', () => undefined)
	try {
		await client.connect()
		await client.logout().catch(() => undefined)
		return { ok: true }
	} catch (error) {
		client.close()
		return { ok: false, failure: classifyImapError(error) }
	}
}

export type IntegrationChange = { ok: true; provider?: string } | { ok: false; code: string }

function refusal(error: unknown): IntegrationChange {
	const code = dbErrorCode(error)
	if (!code || !/^[a-z_]+$/.test(code)) throw error
	return { ok: false, code }
}

/** Saves a connection through connect_integration; secrets are sealed for this organization. */
export async function saveConnection(
	userId: string,
	organizationId: string,
	upgradeId: string,
	connection: {
		provider: IntegrationProvider
		account: string
		settings?: ImapSettings
		password?: string
		accessToken?: string
		refreshToken?: string | null
		expiresAt?: Date | null
	},
): Promise<IntegrationChange> {
	const sealIf = (value: string | null | undefined) => (value ? seal(value, organizationId) : null)
	const secrets = {
		settings: connection.settings ?? null,
		password: sealIf(connection.password),
		access_token: sealIf(connection.accessToken),
		refresh_token: sealIf(connection.refreshToken),
		expires_at: connection.expiresAt ? connection.expiresAt.toISOString() : null,
	}
	try {
		await asUser(userId, (trx) =>
			sql`select public.connect_integration(${organizationId}, ${upgradeId}, ${connection.provider},
				${PROVIDER_SCOPES[connection.provider]}, ${connection.account}, ${JSON.stringify(secrets)}::jsonb)`.execute(trx),
		)
		return { ok: true, provider: connection.provider }
	} catch (error) {
		return refusal(error)
	}
}

/**
 * Connects an IMAP mailbox: logs in first (a wrong password or an unreachable host is refused
 * and nothing is stored), then saves it.
 */
export async function connectImap(userId: string, organizationId: string, upgradeId: string, access: ImapAccess): Promise<CheckResult | IntegrationChange> {
	// Only an owner gets the server to log in anywhere (connect_integration checks again).
	if (!(await isOwnerOf(userId, organizationId))) return { ok: false, code: 'not_owner' }
	const check = await checkImapLogin(access)
	if (!check.ok) return check
	const { password, ...settings } = access
	return saveConnection(userId, organizationId, upgradeId, { provider: 'imap', account: access.user, settings, password })
}

async function isOwnerOf(userId: string, organizationId: string) {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_members')
			.select('role')
			.where('organization_id', '=', organizationId)
			.where('user_id', '=', userId)
			.executeTakeFirst(),
	)
	return row?.role === 'owner'
}

export type StoredSecrets = {
	credentialId: string
	organizationId: string
	provider: string
	settings: ImapSettings | null
	password: string | null
	accessToken: string | null
	refreshToken: string | null
	expiresAt: Date | null
}

/**
 * The opened secrets of a connected credential of the organization, for the server only (a
 * login check, a sync run). Null when there is no such connected credential.
 */
export async function readSecrets(organizationId: string, credentialId: string): Promise<StoredSecrets | null> {
	const row = await asSystem(async (trx) => {
		const { rows } = await sql<{
			provider: string
			settings: ImapSettings | null
			password: string | null
			access_token: string | null
			refresh_token: string | null
			expires_at: Date | string | null
		}>`
			select c.provider, t.settings, t.password, t.access_token, t.refresh_token, t.expires_at
			from public.integration_credentials c
			join private.integration_tokens t on t.credential_id = c.id
			where c.id = ${credentialId} and c.organization_id = ${organizationId} and c.status = 'connected'`.execute(trx)
		return rows[0]
	})
	if (!row) return null
	const openIf = (value: string | null) => (value ? open(value, organizationId) : null)
	return {
		credentialId,
		organizationId,
		provider: row.provider,
		settings: row.settings,
		password: openIf(row.password),
		accessToken: openIf(row.access_token),
		refreshToken: openIf(row.refresh_token),
		expiresAt: row.expires_at ? new Date(row.expires_at) : null,
	}
}

/** The IMAP access of a connected IMAP credential (what the email sync logs in with). */
export async function imapAccess(organizationId: string, credentialId: string): Promise<ImapAccess | null> {
	const secrets = await readSecrets(organizationId, credentialId)
	if (!secrets || secrets.provider !== 'imap' || !secrets.settings || !secrets.password) return null
	return { ...secrets.settings, password: secrets.password }
}

/** Records a check's outcome (null: healthy) through record_integration_check, as the owner. */
export async function recordCheck(userId: string, organizationId: string, credentialId: string, failure: string | null) {
	try {
		await asUser(userId, (trx) => sql`select public.record_integration_check(${organizationId}, ${credentialId}, ${failure})`.execute(trx))
		return { ok: true } as const
	} catch (error) {
		return refusal(error)
	}
}

/**
 * Refresh Status: logs in again with the stored settings and records the outcome. `checkOther`
 * checks providers other than IMAP (app/.server/gmail.ts).
 */
export async function refreshIntegration(
	userId: string,
	organizationId: string,
	credentialId: string,
	checkOther: (secrets: StoredSecrets) => Promise<CheckResult>,
): Promise<IntegrationChange & { check?: CheckResult }> {
	// The caller must be an owner before any secret is opened: recording checks that again.
	const owner = await recordOwnerCheck(userId, organizationId, credentialId)
	if (!owner.ok) return owner
	const secrets = await readSecrets(organizationId, credentialId)
	if (!secrets) return { ok: false, code: 'integration_not_found' }
	const check =
		secrets.provider === 'imap' && secrets.settings && secrets.password
			? await checkImapLogin({ ...secrets.settings, password: secrets.password })
			: await checkOther(secrets)
	const recorded = await recordCheck(userId, organizationId, credentialId, check.ok ? null : check.failure)
	if (!recorded.ok) return recorded
	return { ok: true, provider: secrets.provider, check }
}

/** Whether the user may change this credential (an owner of its organization, and it exists). */
async function recordOwnerCheck(userId: string, organizationId: string, credentialId: string): Promise<IntegrationChange> {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('integration_credentials as c')
			.innerJoin('organization_members as m', (join) => join.onRef('m.organization_id', '=', 'c.organization_id').on('m.user_id', '=', userId))
			.select(['m.role', 'c.status'])
			.where('c.id', '=', credentialId)
			.where('c.organization_id', '=', organizationId)
			.executeTakeFirst(),
	)
	if (!row || row.status !== 'connected') return { ok: false, code: 'integration_not_found' }
	if (row.role !== 'owner') return { ok: false, code: 'not_owner' }
	return { ok: true }
}

/** Disconnect: the status says disconnected and the stored secrets are deleted. */
export async function disconnectIntegration(userId: string, organizationId: string, credentialId: string): Promise<IntegrationChange> {
	try {
		const { rows } = await asUser(userId, (trx) =>
			sql<{ provider: string }>`select public.disconnect_integration(${organizationId}, ${credentialId}) as provider`.execute(trx),
		)
		return { ok: true, provider: rows[0]?.provider }
	} catch (error) {
		return refusal(error)
	}
}

/**
 * For the email sync, which runs without an owner present (a schedule): records the outcome
 * of a run's login on the credential (null: healthy, else a failure code or message).
 */
export async function recordSyncHealth(credentialId: string, failure: string | null) {
	await asSystem((trx) => sql`select private.set_integration_health(${credentialId}, ${failure})`.execute(trx))
}

/** Replaces a connection's OAuth tokens (after a refresh), sealed for its organization. */
export async function storeTokens(
	organizationId: string,
	credentialId: string,
	tokens: { accessToken: string; refreshToken?: string | null; expiresAt: Date | null },
) {
	await asSystem((trx) =>
		sql`update private.integration_tokens t
			set access_token = ${seal(tokens.accessToken, organizationId)},
				refresh_token = coalesce(${tokens.refreshToken ? seal(tokens.refreshToken, organizationId) : null}, t.refresh_token),
				expires_at = ${tokens.expiresAt}, updated_at = now()
			from public.integration_credentials c
			where t.credential_id = ${credentialId} and c.id = t.credential_id and c.organization_id = ${organizationId}`.execute(trx),
	)
}
