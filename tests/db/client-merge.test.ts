/**
 * Merging duplicate clients and undoing it (supabase/migrations/20261210300000_client_merge_undo.sql,
 * app/.server/crm/merges.ts; docs/decisions/054-client-merge-undo.md): everything the merged
 * client had follows to the kept one (payments, appointments, invoices sent or not, schedules,
 * rules, notes, pipeline cards, payer names, tags), for every organization; with CRM Enterprise
 * the merge is undone exactly, once, within 30 days, by the organization only; duplicates are
 * found by e-mail, phone and name, and a pair said not to be one stays hidden. On PGlite and on
 * the PostgreSQL server.
 */
import { describe, expect, test } from 'vitest'
import { asAnon, asSystem, asUser, sql } from '#app/.server/db/index.ts'
import {
	CRM_ENTERPRISE_UPGRADE_ID,
	dismissDuplicates,
	listDuplicatePairs,
	listRecentMerges,
	pruneClientMerges,
	undoClientMerge,
} from '#app/.server/crm/merges.ts'
import { getClient, mergeClients } from '#app/.server/payments/clients.ts'
import { addMember, CATALOGUE, createBookingSetup, createUser, isDbTarget, refusal, type TestUser } from './fixtures.ts'

const INVOICING = 'b0000000-0000-4000-8000-000000000005'
const RECURRING = 'c0000000-0000-4000-8000-000000000013'
const WORKFLOW = 'b0000000-0000-4000-8000-000000000010'

