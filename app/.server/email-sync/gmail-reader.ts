/**
 * Reading a Gmail mailbox for the email sync through the Gmail API: the connection's scope is
 * gmail.readonly, which Google's IMAP does not accept (docs/decisions/015-integration-secrets.md).
 * Read-only by scope; messages newer than the cursor (a first sync: the last N days), oldest
 * first, each as its raw RFC 5322 source, the same input the IMAP reader gives the parsers.
 */
import { DEFAULT_LOOKBACK_DAYS, MailboxError } from './mailbox.ts'

/** The newest internal date read (seconds) and the ids read within that second. */
export type GmailCursor = { after: number; edgeIds: string[] }

export type GmailReadOptions = { lookbackDays?: number; now?: Date; baseUrl?: string }

async function call<T>(url: string, token: string): Promise<T> {
	let response: Response
	try {
		response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(15_000) })
	} catch (error) {
		throw new MailboxError((error as { name?: string }).name === 'TimeoutError' ? 'timeout' : 'unreachable', error)
	}
	if (response.status === 401 || response.status === 403) throw new MailboxError('auth')
	if (!response.ok) throw new MailboxError('protocol')
	return (await response.json()) as T
}

export async function readGmailMessages(
	token: string,
	cursor: GmailCursor | null,
	onMessage: (raw: Buffer, id: string) => Promise<void> | void,
	options: GmailReadOptions = {},
): Promise<{ cursor: GmailCursor; read: number }> {
	const base = `${options.baseUrl ?? 'https://gmail.googleapis.com'}/gmail/v1/users/me/messages`
	const now = options.now ?? new Date()
	const after = cursor?.after ?? Math.floor((now.getTime() - (options.lookbackDays ?? DEFAULT_LOOKBACK_DAYS) * 86_400_000) / 1000)
	// Gmail's after: counts whole seconds; the messages already read in the last second are skipped by id.
	const ids: string[] = []
	let pageToken: string | undefined
	do {
		const params = new URLSearchParams({ q: `after:${Math.max(0, after - 1)}`, maxResults: '500' })
		if (pageToken) params.set('pageToken', pageToken)
		const page = await call<{ messages?: Array<{ id: string }>; nextPageToken?: string }>(`${base}?${params}`, token)
		for (const m of page.messages ?? []) ids.push(m.id)
		pageToken = page.nextPageToken
	} while (pageToken)
	const skip = new Set(cursor?.edgeIds ?? [])
	let newest = { after, edgeIds: [...skip] }
	let read = 0
	// The list is newest first: read oldest first, so a failure halfway keeps a usable cursor.
	for (const id of ids.reverse()) {
		if (skip.has(id)) continue
		const message = await call<{ raw: string; internalDate: string }>(`${base}/${encodeURIComponent(id)}?format=raw`, token)
		const seconds = Math.floor(Number(message.internalDate) / 1000)
		if (cursor && seconds < cursor.after) continue
		await onMessage(Buffer.from(message.raw, 'base64url'), id)
		read++
		if (seconds > newest.after) newest = { after: seconds, edgeIds: [id] }
		else if (seconds === newest.after) newest = { after: seconds, edgeIds: [...newest.edgeIds, id] }
	}
	return { cursor: newest, read }
}
