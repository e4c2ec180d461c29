/**
 * Sending an invoice and its public page's link (docs/decisions/042-invoices-on-the-engine.md):
 * the token is made here, its SHA-256 goes to the database with a copy sealed by the server's key
 * (so staff can copy the link again), and public.send_invoice numbers the invoice and opens what
 * the matching engine waits for. Refusals come back as stable codes the screens explain.
 */
import { createHash, randomBytes } from 'node:crypto'
import { asUser, dbErrorCode, sql } from '../db/index.ts'
import { open, seal, SecretsKeyMissing } from '../secrets.ts'

/** An invoice page's token, as its address (/i/{token}) carries it. */
export const INVOICE_TOKEN = /^[0-9a-f]{64}$/

/** What a sealed page token is bound to: opened for another invoice's row, it fails. */
const tokenContext = (invoiceId: string) => `invoice-page-token:${invoiceId}`

/** Why a send is refused (public.send_invoice's codes). */
export const SEND_REFUSALS = ['not_found', 'module_inactive', 'invoice_not_draft', 'invoice_without_client', 'invoice_empty'] as const
export type SendRefusal = (typeof SEND_REFUSALS)[number]

function sealToken(invoiceId: string, token: string): string | null {
	try {
		return seal(token, tokenContext(invoiceId))
	} catch (error) {
		if (error instanceof SecretsKeyMissing) return null
		throw error
	}
}

/**
 * A new page token for the invoice `invoiceId` (one that may not exist yet: a recurring invoice is
 * made and sent in one statement): the token, its SHA-256 and its sealed copy (null without the
 * server's key), as public.send_invoice takes them.
 */
export function newPageToken(invoiceId: string): { token: string; hash: string; sealed: string | null } {
	const token = randomBytes(32).toString('hex')
	return { token, hash: createHash('sha256').update(token, 'utf8').digest('hex'), sealed: sealToken(invoiceId, token) }
}

/**
 * Sends a draft of the organization: its number and its page's token, or the refusal. An invoice
 * of another organization (even one the user belongs to) is not found: the screens act on the
 * current organization only.
 */
export async function sendInvoice(
	userId: string,
	organizationId: string,
	invoiceId: string,
): Promise<{ ok: true; number: number; token: string } | { ok: false; code: SendRefusal }> {
	const token = randomBytes(32).toString('hex')
	const hash = createHash('sha256').update(token, 'utf8').digest('hex')
	try {
		const number = await asUser(userId, async (trx) => {
			const mine = await sql`select 1 from public.invoices where id = ${invoiceId} and organization_id = ${organizationId}`.execute(trx)
			if (mine.rows.length === 0) throw Object.assign(new Error('not_found'), { code: 'P0001', message: 'not_found' })
			const { rows } = await sql<{ number: number }>`
				select public.send_invoice(${invoiceId}, ${hash}, ${sealToken(invoiceId, token)}) as number`.execute(trx)
			return rows[0]!.number
		})
		return { ok: true, number, token }
	} catch (error) {
		const code = dbErrorCode(error) ?? (error instanceof Error ? error.message : '')
		if ((SEND_REFUSALS as readonly string[]).includes(code)) return { ok: false, code: code as SendRefusal }
		throw error
	}
}

/** The token of a sent invoice's page, for a member to copy its link again; null for a draft or without the server's key. */
export async function invoicePageToken(userId: string, organizationId: string, invoiceId: string): Promise<string | null> {
	const sealed = await asUser(userId, async (trx) => {
		const { rows } = await sql<{ sealed: string | null }>`
			select public.invoice_sealed_token(i.id) as sealed from public.invoices i
			where i.id = ${invoiceId} and i.organization_id = ${organizationId}`.execute(trx)
		return rows[0]?.sealed ?? null
	})
	if (!sealed) return null
	try {
		return open(sealed, tokenContext(invoiceId))
	} catch {
		return null
	}
}

/** A sealed page token opened on the server (the reminders' pay link); null when it does not open (another key, another invoice's row). */
export function openPageToken(invoiceId: string, sealed: string): string | null {
	try {
		return open(sealed, tokenContext(invoiceId))
	} catch {
		return null
	}
}
