/**
 * Every check and enum constraint rejects a bad value. Each table has a valid row (inserted once
 * as a control, so a refusal is the bad value's doing) and a list of bad values tried one at a
 * time, on the owner connection so that no privilege gets in the way, each rolled back.
 */
import { randomUUID } from 'node:crypto'
import { Kysely } from 'kysely'
import { beforeAll, describe, expect, test } from 'vitest'
import { asSystem, asUser, sql, type Tx } from '#app/.server/db/index.ts'
import { CATALOGUE, createUser, refusal, type TestUser } from './fixtures.ts'

type Row = Record<string, unknown>
type Ctx = {
	owner: TestUser
	omuId: string
	omuModuleId: string
	clientId: string
	appointmentId: string
	transactionId: string
	expectationId: string
	invoiceId: string
	scheduleId: string
}
type Spec =
	| { table: string; insert: (ctx: Ctx) => Row; control?: boolean; bad: [Row, string][] }
	| { table: string; update: (ctx: Ctx) => Row; bad: [Row, string][] }

const CHECK = '23514'
const ENUM = '22P02'
const long = (n: number) => 'x'.repeat(n)
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
const week = (day: Row = { start: '09:00', end: '17:00', enabled: true }) => Object.fromEntries(DAYS.map((d) => [d, day]))
const badHours: [Row, string][] = [
	[{ business_hours: JSON.stringify({ ...week(), sunday: undefined }) }, CHECK],
	[{ business_hours: JSON.stringify({ ...week(), holiday: { start: '09:00', end: '17:00', enabled: true } }) }, CHECK],
	[{ business_hours: JSON.stringify(week({ start: '09:00', end: '17:00', enabled: 'yes' })) }, CHECK],
	[{ business_hours: JSON.stringify(week({ start: '9:00', end: '17:00', enabled: true })) }, CHECK],
	[{ business_hours: JSON.stringify(week({ start: '18:00', end: '17:00', enabled: true })) }, CHECK],
	[{ business_hours: JSON.stringify(week({ start: '09:00', end: '25:00', enabled: true })) }, CHECK],
	[{ business_hours: JSON.stringify(week({ start: '09:00', enabled: true })) }, CHECK],
	[{ business_hours: JSON.stringify(week({ start: 900, end: '17:00', enabled: true })) }, CHECK],
	[{ business_hours: JSON.stringify({ ...week(), monday: 'closed' }) }, CHECK],
	[{ business_hours: '[]' }, CHECK],
	[{ business_hours: '"closed"' }, CHECK],
]

