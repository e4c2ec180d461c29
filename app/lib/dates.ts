/**
 * Calendar dates as 'YYYY-MM-DD' strings, with integer arithmetic (no local timezone involved).
 *
 * Every date that enters from a request (a report range, an export, a saved row) goes through
 * `parseIsoDate`, so every screen accepts the same years, and every loop over months or days
 * works on a span that is bounded by `DATE_MIN` and `DATE_MAX`.
 */

/** The earliest and latest dates the product accepts anywhere. */
export const DATE_MIN = '1900-01-01'
export const DATE_MAX = '2100-12-31'

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A real calendar date between DATE_MIN and DATE_MAX written as YYYY-MM-DD, else null. */
export function parseIsoDate(value: unknown): string | null {
	if (typeof value !== 'string' || value.length !== 10) return null
	const match = ISO_DATE.exec(value)
	if (!match) return null
	const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
	if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null
	if (value < DATE_MIN || value > DATE_MAX) return null
	return value
}

/** Whether the text is a date `parseIsoDate` accepts (for zod refinements). */
export function isValidDate(value: string) {
	return parseIsoDate(value) !== null
}

function daysInMonth(year: number, month: number) {
	return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

function parts(iso: string): [number, number, number] {
	return [Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), Number(iso.slice(8, 10))]
}

function isoOf(year: number, month: number, day: number) {
	return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** The first day of the date's month. */
export function monthStart(iso: string) {
	return `${iso.slice(0, 7)}-01`
}

/** The first day of the month `n` months after the date's month (n may be negative). */
export function addMonths(iso: string, n: number) {
	const [y, m] = parts(iso)
	const index = y * 12 + (m - 1) + n
	return isoOf(Math.floor(index / 12), (index % 12) + 1, 1)
}

/** The last day of the date's month. */
export function monthEnd(iso: string) {
	const [y, m] = parts(iso)
	return isoOf(y, m, daysInMonth(y, m))
}

/** The date `n` days after (or before, when negative) the date. */
export function addDays(iso: string, n: number) {
	const [y, m, d] = parts(iso)
	return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10)
}

/** The day before the date. */
export function previousDay(iso: string) {
	const [y, m, d] = parts(iso)
	if (d > 1) return isoOf(y, m, d - 1)
	return monthEnd(addMonths(iso, -1))
}

/** Whole months from one month's first day to another's (negative when `to` is earlier). */
export function monthsBetween(fromMonth: string, toMonth: string) {
	const [fy, fm] = parts(fromMonth)
	const [ty, tm] = parts(toMonth)
	return (ty - fy) * 12 + (tm - fm)
}

/** How many months DATE_MIN to DATE_MAX spans: the longest walk over months there can be. */
export const MONTHS_IN_DATE_RANGE = monthsBetween(monthStart(DATE_MIN), monthStart(DATE_MAX)) + 1

/**
 * The first days of the months from `first` to `last`, inclusive, at most `limit` of them: a
 * loop over months that ends whatever the inputs (months are compared by count, not as text,
 * so year 10000 cannot sort before year 9999).
 */
export function monthsFrom(first: string, last: string, limit: number) {
	const count = Math.min(monthsBetween(monthStart(first), monthStart(last)) + 1, limit)
	return Array.from({ length: Math.max(count, 0) }, (_, i) => addMonths(first, i))
}

/**
 * A formatter of calendar days and wall-clock times per timezone, made once: building an
 * `Intl.DateTimeFormat` costs far more than using one, and every page asks for today. `null` for
 * a name Intl does not know.
 */
const dayFormatters = new Map<string, Intl.DateTimeFormat | null>()

function dayFormatterFor(timeZone: string) {
	let formatter = dayFormatters.get(timeZone)
	if (formatter === undefined) {
		try {
			formatter = new Intl.DateTimeFormat('en-US', {
				timeZone,
				year: 'numeric',
				month: '2-digit',
				day: '2-digit',
				hour: '2-digit',
				minute: '2-digit',
				hourCycle: 'h23',
			})
		} catch {
			formatter = null
		}
		// Timezone names come from saved settings, a bounded set; the cap guards against a flood.
		if (dayFormatters.size < 1000) dayFormatters.set(timeZone, formatter)
	}
	return formatter
}

/** Whether Intl knows the timezone name (the ones a visitor may show times in, say). */
export function isTimeZone(value: string) {
	return value.length <= 64 && dayFormatterFor(value) !== null
}

/** The date of an instant (today by default) in a timezone (UTC when the name is unknown). */
export function dateIn(timeZone: string, instant: Date = new Date()) {
	return dateTimeIn(timeZone, instant).date
}

/**
 * The last answer per timezone: a page asks for today (this minute) again and again. Every
 * timezone's offset since 1973 is a whole number of minutes (Monrovia's -0:44:30 ended in 1972),
 * so one answer holds for a whole minute from then on.
 */
const lastByZone = new Map<string, { minute: number; value: { date: string; time: string } }>()
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1973, 0, 1) / 60_000

/**
 * The date (YYYY-MM-DD) and wall-clock time (HH:mm, 24 hours) of an instant in a timezone (UTC
 * when the name is unknown): what a screen shows of a moment, in the organization's time.
 */
export function dateTimeIn(timeZone: string, instant: Date = new Date()) {
	const formatter = dayFormatterFor(timeZone)
	if (!formatter) {
		const iso = instant.toISOString()
		return { date: iso.slice(0, 10), time: iso.slice(11, 16) }
	}
	const minute = Math.floor(instant.getTime() / 60_000)
	const last = minute >= WHOLE_MINUTE_OFFSETS_SINCE ? lastByZone.get(timeZone) : undefined
	if (last?.minute === minute) return { ...last.value }
	const parts = formatter.formatToParts(instant)
	const value = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? ''
	const answer = {
		date: `${value('year').padStart(4, '0')}-${value('month')}-${value('day')}`,
		time: `${value('hour')}:${value('minute')}`,
	}
	if (minute >= WHOLE_MINUTE_OFFSETS_SINCE && (lastByZone.size < 1000 || lastByZone.has(timeZone)))
		lastByZone.set(timeZone, { minute, value: answer })
	return { ...answer }
}
