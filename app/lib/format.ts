import { dateTimeIn } from './dates.ts'
import { fallbackLanguage, isLanguage, type Language } from './i18n.ts'
import { zoneLabel } from './timezones.ts'

/**
 * Numbers, money and dates in the interface language (docs/decisions/022-formats-follow-the-language.md).
 *
 * - Money is always US dollars (the payments are US rails), written by the language's rules:
 *   "$1,234.50" (en), "1.234,50 US$" (es), "US$ 1.234,50" (pt-BR). Outside English "$" alone
 *   would read as the local peso, so Intl's "US$" is kept there.
 * - Thousands are always grouped ("1.400" too, not only from five digits as Spanish prose
 *   does), so figures in a column line up the same way in every language.
 * - Dates are MM/DD/YYYY in en and DD/MM/YYYY in es and pt-BR, built by hand from
 *   'YYYY-MM-DD' (no timezone shift, and the same text on the server and in the browser).
 *
 * Every function takes the language: components get it from `useFormat()`
 * (app/lib/use-format.ts), server code (loaders, CSV, emails) passes the request's or the
 * recipient's language. Amounts arrive from the database as strings (numeric), dates as
 * 'YYYY-MM-DD'.
 */

/** An interface language for the formatters: a supported one, else the fallback (en). */
export function formatLanguage(lng: string | null | undefined): Language {
	return isLanguage(lng) ? lng : fallbackLanguage
}

/**
 * A stored amount ("1234.50") as an edit field shows it: with a decimal comma in es and pt-BR
 * ("1234,50", which the amount rules read back: decimalCommaToDot), as typed there.
 */
export function editableAmount(value: string, lng: string | null | undefined) {
	return formatLanguage(lng) === 'en' ? value : value.replace('.', ',')
}

/** Intl's locale for a language: plain 'en' is US English in Intl. */
function intlLocale(lng: string | null | undefined) {
	return formatLanguage(lng)
}

const cache = new Map<string, Intl.NumberFormat>()
function numberFormat(lng: string | null | undefined, kind: 'money' | 'wholeMoney' | 'number' | 'percent' | 'compactMoney') {
	const locale = intlLocale(lng)
	const key = `${locale}:${kind}`
	let format = cache.get(key)
	if (!format) {
		const options: Intl.NumberFormatOptions = { useGrouping: 'always' }
		if (kind === 'money') Object.assign(options, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 })
		if (kind === 'wholeMoney')
			Object.assign(options, { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 })
		if (kind === 'compactMoney')
			Object.assign(options, { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 })
		if (kind === 'percent') Object.assign(options, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 })
		format = new Intl.NumberFormat(locale, options)
		cache.set(key, format)
	}
	return format
}

function toNumber(amount: string | number | null | undefined) {
	const value = typeof amount === 'string' ? Number(amount) : (amount ?? 0)
	return Number.isFinite(value) ? value : 0
}

/** US dollars with 2 decimals in the language's way: "$1,234.50", "1.234,50 US$", "US$ 1.234,50". */
export function formatMoney(amount: string | number | null | undefined, lng: string | null | undefined) {
	return numberFormat(lng, 'money').format(toNumber(amount))
}

/** Whole US dollars (plan prices): "$29", "29 US$", "US$ 29". */
export function formatWholeMoney(amount: number, lng: string | null | undefined) {
	return numberFormat(lng, 'wholeMoney').format(toNumber(amount))
}

/** Short US dollars for chart axes: "$12.5K", "12,5 mil US$", "US$ 12,5 mil". */
export function formatCompactMoney(amount: number, lng: string | null | undefined) {
	return numberFormat(lng, 'compactMoney').format(toNumber(amount))
}

/** A count (transactions, gears): "14,000", "14.000". */
export function formatNumber(value: number, lng: string | null | undefined) {
	return numberFormat(lng, 'number').format(value)
}

/**
 * A message's values with their numbers in the language's format ("You need 1.000 gears"),
 * except `count`, which i18next needs as a number to choose the plural.
 */
export function formatValues(values: Record<string, string | number> | undefined, lng: string | null | undefined) {
	if (!values) return values
	return Object.fromEntries(
		Object.entries(values).map(([key, value]) => [key, typeof value === 'number' && key !== 'count' ? formatNumber(value, lng) : value]),
	)
}

/** A fraction as a percentage with one decimal: "45.1%", "45,1 %", "45,1%". */
export function formatPercent(fraction: number, lng: string | null | undefined) {
	return numberFormat(lng, 'percent').format(fraction)
}

/**
 * 'HH:MM' (24-hour; seconds dropped) as each language writes a time: 2:05 PM in en, 14:05 in es
 * and pt-BR. What follows the time is kept: on a day the clocks change the calendar writes
 * "01:30 (UTC-04:00)", and the offset is what tells the two 1:30s apart.
 */
export function formatTime(hhmm: string, lng: string | null | undefined) {
	const match = /^(\d{2}):(\d{2})(?::\d{2})?(.*)$/s.exec(hhmm)
	if (!match) return hhmm
	const rest = match[3] ?? ''
	if (formatLanguage(lng) !== 'en') return `${match[1]}:${match[2]}${rest}`
	// "24:00" (a day's end in business hours) is midnight: 12:00 AM.
	const hour = Number(match[1]) % 24
	return `${hour % 12 === 0 ? 12 : hour % 12}:${match[2]} ${hour < 12 ? 'AM' : 'PM'}${rest}`
}

