/**
 * The email sync (docs/product.md, Email sync; docs/decisions/017-email-sync-runs.md): one
 * entry point, `syncMailbox`, for the Sync button and the schedule alike. A run claims the
 * organization's sync status (pending = syncing; a second claim gets nothing), reads the new
 * messages of the email upgrade's mailbox (IMAP, or Gmail through its API with a refreshed
 * token), parses them into payments, feeds them to the one import pipeline as ONE batch of
 * source 'email' (undo from the import history), and only after that batch is committed moves
 * the mailbox cursor on. Each run is recorded with its counts and the notices that could not be
 * read. A failed login or a refused token puts the sync in error with what to do (reconnect),
 * and the schedule leaves that mailbox alone until the owner reconnects or refreshes it.
 */
import { createHash } from 'node:crypto'
import { asSystem, asUser, sql } from '../../db/index.ts'
import { gmailAccessToken } from './gmail.ts'
import { importPayments } from '../imports/pipeline.ts'
import type { NormalizedPayment } from '../imports/parsers/index.ts'
import { readSecrets, recordSyncHealth } from './connections.ts'
import { logError } from '../../log.ts'
import { organizationClock } from '../../query.ts'
import { registerJob, type ScheduledJob } from '../../scheduler.ts'
import type { ToastInput } from '../../toast.ts'
import { readGmailMessages, type GmailCursor } from './gmail-reader.ts'
import {
	collectPayments,
	MailboxError,
	noticeCollector,
	syncLimits,
	type CollectedNotices,
	type MailboxCursor,
	type SyncLimits,
} from './mailbox.ts'
import type { NoticePayment } from './parsers/index.ts'
import type { SyncFailure } from '#app/lib/integrations.ts'
import { MAIL_UPGRADE_NAME, P2P_MODULE_ID } from '#app/lib/modules.ts'
import { SYNC_NO_SOURCE } from '#app/lib/schemas/transactions.ts'

/** A claim left pending this long (its server died mid-run) may be taken over. */
export const SYNC_STALE_MINUTES = 15
/** The schedule's default: every 15 minutes per organization with a connected mailbox. */
export const SYNC_INTERVAL_MINUTES = 15
/** Notices kept per run in the 'could not read' list. */
export const MAX_UNREADABLE = 100

export type SyncTrigger = 'button' | 'schedule'

export type RunCounts = { read: number; created: number; duplicates: number; ignored: number; unreadable: number; errors: number }

export type SyncOutcome =
	| { ok: true; runId: string; batchId: string | null; counts: RunCounts; more: boolean }
	| { ok: false; code: 'in_progress' | 'no_connection' | 'not_member'; runId?: undefined }
	| { ok: false; code: SyncFailure; runId: string }

export type SyncOptions = {
	trigger: SyncTrigger
	/** Who clicked Sync (a member of the organization); the schedule runs as the connecting owner. */
	userId?: string
	/**
	 * The caller's deadline (the scheduler's): when it fires the run stops, commits what it read,
	 * closes the connection, and the next run goes on from there.
	 */
	signal?: AbortSignal
	/** Tests: another folder than INBOX, another look-back, another clock, a stand-in for the Gmail API, other budgets. */
	mailbox?: string
	lookbackDays?: number
	now?: Date
	gmailBaseUrl?: string
	limits?: Partial<SyncLimits>
}

type Connection = {
	organizationId: string
	credentialId: string
	provider: string
	account: string | null
	connectedBy: string | null
}

/** The email upgrade's connected mailbox of the organization, if any. */
async function findConnection(organizationId: string): Promise<Connection | null> {
	const row = await asSystem((trx) =>
		trx
			.selectFrom('integration_credentials as c')
			.innerJoin('module_upgrades as u', 'u.id', 'c.upgrade_id')
			.leftJoin('organization_module_upgrades as omu', (join) =>
				join.onRef('omu.organization_id', '=', 'c.organization_id').onRef('omu.upgrade_id', '=', 'c.upgrade_id'),
			)
			.leftJoin('integration_connections as ic', (join) =>
				join.onRef('ic.user_module_upgrade_id', '=', 'omu.id').onRef('ic.provider', '=', 'c.provider').onRef('ic.scope', '=', 'c.scope'),
			)
			.select(['c.id', 'c.provider', 'c.account', 'ic.connected_by'])
			.where('c.organization_id', '=', organizationId)
			.where('u.name', '=', MAIL_UPGRADE_NAME)
			.where('c.status', '=', 'connected')
			.orderBy('c.updated_at', 'desc')
			.executeTakeFirst(),
	)
	return row ? { organizationId, credentialId: row.id, provider: row.provider, account: row.account, connectedBy: row.connected_by } : null
}

