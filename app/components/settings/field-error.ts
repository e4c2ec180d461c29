/** The first error key of a conform field (or form), whatever conform typed it as. */
export function firstError(errors: unknown): string | undefined {
	return Array.isArray(errors) && typeof errors[0] === 'string' ? errors[0] : undefined
}