/** The order of day, month and year in each language's numeric dates. */
const DATE_ORDER: Record<Language, 'mdy' | 'dmy'> = { en: 'mdy', es: 'dmy', 'pt-BR': 'dmy' }

/** 'YYYY-MM-DD' (or a Date, or a timestamp) as MM/DD/YYYY (en) or DD/MM/YYYY (es, pt-BR), without shifting through the local timezone. */
export function formatDate(value: string | Date | null | undefined, lng: string | null | undefined) {
	if (!value) return ''
	const iso = value instanceof Date ? value.toISOString().slice(0, 10) : value.slice(0, 10)
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
	if (!match) return ''
	const [, y, m, d] = match
	return DATE_ORDER[formatLanguage(lng)] === 'dmy' ? `${d}/${m}/${y}` : `${m}/${d}/${y}`
}

/** How much of the day an instant's text carries: a weekday and month in words, the month abbreviated, digits, or none. */
export type InstantDate = 'full' | 'medium' | 'numeric' | 'none'

const dayFormats = new Map<string, Intl.DateTimeFormat>()

/** The day of an instant in a zone as Intl writes it ('full', 'medium'); the zone falls back to UTC when Intl does not know it. */
function dayInWords(instant: Date, zone: string, lng: Language, style: 'full' | 'medium') {
	const key = `${lng}\u0000${zone}\u0000${style}`
	let format = dayFormats.get(key)
	if (!format) {
		try {
			format = new Intl.DateTimeFormat(intlLocale(lng), { dateStyle: style, timeZone: zone })
		} catch {
			format = new Intl.DateTimeFormat(intlLocale(lng), { dateStyle: style, timeZone: 'UTC' })
		}
		// Languages and zones come from a bounded set (settings, the visitor's choice); the cap guards against a flood.
		if (dayFormats.size < 1000) dayFormats.set(key, format)
	}
	return format.format(instant)
}

function dayOf(instant: Date, zone: string, lng: Language, date: Exclude<InstantDate, 'none'>) {
	return date === 'numeric' ? formatDate(dateTimeIn(zone, instant).date, lng) : dayInWords(instant, zone, lng, date)
}

const asDate = (instant: string | Date) => (instant instanceof Date ? instant : new Date(instant))

/**
 * An instant as a day and a wall-clock time in a zone, with THE time format of the language
 * (formatTime: "2:05 PM" in en, "14:05" in es and pt-BR), on the server (mails, staff notices,
 * reminders) and in the browser alike: "Saturday, December 5, 2026, 2:05 PM", "5 dic 2026, 14:05",
 * "12/05/2026 2:05 PM", or the time alone (`date: 'none'`). An unknown zone reads as UTC.
 */
export function formatInstant(instant: string | Date, zone: string, lng: string | null | undefined, options: { date?: InstantDate } = {}) {
	const language = formatLanguage(lng)
	const at = asDate(instant)
	const time = formatTime(dateTimeIn(zone, at).time, language)
	const date = options.date ?? 'medium'
	if (date === 'none') return time
	return date === 'numeric' ? `${dayOf(at, zone, language, date)} ${time}` : `${dayOf(at, zone, language, date)}, ${time}`
}

/**
 * A span of time in a zone, the day once: "Saturday, December 5, 2026, 7:00 AM–8:00 AM" (the end's
 * day too when it ends on another one), in the language's one time format (`formatInstant`).
 */
export function formatInstantRange(
	start: string | Date,
	end: string | Date,
	zone: string,
	lng: string | null | undefined,
	options: { date?: InstantDate } = {},
) {
	const date = options.date ?? 'full'
	const sameDay = dateTimeIn(zone, asDate(start)).date === dateTimeIn(zone, asDate(end)).date
	const last = formatInstant(end, zone, lng, { date: sameDay ? 'none' : date === 'none' ? 'medium' : date })
	return `${formatInstant(start, zone, lng, { date })}–${last}`
}

const zoneNames = new Map<string, string>()

/**
 * A zone named in words in the language ("Pacific Time (Los Angeles)", zoneLabel of
 * app/lib/timezones.ts), made once per zone and language: a reminders tick names zones thousands
 * of times.
 */
export function zoneName(zone: string, lng: string | null | undefined) {
	const language = formatLanguage(lng)
	const key = `${language}\u0000${zone}`
	let name = zoneNames.get(key)
	if (name === undefined) {
		name = zoneLabel(zone, language)
		if (zoneNames.size < 1000) zoneNames.set(key, name)
	}
	return name
}

/** An instant with its zone named, as staff notices and labels write a booking time: "Dec 5, 2026, 10:00 AM Eastern Time (New York)". */
export function formatZonedInstant(
	instant: string | Date,
	zone: string,
	lng: string | null | undefined,
	options: { date?: InstantDate } = {},
) {
	return `${formatInstant(instant, zone, lng, options)} ${zoneName(zone, lng)}`
}
