import { randomUUID } from 'node:crypto'
import { asSystem, sql } from '#app/.server/db/index.ts'

export type TestUser = { userId: string; email: string; orgId: string }

/** A user signed up through the same trigger as the app: profile, organization, membership. */
export async function createUser(name = 'Test User'): Promise<TestUser> {
	const email = `${randomUUID()}@example.test`
	return asSystem(async (trx) => {
		const { rows } = await sql<{ id: string }>`
			insert into auth.users (email, raw_user_meta_data)
			values (${email}, ${JSON.stringify({ full_name: name })}::jsonb) returning id`.execute(trx)
		const userId = rows[0]!.id
		const org = await sql<{ organization_id: string }>`
			select organization_id from public.organization_members where user_id = ${userId}`.execute(trx)
		return { userId, email, orgId: org.rows[0]!.organization_id }
	})
}

/** Adds an existing user to an organization with a role (what an owner's invitation does). */
export async function addMember(orgId: string, userId: string, role: 'owner' | 'administrator' | 'manager' | 'member') {
	await asSystem((trx) =>
		sql`insert into public.organization_members (organization_id, user_id, role)
			values (${orgId}, ${userId}, ${role})`.execute(trx),
	)
}

export function isDbTarget(target: 'pg' | 'pglite') {
	return process.env.DB_TARGET === target
}
