/**
 * Reading a mailbox for the email sync (docs/product.md, Email sync): read-only (the folder is
 * opened with EXAMINE, bodies fetched with BODY.PEEK: nothing is changed, moved or marked),
 * only messages after the last UID seen while the folder's UIDVALIDITY stays the same, and on a
 * first sync (or after UIDVALIDITY changed) the messages of the last N days (default 90).
 * `collectPayments` runs each message through the notice parsers; it writes nothing.
 *
 * Bounded (app/.server/outbound.ts, imapSync): the connection follows the outbound policy
 * (checked address, read caps, one deadline); sizes are fetched before bodies and a message
 * over the size cap is never downloaded (it is listed, by its envelope, when its sender is a
 * payment service); a run stops at its time budget, its byte budget or the caller's signal and
 * returns a cursor at the last message fully handled, with `more`, so the next run goes on.
 */
import type { ImapFlow } from 'imapflow'
import { IMAP_CAP_CODES, ImapFailure, withImapSession, type ImapAccess, type ImapLimits } from './connections.ts'
import { deadlineSignal, OUTBOUND } from '../../outbound.ts'
import { readNotice, type Notice } from './notice.ts'
import { parseNotice, parserFor, type NoticePayment, type ParseOptions } from './parsers/index.ts'
import type { CheckFailure } from '#app/lib/integrations.ts'

export const DEFAULT_LOOKBACK_DAYS = 90

/**
 * Where the last sync of a folder stopped. UIDVALIDITY is kept as text (it can exceed 2^53 in
 * theory). `since`: a first read (the look-back window) that stopped before its end keeps its
 * window, so the next run reads on within it and not every older message with a higher UID.
 */
export type MailboxCursor = { uidValidity: string; lastUid: number; since?: string }

/** The limits of a sync run's reading: the connection's, the run's budgets and the batching. */
export type SyncLimits = ImapLimits & {
	runBytes: number
	maxMessageBytes: number
	fetchBatchMessages: number
	fetchBatchBytes: number
	uidWindow: number
}

/** The sync's limits for a run started by a click (shorter: someone waits) or by the schedule. */
export function syncLimits(trigger: 'button' | 'schedule'): SyncLimits {
	const { deadlineMs, ...rest } = OUTBOUND.imapSync
	return { ...rest, deadlineMs: deadlineMs[trigger] }
}

/** A message not downloaded: bigger than a payment notice can be. */
export type SkippedMessage = { subject: string; sender: string; date: string | null; size: number }

export type ReadOptions = {
	mailbox?: string
	lookbackDays?: number
	now?: Date
	/** The caller's own deadline (the scheduler's): the run stops when it fires, keeping what it read. */
	signal?: AbortSignal
	/** Default: the schedule's (syncLimits). */
	limits?: SyncLimits
	/** Called for each message skipped for its size, with its envelope. */
	onSkipped?: (message: SkippedMessage) => void
}

/**
 * What a read did. `more`: it stopped before the end (a budget, the caller's signal, or a
 * failure after some messages were handled); `failure`: the trouble that stopped it, when
 * something was handled anyway (with nothing handled, the reader throws MailboxError instead).
 */
export type ReadResult = { cursor: MailboxCursor; read: number; reread: boolean; more: boolean; failure: CheckFailure | null }

export class MailboxError extends Error {
	constructor(
		readonly failure: CheckFailure,
		cause?: unknown,
	) {
		super(`mailbox: ${failure}`, { cause })
	}
}

/** A UID set as IMAP writes it, runs of consecutive UIDs as ranges ("3:7,9"), from a sorted list. */
export function uidSet(uids: number[]): string {
	const parts: string[] = []
	for (let i = 0; i < uids.length;) {
		let j = i
		while (j + 1 < uids.length && uids[j + 1] === uids[j]! + 1) j++
		parts.push(j > i ? `${uids[i]}:${uids[j]}` : String(uids[i]))
		i = j + 1
	}
	return parts.join(',')
}

const SIZE_CHUNK = 1_000

/**
 * Calls `onMessage` for each new message, oldest first, and returns the cursor to keep.
 * `reread` is true when the folder's UIDVALIDITY changed since `cursor`: the look-back window
 * was read again (the import's dedupe keeps that from creating duplicates).
 */
