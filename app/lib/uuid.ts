const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether a value is a UUID as PostgreSQL writes them (any case): ids from addresses and forms are checked with it before any query. */
export function isUuid(value: unknown): value is string {
	return typeof value === 'string' && UUID.test(value)
}