async function giveUpgrade(orgId: string, moduleId: string, upgradeId: string) {
	await asSystem(async (trx) => {
		await sql`insert into public.organization_modules (organization_id, module_id) select ${orgId}, ${moduleId}
			where not exists (select 1 from public.organization_modules where organization_id = ${orgId} and module_id = ${moduleId})`.execute(trx)
		await sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select m.organization_id, m.id, ${upgradeId}::uuid from public.organization_modules m
			where m.organization_id = ${orgId} and m.module_id = ${moduleId}`.execute(trx)
	})
}

const enterprise = (user: TestUser) => giveUpgrade(user.orgId, CATALOGUE.modules.crm, CRM_ENTERPRISE_UPGRADE_ID)

async function newClient(user: TestUser, values: { name: string; email?: string; phone?: string; company?: string; tags?: string[] }) {
	return asSystem(async (trx) => {
		const row = await trx
			.insertInto('clients')
			.values({ organization_id: user.orgId, user_id: user.userId, status: 'active', ...values })
			.returning('id')
			.executeTakeFirstOrThrow()
		return row.id
	})
}

/** Two clients who are one person, each with a bit of everything a client can own. */
async function twins(owner: TestUser) {
	const kept = await newClient(owner, { name: 'Ana Souza', phone: '555 0199', tags: ['vip'] })
	const merged = await newClient(owner, { name: 'Ana S.', email: 'ana.s@example.com', company: 'Souza Studio', tags: ['wholesale', 'vip'] })
	const { serviceId, providerId } = await createBookingSetup(owner.orgId)
	await giveUpgrade(owner.orgId, INVOICING, RECURRING)
	const ids = await asSystem(async (trx) => {
		const one = async <T extends { id: string }>(q: Promise<T>) => (await q).id
		const start = new Date(Date.now() + 3 * 86_400_000)
		start.setUTCHours(15, 0, 0, 0)
		const appointment = await one(
			trx
				.insertInto('booking_appointments')
				.values({
					organization_id: owner.orgId,
					service_id: serviceId,
					provider_id: providerId,
					client_id: merged,
					starts_at: start.toISOString(),
					ends_at: new Date(start.getTime() + 30 * 60_000).toISOString(),
					status: 'confirmed',
					guest_name: 'Ana S.',
					guest_email: 'ana.s@example.com',
				})
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		const payment = await one(
			trx
				.insertInto('transactions')
				.values({ organization_id: owner.orgId, client_id: merged, amount: 40, description: 'Last visit' })
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		await trx.insertInto('transactions').values({ organization_id: owner.orgId, client_id: kept, amount: 25 }).execute()
		const sentInvoice = await one(
			trx
				.insertInto('invoices')
				.values({
					organization_id: owner.orgId,
					client_id: merged,
					number: 1,
					status: 'sent',
					sent_at: new Date().toISOString(),
					bill_to_name: 'Ana S.',
					subtotal: 90,
				})
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		const draft = await one(
			trx.insertInto('invoices').values({ organization_id: owner.orgId, client_id: merged }).returning('id').executeTakeFirstOrThrow(),
		)
		const schedule = await one(
			trx
				.insertInto('recurring_invoices')
				.values({ organization_id: owner.orgId, client_id: merged, cadence: 'monthly', anchor_date: '2026-12-15' })
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		await sql`insert into public.organization_modules (organization_id, module_id) values (${owner.orgId}, ${WORKFLOW})`.execute(trx)
		const rule = await one(
			trx
				.insertInto('rules')
				.values({ organization_id: owner.orgId, name: 'Ana pays', payer: 'Ana', set_client_id: merged })
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		const note = await one(
			trx
				.insertInto('client_notes')
				.values({ organization_id: owner.orgId, client_id: merged, author_id: owner.userId, body: 'Prefers mornings' })
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		// Two pipelines: on "Sales" both have a card (the kept one's stays), on "Upsell" only the merged one.
		const sales = await one(
			trx.insertInto('crm_pipelines').values({ organization_id: owner.orgId, name: 'Sales' }).returning('id').executeTakeFirstOrThrow(),
		)
		const upsell = await one(
			trx.insertInto('crm_pipelines').values({ organization_id: owner.orgId, name: 'Upsell' }).returning('id').executeTakeFirstOrThrow(),
		)
		const stage = async (pipeline: string, name: string, position: number) =>
			one(
				trx
					.insertInto('crm_stages')
					.values({ organization_id: owner.orgId, pipeline_id: pipeline, name, position })
					.returning('id')
					.executeTakeFirstOrThrow(),
			)
		const salesLead = await stage(sales, 'Lead', 0)
		const salesWon = await stage(sales, 'Won', 1)
		const upsellLead = await stage(upsell, 'Lead', 0)
		const card = (pipeline: string, stageId: string, client: string) =>
			one(
				trx
					.insertInto('crm_cards')
					.values({ organization_id: owner.orgId, pipeline_id: pipeline, stage_id: stageId, client_id: client, follow_up_on: '2026-12-01' })
					.returning('id')
					.executeTakeFirstOrThrow(),
			)
		const keptSalesCard = await card(sales, salesLead, kept)
		const mergedSalesCard = await card(sales, salesWon, merged)
		const upsellCard = await card(upsell, upsellLead, merged)
		await trx
			.insertInto('payer_aliases')
			.values([
				{ organization_id: owner.orgId, alias: 'ANA SOUZA', client_id: kept },
				{ organization_id: owner.orgId, alias: 'Ana Souza', client_id: merged },
				{ organization_id: owner.orgId, alias: 'A SOUZA', client_id: merged },
			])
			.execute()
		return { appointment, payment, sentInvoice, draft, schedule, rule, note, keptSalesCard, mergedSalesCard, upsellCard, sales }
	})
	// The upgrade of the schedule is gone since: a merge still moves it, untouched.
	await asSystem((trx) =>
		sql`delete from public.organization_module_upgrades where organization_id = ${owner.orgId} and upgrade_id = ${RECURRING}`.execute(trx),
	)
	return { kept, merged, ...ids }
}

/** Every row naming a client, per table: what a merge and its undo must move. */
async function holdings(orgId: string, clientId: string) {
	return asSystem(async (trx) => {
		const ids = async (table: string, column = 'client_id') =>
			(
				await sql<{ id: string }>`select id from ${sql.table(`public.${table}`)}
					where organization_id = ${orgId} and ${sql.ref(column)} = ${clientId} order by id`.execute(trx)
			).rows.map((r) => r.id)
		return {
			transactions: await ids('transactions'),
			booking_appointments: await ids('booking_appointments'),
			payment_expectations: await ids('payment_expectations'),
			invoices: await ids('invoices'),
			recurring_invoices: await ids('recurring_invoices'),
			rules: await ids('rules', 'set_client_id'),
			client_notes: await ids('client_notes'),
			crm_cards: await ids('crm_cards'),
			payer_aliases: await ids('payer_aliases'),
		}
	})
}

async function clientRow(id: string) {
	return asSystem((trx) =>
		trx
			.selectFrom('clients')
			.select(['id', 'name', 'email', 'phone', 'company', 'status', 'tags', 'created_at'])
			.where('id', '=', id)
			.executeTakeFirst(),
	)
}

const mergeOf = async (owner: TestUser) => (await listRecentMerges(owner.userId, owner.orgId))[0]!

describe('merge_clients', () => {
	test('every record follows to the kept client, for an organization without CRM Enterprise too', async () => {
		const owner = await createUser('Mona Merger')
		const t = await twins(owner)
		const before = await holdings(owner.orgId, t.merged)
		const keptBefore = await holdings(owner.orgId, t.kept)
		expect(await mergeClients(owner.userId, owner.orgId, t.kept, t.merged)).toEqual({ ok: true })

		expect(await clientRow(t.merged)).toBeUndefined()
		const after = await holdings(owner.orgId, t.kept)
		expect(after.transactions).toEqual([...keptBefore.transactions, ...before.transactions].sort())
		expect(after.booking_appointments).toEqual([t.appointment])
		expect(after.invoices).toEqual([t.sentInvoice, t.draft].sort())
		expect(after.recurring_invoices).toEqual([t.schedule])
		expect(after.rules).toEqual([t.rule])
		expect(after.client_notes).toEqual([t.note])
		// Sales: the kept client's card stays, the merged one's goes; Upsell's card follows.
		expect(after.crm_cards).toEqual([t.keptSalesCard, t.upsellCard].sort())
		expect(after.payer_aliases).toHaveLength(2)
		const kept = (await getClient(owner.userId, owner.orgId, t.kept))!
		expect(kept.client).toMatchObject({ name: 'Ana Souza', email: 'ana.s@example.com', phone: '555 0199', company: 'Souza Studio' })
		expect(kept.client.tags).toEqual(['vip', 'wholesale'])
		expect(kept.totals).toMatchObject({ count: 2, amount: '65.00' })
		// The sent invoice keeps what it was sent with; the schedule keeps its next date and stays active.
		const invoice = await asSystem((trx) =>
			trx.selectFrom('invoices').selectAll().where('id', '=', t.sentInvoice).executeTakeFirstOrThrow(),
		)
		expect(invoice).toMatchObject({ status: 'sent', number: 1, bill_to_name: 'Ana S.' })
		const schedule = await asSystem((trx) =>
			trx.selectFrom('recurring_invoices').select(['active', 'paused_reason']).where('id', '=', t.schedule).executeTakeFirstOrThrow(),
		)
		expect(schedule).toEqual({ active: true, paused_reason: null })
		// Recorded, for an undo once the upgrade is bought.
		const merge = await mergeOf(owner)
		expect(merge).toMatchObject({ keptId: t.kept, mergedName: 'Ana S.', mergedEmail: 'ana.s@example.com', undoneAt: null })
	})

	test('outside a merge, a sent invoice still cannot change client, whoever writes', async () => {
		const owner = await createUser('Ivo Invoicer')
		const t = await twins(owner)
		const other = await newClient(owner, { name: 'Somebody Else' })
		expect(
			await refusal(asSystem((trx) => trx.updateTable('invoices').set({ client_id: other }).where('id', '=', t.sentInvoice).execute())),
		).toBe('invoice_not_draft')
	})

	test('every foreign key to clients is one the merge handles', async () => {
		// A new table naming a client must be moved by merge_clients and undo_client_merge (and listed here).
		const { rows } = await asSystem((trx) =>
			sql<{ t: string }>`select conrelid::regclass::text as t from pg_constraint
				where confrelid = 'public.clients'::regclass and contype = 'f' order by 1`.execute(trx),
		)
		expect(rows.map((r) => r.t)).toEqual(
			[
				'booking_appointments',
				'client_duplicate_dismissals',
				'client_duplicate_dismissals',
				'client_notes',
				'crm_cards',
				'invoices',
				'payer_aliases',
				'payment_expectations',
				'recurring_invoices',
				'rules',
				'transactions',
			].sort(),
		)
	})
})

describe('undo_client_merge', () => {
	test('brings the merged client back with exactly what moved, and restores the kept client’s filled fields', async () => {
		const owner = await createUser('Uma Undoer')
		await enterprise(owner)
		const t = await twins(owner)
		const mergedRow = await clientRow(t.merged)
		const before = await holdings(owner.orgId, t.merged)
		const keptBefore = await holdings(owner.orgId, t.kept)
		await mergeClients(owner.userId, owner.orgId, t.kept, t.merged)
		// After the merge: a new payment of the kept client stays with it on undo; the kept client's
		// phone changed since stays as changed.
		await asSystem(async (trx) => {
			await trx.insertInto('transactions').values({ organization_id: owner.orgId, client_id: t.kept, amount: 7 }).execute()
			await trx.updateTable('clients').set({ phone: '555 0200' }).where('id', '=', t.kept).execute()
		})
		const keptWithNew = await holdings(owner.orgId, t.kept)

		const merge = await mergeOf(owner)
		expect(await undoClientMerge(owner.userId, owner.orgId, merge.id)).toEqual({ ok: true, clientId: t.merged })
		expect(await clientRow(t.merged)).toEqual(mergedRow)
		const back = await holdings(owner.orgId, t.merged)
		// The merged client's dropped Sales card and payer name come back too, with their ids.
		expect(back).toEqual(before)
		expect(back.crm_cards).toEqual([t.mergedSalesCard, t.upsellCard].sort())
		const kept = await holdings(owner.orgId, t.kept)
		expect(kept).toEqual({ ...keptBefore, transactions: keptWithNew.transactions.filter((id) => !before.transactions.includes(id)) })
		expect(await clientRow(t.kept)).toMatchObject({ email: null, company: null, phone: '555 0200', tags: ['vip'] })
		expect((await mergeOf(owner)).undoneAt).not.toBeNull()

		// Twice: refused.
		expect(await undoClientMerge(owner.userId, owner.orgId, merge.id)).toEqual({ ok: false, code: 'already_undone' })
	})

	test('is refused after 30 days, without CRM Enterprise, to another organization and to a signed-out caller', async () => {
		const owner = await createUser('Olga Old')
		const t = await twins(owner)
		await mergeClients(owner.userId, owner.orgId, t.kept, t.merged)
		const merge = await mergeOf(owner)
		expect(await undoClientMerge(owner.userId, owner.orgId, merge.id)).toEqual({ ok: false, code: 'upgrade_inactive' })
		await enterprise(owner)

		const other = await createUser('Otto Other')
		await enterprise(other)
		const call = (userId: string) => refusal(asUser(userId, (trx) => sql`select public.undo_client_merge(${merge.id})`.execute(trx)))
		expect(await call(other.userId)).toBe('not_found')
		expect(await undoClientMerge(other.userId, other.orgId, merge.id)).toEqual({ ok: false, code: 'not_found' })
		expect(await refusal(asAnon((trx) => sql`select public.undo_client_merge(${merge.id})`.execute(trx)))).toBe('42501')
		// A member of both organizations, on the other one's screen: not found there.
		await addMember(other.orgId, owner.userId, 'member')
		expect(await undoClientMerge(owner.userId, other.orgId, merge.id)).toEqual({ ok: false, code: 'not_found' })

		await asSystem((trx) =>
			sql`update public.client_merges set merged_at = now() - interval '30 days 1 minute' where id = ${merge.id}`.execute(trx),
		)
		expect(await undoClientMerge(owner.userId, owner.orgId, merge.id)).toEqual({ ok: false, code: 'undo_expired' })
		expect(await clientRow(t.merged)).toBeUndefined()
		// The daily pruning deletes it.
		expect(await pruneClientMerges()).toBeGreaterThanOrEqual(1)
		expect(await listRecentMerges(owner.userId, owner.orgId)).toEqual([])
	})

	test('a kept client merged away in turn: its merge is undone first, then the earlier one', async () => {
		const owner = await createUser('Chen Chain')
		await enterprise(owner)
		const a = await newClient(owner, { name: 'Ada', email: 'ada@example.com' })
		const b = await newClient(owner, { name: 'Ada B' })
		const c = await newClient(owner, { name: 'Ada C' })
		await asSystem((trx) => trx.insertInto('transactions').values({ organization_id: owner.orgId, client_id: b, amount: 3 }).execute())
		await mergeClients(owner.userId, owner.orgId, a, b)
		const first = await mergeOf(owner)
		await mergeClients(owner.userId, owner.orgId, c, a)
		const second = await mergeOf(owner)
		expect(await undoClientMerge(owner.userId, owner.orgId, first.id)).toEqual({ ok: false, code: 'kept_client_gone' })
		expect(await undoClientMerge(owner.userId, owner.orgId, second.id)).toEqual({ ok: true, clientId: a })
		expect(await undoClientMerge(owner.userId, owner.orgId, first.id)).toEqual({ ok: true, clientId: b })
		expect((await getClient(owner.userId, owner.orgId, b))!.totals.count).toBe(1)
	})

	test('a merge and an undo at once, and two undos at once: each ends whole, one undo refused', async () => {
		const owner = await createUser('Cora Concurrent')
		await enterprise(owner)
		const a = await newClient(owner, { name: 'Rui' })
		const b = await newClient(owner, { name: 'Rui B' })
		const c = await newClient(owner, { name: 'Rui C' })
		await mergeClients(owner.userId, owner.orgId, a, b)
		const merge = await mergeOf(owner)
		const undos = await Promise.all([
			undoClientMerge(owner.userId, owner.orgId, merge.id),
			undoClientMerge(owner.userId, owner.orgId, merge.id),
		])
		expect(undos.filter((u) => u.ok)).toHaveLength(1)
		expect(undos.filter((u) => !u.ok)).toEqual([{ ok: false, code: 'already_undone' }])
		// Merge b into a again while undoing nothing; then undo the new merge while a is merged into c.
		await mergeClients(owner.userId, owner.orgId, a, b)
		const again = await mergeOf(owner)
		const [merged, undone] = await Promise.all([
			mergeClients(owner.userId, owner.orgId, c, a),
			undoClientMerge(owner.userId, owner.orgId, again.id),
		])
		expect(merged).toEqual({ ok: true })
		// Whichever went first, the clients are whole: c always, b back only if the undo won.
		const left = await asSystem((trx) => trx.selectFrom('clients').select('id').where('organization_id', '=', owner.orgId).execute())
		if (undone.ok) expect(left.map((r) => r.id).sort()).toEqual([b, c].sort())
		else {
			expect(undone).toEqual({ ok: false, code: 'kept_client_gone' })
			expect(left.map((r) => r.id)).toEqual([c])
		}
	})
})

describe('possible duplicates', () => {
	test('pairs by e-mail, phone and name; a dismissed pair stays hidden; CRM Enterprise only', async () => {
		const owner = await createUser('Dana Dupes')
		const x = await newClient(owner, { name: 'Élodie Martin', email: 'Elodie@Example.com' })
		const y = await newClient(owner, { name: 'elodie  martin', email: 'elodie@example.com', phone: '+1 (555) 010-0199' })
		const z = await newClient(owner, { name: 'E. M.', phone: '555.010.0199' })
		await newClient(owner, { name: 'Nobody Alike', phone: '12' })
		expect(await dismissDuplicates(owner.userId, owner.orgId, x, y)).toEqual({ ok: false, code: 'upgrade_inactive' })
		await enterprise(owner)
		const pairs = await listDuplicatePairs(owner.userId, owner.orgId)
		const key = (p: { a: { id: string }; b: { id: string } }) => [p.a.id, p.b.id].sort().join()
		expect(pairs.map((p) => [key(p), p.reasons])).toEqual(
			expect.arrayContaining([
				[[x, y].sort().join(), ['email', 'name']],
				[[y, z].sort().join(), ['phone']],
			]),
		)
		expect(pairs).toHaveLength(2)

		expect(await dismissDuplicates(owner.userId, owner.orgId, y, x)).toEqual({ ok: true })
		expect((await listDuplicatePairs(owner.userId, owner.orgId)).map(key)).toEqual([[y, z].sort().join()])
		expect(await dismissDuplicates(owner.userId, owner.orgId, x, x)).toEqual({ ok: false, code: 'same_client' })
		// Another organization's clients: not found, nothing written.
		const other = await createUser('Oscar Other')
		await enterprise(other)
		expect(await dismissDuplicates(other.userId, other.orgId, y, z)).toEqual({ ok: false, code: 'not_found' })
		expect(await refusal(asUser(other.userId, (trx) => sql`select public.dismiss_client_duplicates(${y}, ${z})`.execute(trx)))).toBe(
			'not_found',
		)
		expect(await listDuplicatePairs(other.userId, other.orgId)).toEqual([])
	})

	test('finds pairs among 2,000 clients quickly enough for a page', async () => {
		const owner = await createUser('Sam Scale')
		await enterprise(owner)
		await asSystem((trx) =>
			sql`insert into public.clients (organization_id, name, email, phone)
				select ${owner.orgId}::uuid, 'Client ' || g, 'c' || (g % 1000) || '@example.com', '555 01' || lpad((g % 1500)::text, 4, '0')
				from generate_series(1, 2000) g`.execute(trx),
		)
		const started = Date.now()
		const pairs = await listDuplicatePairs(owner.userId, owner.orgId)
		expect(pairs).toHaveLength(50)
		expect(Date.now() - started).toBeLessThan(isDbTarget('pglite') ? 8000 : 4000)
	})
})
