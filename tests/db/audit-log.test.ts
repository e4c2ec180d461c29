/**
 * The activity audit log (supabase/migrations/20261210200000_audit_log.sql, docs/decisions/053),
 * on PGlite and on the PostgreSQL server: each audited table's insert, update and delete writes
 * the right event with its actor and changed fields while the organization owns CRM Enterprise,
 * and nothing without it; a large statement writes one summary; the log is append-only for every
 * role the app uses; only the organization's owners read it; it goes with the organization.
 */
import { sql } from 'kysely'
import { describe, expect, test } from 'vitest'
import { auditActor, auditSource } from '#app/.server/db/audit.ts'
import { asAnon, asSystem, asUser, type Tx } from '#app/.server/db/index.ts'
import { listAuditEvents, pruneAuditLog, readAuditFilters } from '#app/.server/organizations/audit-log.ts'
import { changeRole, removeMember } from '#app/.server/organizations/members.ts'
import { addMember, createUser, refusal, type TestUser } from './fixtures.ts'

const ENTERPRISE = 'c0000000-0000-4000-8000-000000000006'
const CRM = 'b0000000-0000-4000-8000-000000000002'

type Event = {
	actor_id: string | null
	actor_label: string
	entity_type: string
	entity_id: string | null
	action: string
	changes: Record<string, [unknown, unknown]>
	label: string | null
	amount: string | null
	row_count: number
}

