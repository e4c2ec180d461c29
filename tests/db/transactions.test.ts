import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { syncMailbox } from '#app/.server/payments/email-sync/sync.ts'
import { listMemberships } from '#app/.server/organizations/current.ts'
import { memberClock, organizationClock } from '#app/.server/query.ts'
import {
	editableTransaction,
	getSyncStatus,
	getTransactionsScreen,
	listTransactions,
	saveTransactions,
	type LoadedTransaction,
	type TransactionRow,
} from '#app/.server/payments/transactions.ts'
import { P2P_MODULE_ID } from '#app/lib/modules.ts'
import { TRANSACTION_SORTS, type TransactionRowInput } from '#app/lib/schemas/transactions.ts'
import { addMember, createUser } from './fixtures.ts'

type Seed = {
	name: string | null
	external: string | null
	amount: string
	date: string
	category: string
	method: string
	description: string | null
}

const seed: Seed[] = [
	{
		name: 'Ana Silva',
		external: 'ZL-100',
		amount: '125.50',
		date: '2026-03-01',
		category: 'matched',
		method: 'Zelle',
		description: 'Logo design',
	},
	{
		name: 'Bruno Costa',
		external: 'VM-200',
		amount: '80.00',
		date: '2026-03-05',
		category: 'pending',
		method: 'Venmo',
		description: 'Monthly retainer',
	},
	{
		name: 'Carla Dias',
		external: 'PP-300',
		amount: '300.00',
		date: '2026-02-10',
		category: 'review',
		method: 'PayPal',
		description: 'Website audit',
	},
	{ name: 'Ana Silva', external: null, amount: '15.25', date: '2026-03-05', category: 'unmatched', method: 'CashApp', description: null },
	{
		name: null,
		external: 'WT-500',
		amount: '1000.00',
		date: '2026-01-20',
		category: 'matched',
		method: 'Wire Transfer',
		description: 'Deposit 100%',
	},
	{
		name: 'Bruno Costa',
		external: 'OT-600',
		amount: '45.00',
		date: '2026-02-28',
		category: 'unmatched',
		method: 'Other',
		description: 'Catering_balance',
	},
]

async function orgWithTransactions(label: string) {
	const owner = await createUser(`${label} Owner`)
	const names = [...new Set(seed.flatMap((s) => (s.name ? [s.name] : [])))]
	const clients = await asUser(owner.userId, (trx) =>
		trx
			.insertInto('clients')
			.values(names.map((name) => ({ organization_id: owner.orgId, name })))
			.returning(['id', 'name'])
			.execute(),
	)
	const idOf = new Map(clients.map((c) => [c.name, c.id]))
	await asUser(owner.userId, (trx) =>
		trx
			.insertInto('transactions')
			.values(
				seed.map((s) => ({
					organization_id: owner.orgId,
					client_id: s.name ? idOf.get(s.name)! : null,
					external_id: s.external,
					amount: s.amount,
					date_received: s.date,
					category: s.category as 'matched',
					payment_method: s.method as 'Zelle',
					description: s.description,
				})),
			)
			.execute(),
	)
	return { ...owner, clientIds: idOf }
}

/** The form's row for a loaded transaction, as the edit mode posts it back unchanged. */
function asInput(row: LoadedTransaction, changes: Partial<TransactionRowInput> = {}): TransactionRowInput {
	return {
		id: row.id,
		version: row.version,
		fingerprint: editableTransaction(row).fingerprint,
		clientId: row.clientId,
		client: row.clientName ?? '',
		externalId: row.externalId ?? '',
		amount: row.amount,
		tip: row.tip,
		dateReceived: row.dateReceived,
		category: row.category,
		paymentMethod: row.paymentMethod,
		description: row.description ?? '',
		deleted: false,
		...changes,
	}
}

function newRow(changes: Partial<TransactionRowInput> = {}): TransactionRowInput {
	return {
		id: null,
		version: null,
		fingerprint: null,
		clientId: null,
		client: '',
		externalId: '',
		amount: '0.00',
		tip: null,
		dateReceived: '2026-04-01',
		category: 'unmatched',
		paymentMethod: 'Zelle',
		description: '',
		deleted: false,
		...changes,
	}
}

async function allRows(userId: string, orgId: string) {
	return (await listTransactions(userId, orgId, { pageSize: 100 })).rows
}

