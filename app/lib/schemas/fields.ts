/** Rules of fields that several forms share (kept apart so that a public page loads only these). */

/** A phone number as people write one: digits, spaces, +, -, dots and parentheses. */
export const PHONE = /^[0-9+()\-. ]{3,40}$/

/**
 * An amount written with a decimal comma, as Spanish and Portuguese write it ("10,50",
 * "1.234,56"), in the dot form the amount rules read ("10.50", "1234.56"); any other text as it
 * is. Never ambiguous: a comma followed by one or two digits at the end is not a thousands comma.
 */
export function decimalCommaToDot(text: string) {
	return /^(\d{1,3}(\.\d{3})+|\d+),\d{1,2}$/.test(text) ? text.replaceAll('.', '').replace(',', '.') : text
}

/**
 * Whether a language groups thousands with dots ("1.500" is one thousand five hundred in es and
 * pt-BR, one and a half with three decimals in en), as Intl formats a million in it.
 */
export function groupsThousandsWithDots(language: string) {
	return new Intl.NumberFormat(language).formatToParts(1_000_000).some((part) => part.type === 'group' && part.value === '.')
}

/**
 * An amount as typed, in the dot form the amount rules read: a decimal comma (decimalCommaToDot)
 * and, with `dotGroups` (groupsThousandsWithDots), dots between groups of three digits only
 * ("1.500", "10.000.000") dropped.
 */
export function toDotDecimal(text: string, { dotGroups = false } = {}) {
	return decimalCommaToDot(dotGroups && /^\d{1,3}(\.\d{3})+$/.test(text) ? text.replaceAll('.', '') : text)
}

/**
 * A form's schema made both ways (amounts read with dot groups or without), and the one for a
 * language: `in(language)` is what the page's language writes, in the browser and the action.
 */
export function bothAmountWritings<S>(make: (dotGroups: boolean) => S) {
	const plain = make(false)
	const dotGroups = make(true)
	return { plain, in: (language: string) => (groupsThousandsWithDots(language) ? dotGroups : plain) }
}
