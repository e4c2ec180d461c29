/**
 * The email sync (docs/product.md, Email sync; docs/decisions/017-email-sync-runs.md): one
 * entry point, `syncMailbox`, for the Sync button and the schedule alike. The organization may
 * have several mailboxes with Email Pro (docs/decisions/051-several-mailboxes.md); each has its
 * own run. A run claims its mailbox (the module's sync status says Syncing; a second claim gets
 * nothing), reads the new messages of the mailbox (IMAP, or Gmail through its API with a refreshed
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
import type { NoticePayment, ParseOptions } from './parsers/index.ts'
import { customRulesFor } from './custom-rules.ts'
import type { SyncFailure } from '#app/lib/integrations.ts'
import { MODULES, P2P_MODULE_ID } from '#app/lib/modules.ts'
import { SYNC_NO_SOURCE } from '#app/lib/schemas/transactions.ts'

/** A claim left pending this long (its server died mid-run) may be taken over. */
export const SYNC_STALE_MINUTES = 15
/** The schedule with Email Pro: every 15 minutes per mailbox (docs/decisions/051-several-mailboxes.md). */
export const SYNC_INTERVAL_MINUTES = 15
/** The schedule without Email Pro: every 60 minutes (the email upgrade promises manual sync at any time). */
export const SYNC_BASE_INTERVAL_MINUTES = 60
/** Notices kept per run in the 'could not read' list. */
export const MAX_UNREADABLE = 100

export type SyncTrigger = 'button' | 'schedule'

export type RunCounts = { read: number; created: number; duplicates: number; ignored: number; unreadable: number; errors: number }

export type SyncOutcome =
	| {
			ok: true
			runId: string
			batchId: string | null
			counts: RunCounts
			more: boolean
			/** A sync of several mailboxes: how many synced, and those that failed (the others' counts are added up). */
			mailboxes?: number
			failed?: Array<{ account: string | null; code: SyncFailure }>
	  }
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
	/** Only this mailbox (the schedule's run key names one). */
	credentialId?: string
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
	/** Beyond the organization's limit without Email Pro: not synced until Email Pro is active again (decision 051). */
	paused: boolean
}

