import { createHash } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { createSession, revokeSession } from '#app/.server/auth/local.ts'
import { requireSignedInMember } from '#app/.server/auth/session.ts'
import { asSystem, sql } from '#app/.server/db/index.ts'
import { listActiveModules } from '#app/.server/marketplace/modules.ts'
import { resolveMember } from '#app/.server/organizations/current.ts'
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

describe('the signed-in shell in one statement (decisions 018, 023)', () => {
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
			const thrown = await requireSignedInMember(request).then(
				() => null,
				(e: unknown) => e,
			)
			expect(thrown).toBeInstanceOf(Response)
			expect((thrown as Response).headers.get('location')).toBe(`/auth?${new URLSearchParams({ redirectTo: '/app/dashboard?x=1' })}`)
		}
	})

	test('an expired or idle session is refused and deleted; an hour-old one slides its idle expiry', async () => {
		const user = await createUser('Shell Expiry')
		const idle = await createSession(user.userId, { userAgent: null })
		const absolute = await createSession(user.userId, { userAgent: null })
		const stale = await createSession(user.userId, { userAgent: null })
		const hash = (token: string) => createHash('sha256').update(token).digest('hex')
		await asSystem(async (trx) => {
			await trx
				.updateTable('auth.sessions')
				.set({ updated_at: sql`now() - interval '8 days'` })
				.where('token_hash', '=', hash(idle))
				.execute()
			await trx
				.updateTable('auth.sessions')
				.set({ not_after: sql`now() - interval '1 minute'` })
				.where('token_hash', '=', hash(absolute))
				.execute()
			await trx
				.updateTable('auth.sessions')
				.set({ updated_at: sql`now() - interval '2 hours'` })
				.where('token_hash', '=', hash(stale))
				.execute()
		})
		for (const token of [idle, absolute]) {
			await expect(requireSignedInMember(await requestWith(token))).rejects.toBeInstanceOf(Response)
		}
		const left = await asSystem((trx) => trx.selectFrom('auth.sessions').select('token_hash').where('user_id', '=', user.userId).execute())
		expect(left.map((r) => r.token_hash)).toEqual([hash(stale)])
		const { member } = await requireSignedInMember(await requestWith(stale))
		expect(member!.user.userId).toBe(user.userId)
		const touched = await asSystem((trx) =>
			sql<{
				fresh: boolean
			}>`select updated_at > now() - interval '1 minute' as fresh from auth.sessions where token_hash = ${hash(stale)}`.execute(trx),
		)
		expect(touched.rows[0]!.fresh).toBe(true)
	})

	test('an organization cookie the user is no member of, or not an id, falls back to the first membership', async () => {
		const owner = await createUser('Shell Cookie')
		const stranger = await createUser('Shell Stranger')
		const token = await createSession(owner.userId, { userAgent: null })
		for (const chosen of [stranger.orgId, 'not-a-uuid']) {
			const { member, activeModules } = await requireSignedInMember(await requestWith(token, chosen))
			expect(member!.organization.id).toBe(owner.orgId)
			expect(member!.memberships.map((m) => m.id)).toEqual([owner.orgId])
			expect(activeModules).toEqual(await listActiveModules(owner.userId, owner.orgId, 'owner'))
		}
	})

	test("the shell function is the server's own: anon and authenticated may not call it", async () => {
		for (const role of ['anon', 'authenticated']) {
			const error = await asSystem(async (trx) => {
				await sql`select set_config('role', ${role}, true)`.execute(trx)
				return sql`select private.signed_in_shell(null, gen_random_uuid(), null, '7 days', '1 hour')`.execute(trx).then(
					() => null,
					(e: unknown) => e,
				)
			})
			expect(error).toBeTruthy()
		}
	})
})
