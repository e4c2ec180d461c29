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

/**
 * Gives the organization of the account with this e-mail these modules and upgrades (an upgrade
 * brings its module), as buying them in the marketplace would, without the gears.
 */
export async function grantCatalogue(email: string, { modules = [], upgrades = [] }: { modules?: string[]; upgrades?: string[] }) {
	await withDatabase(async (db) => {
		const { rows } = await db.query<{ orgId: string }>(
			`select m.organization_id as "orgId" from public.organization_members m
			 join auth.users u on u.id = m.user_id where u.email = $1 and m.role = 'owner'`,
			[email],
		)
		const orgId = rows[0]!.orgId
		await db.query(
			`insert into public.organization_modules (organization_id, module_id)
			 select $1::uuid, m from unnest($2::uuid[]) m
			 union select $1::uuid, u.module_id from public.module_upgrades u where u.id = any($3::uuid[])
			 on conflict (organization_id, module_id) do nothing`,
			[orgId, modules, upgrades],
		)
		await db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select $1, om.id, u.id from public.module_upgrades u
			 join public.organization_modules om on om.organization_id = $1 and om.module_id = u.module_id
			 where u.id = any($2::uuid[])
			 on conflict do nothing`,
			[orgId, upgrades],
		)
	})
}
