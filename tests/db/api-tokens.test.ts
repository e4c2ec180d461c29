/**
 * Personal API tokens and the read-only JSON API (app/.server/api/, docs/api.md), on PGlite and
 * on the PostgreSQL server: only the hash is kept; a token reads its own organization's payments
 * and clients in pages, within its scopes; revoking it, its member leaving, or the organization
 * losing CRM Enterprise shuts it out; RLS keeps each member to their own tokens.
 */
import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, test } from 'vitest'
import { API_UPGRADE_ID, createToken, listTokens, MAX_TOKENS_PER_MEMBER, revokeToken, tokenHolder } from '#app/.server/api/tokens.ts'
import { listClients, listPayments, type ApiPayment, type Page } from '#app/.server/api/v1.ts'
import { asSystem, asUser } from '#app/.server/db/index.ts'
import { addMember, createUser, refusal, type TestUser } from './fixtures.ts'

const CRM = 'b0000000-0000-4000-8000-000000000002'

async function withUpgrade(user: TestUser) {
	await asSystem((trx) =>
		sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select m.organization_id, m.id, ${API_UPGRADE_ID}::uuid from public.organization_modules m
			where m.organization_id = ${user.orgId} and m.module_id = ${CRM}`.execute(trx),
	)
	return user
}

async function payments(user: TestUser, n: number) {
	await asSystem((trx) =>
		sql`insert into public.transactions (organization_id, amount, tip, date_received, payment_method, description)
			select ${user.orgId}::uuid, 10 + g, case when g = 1 then 2 end, date '2026-03-01' + (g % 5), 'Venmo', 'Payment ' || g
			from generate_series(1, ${n}) g`.execute(trx),
	)
}

async function token(
	user: TestUser,
	scopes: ('payments:read' | 'clients:read')[] = ['payments:read', 'clients:read'],
	organizationId = user.orgId,
) {
	const made = await createToken(user.userId, organizationId, 'Bookkeeping sync', scopes)
	if (!made.ok) throw new Error(made.error)
	return made
}

describe('making and keeping tokens', () => {
	test('a token is shown once and only its SHA-256 is stored; without CRM Enterprise none is made', async () => {
		const without = await createUser('No Upgrade')
		expect(await createToken(without.userId, without.orgId, 'x', ['payments:read'])).toEqual({ ok: false, error: 'noUpgrade' })
		// RLS refuses it too, whatever the application does.
		expect(
			await refusal(
				asUser(without.userId, (trx) =>
					sql`insert into public.api_tokens (organization_id, user_id, name, token_hash, prefix, scopes)
						values (${without.orgId}, ${without.userId}, 'x', ${'a'.repeat(64)}, 'p2p_abcdefgh', array['payments:read'])`.execute(trx),
				),
			),
		).not.toBeNull()

		const owner = await withUpgrade(await createUser('Token Owner'))
		const made = await token(owner)
		expect(made.token).toMatch(/^p2p_[A-Za-z0-9_-]{43}$/)
		const stored = await asSystem((trx) =>
			sql<{ token_hash: string; prefix: string }>`select token_hash, prefix from public.api_tokens where id = ${made.id}`.execute(trx),
		)
		expect(stored.rows[0]).toEqual({ token_hash: createHash('sha256').update(made.token).digest('hex'), prefix: made.token.slice(0, 12) })
		expect(JSON.stringify(await listTokens(owner.userId, owner.orgId))).not.toContain(made.token)
	})

	test(`a member holds at most ${MAX_TOKENS_PER_MEMBER} live tokens; a revoked one frees a place`, async () => {
		const owner = await withUpgrade(await createUser('Many Tokens'))
		const made = await Promise.all(
			Array.from({ length: MAX_TOKENS_PER_MEMBER + 2 }, () => createToken(owner.userId, owner.orgId, 't', ['clients:read'])),
		)
		expect(made.filter((m) => m.ok)).toHaveLength(MAX_TOKENS_PER_MEMBER)
		expect(made.filter((m) => !m.ok)).toEqual([
			{ ok: false, error: 'tooMany' },
			{ ok: false, error: 'tooMany' },
		])
		const first = made.find((m) => m.ok)!
		expect(await revokeToken(owner.userId, owner.orgId, (first as { id: string }).id)).toBe(true)
		expect((await createToken(owner.userId, owner.orgId, 't', ['clients:read'])).ok).toBe(true)
	})

	test("a member sees and revokes only their own tokens, never another member's", async () => {
		const owner = await withUpgrade(await createUser('Owner Of Tokens'))
		const colleague = await createUser('Colleague')
		await addMember(owner.orgId, colleague.userId, 'administrator')
		const mine = await token(owner)
		expect(await listTokens(colleague.userId, owner.orgId)).toEqual([])
		expect(await revokeToken(colleague.userId, owner.orgId, mine.id)).toBe(false)
		expect(await tokenHolder(mine.token)).not.toBeNull()
	})
})

describe('the API as a token holder', () => {
	test('payments come newest first in pages whose cursor walks them all once; from and to bound the dates', async () => {
		const owner = await withUpgrade(await createUser('Paged Owner'))
		const other = await withUpgrade(await createUser('Other Org'))
		await payments(owner, 7)
		await payments(other, 3)
		const holder = (await tokenHolder((await token(owner)).token))!
		const seen: ApiPayment[] = []
		let cursor: string | null = null
		do {
			const page = (await listPayments(holder, new URLSearchParams({ limit: '3', ...(cursor ? { cursor } : {}) }))) as Page<ApiPayment>
			expect(page.data.length).toBeLessThanOrEqual(3)
			seen.push(...page.data)
			cursor = page.next_cursor
		} while (cursor)
		expect(seen).toHaveLength(7)
		expect(new Set(seen.map((p) => p.id)).size).toBe(7)
		const keys = seen.map((p) => `${p.date_received}|${p.id}`)
		expect(keys).toEqual([...keys].sort().reverse())
		expect(seen.find((p) => p.description === 'Payment 1')).toMatchObject({
			amount: '11.00',
			tip: '2.00',
			payment_method: 'Venmo',
			client: null,
		})

		const bounded = (await listPayments(holder, new URLSearchParams({ from: '2026-03-02', to: '2026-03-03' }))) as Page<ApiPayment>
		expect(bounded.data.every((p) => p.date_received >= '2026-03-02' && p.date_received <= '2026-03-03')).toBe(true)
		expect(bounded.data.length).toBeGreaterThan(0)
	})

	test('bad parameters are an input error, never a query', async () => {
		const owner = await withUpgrade(await createUser('Bad Params'))
		const holder = (await tokenHolder((await token(owner)).token))!
		for (const params of [
			'limit=0',
			'limit=101',
			'limit=abc',
			'from=2026-02-30',
			'to=yesterday',
			'cursor=bm90IGEgY3Vyc29y',
			'sort=amount',
		]) {
			expect(await listPayments(holder, new URLSearchParams(params)), params).toMatchObject({ error: 'invalid_request' })
		}
		expect(await listClients(holder, new URLSearchParams('cursor=%00%01'))).toMatchObject({ error: 'invalid_request' })
	})

	test("clients are the organization's own, paged; a token without that scope is refused by the HTTP layer (e2e)", async () => {
		const owner = await withUpgrade(await createUser('Client Lister'))
		await asSystem((trx) =>
			sql`insert into public.clients (organization_id, name, email) select ${owner.orgId}::uuid, 'Client ' || g, 'c' || g || '@example.com'
				from generate_series(1, 5) g`.execute(trx),
		)
		const holder = (await tokenHolder((await token(owner, ['clients:read'])).token))!
		expect(holder.scopes).toEqual(['clients:read'])
		const first = await listClients(holder, new URLSearchParams('limit=2'))
		if ('error' in first) throw new Error(first.message)
		expect(first.data).toHaveLength(2)
		const rest = await listClients(holder, new URLSearchParams({ cursor: first.next_cursor! }))
		if ('error' in rest) throw new Error(rest.message)
		expect(new Set([...first.data, ...rest.data].map((c) => c.name)).size).toBe(5)
		expect(rest.next_cursor).toBeNull()
	})

	test('a revoked token, a member who left, or an organization without CRM Enterprise lets nobody in', async () => {
		const owner = await withUpgrade(await createUser('Shut Out'))
		const member = await createUser('Leaving Member')
		await addMember(owner.orgId, member.userId, 'member')
		const revoked = await token(owner)
		const leaving = await token(member, undefined, owner.orgId)
		const upgradeGone = await token(owner)
		expect(await tokenHolder(revoked.token)).not.toBeNull()
		expect(await tokenHolder(leaving.token)).not.toBeNull()

		await revokeToken(owner.userId, owner.orgId, revoked.id)
		expect(await tokenHolder(revoked.token)).toBeNull()

		await asSystem((trx) =>
			sql`delete from public.organization_members where organization_id = ${owner.orgId} and user_id = ${member.userId}`.execute(trx),
		)
		expect(await tokenHolder(leaving.token)).toBeNull()

		await asSystem((trx) =>
			sql`delete from public.organization_module_upgrades where organization_id = ${owner.orgId} and upgrade_id = ${API_UPGRADE_ID}`.execute(
				trx,
			),
		)
		expect(await tokenHolder(upgradeGone.token)).toBeNull()
		// A token of the right shape that was never made, and one of the wrong shape.
		expect(await tokenHolder(`p2p_${'A'.repeat(43)}`)).toBeNull()
		expect(await tokenHolder("p2p_' or 1=1 --")).toBeNull()
	})

	test('a use is stamped, at most once a minute', async () => {
		const owner = await withUpgrade(await createUser('Stamped'))
		const made = await token(owner)
		expect((await listTokens(owner.userId, owner.orgId))[0]!.lastUsedAt).toBeNull()
		await tokenHolder(made.token)
		const first = (await listTokens(owner.userId, owner.orgId))[0]!.lastUsedAt
		expect(first).not.toBeNull()
		await tokenHolder(made.token)
		expect((await listTokens(owner.userId, owner.orgId))[0]!.lastUsedAt).toBe(first)
	})
})
