import pg from 'pg'
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { withDatabase } from '../e2e/db.ts'
import type { Role } from '../../app/lib/roles.ts'
import { FORM, mergeCookies, raw } from './http.ts'

export const BOOKING_MODULE_ID = 'b0000000-0000-4000-8000-000000000003'
export const INVOICING_MODULE_ID = 'b0000000-0000-4000-8000-000000000005'
export const EXPENSES_MODULE_ID = 'b0000000-0000-4000-8000-000000000009'
export const MESSAGING_MODULE_ID = 'b0000000-0000-4000-8000-000000000006'
export const RECURRING_UPGRADE_ID = 'c0000000-0000-4000-8000-000000000013'
export const REPORTS_MODULE_ID = 'b0000000-0000-4000-8000-000000000004'
/** Advanced Analytics, Automation (which needs it) and Report Export. */
export const REPORTS_UPGRADE_IDS = [
	'c0000000-0000-4000-8000-000000000010',
	'c0000000-0000-4000-8000-000000000011',
	'c0000000-0000-4000-8000-000000000012',
]

/** Strings that appear nowhere but in organization B's private rows: none may reach anyone else. */
export const MARKER = 'ZqxOrgBSecret'

export type Org = {
	email: string
	password: string
	cookie: string
	userId: string
	orgId: string
	slug: string
	clientId: string
	providerId: string
	serviceId: string
	appointmentId: string
	appointmentToken: string
	batchId: string
	invoiceId: string
	scheduleId: string
	expenseId: string
	pipelineId: string
}

export async function signUp(baseURL: string, fullName: string) {
	const email = `sec-${randomUUID()}@example.test`
	const password = 'correct-horse-1'
	const response = await raw(baseURL, 'POST', '/auth?mode=signup', {
		headers: FORM,
		body: new URLSearchParams({ intent: 'signup', fullName, email, password, confirmPassword: password, timezone: 'UTC' }).toString(),
	})
	if (response.status !== 302) throw new Error(`sign-up answered ${response.status}`)
	return { email, password, cookie: mergeCookies('', response.headers) }
}

export async function signIn(baseURL: string, email: string, password: string, cookie = '') {
	const response = await raw(baseURL, 'POST', '/auth', {
		headers: { ...FORM, cookie },
		body: new URLSearchParams({ intent: 'login', email, password }).toString(),
	})
	return { response, cookie: mergeCookies(cookie, response.headers) }
}

/**
 * An organization with the booking and invoicing modules, one of each private row (a client, a
 * payment, a provider with a service, a booking with its manage token, a staged import, a draft
 * invoice), each carrying
 * `secret` in its private text so that a leak shows in a response body.
 */
