import { describe, expect, test } from 'vitest'
import { asAnon, asSystem, asUser, sql, type Tx } from '#app/.server/db/index.ts'
import { addMember, createUser, refusal } from './fixtures.ts'

const search = (trx: Tx, org: string, text: string, max?: number) =>
	sql<{ description: string | null; external_id: string | null }>`
		select description, external_id from public.transactions
		where organization_id = ${org} and id in (select public.search_transaction_ids(${org}, ${text}, ${max ?? 1000}))
		order by date_received desc, id desc`
		.execute(trx)
		.then((r) => r.rows)

describe('search_transaction_ids', () => {
	test("finds a member's organization transactions by description (blind to accents) or external id, text taken literally", async () => {
		const owner = await createUser('Search Owner')
		const member = await createUser('Search Member')
		const other = await createUser('Search Other')
		await addMember(owner.orgId, member.userId, 'member')
		await asSystem(async (trx) => {
			await trx
				.insertInto('transactions')
				.values([
					{
						organization_id: owner.orgId,
						amount: 10,
						description: 'Logo design for Casa Verde',
						external_id: 'ZL-AAA111',
						date_received: '2026-03-01',
					},
					{
						organization_id: owner.orgId,
						amount: 20,
						description: 'Monthly retainer',
						external_id: 'VM-CASA99',
						date_received: '2026-04-01',
					},
					{ organization_id: owner.orgId, amount: 30, description: '100% deposit', external_id: null, date_received: '2026-05-01' },
					{ organization_id: owner.orgId, amount: 40, description: '1000 deposit', external_id: 'PP_1', date_received: '2026-06-01' },
					{ organization_id: owner.orgId, amount: 45, description: 'Sesión de fotos', external_id: null, date_received: '2026-02-01' },
					{
						organization_id: other.orgId,
						amount: 50,
						description: 'Casa Verde catering',
						external_id: 'ZL-CASA',
						date_received: '2026-06-01',
					},
				])
				.execute()
		})
		const found = await asUser(member.userId, async (trx) => ({
			casa: await search(trx, owner.orgId, 'casa'),
			percent: await search(trx, owner.orgId, '100%'),
			underscore: await search(trx, owner.orgId, 'ZL_AAA'),
			limited: await search(trx, owner.orgId, 'deposit', 1),
			accents: await search(trx, owner.orgId, 'SESION'),
		}))
		expect(found.casa).toEqual([
			{ description: 'Monthly retainer', external_id: 'VM-CASA99' },
			{ description: 'Logo design for Casa Verde', external_id: 'ZL-AAA111' },
		])
		expect(found.percent).toEqual([{ description: '100% deposit', external_id: null }])
		expect(found.underscore).toEqual([])
		expect(found.limited).toEqual([{ description: '1000 deposit', external_id: 'PP_1' }])
		expect(found.accents).toEqual([{ description: 'Sesión de fotos', external_id: null }])
	})

	test('refuses another organization, a visitor and an empty text', async () => {
		const owner = await createUser('Search Owner')
		const outsider = await createUser('Search Outsider')
		await asSystem((trx) =>
			trx.insertInto('transactions').values({ organization_id: owner.orgId, amount: 1, description: 'casa' }).execute(),
		)
		const ids = (trx: Tx, text: string) => sql`select * from public.search_transaction_ids(${owner.orgId}, ${text})`.execute(trx)
		expect(await refusal(asUser(outsider.userId, (trx) => ids(trx, 'casa')))).toBe('not_member')
		expect(await refusal(asAnon((trx) => ids(trx, 'casa')))).toBe('42501')
		expect(await refusal(asUser(owner.userId, (trx) => ids(trx, '   ')))).toBe('invalid_search')
		expect((await asUser(owner.userId, (trx) => ids(trx, 'casa'))).rows).toHaveLength(1)
	})
})