/** Whose name the import batch carries: the clicking member, else the connecting owner (if still one), else an owner. */
async function importUser(organizationId: string, connection: Connection, userId?: string): Promise<string | null> {
	if (userId) return userId
	const owners = await asSystem((trx) =>
		trx
			.selectFrom('organization_members')
			.select(['user_id', 'role'])
			.where('organization_id', '=', organizationId)
			.where('role', '=', 'owner')
			.orderBy('joined_at')
			.execute(),
	)
	return owners.find((o) => o.user_id === connection.connectedBy)?.user_id ?? owners[0]?.user_id ?? null
}

async function isMember(userId: string, organizationId: string) {
	const row = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_members')
			.select('user_id')
			.where('organization_id', '=', organizationId)
			.where('user_id', '=', userId)
			.executeTakeFirst(),
	)
	return row !== undefined
}

/** The owner's own addresses (their forwarded notices are read): the mailbox and the owners' sign-in emails. */
async function ownAddresses(organizationId: string, account: string | null) {
	const rows = await asSystem(async (trx) => {
		const { rows } = await sql<{ email: string | null }>`
			select u.email from public.organization_members m join auth.users u on u.id = m.user_id
			where m.organization_id = ${organizationId} and m.role = 'owner'`.execute(trx)
		return rows
	})
	const list = rows.map((r) => r.email).filter((e): e is string => !!e)
	if (account?.includes('@')) list.push(account)
	return [...new Set(list.map((e) => e.toLowerCase()))]
}

type StoredCursor =
	{ kind: 'imap'; uidValidity: string; lastUid: number; since?: string } | { kind: 'gmail'; after: number; edgeIds: string[] }

async function loadCursor(connection: Connection): Promise<StoredCursor | null> {
	const row = await asSystem(async (trx) => {
		const { rows } = await sql<{ cursor: StoredCursor; account: string | null; provider: string }>`
			select cursor, account, provider from private.email_sync_cursors where credential_id = ${connection.credentialId}`.execute(trx)
		return rows[0]
	})
	// Another mailbox connected in its place starts afresh.
	if (!row || row.provider !== connection.provider || (row.account ?? null) !== (connection.account ?? null)) return null
	return row.cursor
}

async function saveCursor(connection: Connection, cursor: StoredCursor) {
	await asSystem((trx) =>
		sql`insert into private.email_sync_cursors (credential_id, account, provider, cursor, updated_at)
			values (${connection.credentialId}, ${connection.account}, ${connection.provider}, ${JSON.stringify(cursor)}::jsonb, now())
			on conflict (credential_id) do update set account = excluded.account, provider = excluded.provider,
				cursor = excluded.cursor, updated_at = now()`.execute(trx),
	)
}

async function claim(organizationId: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ claimed: boolean }>`select private.claim_email_sync(${organizationId}, ${P2P_MODULE_ID},
			make_interval(mins => ${SYNC_STALE_MINUTES})) as claimed`.execute(trx),
	)
	return rows[0]?.claimed === true
}

async function finish(organizationId: string, error: string | null) {
	await asSystem((trx) => sql`select private.finish_email_sync(${organizationId}, ${P2P_MODULE_ID}, ${error})`.execute(trx))
}

/** The pipeline's payment of a notice: its id is the notice's own id; an id-less one is keyed by its message. */
export function toNormalized(p: NoticePayment): NormalizedPayment {
	return {
		date: p.date,
		amount: p.amount,
		fee: null,
		payer: p.payer,
		description: p.memo,
		externalId: p.externalId,
		method: p.method,
		provider: p.issuer,
		dedupeKey: !p.externalId && p.noticeId ? `m:${p.issuer}:${createHash('sha256').update(p.noticeId).digest('base64url')}` : null,
	}
}