export async function readNewMessages(
	access: ImapAccess,
	cursor: MailboxCursor | null,
	onMessage: (raw: Buffer, uid: number) => Promise<void> | void,
	options: ReadOptions = {},
): Promise<ReadResult> {
	const limits = options.limits ?? syncLimits('schedule')
	const stop = deadlineSignal(limits.deadlineMs, options.signal)
	const state = {
		opened: false,
		uidValidity: '',
		reread: false,
		since: undefined as string | undefined,
		/** Every message up to this UID is handled (read, skipped, or not in the window). */
		safeUid: 0,
		startUid: 0,
		top: null as number | null,
		read: 0,
		bytes: 0,
		more: false,
		/** The window's UIDs, the next one not handled, the source batch being fetched (to name the message a cap cut off). */
		found: [] as number[],
		next: 0,
		batch: [] as number[],
		handled: new Set<number>(),
	}
	const advance = () => {
		while (state.next < state.found.length && state.handled.has(state.found[state.next]!)) state.safeUid = state.found[state.next++]!
	}

	/** Handles one window's UIDs: sizes, the oversize ones by envelope, then the sources in batches. */
	const readWindow = async (client: ImapFlow, found: number[]) => {
		const sizes = new Map<number, number>()
		for (let i = 0; i < found.length; i += SIZE_CHUNK) {
			for await (const m of client.fetch(uidSet(found.slice(i, i + SIZE_CHUNK)), { uid: true, size: true }, { uid: true })) {
				sizes.set(m.uid, m.size ?? 0)
			}
		}
		state.found = found
		state.next = 0
		// Gone since the search (expunged): nothing to read.
		for (const uid of found) if (!sizes.has(uid)) state.handled.add(uid)
		const tooLarge = found.filter((uid) => (sizes.get(uid) ?? 0) > limits.maxMessageBytes)
		if (tooLarge.length > 0) {
			for await (const m of client.fetch(uidSet(tooLarge), { uid: true, envelope: true }, { uid: true })) {
				const date = m.envelope?.date ? new Date(m.envelope.date) : null
				options.onSkipped?.({
					subject: m.envelope?.subject ?? '',
					sender: (m.envelope?.from?.[0]?.address ?? '').toLowerCase(),
					date: date && !Number.isNaN(date.getTime()) ? date.toISOString() : null,
					size: sizes.get(m.uid) ?? 0,
				})
				state.read++
			}
			for (const uid of tooLarge) state.handled.add(uid)
		}
		advance()
		// The sources, in batches bounded by count and announced bytes: imapflow buffers a FETCH's
		// answers faster than they are parsed, so the batch bounds what is held at once.
		const small = found.filter((uid) => sizes.has(uid) && sizes.get(uid)! <= limits.maxMessageBytes)
		for (let i = 0; i < small.length;) {
			if (state.bytes >= limits.runBytes) {
				state.more = true
				return false
			}
			const batch: number[] = []
			let batchBytes = 0
			while (i < small.length && batch.length < limits.fetchBatchMessages) {
				const size = sizes.get(small[i]!)!
				if (batch.length > 0 && (batchBytes + size > limits.fetchBatchBytes || state.bytes + batchBytes + size > limits.runBytes)) break
				batch.push(small[i++]!)
				batchBytes += size
			}
			state.batch = batch
			for await (const message of client.fetch(uidSet(batch), { uid: true, source: true }, { uid: true })) {
				if (message.source) {
					state.bytes += message.source.length
					await onMessage(message.source, message.uid)
					state.read++
				}
				state.handled.add(message.uid)
				advance()
			}
			// Asked for but not returned: expunged meanwhile.
			for (const uid of batch) state.handled.add(uid)
			state.batch = []
			advance()
		}
		return true
	}

	try {
		await withImapSession(access, { limits, signal: stop }, async (client) => {
			const folder = await client.mailboxOpen(options.mailbox ?? 'INBOX', { readOnly: true })
			const uidValidity = String(folder.uidValidity)
			const same = cursor !== null && cursor.uidValidity === uidValidity
			const uidNext = Number(folder.uidNext)
			const now = options.now ?? new Date()
			Object.assign(state, {
				opened: true,
				uidValidity,
				reread: cursor !== null && !same,
				since: same ? cursor.since : new Date(now.getTime() - (options.lookbackDays ?? DEFAULT_LOOKBACK_DAYS) * 86_400_000).toISOString(),
				safeUid: same ? cursor.lastUid : 0,
				startUid: same ? cursor.lastUid : 0,
				top: Number.isFinite(uidNext) && uidNext > 0 ? uidNext - 1 : null,
			})
			if (folder.exists === 0) return
			// UID windows: a SEARCH answer stays small whatever the mailbox's size.
			for (let from = state.safeUid + 1; state.top === null || from <= state.top;) {
				const to = state.top === null ? null : Math.min(state.top, from + limits.uidWindow - 1)
				const range = `${from}:${to ?? '*'}`
				const query = state.since ? { uid: range, since: new Date(state.since) } : { uid: range }
				const found = ((await client.search(query, { uid: true })) || [])
					.filter((uid) => uid >= from && (to === null || uid <= to))
					.sort((a, b) => a - b)
				if (!(await readWindow(client, found))) return
				if (to === null) break
				state.safeUid = Math.max(state.safeUid, to)
				from = to + 1
			}
		})
	} catch (error) {
		const failure = error instanceof ImapFailure ? error : new ImapFailure('protocol', true, error)
		const progressed = state.safeUid > state.startUid || state.read > 0
		if (stop.aborted) {
			// The time budget or the caller's deadline: a partial run, unless nothing moved at all.
			if (!progressed) throw new MailboxError('timeout', error)
			return result(state, true, null)
		}
		if (!state.opened) throw new MailboxError(failure.failure, error)
		// A server that sent more than it announced was cut off by a cap: that message is skipped
		// (so the next run is not stopped by it again), the run reports the trouble.
		if (failure.code && IMAP_CAP_CODES.includes(failure.code)) {
			const culprit = state.found[state.next]
			if (culprit !== undefined && state.batch.includes(culprit)) {
				state.handled.add(culprit)
				advance()
				state.read++
				options.onSkipped?.({ subject: '', sender: '', date: null, size: limits.maxLiteralSize })
			}
		}
		if (!(state.safeUid > state.startUid || state.read > 0)) throw new MailboxError(failure.failure, error)
		return result(state, true, failure.failure)
	}
	return result(state, state.more, null)
}

