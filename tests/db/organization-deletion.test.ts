import { randomBytes } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { seedDemoData } from '#app/.server/db/demo-data.ts'
import { recordStatement } from '#app/.server/bank-feed/statements.ts'
import { importPayments } from '#app/.server/payments/imports/pipeline.ts'
import { asAnon, asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { addMember, CATALOGUE, createUser, refusal, type TestUser } from './fixtures.ts'
import { ofxSgml } from '../fixtures/bank-feed.ts'

const PHRASE = 'DELETE MY ORGANIZATION'

/** Rows per table that belong to the organization: every public table with organization_id,
 *  the organization itself, and the integration tokens kept outside the exposed schema. */
async function rowsOf(orgId: string): Promise<Record<string, number>> {
	return asSystem(async (trx) => {
		const tables = (
			await sql<{ name: string }>`
			select c.table_name as name from information_schema.columns c
			join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
			where c.table_schema = 'public' and c.column_name = 'organization_id' and t.table_type = 'BASE TABLE'
			order by 1`.execute(trx)
		).rows.map((r) => r.name)
		const counts: Record<string, number> = {}
		for (const table of tables) {
			const { rows } = await sql<{
				n: number
			}>`select count(*)::int as n from ${sql.table(`public.${table}`)} where organization_id = ${orgId}`.execute(trx)
			counts[table] = rows[0]!.n
		}
		counts.organizations = (
			await sql<{ n: number }>`select count(*)::int as n from public.organizations where id = ${orgId}`.execute(trx)
		).rows[0]!.n
		counts['private.integration_tokens'] = (
			await sql<{ n: number }>`
			select count(*)::int as n from private.integration_tokens t
			join public.integration_credentials c on c.id = t.credential_id where c.organization_id = ${orgId}`.execute(trx)
		).rows[0]!.n
		return counts
	})
}

/** An organization with a row in every table: demo data, an upgrade, sync status, integrations. */
async function fullOrganization(name: string): Promise<TestUser & { memberId: string }> {
	const owner = await createUser(name)
	const member = await createUser(`${name} Member`)
	await addMember(owner.orgId, member.userId, 'manager')
	await asSystem((trx) => seedDemoData(trx, owner.orgId, owner.userId))
	await asUser(owner.userId, async (trx) => {
		await sql`select public.purchase_upgrade(${owner.orgId}, ${CATALOGUE.upgrades.p2pEmail})`.execute(trx)
		await sql`select public.update_sync_status(${owner.orgId}, ${CATALOGUE.modules.p2p}, 'pending', null)`.execute(trx)
	})
	await asSystem(async (trx) => {
		const omu = await trx
			.selectFrom('organization_module_upgrades')
			.select('id')
			.where('organization_id', '=', owner.orgId)
			.executeTakeFirstOrThrow()
		await trx
			.insertInto('integration_connections')
			.values({ organization_id: owner.orgId, user_module_upgrade_id: omu.id, provider: 'gmail', scope: 'gmail.readonly' })
			.execute()
		const credential = await trx
			.insertInto('integration_credentials')
			.values({ organization_id: owner.orgId, upgrade_id: CATALOGUE.upgrades.p2pEmail, provider: 'gmail', scope: 'gmail.readonly' })
			.returning('id')
			.executeTakeFirstOrThrow()
		await sql`insert into private.integration_tokens (credential_id, access_token) values (${credential.id}, 'encrypted-token')`.execute(
			trx,
		)
		await trx
			.insertInto('module_favorites')
			.values({ organization_id: owner.orgId, user_id: member.userId, module_id: CATALOGUE.modules.crm })
			.execute()
		await trx
			.insertInto('booking_date_overrides')
			.values({ organization_id: owner.orgId, date: '2031-12-25', closed: true, note: 'Holiday' })
			.execute()
		const client = await trx
			.selectFrom('clients')
			.select('id')
			.where('organization_id', '=', owner.orgId)
			.limit(1)
			.executeTakeFirstOrThrow()
		await trx.insertInto('payer_aliases').values({ organization_id: owner.orgId, alias: 'Payer Alias', client_id: client.id }).execute()
		await trx
			.insertInto('import_mappings')
			.values({
				organization_id: owner.orgId,
				header_signature: 'a|b',
				date_column: 'Date',
				amount_column: 'Amount',
				payer_column: 'Payer',
			})
			.execute()
		// Booked and paid: the handles, a balance of a demo appointment, and the payment its code matched.
		await trx.insertInto('payment_handles').values({ organization_id: owner.orgId, venmo: 'doomed-studio' }).execute()
		const appointment = await trx
			.selectFrom('booking_appointments')
			.select(['id', 'client_id'])
			.where('organization_id', '=', owner.orgId)
			.limit(1)
			.executeTakeFirstOrThrow()
		await trx
			.insertInto('payment_expectations')
			.values({
				organization_id: owner.orgId,
				kind: 'balance',
				appointment_id: appointment.id,
				client_id: appointment.client_id,
				amount_due: 40,
				memo_code: 'DEK234',
			})
			.execute()
		await trx.insertInto('transactions').values({ organization_id: owner.orgId, amount: 40, description: 'for DEK234' }).execute()
	})
	// A sent invoice with its lines (frozen once sent: the deletion still takes it).
	await asSystem((trx) =>
		sql`insert into public.organization_modules (organization_id, module_id) values (${owner.orgId}, 'b0000000-0000-4000-8000-000000000005')`.execute(
			trx,
		),
	)
	const invoiceId = await asUser(owner.userId, async (trx) => {
		const client = await trx
			.selectFrom('clients')
			.select('id')
			.where('organization_id', '=', owner.orgId)
			.limit(1)
			.executeTakeFirstOrThrow()
		const invoice = await trx
			.insertInto('invoices')
			.values({ organization_id: owner.orgId, client_id: client.id })
			.returning('id')
			.executeTakeFirstOrThrow()
		await trx
			.insertInto('invoice_lines')
			.values({ organization_id: owner.orgId, invoice_id: invoice.id, position: 0, description: 'Work', quantity: 1, unit_price: 90 })
			.execute()
		await sql`select public.send_invoice(${invoice.id}, ${randomBytes(32).toString('hex')}, null)`.execute(trx)
		return invoice.id
	})
	// Recurring Invoices: a schedule with its line and the run that made that invoice; Reminders &
	// Messaging: a template, its settings and a client's unsubscribe.
	await asSystem(async (trx) => {
		await sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select ${owner.orgId}, om.id, 'c0000000-0000-4000-8000-000000000013' from public.organization_modules om
			where om.organization_id = ${owner.orgId} and om.module_id = 'b0000000-0000-4000-8000-000000000005'`.execute(trx)
		const schedule = await sql<{ id: string }>`
			insert into public.recurring_invoices (organization_id, client_id, cadence, anchor_date)
			select ${owner.orgId}, i.client_id, 'monthly', current_date + 7 from public.invoices i where i.id = ${invoiceId}
			returning id`.execute(trx)
		const scheduleId = schedule.rows[0]!.id
		await sql`insert into public.recurring_invoice_lines (organization_id, recurring_invoice_id, position, description, quantity, unit_price)
			values (${owner.orgId}, ${scheduleId}, 0, 'Monthly work', 1, 90)`.execute(trx)
		await sql`insert into public.recurring_invoice_runs (organization_id, recurring_invoice_id, period_date, invoice_id)
			values (${owner.orgId}, ${scheduleId}, current_date, ${invoiceId})`.execute(trx)
		await sql`insert into public.organization_modules (organization_id, module_id)
			values (${owner.orgId}, 'b0000000-0000-4000-8000-000000000006')`.execute(trx)
		await sql`insert into public.message_templates (organization_id, kind, language, subject, body)
			values (${owner.orgId}, 'invoice_after', 'en', 'Reminder', 'Hello {{client_name}}')`.execute(trx)
		await sql`insert into public.messaging_settings (organization_id) values (${owner.orgId}) on conflict do nothing`.execute(trx)
		await sql`insert into public.client_unsubscribes (organization_id, email) values (${owner.orgId}, 'gone@client.example')`.execute(trx)
		// Report automation, with its upgrade on the included Reports module.
		await sql`insert into public.organization_modules (organization_id, module_id)
			values (${owner.orgId}, 'b0000000-0000-4000-8000-000000000004') on conflict do nothing`.execute(trx)
		await sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select ${owner.orgId}, om.id, 'c0000000-0000-4000-8000-000000000011' from public.organization_modules om
			where om.organization_id = ${owner.orgId} and om.module_id = 'b0000000-0000-4000-8000-000000000004'`.execute(trx)
		await sql`insert into public.report_automations (organization_id, weekly_report, recipients)
			values (${owner.orgId}, true, array[${owner.userId}::uuid])`.execute(trx)
	})
	// A personal API token, with CRM Enterprise on the included Clients CRM.
	await asSystem(async (trx) => {
		await sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select ${owner.orgId}, om.id, 'c0000000-0000-4000-8000-000000000006' from public.organization_modules om
			where om.organization_id = ${owner.orgId} and om.module_id = 'b0000000-0000-4000-8000-000000000002'`.execute(trx)
		await sql`insert into public.api_tokens (organization_id, user_id, name, token_hash, prefix, scopes)
			values (${owner.orgId}, ${owner.userId}, 'Sync', md5(random()::text) || md5(random()::text), 'p2p_abcdefgh', array['clients:read'])`.execute(
			trx,
		)
	})
	// Webhooks: Workflow Automation with Automation Unlimited, an endpoint (its secret sealed apart),
	// and the event and delivery of the payments imported below.
	await asSystem(async (trx) => {
		await sql`insert into public.organization_modules (organization_id, module_id)
			values (${owner.orgId}, 'b0000000-0000-4000-8000-000000000010') on conflict do nothing`.execute(trx)
		await sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select ${owner.orgId}, om.id, 'c0000000-0000-4000-8000-000000000015' from public.organization_modules om
			where om.organization_id = ${owner.orgId} and om.module_id = 'b0000000-0000-4000-8000-000000000010'`.execute(trx)
	})
	// Email Pro with a custom parsing rule.
	await asSystem(async (trx) => {
		await sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select ${owner.orgId}, om.id, 'c0000000-0000-4000-8000-000000000002' from public.organization_modules om
			where om.organization_id = ${owner.orgId} and om.module_id = 'b0000000-0000-4000-8000-000000000001'`.execute(trx)
		await sql`insert into public.email_parsing_rules (organization_id, name, sender, amount_label, payer_label)
			values (${owner.orgId}, 'Credit union', '@cu.example', 'Amount:', 'From:')`.execute(trx)
	})
	await asUser(owner.userId, (trx) =>
		sql`select public.add_webhook_endpoint(${owner.orgId}, gen_random_uuid(), 'https://example.com/hooks', null,
			'{payment.received}', 'v1.sealed-for-the-test')`.execute(trx),
	)
	// CRM Basic Fields and Pipelines: a note, a pipeline with a stage and a card with a follow-up.
	await asSystem((trx) =>
		sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select ${owner.orgId}, om.id, u.id from public.organization_modules om
			cross join (values ('c0000000-0000-4000-8000-000000000004'::uuid), ('c0000000-0000-4000-8000-000000000005'::uuid)) u (id)
			where om.organization_id = ${owner.orgId} and om.module_id = 'b0000000-0000-4000-8000-000000000002'`.execute(trx),
	)
	await asUser(owner.userId, async (trx) => {
		const { rows } = await sql<{ id: string }>`insert into public.clients (organization_id, name)
			values (${owner.orgId}, 'CRM Client') returning id`.execute(trx)
		const clientId = rows[0]!.id
		await sql`select public.add_client_note(${clientId}, 'Called back')`.execute(trx)
		const pipeline = await sql<{ id: string }>`select public.save_crm_pipeline(${owner.orgId}, null, 'Sales',
			'[{"id": null, "name": "Lead"}]'::jsonb) as id`.execute(trx)
		const card = await sql<{ id: string }>`select public.add_crm_card(${pipeline.rows[0]!.id}, ${clientId}) as id`.execute(trx)
		await sql`select public.set_crm_follow_up(${card.rows[0]!.id}, '2026-03-03', null)`.execute(trx)
	})
	// Two clients merged (a merge record), and a pair said not to be duplicates (CRM Enterprise).
	const twins = await asUser(owner.userId, async (trx) => {
		const { rows } = await sql<{ id: string }>`insert into public.clients (organization_id, name)
			values (${owner.orgId}, 'Twin One'), (${owner.orgId}, 'Twin Two'), (${owner.orgId}, 'Twin Three') returning id`.execute(trx)
		const [one, two, three] = rows.map((r) => r.id).sort()
		await sql`select public.merge_clients(${one}, ${two})`.execute(trx)
		return [one!, three!]
	})
	await asSystem((trx) =>
		trx
			.insertInto('client_duplicate_dismissals')
			.values({ organization_id: owner.orgId, client_a: twins[0]!, client_b: twins[1]! })
			.execute(),
	)
	// Money out: an expense typed by the owner.
	await asUser(owner.userId, (trx) =>
		trx.insertInto('expenses').values({ organization_id: owner.orgId, spent_on: '2026-03-02', amount: 15, vendor: 'Supplies' }).execute(),
	)
	// Workflow Automation (active above): a rule, which runs on the payments imported below (its history).
	await asUser(owner.userId, (trx) =>
		sql`insert into public.rules (organization_id, name, amount_min, add_tag) values (${owner.orgId}, 'Every payment', 0.01, 'seen')`.execute(
			trx,
		),
	)
	// An import batch with its transactions, one of them deleted (a tombstone).
	const payments = [1, 2].map((n) => ({
		date: '2026-03-01',
		amount: `${n}.00`,
		fee: null,
		payer: 'Payer Alias',
		description: null,
		externalId: `D${n}`,
		method: 'Venmo' as const,
		provider: 'venmo',
	}))
	await importPayments({ organizationId: owner.orgId, userId: owner.userId, source: 'venmo', payments })
	await asUser(owner.userId, (trx) =>
		trx.deleteFrom('transactions').where('organization_id', '=', owner.orgId).where('external_id', '=', 'D1').execute(),
	)
	await asSystem((trx) =>
		trx.insertInto('email_sync_runs').values({ organization_id: owner.orgId, trigger: 'schedule', status: 'succeeded' }).execute(),
	)
	// A bank statement whose Venmo cash-out carried the payment left (Bank Feed Reconciliation).
	await asSystem((trx) =>
		sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select ${owner.orgId}, om.id, 'c0000000-0000-4000-8000-000000000003' from public.organization_modules om
			where om.organization_id = ${owner.orgId} and om.module_id = 'b0000000-0000-4000-8000-000000000001'`.execute(trx),
	)
	await recordStatement(
		owner.userId,
		owner.orgId,
		ofxSgml([{ id: 'D', date: '2026-03-02', amount: '2.00', name: 'VENMO CASHOUT' }]),
		'd.ofx',
	)
	return { ...owner, memberId: member.userId }
}

const deleteOrg = (userId: string, orgId: string, phrase: string) =>
	asUser(userId, (trx) => sql`select public.delete_organization_and_data(${orgId}, ${phrase})`.execute(trx))

describe('delete_organization_and_data', () => {
	test('removes every row of the organization and nothing of another; its people keep their accounts', async () => {
		const a = await fullOrganization('Doomed Org')
		const b = await fullOrganization('Surviving Org')
		const before = { a: await rowsOf(a.orgId), b: await rowsOf(b.orgId) }
		const emptyTables = Object.entries(before.a)
			.filter(([, n]) => n === 0)
			.map(([table]) => table)
		expect(emptyTables).toEqual([]) // the test really has a row everywhere

		await deleteOrg(a.userId, a.orgId, PHRASE)

		const after = { a: await rowsOf(a.orgId), b: await rowsOf(b.orgId) }
		expect(after.a).toEqual(Object.fromEntries(Object.keys(before.a).map((table) => [table, 0])))
		expect(after.b).toEqual(before.b)
		const people = await asSystem((trx) =>
			trx.selectFrom('profiles').select('user_id').where('user_id', 'in', [a.userId, a.memberId]).execute(),
		)
		expect(people).toHaveLength(2)
		const memberStillHasOwnOrg = await asUser(a.memberId, (trx) =>
			trx.selectFrom('organization_members').select('organization_id').execute(),
		)
		expect(memberStillHasOwnOrg).toHaveLength(1)
	})

	test('a wrong phrase, a non-owner, an owner of another organization and a visitor are refused, and nothing is removed', async () => {
		const owner = await createUser('Kept Org')
		const admin = await createUser('Kept Admin')
		const outsider = await createUser('Other Owner')
		await addMember(owner.orgId, admin.userId, 'administrator')
		await asUser(owner.userId, (trx) => trx.insertInto('transactions').values({ organization_id: owner.orgId, amount: 5 }).execute())
		const before = await rowsOf(owner.orgId)
		for (const phrase of ['delete my organization', 'DELETE MY ORGANIZATION ', 'DELETE', '']) {
			expect(await refusal(deleteOrg(owner.userId, owner.orgId, phrase))).toBe('wrong_confirmation')
		}
		expect(
			await refusal(asUser(owner.userId, (trx) => sql`select public.delete_organization_and_data(${owner.orgId}, null)`.execute(trx))),
		).toBe('wrong_confirmation')
		expect(await refusal(deleteOrg(admin.userId, owner.orgId, PHRASE))).toBe('not_owner')
		expect(await refusal(deleteOrg(outsider.userId, owner.orgId, PHRASE))).toBe('not_owner')
		expect(await refusal(asAnon((trx) => sql`select public.delete_organization_and_data(${owner.orgId}, ${PHRASE})`.execute(trx)))).toBe(
			'42501',
		)
		expect(await rowsOf(owner.orgId)).toEqual(before)
		expect(before.organizations).toBe(1)
	})
})