type Read = { collected: Omit<CollectedNotices, 'cursor' | 'reread'>; cursor: StoredCursor; reread: boolean }

/** Why a Gmail token could not be had: a refused refresh token means reconnecting; anything else is retried. */
function tokenFailure(error: unknown): MailboxError {
	const e = error as { name?: string; reason?: string; message?: string }
	// arctic's OAuth2RequestError (revoked or expired refresh token), or none stored: reconnect.
	if (e.name === 'OAuth2RequestError' || /refresh token/i.test(String(e.message))) return new MailboxError('auth', error)
	if (e.name === 'OutboundError' && e.reason === 'timeout') return new MailboxError('timeout', error)
	return new MailboxError('unreachable', error)
}

async function readMailbox(
	connection: Connection,
	cursor: StoredCursor | null,
	options: SyncOptions,
	parse: { ownAddresses: string[]; timeZone: string },
): Promise<Read> {
	const secrets = await readSecrets(connection.organizationId, connection.credentialId)
	if (!secrets) throw new MailboxError('auth')
	const limits = { ...syncLimits(options.trigger), ...options.limits }
	if (secrets.provider === 'imap') {
		if (!secrets.settings || !secrets.password) throw new MailboxError('auth')
		const result = await collectPayments(
			{ ...secrets.settings, password: secrets.password },
			cursor?.kind === 'imap'
				? { uidValidity: cursor.uidValidity, lastUid: cursor.lastUid, ...(cursor.since ? { since: cursor.since } : {}) }
				: null,
			{ ...parse, mailbox: options.mailbox, lookbackDays: options.lookbackDays, now: options.now, signal: options.signal, limits },
		)
		const { cursor: next, reread, ...collected } = result
		return { collected, cursor: { kind: 'imap', ...(next satisfies MailboxCursor) }, reread }
	}
	if (secrets.provider === 'gmail') {
		let token: string
		try {
			token = await gmailAccessToken(secrets, options.signal)
		} catch (error) {
			throw tokenFailure(error)
		}
		const collector = noticeCollector(parse)
		const result = await readGmailMessages(
			token,
			cursor?.kind === 'gmail' ? { after: cursor.after, edgeIds: cursor.edgeIds } : null,
			collector.add,
			{
				lookbackDays: options.lookbackDays,
				now: options.now,
				baseUrl: options.gmailBaseUrl,
				signal: options.signal,
				limits,
				onSkipped: collector.skip,
			},
		)
		return {
			collected: { read: result.read, more: result.more, failure: result.failure, ...collector.result },
			cursor: { kind: 'gmail', ...(result.cursor satisfies GmailCursor) },
			reread: false,
		}
	}
	throw new MailboxError('protocol')
}

/**
 * Runs one sync of the organization's mailbox now. Never throws for a mailbox's trouble: the
 * outcome says what happened, the run's record and the sync status keep it.
 */
