/**
 * Reading a Gmail mailbox for the email sync through the Gmail API: the connection's scope is
 * gmail.readonly, which Google's IMAP does not accept (docs/decisions/015-integration-secrets.md).
 * Read-only by scope; messages newer than the cursor (a first sync: the last N days), oldest
 * first, each as its raw RFC 5322 source, the same input the IMAP reader gives the parsers.
 *
 * Bounded like the IMAP reader (app/.server/outbound.ts): each call has a deadline and a cap on
 * its answer; a message whose raw form passes the cap is not read (its headers are, to list it);
 * the run stops at its time or byte budget, or the caller's signal, with the cursor at the last
 * message handled and `more`, so the next run goes on.
 */
import { OUTBOUND, OutboundError, deadlineSignal, outboundFetch } from '../../outbound.ts'
import { DEFAULT_LOOKBACK_DAYS, MailboxError, syncLimits, type SkippedMessage } from './mailbox.ts'
import type { CheckFailure } from '#app/lib/integrations.ts'

/** The newest internal date read (seconds) and the ids read within that second. */
export type GmailCursor = { after: number; edgeIds: string[] }

export type GmailReadOptions = {
	lookbackDays?: number
	now?: Date
	baseUrl?: string
	/** The caller's own deadline (the scheduler's). */
	signal?: AbortSignal
	/** The run's time and byte budgets (default: the schedule's, syncLimits). */
	limits?: { deadlineMs: number; runBytes: number }
	/** Called for each message not read for its size, with its headers. */
	onSkipped?: (message: SkippedMessage) => void
}

export type GmailReadResult = { cursor: GmailCursor; read: number; more: boolean; failure: CheckFailure | null }

/** The card's failure for an outbound call that did not work out. */
function failureOf(error: unknown): CheckFailure {
	if (error instanceof MailboxError) return error.failure
	if (error instanceof OutboundError) {
		if (error.reason === 'timeout') return 'timeout'
		if (error.reason === 'too_large' || error.reason === 'invalid') return 'protocol'
		return 'unreachable'
	}
	return 'protocol'
}

async function call<T>(url: string, token: string, signal: AbortSignal, maxBytes: number = OUTBOUND.google.maxBytes): Promise<T> {
	const limits = { timeoutMs: OUTBOUND.google.timeoutMs, maxBytes, signal }
	const response = await outboundFetch(url, { headers: { authorization: `Bearer ${token}` } }, limits)
	if (response.status === 401 || response.status === 403) throw new MailboxError('auth')
	if (!response.ok) throw new MailboxError('protocol')
	return response.json<T>()
}

type MetadataMessage = { internalDate?: string; sizeEstimate?: number; payload?: { headers?: Array<{ name: string; value: string }> } }

/** The envelope of a message not read for its size, from its headers (format=metadata). */
function skippedFrom(message: MetadataMessage): SkippedMessage {
	const header = (name: string) => message.payload?.headers?.find((h) => h.name.toLowerCase() === name)?.value ?? ''
	const from = header('from')
	const date = new Date(header('date') || Number(message.internalDate ?? NaN))
	return {
		subject: header('subject'),
		sender: (/<([^>]+)>/.exec(from)?.[1] ?? from).trim().toLowerCase(),
		date: Number.isNaN(date.getTime()) ? null : date.toISOString(),
		size: message.sizeEstimate ?? 0,
	}
}

export async function readGmailMessages(
	token: string,
	cursor: GmailCursor | null,
	onMessage: (raw: Buffer, id: string) => Promise<void> | void,
	options: GmailReadOptions = {},
): Promise<GmailReadResult> {
	const limits = options.limits ?? syncLimits('schedule')
	const stop = deadlineSignal(limits.deadlineMs, options.signal)
	const base = `${options.baseUrl ?? 'https://gmail.googleapis.com'}/gmail/v1/users/me/messages`
	const now = options.now ?? new Date()
	const after = cursor?.after ?? Math.floor((now.getTime() - (options.lookbackDays ?? DEFAULT_LOOKBACK_DAYS) * 86_400_000) / 1000)
	const skip = new Set(cursor?.edgeIds ?? [])
	let newest = { after, edgeIds: [...skip] }
	let read = 0
	let bytes = 0
	const handled = (id: string, seconds: number) => {
		read++
		if (seconds > newest.after) newest = { after: seconds, edgeIds: [id] }
		else if (seconds === newest.after) newest = { after: seconds, edgeIds: [...newest.edgeIds, id] }
	}
	try {
		// Gmail's after: counts whole seconds; the messages already read in the last second are skipped by id.
		const ids: string[] = []
		let pageToken: string | undefined
		do {
			const params = new URLSearchParams({ q: `after:${Math.max(0, after - 1)}`, maxResults: '500' })
			if (pageToken) params.set('pageToken', pageToken)
			const page = await call<{ messages?: Array<{ id: string }>; nextPageToken?: string }>(`${base}?${params}`, token, stop)
			for (const m of page.messages ?? []) ids.push(m.id)
			pageToken = page.nextPageToken
		} while (pageToken)
		// The list is newest first: read oldest first, so a run that stops halfway keeps a usable cursor.
		for (const id of ids.reverse()) {
			if (skip.has(id)) continue
			if (bytes >= limits.runBytes) return { cursor: newest, read, more: true, failure: null }
			const url = `${base}/${encodeURIComponent(id)}`
			let message: { raw: string; internalDate: string }
			try {
				message = await call(`${url}?format=raw`, token, stop, OUTBOUND.google.maxMessageResponseBytes)
			} catch (error) {
				if (!(error instanceof OutboundError && error.reason === 'too_large')) throw error
				// Bigger than a payment notice can be: listed by its headers, never read.
				const headers = 'metadataHeaders=Subject&metadataHeaders=From&metadataHeaders=Date'
				const meta = await call<MetadataMessage>(`${url}?format=metadata&${headers}`, token, stop)
				const seconds = Math.floor(Number(meta.internalDate) / 1000)
				if (cursor && seconds < cursor.after) continue
				options.onSkipped?.(skippedFrom(meta))
				handled(id, seconds)
				continue
			}
			const seconds = Math.floor(Number(message.internalDate) / 1000)
			if (cursor && seconds < cursor.after) continue
			const raw = Buffer.from(message.raw, 'base64url')
			bytes += raw.length
			await onMessage(raw, id)
			handled(id, seconds)
		}
	} catch (error) {
		// Nothing handled: the run failed. Else it keeps what it read (the next run goes on).
		if (read === 0) throw error instanceof MailboxError ? error : new MailboxError(stop.aborted ? 'timeout' : failureOf(error), error)
		return { cursor: newest, read, more: true, failure: stop.aborted ? null : failureOf(error) }
	}
	return { cursor: newest, read, more: false, failure: null }
}
