/**
 * Mailbox connections of the email upgrade (docs/product.md, Integrations). An IMAP mailbox is
 * saved only after logging in to it succeeded; its app password (and a Google connection's
 * tokens, app/.server/payments/email-sync/gmail.ts) is sealed (app/.server/secrets.ts) before it reaches the
 * database, kept in private.integration_tokens, opened only here, and deleted on disconnect.
 * Changes go through the owner-only SQL functions of migration 20261123003000_integrations.sql.
 * Every IMAP connection (the check here, the sync's reads) goes through `withImapSession`: the
 * outbound policy of app/.server/outbound.ts (a checked address, read caps, one deadline).
 */
import { ImapFlow } from 'imapflow'
import { asSystem, asUser, dbErrorCode, sql } from '../../db/index.ts'
import { env } from '../../env.ts'
import { deadlineSignal, OUTBOUND, OutboundError, resolveHost, withDeadline, type CheckedHost } from '../../outbound.ts'
import { open, seal } from '../../secrets.ts'
import { PROVIDER_SCOPES, type CheckFailure, type IntegrationProvider } from '#app/lib/integrations.ts'

export type ImapSettings = { host: string; port: number; tls: boolean; user: string }
export type ImapAccess = ImapSettings & { password: string }

export type CheckResult = { ok: true } | { ok: false; failure: CheckFailure }

/** The limits of one IMAP connection (app/.server/outbound.ts): its overall deadline, imapflow's timeouts and read caps. */
export type ImapLimits = {
	deadlineMs: number
	lookupMs: number
	connectionTimeout: number
	greetingTimeout: number
	socketTimeout: number
	maxLineLength: number
	maxLiteralSize: number
	maxResponseSize: number
	maxResponseTokens: number
}

/** How long a polite LOGOUT may take before the connection is simply closed. */
const LOGOUT_MS = 2_000

/** Whether IMAP hosts on private addresses are allowed (IMAP_ALLOW_PRIVATE_HOSTS, self-hosted setups). */
export function allowPrivateImapHosts() {
	return env().IMAP_ALLOW_PRIVATE_HOSTS === 'true'
}

/**
 * The imapflow options of a mailbox at an address already checked (outbound.ts resolveHost):
 * the client connects to that address, and TLS still verifies the certificate against the name
 * the owner typed (servername). Read-only use is up to the caller (open with readOnly).
 */
export function imapClientOptions(access: ImapAccess, target: CheckedHost, limits: ImapLimits) {
	return {
		host: target.address,
		port: access.port,
		secure: access.tls,
		...(target.servername ? { servername: target.servername, tls: { servername: target.servername } } : {}),
		auth: { user: access.user, pass: access.password },
		logger: false as const,
		disableAutoIdle: true,
		connectionTimeout: limits.connectionTimeout,
		greetingTimeout: limits.greetingTimeout,
		socketTimeout: limits.socketTimeout,
		maxLineLength: limits.maxLineLength,
		maxLiteralSize: limits.maxLiteralSize,
		maxResponseSize: limits.maxResponseSize,
		maxResponseTokens: limits.maxResponseTokens,
	}
}

/**
 * A failed IMAP session: what the card says, whether the server had greeted (an IMAP server
 * answered), and imapflow's error code (e.g. LiteralTooLarge) when there is one.
 */
export class ImapFailure extends Error {
	constructor(
		readonly failure: CheckFailure,
		readonly greeted: boolean,
		cause?: unknown,
		readonly code: string | null = null,
	) {
		super(`imap: ${failure}`, { cause })
		this.name = 'ImapFailure'
	}
}

const UNREACHABLE_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EADDRNOTAVAIL', 'EPIPE']

/** imapflow's codes for an answer past one of its caps (line, literal, response, tokens). */
export const IMAP_CAP_CODES = ['LineTooLarge', 'LiteralTooLarge', 'ResponseTooLarge', 'TooManyTokens']

/**
 * Why an IMAP session failed, in the terms the card shows. Everything that goes wrong before the
 * server's greeting is 'unreachable': a refused or unknown host, a closed port, a port that
 * answers something else than IMAP, a failed TLS handshake, no greeting in time. One answer for
 * all of them, so the form cannot tell a closed port from an open one (docs/security.md).
 */
