/**
 * How a public request reaches an invoice by its page's token (/i/{token} and its PDF; docs/security.md,
 * Public pages by token): a malformed token and a token of no invoice are the same miss, and an
 * address that misses LIMITS['invoice-page-miss'] times in the window is refused for a while,
 * valid tokens included (so the refusal says nothing of them). A client who opens their own link
 * never misses, however often they open it.
 */
import { countEvents, LIMITS, recordEvent } from '../rate-limit.ts'
import { getPublicInvoice, type PublicInvoice } from './public-page.ts'

const MISS = 'invoice-page-miss'

/** The invoice of `token` for a request from `address`, or why there is none to show. */
export async function openPublicInvoice(
	token: string,
	address: string,
): Promise<{ ok: true; invoice: PublicInvoice } | { ok: false; code: 'notFound' | 'rateLimited' }> {
	const { limit, windowMinutes } = LIMITS[MISS]
	if ((await countEvents(MISS, address, windowMinutes)) >= limit) return { ok: false, code: 'rateLimited' }
	const invoice = await getPublicInvoice(token)
	if (invoice) return { ok: true, invoice }
	await recordEvent(MISS, address)
	return { ok: false, code: 'notFound' }
}