describe('listing transactions', () => {
	test('sorts on every column, ascending and descending, the same way a full sort would', async () => {
		const org = await orgWithTransactions('Sort')
		const all = await allRows(org.userId, org.orgId)
		expect(all).toHaveLength(seed.length)
		const key: Record<(typeof TRANSACTION_SORTS)[number], (r: TransactionRow) => string | number | null> = {
			date_received: (r) => r.dateReceived,
			client: (r) => r.clientName,
			external_id: (r) => r.externalId,
			amount: (r) => Number(r.amount),
			category: (r) => ['matched', 'pending', 'unmatched', 'review'].indexOf(r.category),
			payment_method: (r) => ['Zelle', 'Venmo', 'CashApp', 'PayPal', 'Wire Transfer', 'Other'].indexOf(r.paymentMethod),
			description: (r) => r.description,
		}
		for (const sort of TRANSACTION_SORTS) {
			for (const dir of ['asc', 'desc'] as const) {
				const { rows } = await listTransactions(org.userId, org.orgId, { sort, dir, pageSize: 100 })
				const values = rows.map(key[sort])
				const present = values.filter((v) => v !== null)
				const sorted = [...present].sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0))
				if (dir === 'desc') sorted.reverse()
				expect(present, `${sort} ${dir}`).toEqual(sorted)
				if (sort === 'client') expect(values.at(-1), 'rows without a client come last').toBeNull()
			}
		}
	})

	test('the default order is newest first, paged with the exact total', async () => {
		const org = await orgWithTransactions('Page')
		const first = await listTransactions(org.userId, org.orgId, { pageSize: 4 })
		const second = await listTransactions(org.userId, org.orgId, { pageSize: 4, page: 2 })
		expect(first.total).toBe(seed.length)
		expect(first.totalCapped).toBe(false)
		expect(first.rows.map((r) => r.dateReceived)).toEqual(['2026-03-05', '2026-03-05', '2026-03-01', '2026-02-28'])
		expect(second.rows.map((r) => r.dateReceived)).toEqual(['2026-02-10', '2026-01-20'])
		const ids = [...first.rows, ...second.rows].map((r) => r.id)
		expect(new Set(ids).size).toBe(seed.length)
		for (const sort of ['client', 'amount', 'category'] as const) {
			const a = await listTransactions(org.userId, org.orgId, { sort, pageSize: 4 })
			const b = await listTransactions(org.userId, org.orgId, { sort, pageSize: 4, page: 2 })
			expect(new Set([...a.rows, ...b.rows].map((r) => r.id)).size, `${sort} pages cover every row once`).toBe(seed.length)
		}
	})

	test('searches client names, external ids, descriptions and amounts, text taken literally', async () => {
		const org = await orgWithTransactions('Search')
		const search = async (q: string) =>
			(await listTransactions(org.userId, org.orgId, { q, pageSize: 100 })).rows.map((r) => r.externalId ?? r.amount).sort()
		expect(await search('ana sil')).toEqual(['15.25', 'ZL-100'])
		expect(await search('vm-2')).toEqual(['VM-200'])
		expect(await search('audit')).toEqual(['PP-300'])
		expect(await search('125.50')).toEqual(['ZL-100'])
		expect(await search('$1,000')).toEqual(['WT-500'])
		expect(await search('100%')).toEqual(['WT-500'])
		expect(await search('g_b')).toEqual(['OT-600'])
		expect(await search('nothing like this')).toEqual([])
		const counted = await listTransactions(org.userId, org.orgId, { q: 'bruno', pageSize: 1 })
		expect(counted).toMatchObject({ total: 2, totalCapped: false })
		expect(counted.rows).toHaveLength(1)
	})

	test('sorted by client blind to case and accents, as the clients table sorts them', async () => {
		const owner = await createUser('Client Sort Owner')
		const names = ['Zoe Álvarez', 'émile Dupont', 'Ángela Ruiz', 'bruno Costa', 'Carla Dias']
		await asUser(owner.userId, async (trx) => {
			const clients = await trx
				.insertInto('clients')
				.values(names.map((name) => ({ organization_id: owner.orgId, name })))
				.returning(['id', 'name'])
				.execute()
			await trx
				.insertInto('transactions')
				.values([
					...clients.map((c) => ({
						organization_id: owner.orgId,
						client_id: c.id,
						external_id: c.name,
						amount: 10,
						date_received: '2026-03-01',
					})),
					{ organization_id: owner.orgId, client_id: null, external_id: 'none', amount: 10, date_received: '2026-03-01' },
				])
				.execute()
		})
		const order = async (dir: 'asc' | 'desc') =>
			(await listTransactions(owner.userId, owner.orgId, { sort: 'client', dir, pageSize: 100 })).rows.map((r) => r.clientName ?? '—')
		expect(await order('asc')).toEqual(['Ángela Ruiz', 'bruno Costa', 'Carla Dias', 'émile Dupont', 'Zoe Álvarez', '—'])
		expect(await order('desc')).toEqual(['Zoe Álvarez', 'émile Dupont', 'Carla Dias', 'bruno Costa', 'Ángela Ruiz', '—'])
		// The same order among the rows a search finds (every row here: the amount 10).
		const found = await listTransactions(owner.userId, owner.orgId, { q: '10.00', sort: 'client', dir: 'asc', pageSize: 100 })
		expect(found.rows.map((r) => r.clientName ?? '—')).toEqual([
			'Ángela Ruiz',
			'bruno Costa',
			'Carla Dias',
			'émile Dupont',
			'Zoe Álvarez',
			'—',
		])
	})

	test('an amount is found as the reader writes it, with or without the currency the screens show', async () => {
		const org = await orgWithTransactions('Amount Writing')
		const search = async (q: string, language?: string) =>
			(await listTransactions(org.userId, org.orgId, { q, language, pageSize: 100 })).rows.map((r) => r.externalId ?? r.amount).sort()
		for (const language of ['es', 'pt-BR']) {
			for (const q of ['1.000', '1.000,00', '1000', '1.000,00 US$', 'US$ 1.000,00', '$1,000.00']) {
				expect(await search(q, language), `${language}: ${q}`).toEqual(['WT-500'])
			}
			expect(await search('125,50', language)).toEqual(['ZL-100'])
			expect(await search('125.50', language)).toEqual(['ZL-100'])
		}
		// In English "1.000" is one, not a thousand.
		expect(await search('1.000', 'en')).toEqual([])
		for (const q of ['$1,000.00', '1,000', '$ 1000']) expect(await search(q, 'en'), q).toEqual(['WT-500'])
	})

	test("a client's name is found blind to case and accents", async () => {
		const org = await orgWithTransactions('Accents')
		const [angela] = await asUser(org.userId, (trx) =>
			trx.insertInto('clients').values({ organization_id: org.orgId, name: 'Ángela Núñez' }).returning('id').execute(),
		)
		await asUser(org.userId, (trx) =>
			trx
				.insertInto('transactions')
				.values({ organization_id: org.orgId, client_id: angela!.id, external_id: 'AN-1', amount: 12, date_received: '2026-03-01' })
				.execute(),
		)
		for (const q of ['angela', 'ANGELA nunez', 'Ángela Núñez']) {
			expect(
				(await listTransactions(org.userId, org.orgId, { q })).rows.map((r) => r.externalId),
				q,
			).toEqual(['AN-1'])
		}
	})

	test('a description is found blind to case and accents', async () => {
		const org = await orgWithTransactions('Description Accents')
		await asUser(org.userId, (trx) =>
			trx
				.insertInto('transactions')
				.values([
					{ organization_id: org.orgId, external_id: 'CF-1', amount: 8, date_received: '2026-03-02', description: 'Café da manhã' },
					{ organization_id: org.orgId, external_id: 'RE-2', amount: 9, date_received: '2026-03-03', description: 'REUNIÓN de equipo' },
				])
				.execute(),
		)
		const found = async (q: string) => (await listTransactions(org.userId, org.orgId, { q })).rows.map((r) => r.externalId)
		expect(await found('cafe da manha')).toEqual(['CF-1'])
		expect(await found('CAFÉ')).toEqual(['CF-1'])
		expect(await found('reunion')).toEqual(['RE-2'])
		expect(await found('Reunión de')).toEqual(['RE-2'])
		expect(await found('cf-1')).toEqual(['CF-1'])
		expect(await found('cafe%')).toEqual([])
	})

	test('a common search (walked in sort order) finds the same rows, in the same order, as a full sort would', async () => {
		const owner = await createUser('Common Search Owner')
		const clients = await asUser(owner.userId, (trx) =>
			trx
				.insertInto('clients')
				.values(['Zed', 'Amy', 'Moe'].map((name) => ({ organization_id: owner.orgId, name })))
				.returning(['id', 'name'])
				.execute(),
		)
		// 120 payments, half of them for catering: common enough to be walked rather than gathered.
		await asUser(owner.userId, (trx) =>
			trx
				.insertInto('transactions')
				.values(
					Array.from({ length: 120 }, (_, i) => ({
						organization_id: owner.orgId,
						client_id: i % 4 === 2 ? null : clients[i % 3]!.id,
						external_id: `E-${i}`,
						amount: String((i * 37) % 500),
						date_received: `2026-0${1 + (i % 6)}-${String(1 + (i % 27)).padStart(2, '0')}`,
						category: (['matched', 'pending', 'unmatched', 'review'] as const)[i % 4],
						// Half the catering is written with an accent: the search is blind to it.
						description: i % 2 === 1 ? `Design work ${i}` : i % 4 === 0 ? `Catering order ${i}` : `Cátering order ${i}`,
					})),
				)
				.execute(),
		)
		const everything = (await listTransactions(owner.userId, owner.orgId, { pageSize: 100 })).rows
		const all = [...everything, ...(await listTransactions(owner.userId, owner.orgId, { pageSize: 100, page: 2 })).rows]
		expect(all).toHaveLength(120)
		for (const sort of TRANSACTION_SORTS) {
			for (const dir of ['asc', 'desc'] as const) {
				// The same order as the unsearched list, keeping only the matches.
				const full = [
					...(await listTransactions(owner.userId, owner.orgId, { sort, dir, pageSize: 100 })).rows,
					...(await listTransactions(owner.userId, owner.orgId, { sort, dir, pageSize: 100, page: 2 })).rows,
				]
				const expected = full.filter((r) => /^C[aá]tering/.test(r.description ?? '')).map((r) => r.id)
				const first = await listTransactions(owner.userId, owner.orgId, { q: 'CATERING', sort, dir, pageSize: 25 })
				const second = await listTransactions(owner.userId, owner.orgId, { q: 'CATERING', sort, dir, pageSize: 25, page: 2 })
				const third = await listTransactions(owner.userId, owner.orgId, { q: 'CATERING', sort, dir, pageSize: 25, page: 3 })
				expect(
					[...first.rows, ...second.rows, ...third.rows].map((r) => r.id),
					`${sort} ${dir}`,
				).toEqual(expected)
				expect(first).toMatchObject({ total: 60, totalCapped: false })
			}
		}
		const filtered = await listTransactions(owner.userId, owner.orgId, { q: 'catering', category: 'matched', pageSize: 100 })
		expect(filtered.rows.map((r) => r.category)).toEqual(Array(30).fill('matched'))
		expect(filtered.total).toBe(30)
	})

	test("a common search's count: capped at 500, exact below, and exact when the matches are all recent in a long history", async () => {
		const owner = await createUser('Dense Count Owner')
		// `rows` payments, newest first by day; the ones whose index `matches` accepts are for catering.
		const insert = (rows: number, matches: string) =>
			asSystem((trx) =>
				sql`insert into public.transactions (organization_id, external_id, amount, date_received, category, description)
					select ${owner.orgId}, 'D-' || i, 10, date '2026-11-01' - (i / 40), (case when i % 2 = 0 then 'matched' else 'pending' end)::public.transaction_category,
						case when ${sql.raw(matches)} then 'Catering ' || i else 'Design ' || i end
					from generate_series(0, ${rows - 1}) as i`.execute(trx),
			)
		const search = (category?: 'matched') => listTransactions(owner.userId, owner.orgId, { q: 'catering', category })

		// 600 matches among 2,100 rows, 40 % of the newest: more than the cap.
		await insert(2_100, 'i % 5 < 2 and i < 1500')
		expect(await search()).toMatchObject({ total: 500, totalCapped: true })
		expect(await search('matched')).toMatchObject({ total: 300, totalCapped: false })
		await asSystem((trx) => sql`delete from public.transactions where organization_id = ${owner.orgId}`.execute(trx))

		// 300 recent matches and 40 more beyond the newest 20,000 rows: the count has every one.
		await insert(21_000, '(i < 1500 and i % 5 = 0) or i >= 20960')
		expect(await search()).toMatchObject({ total: 340, totalCapped: false })
	})

	test('filters by category with the exact total, and never shows another organization', async () => {
		const org = await orgWithTransactions('Filter')
		const other = await orgWithTransactions('Filter Other')
		const matched = await listTransactions(org.userId, org.orgId, { category: 'matched' })
		expect(matched.total).toBe(2)
		expect(matched.rows.every((r) => r.category === 'matched')).toBe(true)
		const ids = new Set((await allRows(org.userId, org.orgId)).map((r) => r.id))
		for (const row of await allRows(other.userId, other.orgId)) expect(ids.has(row.id)).toBe(false)
		// Another organization's id, even a member's, lists nothing of it for a non-member.
		const outsider = await listTransactions(org.userId, other.orgId, { pageSize: 100 })
		expect(outsider.rows).toEqual([])
		const byClient = await listTransactions(org.userId, org.orgId, { clientId: org.clientIds.get('Ana Silva')! })
		expect(byClient.total).toBe(2)
	})
})