/** The email upgrade's connected mailboxes of the organization, oldest first, each with whether it is paused. */
async function findConnections(organizationId: string): Promise<Connection[]> {
	const rows = await asSystem(async (trx) => {
		const { rows } = await sql<{ id: string; provider: string; account: string | null; connected_by: string | null; paused: boolean }>`
			select c.id, c.provider, c.account, c.connected_by, s.paused
			from private.mailbox_states(${organizationId}) s
			join public.integration_credentials c on c.id = s.credential_id`.execute(trx)
		return rows
	})
	return rows.map((row) => ({
		organizationId,
		credentialId: row.id,
		provider: row.provider,
		account: row.account,
		connectedBy: row.connected_by,
		paused: row.paused,
	}))
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

/** The organization's claim, when it has no mailbox to sync: a click still says why nothing happened. */
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

/** Claims the sync of one mailbox (none of it under way): two clicks, a click and the schedule, or two servers never read it twice. */
async function claimMailbox(connection: Connection) {
	const { rows } = await asSystem((trx) =>
		sql<{ claimed: boolean }>`select private.claim_mailbox_sync(${connection.credentialId}, ${P2P_MODULE_ID},
			make_interval(mins => ${SYNC_STALE_MINUTES})) as claimed`.execute(trx),
	)
	return rows[0]?.claimed === true
}

/** Ends a mailbox's claimed sync; the module's status then says what the mailboxes' latest runs say. */
async function finishMailbox(connection: Connection, succeeded: boolean) {
	await asSystem((trx) =>
		sql`select private.finish_mailbox_sync(${connection.organizationId}, ${connection.credentialId}, ${P2P_MODULE_ID},
			make_interval(mins => ${SYNC_STALE_MINUTES}), ${succeeded})`.execute(trx),
	)
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
	parse: ParseOptions & { ownAddresses: string[]; timeZone: string },
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
 * Runs a sync of the organization's mailboxes now: every mailbox that is not paused, side by
 * side (or only `options.credentialId`, the schedule's key), one run each; a mailbox already
 * being synced is left to that sync, and one mailbox's failure stops no other. Never throws for
 * a mailbox's trouble: the outcome says what happened, the runs' records and the sync status
 * keep it. With one mailbox the outcome is that mailbox's; with several, `syncOutcomeOf`.
 */
export async function syncMailbox(organizationId: string, options: SyncOptions): Promise<SyncOutcome> {
	if (options.userId && !(await isMember(options.userId, organizationId))) return { ok: false, code: 'not_member' }
	const connections = await findConnections(organizationId)
	if (connections.length === 0) {
		if (!(await claim(organizationId))) return { ok: false, code: 'in_progress' }
		// The status says why nothing happened (docs/product.md, Transactions: no source connected).
		await finish(organizationId, SYNC_NO_SOURCE)
		return { ok: false, code: 'no_connection' }
	}
	const targets = connections.filter((c) => !c.paused && (!options.credentialId || c.credentialId === options.credentialId))
	if (targets.length === 0) return { ok: false, code: options.credentialId ? 'no_connection' : 'in_progress' }
	const outcomes = await Promise.all(targets.map((connection) => syncOne(connection, options)))
	if (outcomes.length === 1) return outcomes[0]!
	return syncOutcomeOf(targets.map((c, i) => ({ credentialId: c.credentialId, account: c.account, outcome: outcomes[i]! })))
}

/** One mailbox's result within a sync of several. */
export type MailboxOutcome = { credentialId: string; account: string | null; outcome: SyncOutcome }

/**
 * The outcome of a sync of several mailboxes: a success when any mailbox synced (counts added
 * up, `failed` naming the mailboxes that did not), else the first failure; 'in_progress' when
 * every mailbox was being synced already.
 */
export function syncOutcomeOf(mailboxes: MailboxOutcome[]): SyncOutcome {
	const done = mailboxes.filter((m) => m.outcome.ok)
	const failed = mailboxes.filter((m) => !m.outcome.ok && m.outcome.runId !== undefined)
	if (done.length === 0) {
		const first = failed[0]?.outcome
		return first ?? { ok: false, code: 'in_progress' }
	}
	const counts: RunCounts = { read: 0, created: 0, duplicates: 0, ignored: 0, unreadable: 0, errors: 0 }
	let more = false
	for (const { outcome } of done) {
		if (!outcome.ok) continue
		for (const key of Object.keys(counts) as Array<keyof RunCounts>) counts[key] += outcome.counts[key]
		more ||= outcome.more
	}
	const first = done[0]!.outcome as Extract<SyncOutcome, { ok: true }>
	return {
		ok: true,
		runId: first.runId,
		batchId: first.batchId,
		counts,
		more,
		mailboxes: done.length,
		failed: failed.map((m) => ({ account: m.account, code: (m.outcome as { code: SyncFailure }).code })),
	}
}

/** One mailbox's run: claimed, read, imported as one batch, recorded. */
async function syncOne(connection: Connection, options: SyncOptions): Promise<SyncOutcome> {
	const organizationId = connection.organizationId
	if (!(await claimMailbox(connection))) return { ok: false, code: 'in_progress' }
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
		await finishMailbox(connection, false)
		throw error
	}
	try {
		const user = await importUser(organizationId, connection, options.userId)
		if (!user) throw new Error('no owner to import as')
		const clock = await asSystem((trx) => organizationClock(trx, organizationId, options.now))
		// Email Pro's custom parsing rules read the notices of senders no parser knows (custom-rules.ts).
		const custom = await customRulesFor(organizationId)
		const parse = { ownAddresses: await ownAddresses(organizationId, connection.account), timeZone: clock.timezone, custom }
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
					custom_rule_count: custom?.read ?? 0,
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
		await finishMailbox(connection, !failure)
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
		await finishMailbox(connection, false)
		return { ok: false, code, runId }
	}
}

/** What a Sync click says afterwards (a toast after the redirect, with or without JavaScript). */
export function syncToast(result: SyncOutcome): ToastInput {
	if (result.ok) {
		const { created, duplicates, read } = result.counts
		// Several mailboxes of which some failed: the payments of the others, and which failed (their reasons are on the module page).
		if (result.failed?.length) {
			return {
				type: 'error',
				title: 'transactions:sync.toast.done',
				description: 'transactions:sync.toast.someFailedDescription',
				values: { count: created, duplicates, read, failed: result.failed.map((f) => f.account ?? '?').join(', ') },
			}
		}
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
 * The run keys due at `now`: one per connected mailbox of the email upgrade that is not paused
 * (decision 051), not waiting for its owner (a failed login) and not read in the last interval —
 * 15 minutes with Email Pro, 60 without — per interval slot, so that instances agree on the key
 * and run it once, and one mailbox's slow run holds up no other's. Key: `{org}/{credential}@{slot}`.
 */
export async function dueSyncKeys(now: Date): Promise<string[]> {
	const rows = await asSystem(async (trx) => {
		const { rows } = await sql<{ organization_id: string; id: string; pro: boolean }>`
			select c.organization_id, c.id, private.mailbox_limit(c.organization_id) > 1 as pro
			from public.integration_credentials c
			join lateral private.mailbox_states(c.organization_id) s on s.credential_id = c.id
			where c.upgrade_id = ${MODULES.p2p.upgrades.email.id} and c.status = 'connected' and not s.paused
				and (c.error_message is null or c.error_message <> 'auth')
				-- An interval after the last run (or check, or connecting): a Sync click resets the clock.
				and coalesce(greatest(c.last_sync, c.last_checked_at), c.created_at) <= ${now}::timestamptz
					- make_interval(mins => case when private.mailbox_limit(c.organization_id) > 1 then ${SYNC_INTERVAL_MINUTES - 1}::int
						else ${SYNC_BASE_INTERVAL_MINUTES - 1}::int end)`.execute(trx)
		return rows
	})
	return rows.map((r) => {
		const minutes = r.pro ? SYNC_INTERVAL_MINUTES : SYNC_BASE_INTERVAL_MINUTES
		const slot = new Date(Math.floor(now.getTime() / (minutes * 60_000)) * minutes * 60_000).toISOString()
		return `${r.organization_id}/${r.id}@${slot}`
	})
}

/**
 * Runs the scheduled sync of a run key made by `dueSyncKeys` (one mailbox; a key without a
 * mailbox, `{org}@{slot}`, syncs them all). `context.signal` (the scheduler's deadline) stops
 * the run cleanly: what was read is committed, the connection closed, and the next run goes on
 * from the cursor. The run's own time budget (OUTBOUND.imapSync) ends it first.
 */
export async function runScheduledSync(runKey: string, context: { signal?: AbortSignal } = {}) {
	const [target = ''] = runKey.split('@')
	const [organizationId = '', credentialId] = target.split('/')
	await syncMailbox(organizationId, { trigger: 'schedule', signal: context.signal, ...(credentialId ? { credentialId } : {}) })
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