export async function syncMailbox(organizationId: string, options: SyncOptions): Promise<SyncOutcome> {
	if (options.userId && !(await isMember(options.userId, organizationId))) return { ok: false, code: 'not_member' }
	if (!(await claim(organizationId))) return { ok: false, code: 'in_progress' }
	const connection = await findConnection(organizationId)
	if (!connection) {
		// The status says why nothing happened (docs/product.md, Transactions: no source connected).
		await finish(organizationId, SYNC_NO_SOURCE)
		return { ok: false, code: 'no_connection' }
	}
	let runId: string
	try {
		runId = await asSystem(async (trx) => {
			const row = await trx
				.insertInto('email_sync_runs')
				.values({
					organization_id: organizationId,
					credential_id: connection.credentialId,
					provider: connection.provider,
					trigger: options.trigger,
					started_by: options.userId ?? null,
				})
				.returning('id')
				.executeTakeFirstOrThrow()
			return row.id
		})
	} catch (error) {
		await finish(organizationId, 'internal')
		throw error
	}
	try {
		const user = await importUser(organizationId, connection, options.userId)
		if (!user) throw new Error('no owner to import as')
		const clock = await asSystem((trx) => organizationClock(trx, organizationId, options.now))
		const parse = { ownAddresses: await ownAddresses(organizationId, connection.account), timeZone: clock.timezone }
		const { collected, cursor, reread } = await readMailbox(connection, await loadCursor(connection), options, parse)
		const ignored = Object.values(collected.ignored).reduce((a, b) => a + b, 0)
		let batchId: string | null = null
		let created = 0
		let duplicates = 0
		let failed = 0
		if (collected.payments.length > 0) {
			const label = `${connection.provider === 'gmail' ? 'Gmail' : 'IMAP'}: ${connection.account ?? ''}`.trim()
			const result = await importPayments({
				organizationId,
				userId: user,
				label,
				source: 'email',
				payments: collected.payments.map(toNormalized),
			})
			if (!result.ok || result.status !== 'committed') throw new Error('the email import was not committed')
			batchId = result.batch.batchId
			created = result.batch.counts.created
			duplicates = result.batch.counts.duplicates + result.batch.counts.deleted
			failed = result.batch.failed
		}
		// Only now, with the payments committed, does the mailbox cursor move on (to the last
		// message handled, when the run stopped early: the next run goes on from there).
		await saveCursor(connection, cursor)
		const counts: RunCounts = {
			read: collected.read,
			created,
			duplicates,
			ignored,
			unreadable: collected.unreadable.length,
			errors: collected.errors + failed,
		}
		// A run that read some messages and then lost the mailbox keeps them, and says what went wrong.
		const failure = collected.failure
		await asSystem(async (trx) => {
			await trx
				.updateTable('email_sync_runs')
				.set({
					status: failure ? 'failed' : 'succeeded',
					finished_at: sql<Date>`now()`,
					error_code: failure,
					read_count: counts.read,
					created_count: counts.created,
					duplicate_count: counts.duplicates,
					ignored_count: counts.ignored,
					unreadable_count: counts.unreadable,
					error_count: counts.errors,
					reread,
					import_batch_id: batchId,
					unreadable: JSON.stringify(collected.unreadable.slice(0, MAX_UNREADABLE)),
				})
				.where('id', '=', runId)
				.execute()
			await trx
				.updateTable('integration_credentials')
				.set({ last_sync: sql<Date>`now()` })
				.where('id', '=', connection.credentialId)
				.execute()
		})
		await recordSyncHealth(connection.credentialId, failure).catch(() => undefined)
		await finish(organizationId, failure)
		if (failure) return { ok: false, code: failure, runId }
		return { ok: true, runId, batchId, counts, more: collected.more }
	} catch (error) {
		const code: SyncFailure = error instanceof MailboxError ? error.failure : 'internal'
		if (code === 'internal') logError(error, { where: 'email sync', organizationId, runId })
		await asSystem((trx) =>
			trx
				.updateTable('email_sync_runs')
				.set({ status: 'failed', finished_at: sql<Date>`now()`, error_code: code })
				.where('id', '=', runId)
				.execute(),
		).catch((e: unknown) => logError(e, { where: 'email sync run record', runId }))
		// The card shows the mailbox's trouble; 'auth' also keeps the schedule away until a reconnect.
		if (code !== 'internal') await recordSyncHealth(connection.credentialId, code).catch(() => undefined)
		await finish(organizationId, code)
		return { ok: false, code, runId }
	}
}

/** What a Sync click says afterwards (a toast after the redirect, with or without JavaScript). */
export function syncToast(result: SyncOutcome): ToastInput {
	if (result.ok) {
		const { created, duplicates, read } = result.counts
		return {
			type: 'success',
			title: 'transactions:sync.toast.done',
			// A run that stopped at its budget: more messages wait, the next sync reads on.
			description: result.more ? 'transactions:sync.toast.doneMoreDescription' : 'transactions:sync.toast.doneDescription',
			values: { count: created, duplicates, read },
		}
	}
	switch (result.code) {
		case 'in_progress':
			return { type: 'error', title: 'transactions:sync.toast.inProgress' }
		case 'no_connection':
			return {
				type: 'info',
				title: 'transactions:sync.outcome.noSource.title',
				description: 'transactions:sync.outcome.noSource.description',
			}
		case 'not_member':
			return { type: 'error', title: 'table:toast.syncFailed' }
		default:
			return { type: 'error', title: 'transactions:sync.failed', description: `transactions:sync.failure.${result.code}` }
	}
}

// ---------------------------------------------------------------------------------------------
// The schedule
// ---------------------------------------------------------------------------------------------