describe('saving a batch of transactions', () => {
	test('inserts, updates and deletes together, skipping rows left alone', async () => {
		const org = await orgWithTransactions('Save')
		const rows = await allRows(org.userId, org.orgId)
		const [edited, removed, untouched] = rows
		const result = await saveTransactions(org.userId, org.orgId, [
			newRow({ client: 'carla dias', amount: '42.10', externalId: 'NEW-1', description: 'Added' }),
			asInput(edited!, { amount: '999.99', client: 'Bruno Costa', category: 'review' }),
			asInput(removed!, { deleted: true }),
			asInput(untouched!),
		])
		expect(result).toEqual({ ok: true, inserted: 1, updated: 1, deleted: 1 })
		const after = await allRows(org.userId, org.orgId)
		expect(after).toHaveLength(seed.length)
		expect(after.find((r) => r.id === removed!.id)).toBeUndefined()
		expect(after.find((r) => r.id === edited!.id)).toMatchObject({ amount: '999.99', clientName: 'Bruno Costa', category: 'review' })
		expect(after.find((r) => r.id === untouched!.id)?.version).toBe(untouched!.version)
		const added = after.find((r) => r.externalId === 'NEW-1')
		expect(added).toMatchObject({ clientId: org.clientIds.get('Carla Dias'), amount: '42.10', description: 'Added', category: 'unmatched' })
		const owner = await asSystem((trx) =>
			sql<{ user_id: string }>`select user_id from public.transactions where id = ${added!.id}`.execute(trx),
		)
		expect(owner.rows[0]?.user_id).toBe(org.userId)
	})

	test('a tip is saved with its row, changed and cleared, and the monthly rollup follows it', async () => {
		const org = await orgWithTransactions('Tips')
		const tipSum = async () =>
			(
				await asSystem((trx) =>
					sql<{ tips: string }>`select coalesce(sum(tip_sum), 0)::text as tips from public.transaction_monthly_rollups
					where organization_id = ${org.orgId}`.execute(trx),
				)
			).rows[0]!.tips
		expect(await saveTransactions(org.userId, org.orgId, [newRow({ amount: '60.00', tip: '7.50', externalId: 'TIP-1' })])).toMatchObject({
			ok: true,
			inserted: 1,
		})
		const added = (await allRows(org.userId, org.orgId)).find((r) => r.externalId === 'TIP-1')!
		expect(added.tip).toBe('7.50')
		expect(Number(await tipSum())).toBe(7.5)
		// Left alone: the tip is part of what the row's fingerprint hashes, so nothing is written.
		expect(await saveTransactions(org.userId, org.orgId, [asInput(added)])).toMatchObject({ ok: true, updated: 0 })
		expect(await saveTransactions(org.userId, org.orgId, [asInput(added, { tip: '10.00' })])).toMatchObject({ ok: true, updated: 1 })
		expect(Number(await tipSum())).toBe(10)
		const changed = (await allRows(org.userId, org.orgId)).find((r) => r.id === added.id)!
		expect(await saveTransactions(org.userId, org.orgId, [asInput(changed, { tip: null })])).toMatchObject({ ok: true, updated: 1 })
		expect((await allRows(org.userId, org.orgId)).find((r) => r.id === added.id)!.tip).toBeNull()
		expect(Number(await tipSum())).toBe(0)
	})

	test('a tip larger than its amount is refused by the database too', async () => {
		const org = await orgWithTransactions('Tip check')
		await expect(
			asSystem((trx) => sql`insert into public.transactions (organization_id, amount, tip) values (${org.orgId}, 10, 12)`.execute(trx)),
		).rejects.toThrow(/transactions_tip_within_amount/)
	})

	test('one refused row refuses the whole batch, with every row’s errors, and writes nothing', async () => {
		const org = await orgWithTransactions('Atomic')
		const before = await allRows(org.userId, org.orgId)
		const result = await saveTransactions(org.userId, org.orgId, [
			newRow({ amount: '10.00', externalId: 'SHOULD-NOT-EXIST' }),
			asInput(before[0]!, { amount: '1.00' }),
			newRow({ client: 'Nobody By That Name' }),
			asInput(before[1]!, { deleted: true }),
		])
		expect(result.ok).toBe(false)
		if (result.ok) return
		expect(result.rowErrors).toEqual({ 2: { client: 'clientNotFound' } })
		expect(await allRows(org.userId, org.orgId)).toEqual(before)
	})

	test('a row or a client of another organization is refused and nothing is written', async () => {
		const org = await orgWithTransactions('Cross')
		const other = await orgWithTransactions('Cross Other')
		const theirs = (await allRows(other.userId, other.orgId))[0]!
		const ours = (await allRows(org.userId, org.orgId))[0]!
		const forgedRow = await saveTransactions(org.userId, org.orgId, [asInput(theirs, { amount: '0.01' }), newRow({ externalId: 'X' })])
		expect(forgedRow).toMatchObject({ ok: false, rowErrors: { 0: { row: 'rowNotFound' } } })
		const forgedClient = await saveTransactions(org.userId, org.orgId, [
			asInput(ours, { clientId: other.clientIds.get('Ana Silva')!, client: 'Ana Silva', amount: '7.00' }),
		])
		expect(forgedClient).toMatchObject({ ok: false, rowErrors: { 0: { client: 'clientInvalid' } } })
		// Saving into an organization the user is not a member of writes nothing either.
		const outsider = await saveTransactions(org.userId, other.orgId, [newRow({ externalId: 'INTRUDER' })]).catch((e: Error) => e)
		expect(outsider).toBeInstanceOf(Error)
		expect((await allRows(other.userId, other.orgId)).map((r) => r.externalId)).not.toContain('INTRUDER')
		expect((await allRows(other.userId, other.orgId)).find((r) => r.id === theirs.id)?.amount).toBe(theirs.amount)
		expect((await allRows(org.userId, org.orgId)).find((r) => r.id === ours.id)?.amount).toBe(ours.amount)
		expect((await allRows(org.userId, org.orgId)).map((r) => r.externalId)).not.toContain('X')
	})

	test('a row changed by someone else since it was loaded is not overwritten; its newer values come back', async () => {
		const org = await orgWithTransactions('Stale')
		const colleague = await createUser('Stale Colleague')
		await addMember(org.orgId, colleague.userId, 'member')
		const loaded = await allRows(org.userId, org.orgId)
		const target = loaded.find((r) => r.externalId === 'ZL-100')!
		const other = loaded.find((r) => r.externalId === 'VM-200')!
		// The colleague saves first.
		const theirs = await saveTransactions(colleague.userId, org.orgId, [
			asInput(target, { amount: '555.55', description: 'Colleague edit' }),
		])
		expect(theirs).toMatchObject({ ok: true, updated: 1 })
		// Our stale edit of the same row is refused, and our edit of another row is not applied.
		const index = 1
		const ours = await saveTransactions(org.userId, org.orgId, [asInput(other, { amount: '1.11' }), asInput(target, { amount: '9.99' })])
		expect(ours.ok).toBe(false)
		if (ours.ok) return
		expect(ours.rowErrors).toEqual({ [index]: { row: 'conflict' } })
		expect(ours.conflicts[index]).toMatchObject({ amount: '555.55', description: 'Colleague edit', clientName: 'Ana Silva' })
		const now = await allRows(org.userId, org.orgId)
		expect(now.find((r) => r.id === target.id)?.amount).toBe('555.55')
		expect(now.find((r) => r.id === other.id)?.amount).toBe('80.00')
		// A stale row we did not touch is no conflict; nor is deleting refused rows silently applied.
		const untouched = await saveTransactions(org.userId, org.orgId, [asInput(target), asInput(other, { amount: '2.22' })])
		expect(untouched).toMatchObject({ ok: true, updated: 1 })
		const staleDelete = await saveTransactions(org.userId, org.orgId, [asInput(target, { deleted: true })])
		expect(staleDelete).toMatchObject({ ok: false, rowErrors: { 0: { row: 'conflict' } } })
	})

	test('a client name shared by two clients resolves to the row’s own client, and is ambiguous for a new row', async () => {
		const org = await orgWithTransactions('Twins')
		const twin = await asUser(org.userId, (trx) =>
			trx.insertInto('clients').values({ organization_id: org.orgId, name: 'Ana Silva' }).returning('id').executeTakeFirstOrThrow(),
		)
		const row = (await allRows(org.userId, org.orgId)).find((r) => r.externalId === 'ZL-100')!
		expect(await saveTransactions(org.userId, org.orgId, [asInput(row, { amount: '1.00' })])).toMatchObject({ ok: true })
		expect((await allRows(org.userId, org.orgId)).find((r) => r.id === row.id)?.clientId).toBe(org.clientIds.get('Ana Silva'))
		expect(await saveTransactions(org.userId, org.orgId, [newRow({ client: 'Ana Silva' })])).toMatchObject({
			ok: false,
			rowErrors: { 0: { client: 'clientAmbiguous' } },
		})
		expect(await saveTransactions(org.userId, org.orgId, [newRow({ client: 'Ana Silva', clientId: twin.id })])).toMatchObject({ ok: true })
	})

	test('namesakes are told apart by "Name <email>", and a new client is created with the batch when asked', async () => {
		const org = await orgWithTransactions('Namesakes')
		const twin = await asUser(org.userId, (trx) =>
			trx
				.insertInto('clients')
				.values({ organization_id: org.orgId, name: 'Ana Silva', email: 'twin@example.com' })
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		expect(
			await saveTransactions(org.userId, org.orgId, [newRow({ client: 'Ana Silva <TWIN@example.com>', externalId: 'TW-1' })]),
		).toMatchObject({
			ok: true,
			inserted: 1,
		})
		expect((await allRows(org.userId, org.orgId)).find((r) => r.externalId === 'TW-1')?.clientId).toBe(twin.id)
		expect(await saveTransactions(org.userId, org.orgId, [newRow({ client: 'Ana Silva <nobody@example.com>' })])).toMatchObject({
			ok: false,
			rowErrors: { 0: { client: 'clientNotFound' } },
		})
		// Two rows asking for the same new client (in any case) make one client.
		const result = await saveTransactions(org.userId, org.orgId, [
			newRow({ client: 'Eva Nova', newClient: true, externalId: 'EV-1' }),
			newRow({ client: 'eva nova', newClient: true, externalId: 'EV-2' }),
		])
		expect(result).toEqual({ ok: true, inserted: 2, updated: 0, deleted: 0 })
		const rows = (await allRows(org.userId, org.orgId)).filter((r) => r.externalId?.startsWith('EV-'))
		expect(new Set(rows.map((r) => r.clientId)).size).toBe(1)
		expect(rows[0]?.clientName).toBe('Eva Nova')
	})

	test('unless confirmed, a batch that deletes rows answers with its counts and writes nothing', async () => {
		const org = await orgWithTransactions('Confirm')
		const before = await allRows(org.userId, org.orgId)
		const batch = [
			newRow({ amount: '5.00', externalId: 'ASK-1' }),
			asInput(before[0]!, { amount: '1.00' }),
			asInput(before[1]!, { deleted: true }),
		]
		expect(await saveTransactions(org.userId, org.orgId, batch, { confirmed: false })).toEqual({
			ok: false,
			confirm: { inserted: 1, updated: 1, deleted: 1, warnings: [] },
		})
		expect(await allRows(org.userId, org.orgId)).toEqual(before)
		// Without a deletion nothing is asked; refusals come before the question.
		expect(
			await saveTransactions(org.userId, org.orgId, [newRow({ client: 'Nobody' }), asInput(before[1]!, { deleted: true })], {
				confirmed: false,
			}),
		).toMatchObject({
			ok: false,
			rowErrors: { 0: { client: 'clientNotFound' } },
		})
		expect(await saveTransactions(org.userId, org.orgId, batch, { confirmed: true })).toEqual({
			ok: true,
			inserted: 1,
			updated: 1,
			deleted: 1,
		})
	})
})

describe('sync status and today', () => {
	test('Sync goes through pending and ends saying no source is connected, never recording a sync', async () => {
		const org = await orgWithTransactions('Sync')
		expect(await getSyncStatus(org.userId, org.orgId)).toEqual({ status: 'idle', errorMessage: null, lastSyncedAt: null })
		expect(await syncMailbox(org.orgId, { trigger: 'button', userId: org.userId })).toEqual({ ok: false, code: 'no_connection' })
		expect(await getSyncStatus(org.userId, org.orgId)).toEqual({ status: 'error', errorMessage: 'no_source_connected', lastSyncedAt: null })
		// From error a new sync may start again.
		expect(await syncMailbox(org.orgId, { trigger: 'button', userId: org.userId })).toEqual({ ok: false, code: 'no_connection' })
		expect(await getSyncStatus(org.userId, org.orgId)).toEqual({ status: 'error', errorMessage: 'no_source_connected', lastSyncedAt: null })
		// While another sync is pending, a new one is refused.
		await asUser(org.userId, (trx) => sql`select public.update_sync_status(${org.orgId}, ${P2P_MODULE_ID}, 'pending', null)`.execute(trx))
		expect(await syncMailbox(org.orgId, { trigger: 'button', userId: org.userId })).toEqual({ ok: false, code: 'in_progress' })
		// A non-member cannot sync another organization.
		const stranger = await createUser('Sync Stranger')
		expect(await syncMailbox(org.orgId, { trigger: 'button', userId: stranger.userId })).toEqual({ ok: false, code: 'not_member' })
	})

	test('the screen reads the same page and total as the list, and the same sync status, whatever the filter', async () => {
		const org = await orgWithTransactions('Screen')
		const other = await orgWithTransactions('Screen Other')
		const empty = await createUser('Screen Empty')
		const ana = org.clientIds.get('Ana Silva')!
		const filters = [
			{},
			{ category: 'matched' as const },
			{ clientId: ana },
			{ category: 'unmatched' as const, clientId: ana },
			{ q: 'ana' },
			{ page: 9 },
			{ page: 2, sort: 'amount' as const, dir: 'asc' as const },
			{ sort: 'client' as const, dir: 'desc' as const },
			{ page: 2, sort: 'client' as const, dir: 'asc' as const, clientId: ana },
		]
		const expectSame = async (userId: string, orgId: string) => {
			const sync = await getSyncStatus(userId, orgId)
			for (const options of filters) {
				const screen = await getTransactionsScreen(userId, orgId, { ...options, pageSize: 2 })
				expect(screen.page).toEqual(await listTransactions(userId, orgId, { ...options, pageSize: 2 }))
				expect(screen.sync).toEqual(sync)
			}
		}
		await expectSame(org.userId, org.orgId)
		expect((await getTransactionsScreen(org.userId, org.orgId)).page.total).toBe(6)
		expect((await getTransactionsScreen(org.userId, org.orgId, { category: 'unmatched', clientId: ana })).page.total).toBe(1)
		// No transactions at all, and another organization's id: nothing, and no total.
		expect((await getTransactionsScreen(empty.userId, empty.orgId)).page).toEqual({ rows: [], total: 0, totalCapped: false })
		expect((await getTransactionsScreen(org.userId, other.orgId)).page).toEqual({ rows: [], total: 0, totalCapped: false })
		// A failed sync, then a sync on record.
		await syncMailbox(org.orgId, { trigger: 'button', userId: org.userId })
		await asSystem((trx) =>
			sql`update public.module_sync_status set last_synced_at = '2026-03-01T12:00:00Z' where organization_id = ${org.orgId} and module_id = ${P2P_MODULE_ID}`.execute(
				trx,
			),
		)
		expect((await getTransactionsScreen(org.userId, org.orgId)).sync).toEqual({
			status: 'error',
			errorMessage: 'no_source_connected',
			lastSyncedAt: '2026-03-01T12:00:00.000Z',
		})
		await expectSame(org.userId, org.orgId)
	})

	test("today is the organization's date in its timezone", async () => {
		const org = await createUser('Clock')
		await asSystem((trx) =>
			trx.updateTable('booking_settings').set({ timezone: 'Australia/Sydney' }).where('organization_id', '=', org.orgId).execute(),
		)
		const late = new Date('2026-03-01T20:00:00Z')
		const [membership] = (await listMemberships(org.userId)).memberships
		expect(memberClock(membership!, late)).toEqual({ timezone: 'Australia/Sydney', today: '2026-03-02' })
		expect(await asUser(org.userId, (trx) => organizationClock(trx, org.orgId, late))).toEqual({
			timezone: 'Australia/Sydney',
			today: '2026-03-02',
		})
	})
})
