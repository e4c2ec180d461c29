import pg from 'pg'

/** Direct access to the e2e server's database, to arrange states no screen makes yet. */
export async function withDatabase<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
	const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL })
	await client.connect()
	try {
		return await fn(client)
	} finally {
		await client.end()
	}
}
