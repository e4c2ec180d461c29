import { beforeAll, describe, expect, test } from 'vitest'
import { createSession, revokeSession } from '#app/.server/auth/local.ts'
import { requireSignedInMember } from '#app/.server/auth/session.ts'
import { asSystemThenUser, sql } from '#app/.server/db/index.ts'
import { listActiveModules } from '#app/.server/modules.ts'
import { resolveMember } from '#app/.server/organizations.ts'
import { createCookie } from 'react-router'
import { addMember, createUser } from './fixtures.ts'

beforeAll(() => {
	process.env.SESSION_SECRET ??= 'test-session-secret-of-at-least-32-characters'
	process.env.LOG_LEVEL = 'silent'
})

const sessionCookie = createCookie('p2p_session', { path: '/', sameSite: 'lax', httpOnly: true })
const orgCookie = createCookie('p2p_org', { path: '/', sameSite: 'lax', httpOnly: true })

async function requestWith(token: string | null, orgId?: string) {
	const cookies = [token ? await sessionCookie.serialize(token) : null, orgId ? await orgCookie.serialize(orgId) : null]
		.filter(Boolean)
		.map((c) => c!.split(';')[0])
	return new Request('http://localhost/app/dashboard?x=1', { headers: { cookie: cookies.join('; ') } })
}

describe('the signed-in shell in one transaction (decision 018)', () => {
	test('gives what requireUser, resolveMember and listActiveModules give one by one', async () => {
		const owner = await createUser('Shell Owner')
		const other = await createUser('Other Org')
		await addMember(other.orgId, owner.userId, 'member')
		const token = await createSession(owner.userId, { userAgent: null })
		for (const chosen of [undefined, other.orgId]) {
			const request = await requestWith(token, chosen)
			const { member, activeModules } = await requireSignedInMember(request)
			const expected = await resolveMember(request, { userId: owner.userId, email: owner.email.toLowerCase() })
			expect(member).toEqual(expected)
			expect(activeModules).toEqual(await listActiveModules(owner.userId, member!.organization.id, member!.organization.role))
		}
	})

	test('no session, an unknown one or a revoked one: the redirect to /auth that comes back', async () => {
		const user = await createUser('Shell Revoked')
		const token = await createSession(user.userId, { userAgent: null })
		await revokeSession(token)
		for (const request of [await requestWith(null), await requestWith('x'.repeat(43)), await requestWith(token)]) {
			const thrown = await requireSignedInMember(request).then(() => null, (e: unknown) => e)
			expect(thrown).toBeInstanceOf(Response)
			expect((thrown as Response).headers.get('location')).toBe(`/auth?${new URLSearchParams({ redirectTo: '/app/dashboard?x=1' })}`)
		}
	})

	test('the second part runs as the user, under RLS', async () => {
		const user = await createUser('Shell RLS')
		const result = await asSystemThenUser(
			async () => ({ userId: user.userId }),
			async (trx) => {
				const { rows } = await sql<{ uid: string; role: string }>`select auth.uid()::text as uid, current_user as role`.execute(trx)
				const orgs = await trx.selectFrom('organizations').select('id').execute()
				return { ...rows[0]!, orgs: orgs.map((o) => o.id) }
			},
		)
		expect(result!.value).toEqual({ uid: user.userId, role: 'authenticated', orgs: [user.orgId] })
		expect(await asSystemThenUser(async () => null, async () => 'never')).toBeNull()
	})
})
