import { asUser, dbErrorCode, sql } from '../db/index.ts'
import { isCrmError, type CrmError } from './access.ts'

/**
 * CRM Basic Fields on one client (docs/product.md, Clients › Tags and notes): their tags and
 * their notes timeline. Writes go through SQL functions that check the upgrade, the membership and
 * (for deleting another member's note) the role, with stable codes.
 */

export type CrmOutcome<T = void> = { ok: true; value: T } | { ok: false; code: CrmError }

/** Runs a CRM write as the member; a stable refusal comes back as its code, anything else throws. */
export async function crmCall<T>(userId: string, fn: Parameters<typeof asUser<T>>[1]): Promise<CrmOutcome<T>> {
	try {
		return { ok: true, value: await asUser(userId, fn) }
	} catch (error) {
		const code = dbErrorCode(error)
		if (isCrmError(code)) return { ok: false, code }
		// A malformed uuid or date reaching SQL is a client's row that does not exist.
		if (code === '22P02') return { ok: false, code: 'not_found' }
		if (code === '22008' || code === '22007') return { ok: false, code: 'date_invalid' }
		throw error
	}
}

/** Tags as typed in one field: separated by commas. */
export function splitTags(text: string): string[] {
	return text
		.split(',')
		.map((t) => t.trim())
		.filter(Boolean)
}

export function setClientTags(userId: string, clientId: string, tags: string[]) {
	return crmCall(userId, async (trx) => {
		const { rows } = await sql<{ tags: string[] }>`select public.set_client_tags(${clientId}, ${tags}::text[]) as tags`.execute(trx)
		return rows[0]!.tags
	})
}

export type ClientNote = { id: string; body: string; createdAt: string; authorName: string | null; mine: boolean }

/** A client's notes, newest first, with their authors' names; `mine` when the member may delete it. */
export async function listClientNotes(userId: string, organizationId: string, clientId: string, canDeleteAny: boolean) {
	const { rows } = await asUser(userId, (trx) =>
		sql<{ id: string; body: string; created_at: Date; author_id: string | null; author_name: string | null }>`
			select n.id, n.body, n.created_at, n.author_id, nullif(p.full_name, '') as author_name
			from public.client_notes n left join public.profiles p on p.user_id = n.author_id
			where n.organization_id = ${organizationId} and n.client_id = ${clientId}
			order by n.created_at desc, n.id desc limit 200`.execute(trx),
	)
	return rows.map((r): ClientNote => ({
		id: r.id,
		body: r.body,
		createdAt: new Date(r.created_at).toISOString(),
		authorName: r.author_name,
		mine: canDeleteAny || r.author_id === userId,
	}))
}

export function addClientNote(userId: string, clientId: string, body: string) {
	return crmCall(userId, async (trx) => {
		const { rows } = await sql<{ id: string }>`select public.add_client_note(${clientId}, ${body}) as id`.execute(trx)
		return rows[0]!.id
	})
}

export function deleteClientNote(userId: string, noteId: string) {
	return crmCall(userId, async (trx) => {
		await sql`select public.delete_client_note(${noteId})`.execute(trx)
	})
}