export function classifyImapError(error: unknown, greeted: boolean): CheckFailure {
	if (!greeted) return 'unreachable'
	const e = (error ?? {}) as { authenticationFailed?: boolean; code?: string; message?: string }
	if (e.authenticationFailed) return 'auth'
	const code = String(e.code ?? '')
	if (error instanceof OutboundError && error.reason === 'timeout') return 'timeout'
	if (IMAP_CAP_CODES.includes(code)) return 'protocol'
	if (UNREACHABLE_CODES.includes(code)) return 'unreachable'
	if (/TIMEOUT|ETIMEDOUT/i.test(code) || /timeout/i.test(e.message ?? '')) return 'timeout'
	if (/SSL|TLS|CERT|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code) || /ssl|tls|certificate/i.test(e.message ?? '')) return 'tls'
	return 'protocol'
}

/**
 * One IMAP session under the outbound policy: the host resolved once and checked (a private
 * address refused before any packet is sent, unless IMAP_ALLOW_PRIVATE_HOSTS), the connection
 * made to the checked address, imapflow's read caps, and ONE deadline for everything (the
 * lookup, connecting, the greeting, the login and `work`): when it passes, or `signal` fires,
 * the connection is closed and ImapFailure thrown, whatever the server is doing. Logs out (for
 * at most 2 s, within the deadline) and closes in all cases.
 */
export async function withImapSession<T>(
	access: ImapAccess,
	options: { limits: ImapLimits; signal?: AbortSignal; allowPrivate?: boolean },
	work: (client: ImapFlow) => Promise<T>,
): Promise<T> {
	const { limits } = options
	const deadline = deadlineSignal(limits.deadlineMs, options.signal)
	let target: CheckedHost
	try {
		target = await resolveHost(access.host, {
			allowPrivate: options.allowPrivate ?? allowPrivateImapHosts(),
			timeoutMs: limits.lookupMs,
			signal: deadline,
		})
	} catch (error) {
		throw new ImapFailure('unreachable', false, error)
	}
	const client = new ImapFlow(imapClientOptions(access, target, limits))
	// imapflow also reports socket errors as events (a cap exceeded among them); without a
	// listener they would be thrown. A pending command may fail with a plainer "connection closed".
	let reported: unknown = null
	client.on('error', (error: unknown) => (reported ??= error))
	const greeted = () => client.greeting !== undefined || Boolean(client.authenticated)
	const close = () => client.close()
	deadline.addEventListener('abort', close, { once: true })
	try {
		if (deadline.aborted) throw new OutboundError('timeout')
		await withDeadline(client.connect(), limits.deadlineMs, deadline)
		return await withDeadline(work(client), limits.deadlineMs, deadline)
	} catch (error) {
		if (error instanceof ImapFailure) throw error
		const codeOf = (e: unknown) => ((e as { code?: unknown } | null)?.code ? String((e as { code: unknown }).code) : null)
		const capped = [error, reported].find((e) => IMAP_CAP_CODES.includes(codeOf(e) ?? ''))
		const cause = capped ?? error
		throw new ImapFailure(classifyImapError(cause, greeted()), greeted(), cause, codeOf(cause))
	} finally {
		// Still within the deadline: a LOGOUT the server stalls is cut off by it too.
		if (client.usable) await withDeadline(client.logout(), LOGOUT_MS, deadline).catch(() => undefined)
		deadline.removeEventListener('abort', close)
		client.close()
	}
}

/**
 * Logs in to the mailbox and out again: whether these settings work, and if not, why. Answers
 * within the check's deadline (20 s) whatever the server does.
 */
export async function checkImapLogin(
	access: ImapAccess,
	options: { limits?: ImapLimits; allowPrivate?: boolean } = {},
): Promise<CheckResult> {
	try {
		await withImapSession(
			access,
			{ limits: options.limits ?? OUTBOUND.imapCheck, allowPrivate: options.allowPrivate },
			async () => undefined,
		)
		return { ok: true }
	} catch (error) {
		return { ok: false, failure: error instanceof ImapFailure ? error.failure : 'protocol' }
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
 * Connects an IMAP mailbox: logs in first (a wrong password, an unreachable or private host is
 * refused and nothing is stored), then saves it. `check`: other limits than the check's (tests).
 */
export async function connectImap(
	userId: string,
	organizationId: string,
	upgradeId: string,
	access: ImapAccess,
	check: { limits?: ImapLimits; allowPrivate?: boolean } = {},
): Promise<CheckResult | IntegrationChange> {
	// Only an owner gets the server to log in anywhere (connect_integration checks again).
	if (!(await isOwnerOf(userId, organizationId))) return { ok: false, code: 'not_owner' }
	const checked = await checkImapLogin(access, check)
	if (!checked.ok) return checked
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
 * checks providers other than IMAP (app/.server/payments/email-sync/gmail.ts).
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
			.innerJoin('organization_members as m', (join) =>
				join.onRef('m.organization_id', '=', 'c.organization_id').on('m.user_id', '=', userId),
			)
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
