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

/**
 * The bank's own sentences that follow an empty memo in a notice ("… is registered with
 * Zelle", "The money is in your account"): never the payer's words.
 */
const BANK_SENTENCE = /\bZelle\b|registered|deposited|your account|enroll|^N\/?A$/i

/**
 * A memo after its label: on the label's line ("Memo: rent", "Memo rent"), or on the line
 * right under it ("Memo" then "rent", as an HTML notice reads). An empty memo is null: the
 * line under it is taken only when no blank line parts them and it is not the bank's own
 * sentence, so an empty memo never becomes the notice's boilerplate.
 */
export function labelledMemo(text: string, labels: string[]): string | null {
	for (const label of labels) {
		const re = new RegExp(`^[ \\t*]*${label}(?!\\w)[ \\t*]*[:#]?[ \\t]*(.*)$`, 'im')
		const match = re.exec(text)
		if (!match) continue
		const same = match[1]!.replace(/^\*+|\*+$/g, '').trim()
		if (same) return same
		const next = text
			.slice(match.index + match[0].length)
			.split('\n')[1]
			?.trim()
		if (!next || BANK_SENTENCE.test(next) || /^[A-Z][\w ]{1,30}:/.test(next)) return null
		return next
	}
	return null
}

/** A payer's name as written, tidied: spaces collapsed, trailing punctuation dropped. */
export function name(text: string | undefined | null): string | null {
	// Gmail's text rendering marks bold with asterisks ("*Jane Doe*").
	const value = (text ?? '')
		.replace(/\s+/g, ' ')
		.replace(/^[\s*]+|[\s*]+$/g, '')
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
