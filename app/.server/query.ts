import type { Tx } from './db/index.ts'
import type { Membership } from './organizations/current.ts'
import { dateIn } from '#app/lib/dates.ts'
import { checkSortAndPage, MAX_PAGE, type SortDirection } from '#app/lib/table-params.ts'

/**
 * What every list service shares: page sizes and caps, the one reading of sort, direction and
 * page (the URL's values may be anything), search text made safe for ilike, and the
 * organization's "today".
 */

export { MAX_PAGE, type SortDirection }

export const DEFAULT_PAGE_SIZE = 25
export const MAX_PAGE_SIZE = 100
/** An exact count past this many matching rows is not worth a scan: the total shows as "10,000+". */
export const COUNT_CAP = 10_000

/** An integer between min and max; anything else (null, NaN, Infinity) gives the fallback. */
export function clamp(value: number | null | undefined, min: number, max: number, fallback: number) {
	if (value === null || value === undefined || !Number.isFinite(value)) return fallback
	return Math.min(Math.max(Math.trunc(value), min), max)
}

export type PageOptions<S extends string> = {
	sort?: S | null
	dir?: SortDirection | null
	page?: number | null
	pageSize?: number | null
}

/**
 * A list's sort, direction, page and page size, each checked: an unknown sort falls back to
 * the default, a missing direction to the default's (for the default sort) or ascending.
 */
export function readPaging<S extends string>(
	options: PageOptions<S>,
	sorts: readonly S[],
	defaults: { readonly sort: S; readonly dir: SortDirection },
) {
	const pageSize = clamp(options.pageSize, 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE)
	const { sort, dir, page } = checkSortAndPage(options, sorts, defaults)
	return { sort, dir, page, pageSize, offset: (page - 1) * pageSize }
}

/** The search text made literal for ilike (% _ and \ lose their meaning). */
export function likePattern(text: string) {
	return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** A search as typed, trimmed, its runs of spaces made one, capped at 200 characters; null when empty. */
export function normalizeSearch(q: string | null | undefined) {
	const text = (q ?? '').trim().replace(/\s+/g, ' ').slice(0, 200)
	return text.length > 0 ? text : null
}

/**
 * The organization's timezone (booking_settings, UTC by default) and today's date there. A
 * caller that knows the timezone (a loader: the member read by the /app layout carries it) passes
 * it, and nothing is read.
 */
export async function organizationClock(trx: Tx, organizationId: string, now = new Date(), knownTimezone?: string) {
	const timezone =
		knownTimezone ??
		((await trx.selectFrom('booking_settings').select('timezone').where('organization_id', '=', organizationId).executeTakeFirst())
			?.timezone ||
			'UTC')
	return { timezone, today: dateIn(timezone, now) }
}

/** The clock of the member's current organization, for a loader: nothing to read. */
export function memberClock(organization: Pick<Membership, 'timezone'>, now = new Date()) {
	return { timezone: organization.timezone, today: dateIn(organization.timezone, now) }
}

/** Letters with no decomposition that the unaccent dictionary still maps, in lower case. */
const UNACCENTED: Record<string, string> = {
	æ: 'ae',
	ð: 'd',
	ø: 'o',
	þ: 'th',
	ß: 'ss',
	đ: 'd',
	ħ: 'h',
	ı: 'i',
	ĳ: 'ij',
	ĸ: 'q',
	ŀ: 'l',
	ł: 'l',
	ŋ: 'n',
	œ: 'oe',
	ŧ: 't',
	ſ: 's',
}

/**
 * A person's name as matching compares it, as `public.payer_key` in SQL: lowercased, without
 * accents ("JOSÉ NÚÑEZ" is "jose nunez", as the unaccent dictionary has it for Latin letters),
 * trimmed, inner spaces collapsed (an import's payer against clients and aliases, a client's
 * namesakes). tests/db/imports.test.ts compares the two.
 */
export function payerKey(name: string) {
	return name
		.toLowerCase()
		.normalize('NFD')
		.replace(/[\u0300-\u0362]/g, '')
		.replace(/[æðøþßđħıĳĸŀłŋœŧſ]/g, (c) => UNACCENTED[c]!)
		.normalize('NFC')
		.replace(/\s+/g, ' ')
		.trim()
}