export async function makeOrg(baseURL: string, name: string, secret: string): Promise<Org> {
	const account = await signUp(baseURL, `${name} Owner`)
	const token = randomBytes(32).toString('hex')
	const ids = await withDatabase(async (db) => {
		const { rows } = await db.query<{ user_id: string; id: string; slug: string }>(
			`select m.user_id, o.id, o.slug from public.organizations o join public.organization_members m on m.organization_id = o.id
			 join auth.users u on u.id = m.user_id where u.email = $1`,
			[account.email],
		)
		const org = rows[0]!
		await db.query('update public.profiles set full_name = $2, phone = $3 where user_id = $1', [org.user_id, `${secret}Owner`, '555 0100'])
		await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [org.id, BOOKING_MODULE_ID])
		// Reminders & Messaging, with a template of its own (its screen must not show it to another organization).
		await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [org.id, MESSAGING_MODULE_ID])
		await db.query(
			`insert into public.message_templates (organization_id, kind, language, subject, body) values ($1, 'invoice_after', 'en', $2, $3)`,
			[org.id, `${secret}Subject`, `${secret}Body {{client_name}}`],
		)
		const one = async (text: string, values: unknown[]) => (await db.query<{ id: string }>(text, values)).rows[0]!.id
		const clientId = await one(`insert into public.clients (organization_id, name, email, company) values ($1, $2, $3, $4) returning id`, [
			org.id,
			`${secret}Client`,
			`${secret.toLowerCase()}@client.example`,
			`${secret}Company`,
		])
		await db.query(
			`insert into public.transactions (organization_id, client_id, amount, description, external_id) values ($1, $2, 4321.09, $3, $4)`,
			[org.id, clientId, `${secret}Payment`, `${secret}External`],
		)
		const providerId = await one(
			`insert into public.booking_providers (organization_id, display_name, bio) values ($1, $2, $3) returning id`,
			[org.id, `${name} Provider`, `${name} bio`],
		)
		const serviceId = await one(
			`insert into public.booking_services (organization_id, name, price, duration_minutes) values ($1, $2, 10, 30) returning id`,
			[org.id, `${name} Service`],
		)
		const start = new Date(Date.now() + 5 * 86_400_000)
		start.setUTCHours(10, 0, 0, 0)
		const appointmentId = await one(
			`insert into public.booking_appointments (organization_id, service_id, provider_id, starts_at, ends_at, status, guest_name, guest_email, notes, manage_token_hash)
			 values ($1, $2, $3, $4, $5, 'confirmed', $6, $7, $8, $9) returning id`,
			[
				org.id,
				serviceId,
				providerId,
				start,
				new Date(start.getTime() + 30 * 60_000),
				`${secret}Guest`,
				`${secret.toLowerCase()}@guest.example`,
				`${secret}Notes`,
				createHash('sha256').update(token).digest('hex'),
			],
		)
		const batchId = await one(
			`insert into public.import_batches (organization_id, user_id, source, file_name, staged_rows) values ($1, $2, 'generic', $3, $4) returning id`,
			[org.id, org.user_id, `${secret}File.csv`, JSON.stringify([])],
		)
		// Invoicing, with a draft invoice of the client (its page is the draft form).
		const invoicing = await one('insert into public.organization_modules (organization_id, module_id) values ($1, $2) returning id', [
			org.id,
			INVOICING_MODULE_ID,
		])
		const invoiceId = await one(
			`insert into public.invoices (organization_id, client_id, notes, created_by) values ($1, $2, $3, $4) returning id`,
			[org.id, clientId, `${secret}InvoiceNotes`, org.user_id],
		)
		await db.query(
			`insert into public.invoice_lines (organization_id, invoice_id, position, description, quantity, unit_price) values ($1, $2, 0, $3, 1, 100)`,
			[org.id, invoiceId, `${secret}InvoiceLine`],
		)
		// Recurring Invoices, with a monthly schedule of the client (its page is the schedule's form).
		await db.query(
			'insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id) values ($1, $2, $3)',
			[org.id, invoicing, RECURRING_UPGRADE_ID],
		)
		const scheduleId = await one(
			`insert into public.recurring_invoices (organization_id, client_id, notes, cadence, anchor_date, created_by)
			 values ($1, $2, $3, 'monthly', current_date + 7, $4) returning id`,
			[org.id, clientId, `${secret}ScheduleNotes`, org.user_id],
		)
		await db.query(
			`insert into public.recurring_invoice_lines (organization_id, recurring_invoice_id, position, description, quantity, unit_price)
			 values ($1, $2, 0, $3, 1, 100)`,
			[org.id, scheduleId, `${secret}ScheduleLine`],
		)
		// Reports & Analytics with its upgrades (Advanced Analytics, Automation, Report Export): the reports' PDFs and the
		// automation form are there to walk.
		await db.query(
			`insert into public.organization_modules (organization_id, module_id) select $1, $2
			 where not exists (select 1 from public.organization_modules where organization_id = $1 and module_id = $2)`,
			[org.id, REPORTS_MODULE_ID],
		)
		for (const upgrade of REPORTS_UPGRADE_IDS)
			await db.query(
				`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
				 select $1, id, $3 from public.organization_modules where organization_id = $1 and module_id = $2`,
				[org.id, REPORTS_MODULE_ID, upgrade],
			)
		// Workflow Automation with Automation Unlimited, a webhook endpoint and a failed delivery of an event
		// (the webhooks screen's forms are there to walk; a failed delivery is never posted by the scheduler).
		await db.query(
			`insert into public.organization_modules (organization_id, module_id) select $1, 'b0000000-0000-4000-8000-000000000010'
			 where not exists (select 1 from public.organization_modules where organization_id = $1 and module_id = 'b0000000-0000-4000-8000-000000000010')`,
			[org.id],
		)
		await db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select $1, om.id, 'c0000000-0000-4000-8000-000000000015' from public.organization_modules om
			 where om.organization_id = $1 and om.module_id = 'b0000000-0000-4000-8000-000000000010'
			   and not exists (select 1 from public.organization_module_upgrades u
			     where u.organization_id = $1 and u.upgrade_id = 'c0000000-0000-4000-8000-000000000015')`,
			[org.id],
		)
		const endpointId = await one(
			`insert into public.webhook_endpoints (organization_id, url, description, events, enabled)
			 values ($1, 'https://example.com/hooks', $2, '{payment.received}', false) returning id`,
			[org.id, `${secret}Webhook`],
		)
		await db.query(`insert into private.webhook_secrets (endpoint_id, secret_sealed) values ($1, 'v1.not-a-real-sealed-secret')`, [
			endpointId,
		])
		const eventId = await one(
			`insert into public.webhook_events (organization_id, type, subject_id, data) values ($1, 'payment.received', $1, '{}') returning id`,
			[org.id],
		)
		await db.query(
			`insert into public.webhook_deliveries (organization_id, event_id, endpoint_id, status, attempts, response_status, error)
			 values ($1, $2, $3, 'failed', 6, 500, 'status')`,
			[org.id, eventId, endpointId],
		)
		// Email Pro with a custom parsing rule: the parsing rules screen's forms are there to walk.
		await db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select $1, om.id, 'c0000000-0000-4000-8000-000000000002' from public.organization_modules om
			 where om.organization_id = $1 and om.module_id = 'b0000000-0000-4000-8000-000000000001'
			   and not exists (select 1 from public.organization_module_upgrades u
			     where u.organization_id = $1 and u.upgrade_id = 'c0000000-0000-4000-8000-000000000002')`,
			[org.id],
		)
		await db.query(
			`insert into public.email_parsing_rules (organization_id, name, sender, amount_label, payer_label)
			 values ($1, $2, '@cu.example', 'Amount:', 'From:')`,
			[org.id, `${secret}ParsingRule`],
		)
		// Expense Tracking, with an expense and its receipt (a file of the private bucket, served only to members).
		await db.query('insert into public.organization_modules (organization_id, module_id) values ($1, $2)', [org.id, EXPENSES_MODULE_ID])
		const expenseId = randomUUID()
		const receiptKey = `${org.id}/${expenseId}-walk.png`
		await db.query(
			`insert into public.expenses (id, organization_id, spent_on, amount, vendor, note, receipt_key, receipt_type, created_by)
			 values ($1, $2, current_date, 12, $3, $4, $5, 'image/png', $6)`,
			[expenseId, org.id, `${secret}Vendor`, `${secret}ExpenseNote`, receiptKey, org.user_id],
		)
		// Bank Feed Reconciliation, with a statement and its line (the reconciliation screen's forms are there to walk).
		await db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select $1, om.id, 'c0000000-0000-4000-8000-000000000003' from public.organization_modules om
			 where om.organization_id = $1 and om.module_id = 'b0000000-0000-4000-8000-000000000001'`,
			[org.id],
		)
		const statementId = await one(
			`insert into public.bank_statements (organization_id, accounts, file_name, line_count) values ($1, '••1234', $2, 1) returning id`,
			[org.id, `${secret}Statement.ofx`],
		)
		await db.query(
			`insert into public.bank_statement_lines (organization_id, statement_id, account_key, account_label, fit_id, posted_on, amount, name, kind)
			 values ($1, $2, 'walk', '••1234', 'walk-1', current_date, 10, $3, 'deposit')`,
			[org.id, statementId, `${secret}BankLine`],
		)
		// CRM Enterprise, with a personal API token of the owner (the API tokens screen's forms are there to walk).
		await db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select $1, om.id, 'c0000000-0000-4000-8000-000000000006' from public.organization_modules om
			 where om.organization_id = $1 and om.module_id = 'b0000000-0000-4000-8000-000000000002'`,
			[org.id],
		)
		await db.query(
			`insert into public.api_tokens (organization_id, user_id, name, token_hash, prefix, scopes)
			 values ($1, $2, $3, md5(random()::text) || md5(random()::text), 'p2p_walkwalk', '{payments:read}')`,
			[org.id, org.user_id, `${secret}ApiToken`],
		)
		// A recent merge into the client (the duplicates screen's Undo form is there to walk).
		await db.query(
			`insert into public.client_merges (organization_id, kept_client_id, merged_client_id, merged_client, kept_before, kept_after, merged_by)
			 values ($1, $2, gen_random_uuid(), $3, '{}', '{}', $4)`,
			[org.id, clientId, JSON.stringify({ name: `${secret}MergedClient`, email: `${secret.toLowerCase()}@merged.example` }), org.user_id],
		)
		// CRM Basic Fields and Pipelines, with a note on the client and a pipeline holding it.
		await db.query(
			`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			 select $1, om.id, u from public.organization_modules om,
			   unnest(array['c0000000-0000-4000-8000-000000000004', 'c0000000-0000-4000-8000-000000000005']::uuid[]) u
			 where om.organization_id = $1 and om.module_id = 'b0000000-0000-4000-8000-000000000002'`,
			[org.id],
		)
		await db.query('insert into public.client_notes (organization_id, client_id, author_id, body) values ($1, $2, $3, $4)', [
			org.id,
			clientId,
			org.user_id,
			`${secret}Note`,
		])
		const pipelineId = await one('insert into public.crm_pipelines (organization_id, name) values ($1, $2) returning id', [
			org.id,
			`${secret}Pipeline`,
		])
		const stageId = await one(
			'insert into public.crm_stages (organization_id, pipeline_id, name, position) values ($1, $2, $3, 0) returning id',
			[org.id, pipelineId, `${secret}Stage`],
		)
		await db.query('insert into public.crm_cards (organization_id, pipeline_id, stage_id, client_id) values ($1, $2, $3, $4)', [
			org.id,
			pipelineId,
			stageId,
			clientId,
		])
		const receiptFile = path.resolve(process.env.E2E_DATA_DIR!, 'storage', 'receipts', ...receiptKey.split('/'))
		mkdirSync(path.dirname(receiptFile), { recursive: true })
		writeFileSync(receiptFile, Buffer.from(`\x89PNG\r\n\x1a\n${secret}Receipt`, 'latin1'))
		return {
			userId: org.user_id,
			orgId: org.id,
			slug: org.slug,
			clientId,
			providerId,
			serviceId,
			appointmentId,
			batchId,
			invoiceId,
			scheduleId,
			expenseId,
			pipelineId,
		}
	})
	return { ...account, ...ids, appointmentToken: token }
}

