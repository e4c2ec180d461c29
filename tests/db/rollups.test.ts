import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { addMember, createUser } from './fixtures.ts'

type Rollups = {
	totals: { transaction_count: number; amount_sum: string; matched_count: number; unique_client_count: number } | null
	monthly: { month: string; category: string; payment_method: string; transaction_count: number; amount_sum: string }[]
	clients: { client_id: string; transaction_count: number }[]
}

/** What the rollup tables hold, next to the same figures computed from the transactions. */
async function rollupsAndTruth(orgId: string): Promise<{ kept: Rollups; truth: Rollups }> {
	return asSystem(async (trx) => {
		const kept: Rollups = {
			totals:
				(
					await sql<NonNullable<Rollups['totals']>>`
				select transaction_count, amount_sum::text, matched_count, unique_client_count
				from public.organization_transaction_totals where organization_id = ${orgId}`.execute(trx)
				).rows[0] ?? null,
			monthly: (
				await sql<Rollups['monthly'][number]>`
				select month::text, category::text, payment_method::text, transaction_count, amount_sum::text
				from public.transaction_monthly_rollups where organization_id = ${orgId} order by 1, 2, 3`.execute(trx)
			).rows,
			clients: (
				await sql<Rollups['clients'][number]>`
				select client_id, transaction_count from public.organization_client_transaction_counts
				where organization_id = ${orgId} order by 1`.execute(trx)
			).rows,
		}
		const truth: Rollups = {
			totals: (
				await sql<NonNullable<Rollups['totals']>>`
				select count(*)::int as transaction_count, coalesce(sum(amount), 0)::numeric(18, 2)::text as amount_sum,
					count(*) filter (where category = 'matched')::int as matched_count,
					count(distinct client_id)::int as unique_client_count
				from public.transactions where organization_id = ${orgId}`.execute(trx)
			).rows[0]!,
			monthly: (
				await sql<Rollups['monthly'][number]>`
				select date_trunc('month', date_received::timestamp)::date::text as month, category::text,
					payment_method::text, count(*)::int as transaction_count, sum(amount)::numeric(18, 2)::text as amount_sum
				from public.transactions where organization_id = ${orgId} group by 1, 2, 3 order by 1, 2, 3`.execute(trx)
			).rows,
			clients: (
				await sql<Rollups['clients'][number]>`
				select client_id, count(*)::int as transaction_count from public.transactions
				where organization_id = ${orgId} and client_id is not null group by 1 order by 1`.execute(trx)
			).rows,
		}
		return { kept, truth }
	})
}

