import { describe, expect, test } from 'vitest'
import { asAnon, asSystem, asUser, dbErrorCode, sql } from '#app/.server/db/index.ts'
import { createUser } from './fixtures.ts'

async function insertPayments(orgId: string, amounts: string[]) {
	await asSystem((trx) =>
		sql`insert into public.transactions (organization_id, amount, description, date_received)
			select ${orgId}, a::numeric, 'Payment ' || a, current_date - (row_number() over ())::int
			from unnest(${amounts}::text[]) a`.execute(trx),
	)
}

describe('the definer search functions', () => {
	test('transaction_ids_by_amount returns the ids of that amount in the caller organization only', async () => {
		const a = await createUser('Amount A')
		const b = await createUser('Amount B')
		await insertPayments(a.orgId, ['12.50', '12.50', '99.00'])
		await insertPayments(b.orgId, ['12.50'])
		const ids = await asUser(
			a.userId,
			async (trx) => (await sql<{ id: string }>`select id from public.transaction_ids_by_amount(${a.orgId}, 12.5) as id`.execute(trx)).rows,
		)
		expect(ids).toHaveLength(2)
		const owners = await asSystem((trx) =>
			trx
				.selectFrom('transactions')
				.select('organization_id')
				.where(
					'id',
					'in',
					ids.map((r) => r.id),
				)
				.execute(),
		)
		expect(new Set(owners.map((o) => o.organization_id))).toEqual(new Set([a.orgId]))
	})

	test('neither search function answers for another organization, nor for anon', async () => {
		const a = await createUser('Search Owner')
		const outsider = await createUser('Outsider')
		await insertPayments(a.orgId, ['5.00'])
		for (const call of [
			sql`select public.transaction_ids_by_amount(${a.orgId}, 5)`,
			sql`select public.search_transaction_ids(${a.orgId}, 'Payment')`,
		]) {
			const refused = await asUser(outsider.userId, (trx) => call.execute(trx)).then(
				() => null,
				(e: unknown) => e,
			)
			expect(dbErrorCode(refused)).toBe('not_member')
			const anon = await asAnon((trx) => call.execute(trx)).then(
				() => null,
				(e: unknown) => e,
			)
			expect(dbErrorCode(anon)).toBe('42501')
		}
	})
})
