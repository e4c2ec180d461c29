/**
 * A person's initials as every screen draws them in place of a missing picture (the sidebar's
 * user card, the profile card): the first letters of the first two words of the name, else of
 * the email; one function, so that both show the same letters.
 */
export function initials(fullName: string | null, email: string) {
	const parts = (fullName?.trim() || email).split(/\s+/).filter(Boolean)
	return ((parts[0]?.[0] ?? '') + (parts[1]?.[0] ?? '')).toUpperCase() || '?'
}