describe('transaction rollups', () => {
	test('follow every insert, edit, delete and client deletion exactly', async () => {
		const owner = await createUser('Rollup Owner')
		const other = await createUser('Rollup Other')
		const clients = await asUser(owner.userId, (trx) =>
			trx
				.insertInto('clients')
				.values(['Ana', 'Bruno', 'Carla'].map((name) => ({ organization_id: owner.orgId, name })))
				.returning('id')
				.execute(),
		)
		const ids = clients.map((c) => c.id)
		await asUser(owner.userId, (trx) =>
			trx
				.insertInto('transactions')
				.values([
					{
						organization_id: owner.orgId,
						client_id: ids[0],
						amount: 100,
						date_received: '2026-01-15',
						category: 'matched',
						payment_method: 'Zelle',
					},
					{
						organization_id: owner.orgId,
						client_id: ids[0],
						amount: 50.25,
						date_received: '2026-01-20',
						category: 'matched',
						payment_method: 'Zelle',
					},
					{
						organization_id: owner.orgId,
						client_id: ids[1],
						amount: 75,
						date_received: '2026-02-01',
						category: 'pending',
						payment_method: 'Venmo',
					},
					{
						organization_id: owner.orgId,
						client_id: ids[2],
						amount: 20,
						date_received: '2026-02-28',
						category: 'review',
						payment_method: 'PayPal',
					},
					{
						organization_id: owner.orgId,
						client_id: null,
						amount: 10,
						date_received: '2026-03-01',
						category: 'unmatched',
						payment_method: 'Other',
					},
				])
				.execute(),
		)
		await asUser(other.userId, (trx) => trx.insertInto('transactions').values({ organization_id: other.orgId, amount: 999 }).execute())
		let { kept, truth } = await rollupsAndTruth(owner.orgId)
		expect(kept).toEqual(truth)
		expect(kept.totals).toEqual({ transaction_count: 5, amount_sum: '255.25', matched_count: 2, unique_client_count: 3 })

		// Edits that move money, month, category, method and client; one that moves nothing.
		await asUser(owner.userId, async (trx) => {
			await trx.updateTable('transactions').set({ amount: 60 }).where('amount', '=', '75').execute()
			await trx
				.updateTable('transactions')
				.set({ category: 'matched', date_received: '2026-03-05' })
				.where('category', '=', 'review')
				.execute()
			await trx.updateTable('transactions').set({ client_id: ids[1], payment_method: 'CashApp' }).where('client_id', 'is', null).execute()
			await trx.updateTable('transactions').set({ description: 'note only' }).where('organization_id', '=', owner.orgId).execute()
		})
		;({ kept, truth } = await rollupsAndTruth(owner.orgId))
		expect(kept).toEqual(truth)

		// Deleting a client keeps its payments (client_id becomes null) and the unique count drops.
		await asUser(owner.userId, (trx) => trx.deleteFrom('clients').where('id', '=', ids[0]!).execute())
		const orphaned = await asSystem((trx) =>
			trx.selectFrom('transactions').select('client_id').where('organization_id', '=', owner.orgId).where('amount', '=', '100').execute(),
		)
		expect(orphaned).toEqual([{ client_id: null }])
		;({ kept, truth } = await rollupsAndTruth(owner.orgId))
		expect(kept).toEqual(truth)
		expect(kept.totals!.unique_client_count).toBe(2)

		// Deleting every row empties the rollups but keeps a zero totals row.
		await asUser(owner.userId, (trx) => trx.deleteFrom('transactions').where('organization_id', '=', owner.orgId).execute())
		;({ kept, truth } = await rollupsAndTruth(owner.orgId))
		expect(kept).toEqual({
			totals: { transaction_count: 0, amount_sum: '0.00', matched_count: 0, unique_client_count: 0 },
			monthly: [],
			clients: [],
		})
		expect(kept).toEqual(truth)
		expect((await rollupsAndTruth(other.orgId)).kept.totals).toMatchObject({ transaction_count: 1, amount_sum: '999.00' })
	})

	test('a bulk insert of a thousand rows in one statement is rolled up in one pass', async () => {
		const owner = await createUser('Bulk Owner')
		await asSystem(async (trx) => {
			await sql`
				insert into public.clients (organization_id, name)
				select ${owner.orgId}, 'Client ' || g from generate_series(1, 25) g`.execute(trx)
			await sql`
				insert into public.transactions (organization_id, client_id, amount, date_received, category, payment_method)
				select ${owner.orgId}, c.id, (g % 500) + 0.99, date '2026-01-01' + (g % 300),
					(array['matched', 'pending', 'unmatched', 'review'])[1 + g % 4]::public.transaction_category,
					(array['Zelle', 'Venmo', 'CashApp', 'PayPal', 'Wire Transfer', 'Other'])[1 + g % 6]::public.payment_method
				from generate_series(1, 1000) g
				left join lateral (select id from public.clients where organization_id = ${owner.orgId} order by name offset (g % 30) limit 1) c on true`.execute(
				trx,
			)
		})
		const { kept, truth } = await rollupsAndTruth(owner.orgId)
		expect(kept).toEqual(truth)
		expect(kept.totals!.transaction_count).toBe(1000)
		expect(kept.totals!.unique_client_count).toBe(25)
	})

	test('members read their own organization rollups and no one else reads them', async () => {
		const owner = await createUser('Rollup Owner')
		const member = await createUser('Rollup Member')
		const outsider = await createUser('Rollup Outsider')
		await addMember(owner.orgId, member.userId, 'member')
		await asUser(member.userId, (trx) =>
			trx.insertInto('transactions').values({ organization_id: owner.orgId, amount: 42, category: 'matched' }).execute(),
		)
		const read = (userId: string) =>
			asUser(userId, (trx) =>
				trx
					.selectFrom('organization_transaction_totals')
					.select(['transaction_count', 'amount_sum', 'matched_count'])
					.where('organization_id', '=', owner.orgId)
					.execute(),
			)
		expect(await read(member.userId)).toEqual([{ transaction_count: 1, amount_sum: '42.00', matched_count: 1 }])
		expect(await read(outsider.userId)).toEqual([])
	})
})
