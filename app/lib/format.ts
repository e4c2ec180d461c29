/**
 * docs/product.md, Limits and formats: money in US dollars with 2 decimals, dates as MM/DD/YYYY in the staff app.
 * Amounts arrive from the database as strings (numeric), dates as 'YYYY-MM-DD'.
 */
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 })

export function formatMoney(amount: string | number | null | undefined) {
	const value = typeof amount === 'string' ? Number(amount) : (amount ?? 0)
	return usd.format(Number.isFinite(value) ? value : 0)
}

/** 'YYYY-MM-DD' (or a Date) as MM/DD/YYYY, without shifting through the local timezone. */
export function formatDate(value: string | Date | null | undefined) {
	if (!value) return ''
	const iso = value instanceof Date ? value.toISOString().slice(0, 10) : value.slice(0, 10)
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
	return match ? `${match[2]}/${match[3]}/${match[1]}` : ''
}

// Building an Intl formatter costs far more than formatting with one: one per locale, kept.
const numberFormats = new Map<string, Intl.NumberFormat>()
const percentFormats = new Map<string, Intl.NumberFormat>()

function cached(cache: Map<string, Intl.NumberFormat>, locale: string, make: () => Intl.NumberFormat) {
	let format = cache.get(locale)
	if (!format) {
		format = make()
		// Locales come from a short list; the bound only guards against a caller passing anything.
		if (cache.size < 50) cache.set(locale, format)
	}
	return format
}

export function formatNumber(value: number, locale = 'en-US') {
	return cached(numberFormats, locale, () => new Intl.NumberFormat(locale)).format(value)
}

export function formatPercent(fraction: number, locale = 'en-US') {
	return cached(percentFormats, locale, () => new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 })).format(fraction)
}