/**
 * The run keys due at `now`: one per organization with a connected mailbox of the email
 * upgrade that is not waiting for its owner (a failed login) and was not read in the last
 * interval, per interval slot (so instances agree on the key and run it once).
 */
export async function dueSyncKeys(now: Date, intervalMinutes = SYNC_INTERVAL_MINUTES): Promise<string[]> {
	const slot = new Date(Math.floor(now.getTime() / (intervalMinutes * 60_000)) * intervalMinutes * 60_000).toISOString()
	const rows = await asSystem((trx) =>
		trx
			.selectFrom('integration_credentials as c')
			.innerJoin('module_upgrades as u', 'u.id', 'c.upgrade_id')
			.select('c.organization_id')
			.distinct()
			.where('u.name', '=', MAIL_UPGRADE_NAME)
			.where('c.status', '=', 'connected')
			.where((eb) => eb.or([eb('c.error_message', 'is', null), eb('c.error_message', '<>', 'auth')]))
			// An interval after the last run (or check, or connecting): a Sync click resets the clock.
			.where(
				sql<boolean>`coalesce(greatest(c.last_sync, c.last_checked_at), c.created_at) <= ${new Date(now.getTime() - (intervalMinutes - 1) * 60_000)}`,
			)
			.execute(),
	)
	return rows.map((r) => `${r.organization_id}@${slot}`)
}

/**
 * Runs the scheduled sync of a run key made by `dueSyncKeys`. `context.signal` (the scheduler's
 * deadline) stops the run cleanly: what was read is committed, the connection closed, and the
 * next run goes on from the cursor. The run's own time budget (OUTBOUND.imapSync) ends it first.
 */
export async function runScheduledSync(runKey: string, context: { signal?: AbortSignal } = {}) {
	const organizationId = runKey.slice(0, runKey.indexOf('@'))
	await syncMailbox(organizationId, { trigger: 'schedule', signal: context.signal })
}

/** The scheduler's deadline for one run: the schedule's time budget plus a margin to commit what was read. */
export const SYNC_JOB_DEADLINE_MS = syncLimits('schedule').deadlineMs + 30_000

// Built apart from its annotation so that the deadline field is accepted by any version of ScheduledJob.
const job = {
	name: 'email-sync',
	due: (now: Date) => dueSyncKeys(now),
	run: (key: string, context: { signal?: AbortSignal }) => runScheduledSync(key, context),
	deadlineMs: SYNC_JOB_DEADLINE_MS,
}

/** The scheduler's job (app/.server/scheduler.ts: each run key runs once across instances). */
export const emailSyncJob: ScheduledJob = job

/** Registered at start-up (app/.server/startup.ts). */
export function registerEmailSyncJob() {
	registerJob(emailSyncJob)
}

// ---------------------------------------------------------------------------------------------
// History (the module's detail page)
// ---------------------------------------------------------------------------------------------

export type SyncRunView = {
	id: string
	trigger: SyncTrigger
	status: 'running' | 'succeeded' | 'failed'
	startedAt: string
	finishedAt: string | null
	counts: RunCounts
	errorCode: string | null
	batchId: string | null
	unreadable: Array<{ subject: string; sender: string; date: string | null }>
}

/** The organization's latest runs, newest first (members read them). */
export async function listSyncRuns(userId: string, organizationId: string, limit = 20): Promise<SyncRunView[]> {
	const rows = await asUser(userId, (trx) =>
		trx
			.selectFrom('email_sync_runs')
			.selectAll()
			.where('organization_id', '=', organizationId)
			.orderBy('started_at', 'desc')
			.limit(limit)
			.execute(),
	)
	return rows.map((r) => ({
		id: r.id,
		trigger: r.trigger as SyncTrigger,
		status: r.status as SyncRunView['status'],
		startedAt: new Date(r.started_at).toISOString(),
		finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
		counts: {
			read: r.read_count,
			created: r.created_count,
			duplicates: r.duplicate_count,
			ignored: r.ignored_count,
			unreadable: r.unreadable_count,
			errors: r.error_count,
		},
		errorCode: r.error_code,
		batchId: r.import_batch_id,
		unreadable: (r.unreadable as SyncRunView['unreadable']) ?? [],
	}))
}