function result(
	state: { uidValidity: string; safeUid: number; top: number | null; since?: string; read: number; reread: boolean },
	more: boolean,
	failure: CheckFailure | null,
): ReadResult {
	const cursor: MailboxCursor = more
		? { uidValidity: state.uidValidity, lastUid: state.safeUid, ...(state.since ? { since: state.since } : {}) }
		: { uidValidity: state.uidValidity, lastUid: Math.max(state.safeUid, state.top ?? 0) }
	return { cursor, read: state.read, reread: state.reread, more, failure }
}

/**
 * A notice of a known sender the sync could not read, shown to the owner with its subject:
 * `not_understood` (a layout the parsers do not know) or `too_large` (never downloaded: bigger
 * than a payment notice can be, OUTBOUND.imapSync.maxMessageBytes).
 */
export type UnreadableNotice = { subject: string; sender: string; date: string | null; reason: 'not_understood' | 'too_large' }

export type CollectedNotices = ReadResult & {
	payments: NoticePayment[]
	ignored: { outgoing: number; request: number; other: number; spoofed: number; unknown_sender: number }
	/** Notices of a known sender that could not be read. */
	unreadable: UnreadableNotice[]
	/** Messages that could not even be parsed as MIME (counted, never imported). */
	errors: number
}

/**
 * Parses messages one by one into payments, ignored counts and the 'could not read' list: the
 * same for the IMAP reader and the Gmail reader (gmail-reader.ts). `skip` takes a message that
 * was not downloaded for its size: listed when a payment service (or the owner, forwarding)
 * sent it, else counted with the other mail of unknown senders.
 */
export function noticeCollector(options: ParseOptions = {}) {
	const result: Omit<CollectedNotices, keyof ReadResult> = {
		payments: [],
		ignored: { outgoing: 0, request: 0, other: 0, spoofed: 0, unknown_sender: 0 },
		unreadable: [],
		errors: 0,
	}
	const own = new Set((options.ownAddresses ?? []).map((a) => a.toLowerCase()))
	return {
		result,
		add: async (raw: Buffer | string) => {
			let notice: Notice
			try {
				notice = await readNotice(raw)
			} catch {
				result.errors++
				return
			}
			const outcome = parseNotice(notice, options)
			if (outcome.kind === 'payment') result.payments.push(outcome.payment)
			else if (outcome.kind === 'ignored') result.ignored[outcome.reason]++
			else {
				const date = notice.date?.toISOString() ?? null
				result.unreadable.push({ subject: outcome.subject, sender: outcome.sender, date, reason: 'not_understood' })
			}
		},
		skip: (message: SkippedMessage) => {
			const sender = message.sender.toLowerCase()
			if (sender && (parserFor(sender) || own.has(sender))) {
				result.unreadable.push({ subject: message.subject, sender, date: message.date, reason: 'too_large' })
			} else result.ignored.unknown_sender++
		},
	}
}

/** Reads the new messages of an IMAP folder and parses each. */
export async function collectPayments(
	access: ImapAccess,
	cursor: MailboxCursor | null,
	options: Omit<ReadOptions, 'onSkipped'> & ParseOptions = {},
): Promise<CollectedNotices> {
	const collector = noticeCollector(options)
	const read = await readNewMessages(access, cursor, collector.add, { ...options, onSkipped: collector.skip })
	return { ...read, ...collector.result }
}
