/** Rules of fields that several forms share (kept apart so that a public page loads only these). */

/** A phone number as people write one: digits, spaces, +, -, dots and parentheses. */
export const PHONE = /^[0-9+()\-. ]{3,40}$/

/**
 * The one rule of control characters (docs/security.md, Text fields). A single-line field (a
 * name, a title, an email, a phone, a note of one line) holds none: no C0 character (tab, line
 * feed and carriage return included), no DEL, no C1, no Unicode line or paragraph separator. A
 * line break kept in an organization's or a client's name would end a header of a mail or a line
 * of a calendar file and start one of the writer's choosing. A multi-line field (notes,
 * descriptions, a bio) may hold tab, line feed and carriage return, and nothing else of those.
 * Each form's schema checks its fields with these, messages CONTROL_CHARACTERS and
 * CONTROL_CHARACTERS_IN_TEXT (keys under its namespace's `errors`), or a field's own "invalid"
 * message where a pattern decides it (emails, phones, links); `trim()` runs first, so a line
 * break pasted at an end is dropped rather than refused.
 */
export const SINGLE_LINE = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$/
export const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]*$/
export const CONTROL_CHARACTERS = 'controlCharacters'
export const CONTROL_CHARACTERS_IN_TEXT = 'controlCharactersInText'

/** Whether a text holds no control character (SINGLE_LINE). */
export function isSingleLine(text: string) {
	return SINGLE_LINE.test(text)
}

/** Whether a text holds no control character but tab, line feed and carriage return (MULTI_LINE). */
export function isMultiLine(text: string) {
	return MULTI_LINE.test(text)
}

/**
 * A stored text made fit for one line (a mail's subject, a calendar file's parameter): each run
 * of control characters and line breaks becomes one space. For values saved before the rule, or
 * written by something other than our forms (a Supabase user's own metadata).
 */
export function oneLine(text: string) {
	return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
}

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
 * An amount as typed, in the plain dot form the amount rules read ("1500.25"):
 * - with `dotGroups` (es, pt-BR: groupsThousandsWithDots), the comma is the decimal mark and dots
 *   group thousands: "1.500" is 1500, "1.500,75" 1500.75, "0,125" 0.125 (three decimals, for
 *   the rules to refuse); a dot with one or two digits after it stays a decimal point ("12.34");
 *   a comma anywhere else stays, for the rules to refuse ("1,500.25" is not how they write);
 * - otherwise (en) commas group thousands ("1,500.25"), and a comma with one or two digits at the
 *   end is a decimal comma ("10,50": decimalCommaToDot).
 */
export function toDotDecimal(text: string, { dotGroups = false } = {}) {
	if (dotGroups) {
		const written = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d+))?$/.exec(text)
		if (!written) return text
		const whole = written[1]!.replaceAll('.', '')
		return written[2] === undefined ? whole : `${whole}.${written[2]}`
	}
	const dotted = decimalCommaToDot(text)
	return /^\d{1,3}(,\d{3})+(\.\d*)?$/.test(dotted) ? dotted.replaceAll(',', '') : dotted
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