async function withEnterprise(user: TestUser) {
	await asSystem((trx) =>
		sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select m.organization_id, m.id, ${ENTERPRISE}::uuid from public.organization_modules m
			where m.organization_id = ${user.orgId} and m.module_id = ${CRM}`.execute(trx),
	)
	return user
}

async function events(orgId: string): Promise<Event[]> {
	const { rows } = await asSystem((trx) =>
		sql<Event>`select actor_id, actor_label, entity_type, entity_id, action, changes, label, amount::text as amount, row_count
			from public.audit_events where organization_id = ${orgId} order by occurred_at, id`.execute(trx),
	)
	return rows
}

const count = async (orgId: string) => (await events(orgId)).length

describe('what the triggers write', () => {
	test('a client created, edited and deleted by a member: actor, changed fields without noise, the name kept', async () => {
		const owner = await withEnterprise(await createUser('Ana Owner'))
		const member = await createUser('Bo Member')
		await addMember(owner.orgId, member.userId, 'member')
		const { id } = await asUser(member.userId, (trx) =>
			trx
				.insertInto('clients')
				.values({ organization_id: owner.orgId, name: 'John Doe', email: 'john@example.test' })
				.returning('id')
				.executeTakeFirstOrThrow(),
		)
		await asUser(member.userId, (trx) =>
			trx.updateTable('clients').set({ name: 'John Smith', phone: '555' }).where('id', '=', id).execute(),
		)
		// Only noise changed (a same-value update): no event.
		await asUser(member.userId, (trx) => trx.updateTable('clients').set({ name: 'John Smith' }).where('id', '=', id).execute())
		await asUser(owner.userId, (trx) => trx.deleteFrom('clients').where('id', '=', id).execute())

		const log = (await events(owner.orgId)).filter((e) => e.entity_type === 'client')
		expect(log.map((e) => [e.entity_type, e.action, e.entity_id, e.actor_id, e.actor_label, e.label])).toEqual([
			['client', 'created', id, member.userId, 'Bo Member', 'John Doe'],
			['client', 'updated', id, member.userId, 'Bo Member', 'John Smith'],
			['client', 'deleted', id, owner.userId, 'Ana Owner', 'John Smith'],
		])
		expect(log[0]!.changes).toMatchObject({ name: [null, 'John Doe'], email: [null, 'john@example.test'] })
		expect(log[1]!.changes).toEqual({ name: ['John Doe', 'John Smith'], phone: [null, '555'] })
		for (const e of log) expect(Object.keys(e.changes)).not.toContain('updated_at')
	})

	test('a payment and an invoice: changed fields, the payer and amount as label; settings and roles too', async () => {
		const owner = await withEnterprise(await createUser('Ana Owner'))
		const member = await createUser('Cy Member')
		await addMember(owner.orgId, member.userId, 'member')
		const payment = await asUser(owner.userId, async (trx) => {
			const client = await trx
				.insertInto('clients')
				.values({ organization_id: owner.orgId, name: 'John' })
				.returning('id')
				.executeTakeFirstOrThrow()
			return trx
				.insertInto('transactions')
				.values({ organization_id: owner.orgId, amount: 120, client_id: client.id, payment_method: 'Venmo', category: 'pending' })
				.returning('id')
				.executeTakeFirstOrThrow()
		})
		await asUser(owner.userId, (trx) =>
			trx.updateTable('transactions').set({ description: 'Rent', amount: 125, category: 'review' }).where('id', '=', payment.id).execute(),
		)
		const invoice = await asSystem((trx) =>
			trx.insertInto('invoices').values({ organization_id: owner.orgId, bill_to_name: 'Acme' }).returning('id').executeTakeFirstOrThrow(),
		)
		await asUser(owner.userId, (trx) => trx.updateTable('invoices').set({ notes: 'Thanks' }).where('id', '=', invoice.id).execute())
		await asUser(owner.userId, (trx) =>
			trx.updateTable('organizations').set({ name: 'Renamed Studio' }).where('id', '=', owner.orgId).execute(),
		)
		await asSystem(async (trx) => {
			await auditActor(trx, owner.userId)
			await trx
				.updateTable('organization_members')
				.set({ role: 'manager' })
				.where('organization_id', '=', owner.orgId)
				.where('user_id', '=', member.userId)
				.execute()
			await trx.updateTable('booking_settings').set({ buffer_minutes: 15 }).where('organization_id', '=', owner.orgId).execute()
		})

		const log = await events(owner.orgId)
		const of = (type: string, action: string) => log.filter((e) => e.entity_type === type && e.action === action)
		expect(of('payment', 'created')).toMatchObject([{ entity_id: payment.id, label: 'John', amount: '120.00', actor_id: owner.userId }])
		expect(of('payment', 'created')[0]!.changes).toMatchObject({ amount: [null, 120], payment_method: [null, 'Venmo'] })
		expect(of('payment', 'updated').at(-1)).toMatchObject({
			entity_id: payment.id,
			label: 'John',
			amount: '125.00',
			changes: { description: [null, 'Rent'], amount: [120, 125], category: ['pending', 'review'] },
		})
		expect(of('invoice', 'created')).toMatchObject([{ entity_id: invoice.id, actor_id: null, actor_label: 'system', label: 'Acme' }])
		expect(of('invoice', 'updated')).toMatchObject([
			{ entity_id: invoice.id, actor_id: owner.userId, changes: { notes: [null, 'Thanks'] } },
		])
		expect(of('organization', 'updated')).toMatchObject([
			{ entity_id: owner.orgId, changes: { name: [expect.any(String), 'Renamed Studio'] }, label: 'Renamed Studio' },
		])
		expect(of('member', 'updated')).toMatchObject([
			{ entity_id: member.userId, actor_id: owner.userId, label: 'Cy Member', changes: { role: ['member', 'manager'] } },
		])
		expect(of('booking_settings', 'updated')).toMatchObject([{ actor_id: owner.userId, changes: { buffer_minutes: [0, 15] } }])
	})

	test('a role change and a removal made by the server for an owner name that owner, not the system', async () => {
		const owner = await withEnterprise(await createUser('Role Owner'))
		const member = await createUser('Dee Member')
		await addMember(owner.orgId, member.userId, 'member')
		expect(await changeRole({ userId: owner.userId, role: 'owner' }, owner.orgId, member.userId, 'manager')).toEqual({ ok: true })
		expect(await removeMember({ userId: owner.userId, role: 'owner' }, owner.orgId, member.userId)).toEqual({ ok: true })
		const log = (await events(owner.orgId)).filter((e) => e.entity_type === 'member' && e.action !== 'created')
		expect(log).toMatchObject([
			{
				action: 'updated',
				actor_id: owner.userId,
				actor_label: 'Role Owner',
				label: 'Dee Member',
				changes: { role: ['member', 'manager'] },
			},
			{ action: 'deleted', actor_id: owner.userId, label: 'Dee Member', changes: { role: ['manager', null] } },
		])
	})

	test('without CRM Enterprise nothing is written; a system path is named by its source', async () => {
		const plain = await createUser('No Upgrade')
		await asUser(plain.userId, async (trx) => {
			await trx.insertInto('clients').values({ organization_id: plain.orgId, name: 'Nobody' }).execute()
			await trx.insertInto('transactions').values({ organization_id: plain.orgId, amount: 5 }).execute()
		})
		expect(await count(plain.orgId)).toBe(0)

		const owner = await withEnterprise(await createUser('Synced Owner'))
		await asSystem(async (trx: Tx) => {
			await auditSource(trx, 'scheduler')
			await trx.insertInto('transactions').values({ organization_id: owner.orgId, amount: 7, raw_payer: 'Mailer' }).execute()
		})
		expect(await events(owner.orgId)).toMatchObject([
			{ actor_id: null, actor_label: 'scheduler', entity_type: 'payment', action: 'created' },
		])
	})

	test('a statement of more than 20 rows writes one summary per organization; 20 rows write 20 events', async () => {
		const owner = await withEnterprise(await createUser('Bulk Owner'))
		const insert = (n: number) =>
			asUser(owner.userId, (trx) =>
				sql`insert into public.transactions (organization_id, amount, description)
					select ${owner.orgId}::uuid, g, 'Payment ' || g from generate_series(1, ${n}) g`.execute(trx),
			)
		await insert(20)
		expect(await count(owner.orgId)).toBe(20)
		await insert(1240)
		const log = await events(owner.orgId)
		expect(log).toHaveLength(21)
		expect(log.at(-1)).toMatchObject({
			entity_type: 'payment',
			action: 'created',
			entity_id: null,
			row_count: 1240,
			actor_id: owner.userId,
		})
		await asUser(owner.userId, (trx) => trx.deleteFrom('transactions').where('organization_id', '=', owner.orgId).execute())
		expect((await events(owner.orgId)).at(-1)).toMatchObject({ action: 'deleted', entity_id: null, row_count: 1260 })
	})
})

describe('append-only and who reads', () => {
	test('no one updates or deletes an event: members, owners, the API roles, the owner role', async () => {
		const owner = await withEnterprise(await createUser('Keeper'))
		await asUser(owner.userId, (trx) => trx.insertInto('clients').values({ organization_id: owner.orgId, name: 'Kept' }).execute())
		const before = await events(owner.orgId)
		expect(before).toHaveLength(1)
		const statements = [
			sql`update public.audit_events set label = 'forged' where organization_id = ${owner.orgId}`,
			sql`delete from public.audit_events where organization_id = ${owner.orgId}`,
			sql`insert into public.audit_events (organization_id, actor_label, entity_type, entity_id, action)
				values (${owner.orgId}, 'forged', 'client', gen_random_uuid(), 'created')`,
		]
		const tries = (trx: Tx) => statements.map((statement) => () => statement.execute(trx))
		for (let i = 0; i < 3; i++) {
			expect(await refusal(asUser(owner.userId, (trx) => tries(trx)[i]!()))).toBe('42501')
			expect(await refusal(asAnon((trx) => tries(trx)[i]!()))).toBe('42501')
			expect(
				await refusal(
					asSystem(async (trx) => {
						await sql`set local role service_role`.execute(trx)
						await tries(trx)[i]!()
					}),
				),
			).toBe('42501')
		}
		// The owner role itself: the triggers refuse updates, deletes of a live organization's recent events, truncation.
		expect(await refusal(asSystem((trx) => tries(trx)[0]!()))).toBe('audit_append_only')
		expect(await refusal(asSystem((trx) => tries(trx)[1]!()))).toBe('audit_append_only')
		expect(await refusal(asSystem((trx) => sql`truncate public.audit_events`.execute(trx)))).toBe('audit_append_only')
		expect(await events(owner.orgId)).toEqual(before)
	})

	test('owners read their organization’s log; non-owners and other organizations read nothing', async () => {
		const owner = await withEnterprise(await createUser('Reader'))
		const admin = await createUser('Admin Member')
		const outsider = await withEnterprise(await createUser('Outsider'))
		await addMember(owner.orgId, admin.userId, 'administrator')
		await asUser(owner.userId, (trx) => trx.insertInto('clients').values({ organization_id: owner.orgId, name: 'Visible' }).execute())
		const read = (userId: string) =>
			asUser(userId, (trx) => sql<{ id: string }>`select id from public.audit_events where organization_id = ${owner.orgId}`.execute(trx))
		// The administrator's joining (a membership) and the client.
		expect((await read(owner.userId)).rows).toHaveLength(2)
		expect((await read(admin.userId)).rows).toHaveLength(0)
		expect((await read(outsider.userId)).rows).toHaveLength(0)
		const page = await listAuditEvents(owner.userId, owner.orgId, {})
		expect(page.events.map((e) => [e.entityType, e.label])).toEqual([
			['client', 'Visible'],
			['member', 'Admin Member'],
		])
		expect((await listAuditEvents(admin.userId, owner.orgId, {})).events).toEqual([])
	})

	test('the screen’s pages go by keyset, newest first; filters by record, member and dates; hostile filters are dropped', async () => {
		const owner = await withEnterprise(await createUser('Pager'))
		for (const n of [20, 20, 15]) {
			await asUser(owner.userId, (trx) =>
				sql`insert into public.clients (organization_id, name) select ${owner.orgId}::uuid, 'Client ' || g from generate_series(1, ${n}) g`.execute(
					trx,
				),
			)
		}
		const first = await listAuditEvents(owner.userId, owner.orgId, {})
		expect(first.events).toHaveLength(50)
		expect(first.next).not.toBeNull()
		const second = await listAuditEvents(owner.userId, owner.orgId, readAuditFilters(new URLSearchParams({ before: first.next! })))
		expect(second.events).toHaveLength(5)
		expect(second.next).toBeNull()
		const ids = [...first.events, ...second.events].map((e) => e.id)
		expect(new Set(ids).size).toBe(55)
		const times = [...first.events, ...second.events].map((e) => e.occurredAt)
		expect(times).toEqual([...times].sort().reverse())

		const count = async (params: Record<string, string>) =>
			(await listAuditEvents(owner.userId, owner.orgId, readAuditFilters(new URLSearchParams(params)), 'America/New_York')).events.length
		expect(await count({ kind: 'client' })).toBe(50)
		expect(await count({ kind: 'payment' })).toBe(0)
		expect(await count({ actor: owner.userId })).toBe(50)
		expect(await count({ actor: 'system' })).toBe(0)
		expect(await count({ from: '2099-01-01' })).toBe(0)
		expect(await count({ to: '2000-01-01' })).toBe(0)
		const hostile = {
			kind: "client' or 1=1",
			actor: 'nobody',
			from: '2026-02-31',
			to: 'x',
			before: '275760-09-13T00:00:00.000000Z_' + owner.userId,
		}
		expect(readAuditFilters(new URLSearchParams(hostile))).toEqual({ kind: null, actor: null, from: null, to: null, before: null })
		expect(readAuditFilters(new URLSearchParams({ before: `2026-02-31T00:00:00.000000Z_${owner.userId}` })).before).toBeNull()
	})

	test('the log is kept two years: pruning removes older events only; deleting the organization removes its log', async () => {
		const owner = await withEnterprise(await createUser('Old Org'))
		await asUser(owner.userId, (trx) => trx.insertInto('clients').values({ organization_id: owner.orgId, name: 'Recent' }).execute())
		// An event written as if three years ago (the owner role may insert: the triggers write that way).
		await asSystem((trx) =>
			sql`insert into public.audit_events (organization_id, occurred_at, actor_label, entity_type, entity_id, action, label)
				values (${owner.orgId}, now() - interval '3 years', 'system', 'client', gen_random_uuid(), 'created', 'Ancient')`.execute(trx),
		)
		await pruneAuditLog()
		expect((await events(owner.orgId)).map((e) => e.label)).toEqual(['Recent'])

		await asUser(owner.userId, (trx) =>
			sql`select public.delete_organization_and_data(${owner.orgId}, 'DELETE MY ORGANIZATION')`.execute(trx),
		)
		expect(await count(owner.orgId)).toBe(0)
	})
})