export type Account = { email: string; cookie: string; userId: string }

/** Signs up an account and deletes the organization its sign-up made: it belongs to none. */
export async function withoutOrganization(baseURL: string, fullName = 'Nobody Yet'): Promise<Account> {
	const account = await signUp(baseURL, fullName)
	const userId = await withDatabase(async (db) => {
		const { rows } = await db.query<{ id: string }>('select id from auth.users where email = $1', [account.email])
		await db.query(
			'delete from public.organizations where id in (select organization_id from public.organization_members where user_id = $1)',
			[rows[0]!.id],
		)
		return rows[0]!.id
	})
	return { email: account.email, cookie: account.cookie, userId }
}

/** An account whose only organization is `org`, where it holds `role`. */
export async function memberOf(baseURL: string, org: Org, role: Role): Promise<Account> {
	const account = await withoutOrganization(baseURL, `A ${role}`)
	await withDatabase((db) =>
		db.query('insert into public.organization_members (organization_id, user_id, role) values ($1, $2, $3)', [
			org.orgId,
			account.userId,
			role,
		]),
	)
	return account
}

const FINGERPRINTED = [
	'organizations:id',
	'organization_members',
	'clients',
	'transactions',
	'booking_settings',
	'booking_services',
	'booking_providers',
	'booking_appointments',
	'booking_date_overrides',
	'organization_modules',
	'organization_module_upgrades',
	'import_batches',
	'gear_ledger',
	'module_favorites',
	'invoices',
	'invoice_lines',
	'message_templates',
	'messaging_settings',
	'client_unsubscribes',
	'expenses',
	'bank_statements',
	'bank_statement_lines',
	'api_tokens',
	'email_parsing_rules',
	'client_merges',
	'client_duplicate_dismissals',
]

/** One query that hashes every row of the organization's data and its members' profiles. */
const FINGERPRINT_SQL = [
	...FINGERPRINTED.map((entry) => {
		const [table, column = 'organization_id'] = entry.split(':')
		return `select '${table}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from public.${table} x where ${column} = $1`
	}),
	`select 'profiles', md5(coalesce(string_agg(x::text, '|' order by x::text), '')) from public.profiles x
	 where x.user_id in (select user_id from public.organization_members where organization_id = $1)`,
].join('\nunion all\n')

/**
 * A fingerprint of every row of an organization's data (and of its members' profiles): two
 * equal fingerprints mean nothing changed. Pass a connected client when calling it often.
 */
export async function fingerprint(orgId: string, client?: pg.Client): Promise<string> {
	if (!client) return withDatabase((db) => fingerprint(orgId, db))
	const { rows } = await client.query<{ t: string; h: string }>(FINGERPRINT_SQL, [orgId])
	return rows.map((r) => `${r.t}=${r.h}`).join('\n')
}

/** A client of the e2e server's database, for a whole file (close it in afterAll). */
export async function openDatabase() {
	const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL })
	await client.connect()
	return client
}
