/**
 * Reading a mailbox for the email sync (docs/product.md, Email sync): read-only (the folder is
 * opened with EXAMINE, bodies fetched with BODY.PEEK: nothing is changed, moved or marked),
 * only messages after the last UID seen while the folder's UIDVALIDITY stays the same, and on a
 * first sync (or after UIDVALIDITY changed) the messages of the last N days (default 90).
 * `collectPayments` runs each message through the notice parsers; it writes nothing.
 */
import { ImapFlow } from 'imapflow'
import { classifyImapError, imapClientOptions, type ImapAccess } from '../integrations.ts'
import { readNotice, type Notice } from './notice.ts'
import { parseNotice, type NoticePayment, type ParseOptions } from './parsers/index.ts'
import type { CheckFailure } from '#app/lib/integrations.ts'

export const DEFAULT_LOOKBACK_DAYS = 90
const FETCH_BATCH = 200

/** Where the last sync of a folder stopped. UIDVALIDITY is kept as text (it can exceed 2^53 in theory). */
export type MailboxCursor = { uidValidity: string; lastUid: number }

export type ReadOptions = { mailbox?: string; lookbackDays?: number; now?: Date }

export class MailboxError extends Error {
	constructor(readonly failure: CheckFailure, cause?: unknown) {
		super(`mailbox: ${failure}`, { cause })
	}
}

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
): Promise<{ cursor: MailboxCursor; read: number; reread: boolean }> {
	const client = new ImapFlow(imapClientOptions(access))
	client.on('error', () => undefined)
	try {
		await client.connect()
	} catch (error) {
		client.close()
		throw new MailboxError(classifyImapError(error), error)
	}
	try {
		const folder = await client.mailboxOpen(options.mailbox ?? 'INBOX', { readOnly: true })
		const uidValidity = String(folder.uidValidity)
		const top = Number(folder.uidNext) - 1
		const same = cursor !== null && cursor.uidValidity === uidValidity
		let uids: number[]
		if (same) {
			uids = cursor.lastUid < top ? ((await client.search({ uid: `${cursor.lastUid + 1}:*` }, { uid: true })) || []) : []
			uids = uids.filter((uid) => uid > cursor.lastUid)
		} else {
			const now = options.now ?? new Date()
			const since = new Date(now.getTime() - (options.lookbackDays ?? DEFAULT_LOOKBACK_DAYS) * 86_400_000)
			uids = folder.exists > 0 ? ((await client.search({ since }, { uid: true })) || []) : []
		}
		uids.sort((a, b) => a - b)
		let last = Math.max(same ? cursor.lastUid : 0, top)
		let read = 0
		// In batches: imapflow buffers a FETCH's answers faster than they are parsed, so one FETCH
		// of the whole mailbox would hold it all in memory.
		for (let i = 0; i < uids.length; i += FETCH_BATCH) {
			const batch = uids.slice(i, i + FETCH_BATCH)
			for await (const message of client.fetch(batch.join(','), { uid: true, source: true }, { uid: true })) {
				if (!message.source) continue
				await onMessage(message.source, message.uid)
				read++
				last = Math.max(last, message.uid)
			}
		}
		return { cursor: { uidValidity, lastUid: last }, read, reread: cursor !== null && !same }
	} catch (error) {
		if (error instanceof MailboxError) throw error
		throw new MailboxError(classifyImapError(error), error)
	} finally {
		await client.logout().catch(() => client.close())
	}
}

export type CollectedNotices = {
	cursor: MailboxCursor
	reread: boolean
	read: number
	payments: NoticePayment[]
	ignored: { outgoing: number; request: number; other: number; spoofed: number; unknown_sender: number }
	/** Notices of a known sender that could not be read: shown to the owner with their subject. */
	unreadable: Array<{ subject: string; sender: string; date: string | null }>
	/** Messages that could not even be parsed as MIME (counted, never imported). */
	errors: number
}

/**
 * Parses messages one by one into payments, ignored counts and the 'could not read' list: the
 * same for the IMAP reader and the Gmail reader (gmail-reader.ts).
 */
export function noticeCollector(options: ParseOptions = {}) {
	const result: Omit<CollectedNotices, 'cursor' | 'reread' | 'read'> = {
		payments: [],
		ignored: { outgoing: 0, request: 0, other: 0, spoofed: 0, unknown_sender: 0 },
		unreadable: [],
		errors: 0,
	}
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
			else result.unreadable.push({ subject: outcome.subject, sender: outcome.sender, date: notice.date?.toISOString() ?? null })
		},
	}
}

/** Reads the new messages of an IMAP folder and parses each. */
export async function collectPayments(
	access: ImapAccess,
	cursor: MailboxCursor | null,
	options: ReadOptions & ParseOptions = {},
): Promise<CollectedNotices> {
	const collector = noticeCollector(options)
	const read = await readNewMessages(access, cursor, collector.add, options)
	return { ...read, ...collector.result }
}
