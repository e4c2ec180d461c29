/** Small readers shared by the notice parsers. */

/** '$1,250.5' → '1250.50'; null when it is not an amount. */
export function money(text: string | undefined | null): string | null {
	if (!text) return null
	const match = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim())
	if (!match) return null
	const cents = (match[2] ?? '').padEnd(2, '0')
	const value = `${match[1]!.replace(/,/g, '')}.${cents}`
	return Number(value) > 0 ? value : null
}

/** The value after a label on its own line ("Memo: rent", or "Memo" then the value on the next line). */
export function labelled(text: string, labels: string[]): string | null {
	for (const label of labels) {
		const re = new RegExp(`^\\s*${label}\\s*[:#]?[ \\t]*(.*)$`, 'im')
		const match = re.exec(text)
		if (!match) continue
		const same = match[1]!.trim()
		if (same) return same
		const after = text
			.slice(match.index + match[0].length)
			.split('\n')
			.map((l) => l.trim())
			.find((l) => l !== '')
		if (after) return after
	}
	return null
}

/** A payer's name as written, tidied: spaces collapsed, trailing punctuation dropped. */
export function name(text: string | undefined | null): string | null {
	const value = (text ?? '')
		.replace(/\s+/g, ' ')
		.replace(/[.,:;!]+$/, '')
		.trim()
	return value.length > 0 && value.length <= 200 ? value : null
}

/** A memo, or null when empty. */
export function memo(text: string | undefined | null): string | null {
	const value = (text ?? '').replace(/\s+/g, ' ').trim()
	return value ? value.slice(0, 500) : null
}

/** Matches "®", "(R)" or nothing after "Zelle". */
export const ZELLE = 'Zelle(?:®|\\(R\\)|&reg;)?'