const SPECS: Spec[] = [
	{
		table: 'organizations',
		insert: () => ({ slug: `org-${randomUUID().slice(0, 8)}`, name: 'Valid Org' }),
		bad: [
			[{ slug: 'Bad Slug' }, CHECK],
			[{ slug: '-leading' }, CHECK],
			[{ slug: long(64) }, CHECK],
			[{ name: '  ' }, CHECK],
			[{ name: long(121) }, CHECK],
			[{ description: long(2001) }, CHECK],
			[{ brand_colors: JSON.stringify({ primary: 'blue', secondary: '#64748b' }) }, CHECK],
			[{ brand_colors: JSON.stringify({ primary: '#2563eb' }) }, CHECK],
			[{ gears_remaining: -1 }, CHECK],
			[{ gears_owned: -1 }, CHECK],
		],
	},
	{
		table: 'profiles',
		update: (c) => ({ user_id: c.owner.userId }),
		bad: [
			[{ username: 'a' }, CHECK],
			[{ username: 'bad name!' }, CHECK],
			[{ preferred_language: 'fr' }, CHECK],
			[{ full_name: long(121) }, CHECK],
			[{ phone: long(41) }, CHECK],
		],
	},
	{
		table: 'organization_members',
		update: (c) => ({ organization_id: c.owner.orgId, user_id: c.owner.userId }),
		bad: [[{ role: 'superuser' }, ENUM]],
	},
	{
		table: 'booking_settings',
		update: (c) => ({ organization_id: c.owner.orgId }),
		bad: [
			[{ min_advance_hours: -1 }, CHECK],
			[{ max_advance_days: 0 }, CHECK],
			[{ buffer_minutes: -1 }, CHECK],
			[{ cancellation_hours: -1 }, CHECK],
			[{ timezone: 'Mars/Olympus_Mons' }, CHECK],
			[{ timezone: 'utc' }, CHECK],
			[{ deposit_hold_minutes: 14 }, CHECK],
			[{ deposit_hold_minutes: 10081 }, CHECK],
			[{ deposit_hold_before_start_minutes: -1 }, CHECK],
			[{ reminder_offsets_minutes: '{1440,60,30,15}' }, CHECK],
			[{ reminder_offsets_minutes: '{10}' }, CHECK],
			[{ reminder_offsets_minutes: '{20000}' }, CHECK],
			...badHours,
		],
	},
	{
		table: 'transactions',
		insert: (c) => ({ organization_id: c.owner.orgId, amount: 10 }),
		bad: [
			[{ amount: -0.01 }, CHECK],
			[{ amount: 10_000_000_000 }, '22003'],
			[{ category: 'bogus' }, ENUM],
			[{ category: 'Matched' }, ENUM],
			[{ payment_method: 'Bitcoin' }, ENUM],
			[{ payment_method: 'zelle' }, ENUM],
			[{ external_id: long(201) }, CHECK],
			[{ description: long(2001) }, CHECK],
			[{ client_id: randomUUID() }, '23503'],
			[{ amount: null }, '23502'],
			[{ import_source: 'bitcoin' }, CHECK],
			[{ raw_payer: long(201) }, CHECK],
			[{ fee: -1 }, CHECK],
			[{ import_key: long(301) }, CHECK],
			[{ import_batch_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'import_batches',
		insert: (c) => ({ organization_id: c.owner.orgId, source: 'venmo' }),
		bad: [
			[{ source: 'bitcoin' }, CHECK],
			[{ status: 'done' }, CHECK],
			[{ rows_read: -1 }, CHECK],
			[{ created_count: -1 }, CHECK],
			[{ file_name: long(256) }, CHECK],
			[{ staged_rows: '{}' }, CHECK],
			[{ failures: '{}' }, CHECK],
			[{ source: null }, '23502'],
		],
	},
	{
		table: 'email_sync_runs',
		insert: (c) => ({ organization_id: c.owner.orgId, trigger: 'button' }),
		bad: [
			[{ trigger: 'cron' }, CHECK],
			[{ status: 'done' }, CHECK],
			[{ read_count: -1 }, CHECK],
			[{ created_count: -1 }, CHECK],
			[{ duplicate_count: -1 }, CHECK],
			[{ ignored_count: -1 }, CHECK],
			[{ unreadable_count: -1 }, CHECK],
			[{ error_count: -1 }, CHECK],
			[{ provider: long(41) }, CHECK],
			[{ error_code: long(41) }, CHECK],
			[{ unreadable: '{}' }, CHECK],
			[{ trigger: null }, '23502'],
		],
	},
	{
		table: 'import_tombstones',
		insert: (c) => ({ organization_id: c.owner.orgId, import_key: 'id:venmo:1' }),
		bad: [
			[{ import_key: long(301) }, CHECK],
			[{ import_key: null }, '23502'],
		],
	},
	{
		table: 'payer_aliases',
		insert: (c) => ({ organization_id: c.owner.orgId, alias: 'Payer', client_id: c.clientId }),
		bad: [
			[{ alias: '  ' }, CHECK],
			[{ alias: long(201) }, CHECK],
			[{ client_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'import_mappings',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			header_signature: 'a|b',
			date_column: 'Date',
			amount_column: 'Amount',
			payer_column: 'Payer',
		}),
		bad: [
			[{ header_signature: '' }, CHECK],
			[{ date_column: '' }, CHECK],
			[{ payer_column: long(201) }, CHECK],
			[{ external_id_column: '' }, CHECK],
			[{ payment_method: 'Cash' }, ENUM],
			[{ amount_column: null }, '23502'],
		],
	},
	{
		table: 'clients',
		insert: (c) => ({ organization_id: c.owner.orgId, name: 'Valid Client', email: 'valid@example.com' }),
		bad: [
			[{ status: 'archived' }, ENUM],
			[{ email: 'not-an-email' }, CHECK],
			[{ email: 'a@b' }, CHECK],
			[{ name: long(201) }, CHECK],
			[{ phone: long(41) }, CHECK],
			[{ company: long(201) }, CHECK],
			[{ tags: ['vip', ''] }, CHECK],
			[{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, CHECK],
		],
	},
	{
		table: 'modules',
		insert: () => ({ name: `Valid module ${randomUUID()}`, feature_type: 'finance' }),
		bad: [
			[{ feature_type: 'games' }, CHECK],
			[{ icon: 'credit-card' }, CHECK],
			[{ version: '1.0' }, CHECK],
			[{ base_gear_cost: -1 }, CHECK],
			[{ name: ' ' }, CHECK],
			[{ industry_tags: ['a', null] }, CHECK],
		],
	},
	{
		table: 'module_upgrades',
		insert: () => ({ module_id: CATALOGUE.modules.expenses, name: `Valid upgrade ${randomUUID()}`, tier: 'basic' }),
		bad: [
			[{ tier: 'gold' }, ENUM],
			[{ gear_cost: -1 }, CHECK],
			[{ features: ['ok', null] }, CHECK],
			[{ id: '11111111-1111-4111-8111-111111111111', dependencies: ['11111111-1111-4111-8111-111111111111'] }, CHECK],
			[{ dependencies: [randomUUID()] }, 'unknown_dependency'],
		],
	},
	{
		table: 'organization_modules',
		// A module no organization has from the start (the included ones are active already).
		insert: (c) => ({ organization_id: c.owner.orgId, module_id: CATALOGUE.modules.expenses }),
		bad: [
			[{ status: 'deactivated', module_id: CATALOGUE.modules.booking }, ENUM],
			[{ default_visibility: 'everyone', module_id: CATALOGUE.modules.booking }, CHECK],
		],
	},
	{
		// A member's own favourites: its keys are what can go wrong.
		table: 'module_favorites',
		insert: (c) => ({ organization_id: c.owner.orgId, user_id: c.owner.userId, module_id: CATALOGUE.modules.crm }),
		bad: [
			[{ module_id: randomUUID() }, '23503'],
			[{ user_id: randomUUID() }, '23503'],
		],
	},
	{
		// No check or enum of its own: its keys are what can go wrong.
		table: 'organization_module_upgrades',
		insert: (c) => ({ organization_id: c.owner.orgId, organization_module_id: c.omuModuleId, upgrade_id: CATALOGUE.upgrades.emailPro }),
		bad: [
			[{ upgrade_id: CATALOGUE.upgrades.p2pEmail }, '23505'],
			[{ organization_module_id: randomUUID() }, '23503'],
			[{ upgrade_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'module_sync_status',
		insert: (c) => ({ organization_id: c.owner.orgId, module_id: CATALOGUE.modules.p2p }),
		bad: [
			[{ sync_status: 'running', module_id: CATALOGUE.modules.crm }, ENUM],
			[{ error_message: long(2001), module_id: CATALOGUE.modules.crm }, CHECK],
		],
	},
	{
		table: 'integration_connections',
		insert: (c) => ({ organization_id: c.owner.orgId, user_module_upgrade_id: c.omuId, provider: 'gmail', scope: `scope ${randomUUID()}` }),
		bad: [
			[{ status: 'broken' }, ENUM],
			[{ provider: 'Gmail!' }, CHECK],
			[{ scope: '' }, CHECK],
		],
	},
	{
		table: 'integration_credentials',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			upgrade_id: CATALOGUE.upgrades.p2pEmail,
			provider: 'gmail',
			scope: `scope ${randomUUID()}`,
		}),
		bad: [
			[{ status: 'error' }, ENUM],
			[{ provider: '' }, CHECK],
			[{ error_message: long(2001) }, CHECK],
		],
	},
	{
		table: 'gear_ledger',
		// A valid row alone would fail at commit (the balance would not match): no control.
		insert: (c) => ({ organization_id: c.owner.orgId, delta: -1, balance_after: 0, reason: 'adjustment' }),
		control: false,
		bad: [
			[{ delta: 0 }, CHECK],
			[{ balance_after: -1 }, CHECK],
			[{ reason: 'gift' }, ENUM],
			[{ reason: 'grant', delta: -5 }, CHECK],
			[{ reason: 'module_activation', delta: 5, module_id: CATALOGUE.modules.crm }, CHECK],
			[{ reason: 'module_activation' }, CHECK],
			[{ reason: 'upgrade_purchase' }, CHECK],
		],
	},
	{
		table: 'transaction_monthly_rollups',
		insert: (c) => ({ organization_id: c.owner.orgId, month: '2001-01-01', category: 'matched', payment_method: 'Zelle' }),
		control: false,
		bad: [
			[{ month: '2001-01-15' }, CHECK],
			[{ transaction_count: -1 }, CHECK],
			[{ category: 'lost' }, ENUM],
		],
	},
	{
		table: 'expense_monthly_rollups',
		insert: (c) => ({ organization_id: c.owner.orgId, month: '2001-01-01', kind: 'expense', category: 'other', payment_method: 'Zelle' }),
		control: false,
		bad: [[{ month: '2001-01-15' }, CHECK]],
	},
	{
		table: 'client_payment_months',
		insert: (c) => ({ organization_id: c.owner.orgId, client_id: c.clientId, month: '2001-01-01', transaction_count: 1, amount_sum: 5 }),
		bad: [[{ month: '2001-01-15' }, CHECK]],
	},
	{
		table: 'client_payment_years',
		insert: (c) => ({ organization_id: c.owner.orgId, client_id: c.clientId, year: '2001-01-01', transaction_count: 1, amount_sum: 5 }),
		bad: [
			[{ year: '2001-02-01' }, CHECK],
			[{ year: '2001-01-02' }, CHECK],
		],
	},
	{
		table: 'client_payment_totals',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			client_id: c.clientId,
			first_month: '2001-01-01',
			transaction_count: 1,
			amount_sum: 5,
		}),
		control: false,
		bad: [
			[{ first_month: '2001-01-15' }, CHECK],
			[{ transaction_count: 0 }, CHECK],
		],
	},
	{
		table: 'client_cohort_rollups',
		insert: (c) => ({ organization_id: c.owner.orgId, cohort_month: '2001-01-01', month_offset: 0, client_count: 1 }),
		bad: [
			[{ cohort_month: '2001-01-15' }, CHECK],
			[{ month_offset: 13 }, CHECK],
			[{ month_offset: -1 }, CHECK],
		],
	},
	{
		// Reference data: the Form 1099-K thresholds the tax-year view compares with (tests/db/tax-year.test.ts).
		table: 'form_1099k_thresholds',
		insert: () => ({
			jurisdiction: 'ZZ',
			first_year: 2090,
			min_amount: 600,
			amount_inclusive: true,
			source_name: 'Constraint test',
			source_url: 'https://revenue.example/1099k',
			verified_on: '2026-11-29',
		}),
		bad: [
			[{ jurisdiction: 'Massachusetts' }, CHECK],
			[{ jurisdiction: 'ma' }, CHECK],
			[{ first_year: 1999 }, CHECK],
			[{ last_year: 2089 }, CHECK],
			[{ min_amount: -1 }, CHECK],
			[{ min_count: -1 }, CHECK],
			[{ source_name: '' }, CHECK],
			[{ source_url: 'http://revenue.example/1099k' }, CHECK],
		],
	},
	{
		// Personal API tokens (tests/db/api-tokens.test.ts): a SHA-256 in hex, a short prefix, known scopes.
		table: 'api_tokens',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			user_id: c.owner.userId,
			name: 'Bookkeeping',
			token_hash: 'ab'.repeat(32),
			prefix: 'p2p_abcdefgh',
			scopes: ['payments:read'],
		}),
		bad: [
			[{ name: ' ' }, CHECK],
			[{ name: long(101) }, CHECK],
			[{ token_hash: 'AB'.repeat(32) }, CHECK],
			[{ token_hash: 'ab'.repeat(31) }, CHECK],
			[{ prefix: 'p2p_' }, CHECK],
			[{ scopes: [] }, CHECK],
			[{ scopes: ['payments:write'] }, CHECK],
			[{ scopes: ['payments:read', 'clients:read', 'payments:read'] }, CHECK],
		],
	},
	{
		// Needs the Automation upgrade (given below) and recipients who are members (tests/db/report-automation.test.ts).
		table: 'report_automations',
		insert: (c) => ({ organization_id: c.owner.orgId, weekly_report: true, recipients: [c.owner.userId] }),
		bad: [
			[{ revenue_threshold: 0 }, CHECK],
			[{ revenue_threshold: -5 }, CHECK],
			[{ dormant_weeks: 0 }, CHECK],
			[{ dormant_weeks: 53 }, CHECK],
		],
	},
	{
		// Webhooks (tests/db/webhooks.test.ts): endpoints, the outbox, deliveries (an endpoint and an event made below).
		table: 'webhook_endpoints',
		insert: (c) => ({ organization_id: c.owner.orgId, url: 'https://example.com/hooks', events: ['invoice.paid'] }),
		bad: [
			[{ url: 'ftp://example.com/hooks' }, CHECK],
			[{ url: `https://${long(2000)}` }, CHECK],
			[{ description: long(201) }, CHECK],
			[{ events: [] }, CHECK],
			[{ events: ['payment.sent'] }, CHECK],
		],
	},
	{
		// Email Pro's custom parsing rules (tests/db/parsing-rules.test.ts).
		table: 'email_parsing_rules',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			name: `Rule ${randomUUID()}`,
			sender: '@cu.example',
			amount_label: 'Amount:',
			payer_label: 'From:',
		}),
		bad: [
			[{ name: ' ' }, CHECK],
			[{ name: long(101) }, CHECK],
			[{ sender: 'cu.example' }, CHECK],
			[{ sender: '@cu' }, CHECK],
			[{ sender: 'a b@cu.example' }, CHECK],
			[{ subject_contains: long(201) }, CHECK],
			[{ amount_label: ' ' }, CHECK],
			[{ payer_label: long(101) }, CHECK],
			[{ id_label: long(101) }, CHECK],
		],
	},
	{
		// The activity audit log (tests/db/audit-log.test.ts): known kinds and actions, a summary has no entity.
		table: 'audit_events',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			actor_label: 'system',
			entity_type: 'client',
			entity_id: c.clientId,
			action: 'created',
			changes: '{}',
		}),
		bad: [
			[{ actor_label: '' }, CHECK],
			[{ entity_type: 'gear' }, CHECK],
			[{ action: 'viewed' }, CHECK],
			[{ changes: '[]' }, CHECK],
			[{ label: long(201) }, CHECK],
			[{ row_count: 0 }, CHECK],
			[{ row_count: 5 }, CHECK],
			[{ entity_id: null }, CHECK],
		],
	},
	{
		table: 'webhook_events',
		insert: (c) => ({ organization_id: c.owner.orgId, type: 'invoice.paid', subject_id: randomUUID(), data: '{}' }),
		bad: [[{ type: 'invoice.lost' }, CHECK]],
	},
	{
		table: 'webhook_deliveries',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			event_id: hooks.eventId,
			endpoint_id: hooks.endpointId,
			next_attempt_at: new Date(),
		}),
		bad: [
			[{ status: 'lost' }, CHECK],
			[{ attempts: -1 }, CHECK],
			[{ response_status: 99 }, CHECK],
			[{ error: 'nope' }, CHECK],
			[{ next_attempt_at: null }, CHECK],
			[{ status: 'delivered', next_attempt_at: null }, CHECK],
		],
	},
	{
		table: 'organization_transaction_totals',
		update: (c) => ({ organization_id: c.owner.orgId }),
		bad: [
			[{ transaction_count: -1 }, CHECK],
			[{ matched_count: 1_000_000 }, CHECK],
			[{ unique_client_count: -1 }, CHECK],
		],
	},
	{
		table: 'organization_client_transaction_counts',
		insert: (c) => ({ organization_id: c.owner.orgId, client_id: randomUUID(), transaction_count: 1 }),
		control: false,
		bad: [[{ transaction_count: -1 }, CHECK]],
	},
	{
		table: 'booking_services',
		insert: (c) => ({ organization_id: c.owner.orgId, name: 'Valid service' }),
		bad: [
			[{ price: -1 }, CHECK],
			[{ duration_minutes: 0 }, CHECK],
			[{ duration_minutes: 721 }, CHECK],
			[{ color: 'blue' }, CHECK],
			[{ color: '#12345' }, CHECK],
			[{ name: '' }, CHECK],
			[{ description: long(2001) }, CHECK],
			[{ deposit_kind: 'half' }, CHECK],
			[{ deposit_kind: 'fixed' }, CHECK],
			[{ deposit_kind: 'full', deposit_amount: 10 }, CHECK],
			[{ deposit_kind: 'fixed', deposit_amount: 0 }, CHECK],
			[{ deposit_after_no_shows: 0 }, CHECK],
		],
	},
	{
		table: 'booking_providers',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			display_name: 'Valid provider',
			avatar_url: 'https://example.com/a.png',
			business_hours: JSON.stringify(week()),
		}),
		bad: [
			[{ display_name: ' ' }, CHECK],
			[{ avatar_url: 'not a url' }, CHECK],
			[{ avatar_url: 'javascript:alert(1)' }, CHECK],
			[{ bio: long(2001) }, CHECK],
			[{ user_id: randomUUID() }, '23503'],
			...badHours,
		],
	},
	{
		table: 'booking_date_overrides',
		insert: (c) => ({ organization_id: c.owner.orgId, date: '2031-03-03', closed: false, start_time: '10:00', end_time: '14:00' }),
		bad: [
			[{ end_time: '09:00' }, CHECK],
			[{ closed: true }, CHECK],
			[{ start_time: null }, CHECK],
			[{ note: long(201) }, CHECK],
			[{ provider_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'booking_appointments',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			starts_at: '2031-03-03T10:00:00Z',
			ends_at: '2031-03-03T10:30:00Z',
			guest_name: 'Valid Guest',
			guest_email: 'guest@example.com',
			status: 'cancelled',
		}),
		bad: [
			[{ status: 'done' }, ENUM],
			[{ ends_at: '2031-03-03T09:00:00Z' }, CHECK],
			[{ ends_at: '2031-03-03T10:00:00Z' }, CHECK],
			[{ ends_at: '2031-03-04T11:00:00Z' }, CHECK],
			[{ guest_email: 'guest' }, CHECK],
			[{ guest_name: '  ' }, CHECK],
			[{ total_price: -1 }, CHECK],
			[{ manage_token_hash: 'abc' }, CHECK],
			[{ guest_phone: long(41) }, CHECK],
			[{ provider_id: randomUUID() }, '23503'],
			[{ guest_language: 'fr' }, CHECK],
			[{ guest_timezone: long(65) }, CHECK],
		],
	},
	{
		table: 'booking_appointment_events',
		insert: (c) => ({ organization_id: c.owner.orgId, appointment_id: c.appointmentId, kind: 'reminder_sent' }),
		bad: [
			[{ kind: 'paid' }, CHECK],
			[{ guest_notice: 'hello' }, CHECK],
			[{ appointment_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'payment_handles',
		update: (c) => ({ organization_id: c.owner.orgId }),
		bad: [
			[{ zelle: 'not an address' }, CHECK],
			[{ zelle: '555-123-4567' }, CHECK],
			[{ venmo: '@studio' }, CHECK],
			[{ venmo: 'abc' }, CHECK],
			[{ cashapp: '$studio' }, CHECK],
			[{ cashapp: '9studio' }, CHECK],
			[{ paypal: 'paypal.me/studio' }, CHECK],
		],
	},
	{
		table: 'payment_expectations',
		insert: (c) => ({ organization_id: c.owner.orgId, kind: 'balance', amount_due: 10, memo_code: 'K7QM4P', status: 'void' }),
		bad: [
			[{ kind: 'tip' }, CHECK],
			[{ amount_due: 0 }, CHECK],
			[{ memo_code: 'K7QM4O' }, CHECK],
			[{ memo_code: 'k7qm4p' }, CHECK],
			[{ memo_code: 'K7QM4' }, CHECK],
			[{ status: 'gone' }, CHECK],
			[{ status: 'paid' }, CHECK],
			[{ client_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'payment_matches',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			transaction_id: c.transactionId,
			expectation_id: c.expectationId,
			amount: 10,
			method: 'manual',
		}),
		bad: [
			[{ amount: 0 }, CHECK],
			[{ method: 'guess' }, CHECK],
			[{ expectation_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'invoices',
		insert: (c) => ({ organization_id: c.owner.orgId, notes: 'constraint draft' }),
		bad: [
			[{ status: 'paid' }, CHECK],
			[{ status: 'sent' }, CHECK],
			[{ number: 3 }, CHECK],
			[{ language: 'fr' }, CHECK],
			[{ tax_rate: 100.01 }, CHECK],
			[{ tax_rate: -1 }, CHECK],
			[{ discount: -1 }, CHECK],
			[{ discount: 5 }, CHECK],
			[{ issue_date: '2031-01-02', due_date: '2031-01-01' }, CHECK],
			[{ notes: long(2001) }, CHECK],
			[{ bill_to_name: long(201) }, CHECK],
			[{ public_token_hash: 'not-a-sha256' }, CHECK],
			[{ voided_at: '2031-01-01T00:00:00Z' }, CHECK],
			[{ client_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'bank_statements',
		insert: (c) => ({ organization_id: c.owner.orgId, accounts: '••1234' }),
		bad: [
			[{ accounts: '' }, CHECK],
			[{ accounts: long(201) }, CHECK],
			[{ file_name: long(256) }, CHECK],
			[{ line_count: -1 }, CHECK],
		],
	},
	{
		table: 'bank_statement_lines',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			statement_id: bank.statementId,
			account_key: 'constraints',
			account_label: '••1234',
			fit_id: `F-${randomUUID()}`,
			posted_on: '2031-01-02',
			amount: 25,
			kind: 'deposit',
		}),
		bad: [
			[{ amount: 0 }, CHECK],
			[{ kind: 'income' }, CHECK],
			[{ kind: 'cashout' }, CHECK],
			[{ kind: 'cashout', rail: 'Venmo', status: 'open', amount: -5 }, CHECK],
			[{ kind: 'cashout', rail: 'Zelle', status: 'open' }, CHECK],
			[{ rail: 'Venmo' }, CHECK],
			[{ status: 'done' }, CHECK],
			[{ fit_id: '' }, CHECK],
			[{ account_key: '' }, CHECK],
			[{ account_label: long(21) }, CHECK],
			[{ name: long(256) }, CHECK],
			[{ memo: long(256) }, CHECK],
			[{ trn_type: long(21) }, CHECK],
			[{ rail: 'Bitcoin' }, ENUM],
			[{ statement_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'bank_deposit_payments',
		insert: (c) => ({ organization_id: c.owner.orgId, line_id: bank.lineId, transaction_id: c.transactionId }),
		bad: [
			[{ line_id: randomUUID() }, '23503'],
			[{ transaction_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'expenses',
		insert: (c) => ({ organization_id: c.owner.orgId, spent_on: '2031-01-02', amount: 12.5, vendor: 'Supply store' }),
		bad: [
			[{ kind: 'transfer' }, CHECK],
			[{ amount: 0 }, CHECK],
			[{ amount: -3 }, CHECK],
			[{ fee: -0.01 }, CHECK],
			[{ vendor: '  ' }, CHECK],
			[{ vendor: long(201) }, CHECK],
			[{ category: 'gifts' }, CHECK],
			[{ note: long(2001) }, CHECK],
			[{ receipt_key: 'receipts/x.jpg' }, CHECK],
			[{ receipt_key: 'receipts/x.gif', receipt_type: 'image/gif' }, CHECK],
			[{ import_source: 'bank' }, CHECK],
			[{ import_batch_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'invoice_lines',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			invoice_id: c.invoiceId,
			position: 0,
			description: 'Work',
			quantity: 1,
			unit_price: 5,
		}),
		bad: [
			[{ position: -1 }, CHECK],
			[{ position: 200 }, CHECK],
			[{ description: '   ' }, CHECK],
			[{ description: long(501) }, CHECK],
			[{ quantity: 0 }, CHECK],
			[{ quantity: 1000001 }, CHECK],
			[{ unit_price: -0.01 }, CHECK],
			[{ invoice_id: randomUUID() }, '23503'],
		],
	},
	{
		// Paused: a running schedule needs the Recurring Invoices upgrade (tests/db/recurring-invoices.test.ts).
		table: 'recurring_invoices',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			client_id: c.clientId,
			cadence: 'monthly',
			anchor_date: '2031-01-31',
			active: false,
		}),
		bad: [
			[{ cadence: 'daily' }, CHECK],
			[{ language: 'fr' }, CHECK],
			[{ tax_rate: 100.01 }, CHECK],
			[{ discount: -1 }, CHECK],
			[{ days_until_due: -1 }, CHECK],
			[{ days_until_due: 366 }, CHECK],
			[{ max_count: 0 }, CHECK],
			[{ max_count: 1001 }, CHECK],
			[{ end_date: '2031-06-30', max_count: 3 }, CHECK],
			[{ end_date: '2031-01-30' }, CHECK],
			[{ notes: long(2001) }, CHECK],
			[{ paused_reason: long(41) }, CHECK],
			[{ client_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'recurring_invoice_lines',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			recurring_invoice_id: c.scheduleId,
			position: 0,
			description: 'Retainer',
			quantity: 1,
			unit_price: 5,
		}),
		bad: [
			[{ position: -1 }, CHECK],
			[{ position: 200 }, CHECK],
			[{ description: '   ' }, CHECK],
			[{ description: long(501) }, CHECK],
			[{ quantity: 0 }, CHECK],
			[{ quantity: 1000001 }, CHECK],
			[{ unit_price: -0.01 }, CHECK],
			[{ recurring_invoice_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'recurring_invoice_runs',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			recurring_invoice_id: c.scheduleId,
			period_date: '2031-01-31',
			invoice_id: c.invoiceId,
		}),
		bad: [
			[{ invoice_id: randomUUID() }, '23503'],
			[{ recurring_invoice_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'message_templates',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			kind: 'invoice_before',
			language: 'es',
			subject: 'Factura {{invoice_number}}',
			body: 'Hola {{ client_name }},\n\tpaga {{balance}}: {{pay_link}}',
		}),
		bad: [
			[{ kind: 'sms' }, CHECK],
			[{ language: 'fr' }, CHECK],
			[{ subject: '  ' }, CHECK],
			[{ subject: long(201) }, CHECK],
			[{ subject: 'Two\nlines' }, CHECK],
			[{ body: ' ' }, CHECK],
			[{ body: long(5001) }, CHECK],
			[{ body: 'Bell \u0007' }, CHECK],
			[{ body: 'Total {{total}}' }, CHECK],
			[{ subject: 'Hi {{client_name' }, CHECK],
			[{ body: 'Hi {{CLIENT_NAME}}' }, CHECK],
			[{ kind: 'appointment_reminder', body: 'Pay {{pay_link}}' }, CHECK],
			[{ kind: 'invoice_after', subject: 'At {{start_time}}' }, CHECK],
		],
	},
	{
		table: 'messaging_settings',
		insert: (c) => ({ organization_id: c.owner.orgId, days_before: [3], days_after: [1, 7, 14] }),
		bad: [
			[{ days_before: [0] }, CHECK],
			[{ days_before: [61] }, CHECK],
			[{ days_after: [121] }, CHECK],
			[{ days_after: [1, 2, 3, 4, 5, 6] }, CHECK],
			[{ days_after: [1, null] }, CHECK],
		],
	},
	{
		// Workflow Automation (tests/db/rules.test.ts); the module is activated below.
		table: 'rules',
		insert: (c) => ({ organization_id: c.owner.orgId, name: 'Constraint rule', amount_min: 1, add_tag: 'ok' }),
		bad: [
			[{ name: ' ' }, CHECK],
			[{ name: long(101) }, CHECK],
			[{ amount_min: -1 }, CHECK],
			[{ source: 'fax' }, CHECK],
			[{ add_tag: 'a,b' }, CHECK],
			[{ add_tag: long(41) }, CHECK],
			[{ memo_contains: long(201) }, CHECK],
			[{ set_category: 'lost' }, ENUM],
			[{ amount_min: 5, amount_max: 1 }, 'bad_amount_range'],
			[{ set_client_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'rule_runs',
		insert: (c) => ({ organization_id: c.owner.orgId, rule_name: 'Constraint run' }),
		bad: [
			[{ actions: JSON.stringify([]) }, CHECK],
			[{ rule_id: randomUUID() }, '23503'],
			[{ transaction_id: randomUUID() }, '23503'],
		],
	},
	{
		// CRM Basic Fields and Pipelines (tests/db/crm.test.ts); a pipeline and a stage made below.
		table: 'client_notes',
		insert: (c) => ({ organization_id: c.owner.orgId, client_id: c.clientId, body: 'Called back' }),
		bad: [
			[{ body: '   ' }, CHECK],
			[{ body: long(5001) }, CHECK],
			[{ client_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'crm_pipelines',
		insert: (c) => ({ organization_id: c.owner.orgId, name: 'Sales' }),
		bad: [
			[{ name: ' ' }, CHECK],
			[{ name: long(101) }, CHECK],
		],
	},
	{
		table: 'crm_stages',
		insert: (c) => ({ organization_id: c.owner.orgId, pipeline_id: crm.pipelineId, name: 'Won', position: 5 }),
		bad: [
			[{ name: '' }, CHECK],
			[{ name: long(61) }, CHECK],
			[{ position: -1 }, CHECK],
			[{ position: 20 }, CHECK],
			[{ pipeline_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'crm_cards',
		insert: (c) => ({ organization_id: c.owner.orgId, pipeline_id: crm.pipelineId, stage_id: crm.stageId, client_id: c.clientId }),
		bad: [
			[{ follow_up_on: '1999-12-31' }, CHECK],
			[{ stage_id: randomUUID() }, '23503'],
			[{ client_id: randomUUID() }, '23503'],
		],
	},
	{
		table: 'client_unsubscribes',
		insert: (c) => ({ organization_id: c.owner.orgId, email: 'gone@client.example' }),
		bad: [
			[{ email: 'Gone@Client.example' }, CHECK],
			[{ email: ' gone@client.example' }, CHECK],
			[{ email: 'x' }, CHECK],
			[{ email: `${long(320)}@x.example` }, CHECK],
		],
	},
	{
		// Client merges and pairs said not to be duplicates (tests/db/client-merge.test.ts); a second client made below.
		table: 'client_merges',
		insert: (c) => ({
			organization_id: c.owner.orgId,
			kept_client_id: c.clientId,
			merged_client_id: randomUUID(),
			merged_client: '{}',
			kept_before: '{}',
			kept_after: '{}',
		}),
		bad: [
			[{ merged_client: '[]' }, CHECK],
			[{ moved: '"x"' }, CHECK],
			[{ dropped: '[]' }, CHECK],
			[{ kept_before: 'null' }, CHECK],
			[{ kept_after: '1' }, CHECK],
			[{ merged_client_id: '00000000-0000-4000-8000-000000000000', kept_client_id: '00000000-0000-4000-8000-000000000000' }, CHECK],
			[{ merged_at: '2031-01-02T00:00:00Z', undone_at: '2031-01-01T00:00:00Z' }, CHECK],
			[{ merged_by: randomUUID() }, '23503'],
		],
	},
	{
		table: 'client_duplicate_dismissals',
		insert: (c) => ({ organization_id: c.owner.orgId, ...twinPair(c.clientId) }),
		bad: [
			[{ client_a: 'ffffffff-ffff-4fff-bfff-ffffffffffff' }, CHECK],
			[{ client_a: '00000000-0000-4000-8000-000000000000' }, '23503'],
		],
	},
]

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- table-driven over every table name
const anyDb = (trx: Tx) => trx as unknown as Kysely<any>

const ROLLBACK = new Error('rolled back on purpose')

/** Tries a write, runs the deferred checks at once, and rolls back: the data stays clean. */
async function attempt(spec: Spec, ctx: Ctx, values: Row) {
	await asSystem(async (trx) => {
		if ('insert' in spec) {
			await anyDb(trx)
				.insertInto(spec.table)
				.values({ ...spec.insert(ctx), ...values })
				.execute()
		} else {
			let q = anyDb(trx).updateTable(spec.table).set(values)
			for (const [column, value] of Object.entries(spec.update(ctx))) q = q.where(column, '=', value)
			const result = await q.executeTakeFirst()
			if (result.numUpdatedRows !== 1n) throw new Error(`no ${spec.table} row to update`)
		}
		await sql`set constraints all immediate`.execute(trx)
		throw ROLLBACK
	}).catch((error: unknown) => {
		if (error !== ROLLBACK) throw error
	})
}

let ctx: Ctx
/** A bank statement and one of its lines (Bank Feed Reconciliation), for the rows that name them. */
const bank = { statementId: '', lineId: '' }
const hooks = { endpointId: '', eventId: '' }
const crm = { pipelineId: '', stageId: '' }

beforeAll(async () => {
	const owner = await createUser('Constraint Owner')
	await asUser(owner.userId, async (trx) => {
		await sql`select public.purchase_upgrade(${owner.orgId}, ${CATALOGUE.upgrades.p2pEmail})`.execute(trx)
		await trx.insertInto('transactions').values({ organization_id: owner.orgId, amount: 1 }).execute()
	})
	const client = await asUser(owner.userId, (trx) =>
		trx.insertInto('clients').values({ organization_id: owner.orgId, name: 'Constraint Client' }).returning('id').executeTakeFirstOrThrow(),
	)
	// Report automation is written only with its upgrade (on the included Reports module).
	await asSystem(async (trx) => {
		await sql`insert into public.organization_modules (organization_id, module_id)
			values (${owner.orgId}, 'b0000000-0000-4000-8000-000000000004') on conflict do nothing`.execute(trx)
		await sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select ${owner.orgId}, om.id, 'c0000000-0000-4000-8000-000000000011' from public.organization_modules om
			where om.organization_id = ${owner.orgId} and om.module_id = 'b0000000-0000-4000-8000-000000000004'`.execute(trx)
	})
	const omu = await asSystem((trx) =>
		trx
			.selectFrom('organization_module_upgrades')
			.select(['id', 'organization_module_id'])
			.where('organization_id', '=', owner.orgId)
			.executeTakeFirstOrThrow(),
	)
	const linked = await asSystem(async (trx) => {
		const appointment = await trx
			.insertInto('booking_appointments')
			.values({
				organization_id: owner.orgId,
				starts_at: '2031-04-04T10:00:00Z',
				ends_at: '2031-04-04T10:30:00Z',
				guest_name: 'Walk-in',
				status: 'cancelled',
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		const transaction = await trx
			.insertInto('transactions')
			.values({ organization_id: owner.orgId, amount: 10 })
			.returning('id')
			.executeTakeFirstOrThrow()
		const expectation = await trx
			.insertInto('payment_expectations')
			.values({ organization_id: owner.orgId, kind: 'balance', amount_due: 10, memo_code: 'WXYZ22', status: 'void' })
			.returning('id')
			.executeTakeFirstOrThrow()
		await trx.insertInto('payment_handles').values({ organization_id: owner.orgId, venmo: 'constraint-studio' }).execute()
		const invoice = await anyDb(trx)
			.insertInto('invoices')
			.values({ organization_id: owner.orgId })
			.returning('id')
			.executeTakeFirstOrThrow()
		const schedule = await trx
			.insertInto('recurring_invoices')
			.values({ organization_id: owner.orgId, client_id: client.id, cadence: 'monthly', anchor_date: '2031-01-31', active: false })
			.returning('id')
			.executeTakeFirstOrThrow()
		return {
			appointmentId: appointment.id,
			transactionId: transaction.id,
			expectationId: expectation.id,
			invoiceId: invoice.id as string,
			scheduleId: schedule.id,
		}
	})
	ctx = { owner, omuId: omu.id, omuModuleId: omu.organization_module_id, clientId: client.id, ...linked }
})

beforeAll(async () => {
	await asSystem(async (trx) => {
		const { rows } = await sql<{ id: string }>`insert into public.bank_statements (organization_id, accounts)
			values (${ctx.owner.orgId}, '••1234') returning id`.execute(trx)
		bank.statementId = rows[0]!.id
		const line = await sql<{ id: string }>`insert into public.bank_statement_lines
			(organization_id, statement_id, account_key, account_label, fit_id, posted_on, amount, kind, rail, status)
			values (${ctx.owner.orgId}, ${bank.statementId}, 'constraints', '••1234', 'line', '2031-01-02', 25, 'cashout', 'Venmo', 'open')
			returning id`.execute(trx)
		bank.lineId = line.rows[0]!.id
		const endpoint = await sql<{ id: string }>`insert into public.webhook_endpoints (organization_id, url, events)
			values (${ctx.owner.orgId}, 'https://example.com/hooks', '{invoice.paid}') returning id`.execute(trx)
		hooks.endpointId = endpoint.rows[0]!.id
		const event = await sql<{ id: string }>`insert into public.webhook_events (organization_id, type, subject_id, data)
			values (${ctx.owner.orgId}, 'invoice.paid', gen_random_uuid(), '{}') returning id`.execute(trx)
		hooks.eventId = event.rows[0]!.id
		const pipeline = await sql<{ id: string }>`insert into public.crm_pipelines (organization_id, name)
			values (${ctx.owner.orgId}, 'Constraints') returning id`.execute(trx)
		crm.pipelineId = pipeline.rows[0]!.id
		const stage = await sql<{ id: string }>`insert into public.crm_stages (organization_id, pipeline_id, name, position)
			values (${ctx.owner.orgId}, ${crm.pipelineId}, 'Lead', 0) returning id`.execute(trx)
		crm.stageId = stage.rows[0]!.id
	})
})

// Rules are written only while Workflow Automation is active.
beforeAll(async () => {
	await asSystem((trx) =>
		sql`insert into public.organization_modules (organization_id, module_id)
			values (${ctx.owner.orgId}, 'b0000000-0000-4000-8000-000000000010') on conflict do nothing`.execute(trx),
	)
})

describe('every check and enum constraint rejects a bad value', () => {
	test('covers every table of the public schema', async () => {
		const tables = await asSystem(async (trx) =>
			(
				await sql<{ name: string }>`
				select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
				where n.nspname = 'public' and c.relkind = 'r' order by 1`.execute(trx)
			).rows.map((r) => r.name),
		)
		expect(SPECS.map((s) => s.table).sort()).toEqual(tables)
	})

	for (const spec of SPECS) {
		test(`${spec.table}: ${spec.bad.length} bad values refused, the valid row accepted`, async () => {
			if ('insert' in spec && spec.control !== false) expect(await refusal(attempt(spec, ctx, {}))).toBeNull()
			const results = []
			for (const [values, code] of spec.bad) {
				results.push({ values, expected: code, got: await refusal(attempt(spec, ctx, values)) })
			}
			expect(results.filter((r) => r.got !== r.expected)).toEqual([])
		})
	}
})

/** A second client, for a pair said not to be duplicates (client_a < client_b). */
const dismissals = { twin: '' }
const twinPair = (clientId: string) => {
	const [client_a, client_b] = [clientId, dismissals.twin].sort()
	return { client_a, client_b }
}

beforeAll(async () => {
	const twin = await asSystem((trx) =>
		trx
			.insertInto('clients')
			.values({ organization_id: ctx.owner.orgId, name: 'Constraint Twin' })
			.returning('id')
			.executeTakeFirstOrThrow(),
	)
	dismissals.twin = twin.id
})
