/**
 * The cross-tenant matrix: for every table of the public schema and each of select, insert,
 * update and delete, what a member of another organization (B), a non-owner member of A, the
 * owner of A and an anonymous visitor can do to A's rows. Every cell is asserted: each is run
 * against a fresh row where the operation could change it, and judged by what the database
 * holds afterwards (read on the owner connection), not only by the error.
 */
import { createHash, randomUUID } from 'node:crypto'
import { Kysely, sql } from 'kysely'
import { beforeAll, describe, expect, test } from 'vitest'
import { asAnon, asSystem, asUser, dbErrorCode, type Tx } from '#app/.server/db/index.ts'
import { addMember, createUser, type TestUser } from './fixtures.ts'

const ACTORS = ['member of B', 'non-owner member of A', 'owner of A', 'anon'] as const
type Actor = (typeof ACTORS)[number]
const OPERATIONS = ['select', 'insert', 'update', 'delete'] as const
type Operation = (typeof OPERATIONS)[number]
type Outcome = 'allowed' | 'refused'
type Row = Record<string, unknown>

type World = {
	a: TestUser
	b: TestUser
	memberOfA: TestUser
	newcomer: TestUser
	moduleId: string
	otherModuleId: string
	upgradeId: string
	otherUpgradeId: string
	orgModuleId: string
	orgUpgradeId: string
	/** A client of A that payer aliases are moved to. */
	aliasClientId: string
}

let counter = 0
const next = () => ++counter

type TableCase = {
	table: string
	allowed: Record<Operation, Actor[]>
	/** Finds (or creates, on the owner connection) a row of organization A; returns its key. */
	row: (w: World) => Promise<Row>
	/** The values an actor tries to insert into organization A. */
	insert: (w: World) => Row | Promise<Row>
	/** A change that differs from the row's current values. */
	update: (w: World) => Row
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- table-driven over every table name
const anyDb = (trx: Tx) => trx as unknown as Kysely<any>

async function systemInsert(table: string, values: Row, key: string[] = ['id']): Promise<Row> {
	return asSystem(async (trx) => {
		const row = await anyDb(trx).insertInto(table).values(values).returning(key).executeTakeFirstOrThrow()
		return row as Row
	})
}

const MEMBERS: Actor[] = ['non-owner member of A', 'owner of A']
const NOBODY: Actor[] = []
const SIGNED_IN: Actor[] = ['member of B', 'non-owner member of A', 'owner of A']

const MAPPING = { date_column: 'Date', amount_column: 'Amount', payer_column: 'Payer' }

/** A bank statement line of organization A (Bank Feed Reconciliation), unique by its FITID. */
const bankLine = (orgId: string, statementId: string) => ({
	organization_id: orgId,
	statement_id: statementId,
	account_key: 'matrix',
	account_label: '••1234',
	fit_id: `matrix-${next()}`,
	posted_on: '2030-01-07',
	amount: 25,
	kind: 'cashout',
	rail: 'Venmo',
	status: 'open',
})

const CASES: TableCase[] = [
	{
		table: 'profiles',
		allowed: { select: MEMBERS, insert: NOBODY, update: ['owner of A'], delete: NOBODY },
		row: async (w) => ({ user_id: w.a.userId }),
		insert: (w) => ({ user_id: w.newcomer.userId, full_name: 'Impostor' }),
		update: () => ({ full_name: `Renamed ${next()}` }),
	},
	{
		table: 'organizations',
		allowed: { select: MEMBERS, insert: NOBODY, update: ['owner of A'], delete: NOBODY },
		row: async (w) => ({ id: w.a.orgId }),
		insert: () => ({ slug: `new-org-${next()}`, name: 'New org' }),
		update: () => ({ name: `Renamed ${next()}` }),
	},
	{
		table: 'organization_members',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ organization_id: w.a.orgId, user_id: w.memberOfA.userId }),
		insert: (w) => ({ organization_id: w.a.orgId, user_id: w.newcomer.userId, role: 'owner' }),
		update: () => ({ role: 'owner' }),
	},
	{
		table: 'booking_settings',
		allowed: { select: MEMBERS, insert: NOBODY, update: MEMBERS, delete: NOBODY },
		row: async (w) => ({ organization_id: w.a.orgId }),
		insert: (w) => ({ organization_id: w.a.orgId }),
		update: () => ({ buffer_minutes: next() }),
	},
	{
		table: 'transactions',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: MEMBERS },
		row: (w) => systemInsert('transactions', { organization_id: w.a.orgId, amount: 12.5, description: 'matrix row' }),
		insert: (w) => ({ organization_id: w.a.orgId, amount: 20, description: 'inserted by an actor' }),
		update: () => ({ description: `edited ${next()}` }),
	},
	{
		table: 'import_batches',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: (w) => systemInsert('import_batches', { organization_id: w.a.orgId, source: 'venmo', file_name: 'matrix.csv' }),
		insert: (w) => ({ organization_id: w.a.orgId, source: 'paypal' }),
		update: () => ({ created_count: next() }),
	},
	{
		table: 'email_sync_runs',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: (w) => systemInsert('email_sync_runs', { organization_id: w.a.orgId, trigger: 'button' }),
		insert: (w) => ({ organization_id: w.a.orgId, trigger: 'schedule' }),
		update: () => ({ created_count: next() }),
	},
	{
		table: 'import_tombstones',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: (w) =>
			systemInsert('import_tombstones', { organization_id: w.a.orgId, import_key: `id:venmo:matrix-${next()}` }, [
				'organization_id',
				'import_key',
			]),
		insert: (w) => ({ organization_id: w.a.orgId, import_key: `id:venmo:inserted-${next()}` }),
		update: () => ({ import_key: `id:venmo:edited-${next()}` }),
	},
	{
		table: 'payer_aliases',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: MEMBERS },
		row: async (w) => {
			const client = await systemInsert('clients', { organization_id: w.a.orgId, name: `Alias Client ${next()}` })
			return systemInsert('payer_aliases', { organization_id: w.a.orgId, alias: `Matrix Payer ${next()}`, client_id: client.id })
		},
		insert: async (w) => {
			const client = await systemInsert('clients', { organization_id: w.a.orgId, name: `Alias Client ${next()}` })
			return { organization_id: w.a.orgId, alias: `Inserted Payer ${next()}`, client_id: client.id }
		},
		update: (w) => ({ client_id: w.aliasClientId }),
	},
	{
		table: 'import_mappings',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: MEMBERS },
		row: (w) =>
			systemInsert('import_mappings', { organization_id: w.a.orgId, header_signature: `a|b|${next()}`, ...MAPPING }, [
				'organization_id',
				'header_signature',
			]),
		insert: (w) => ({ organization_id: w.a.orgId, header_signature: `c|d|${next()}`, ...MAPPING }),
		update: () => ({ payer_column: `Payer ${next()}` }),
	},
	{
		table: 'clients',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: MEMBERS },
		row: (w) => systemInsert('clients', { organization_id: w.a.orgId, name: 'Matrix Client' }),
		insert: (w) => ({ organization_id: w.a.orgId, name: 'Inserted Client' }),
		update: () => ({ name: `Edited ${next()}` }),
	},
	{
		table: 'transaction_monthly_rollups',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ organization_id: w.a.orgId }),
		insert: (w) => ({
			organization_id: w.a.orgId,
			month: '2020-01-01',
			category: 'matched',
			payment_method: 'Zelle',
			transaction_count: 1000,
			amount_sum: 1000,
		}),
		update: () => ({ transaction_count: 999_999 }),
	},
	{
		table: 'organization_transaction_totals',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ organization_id: w.a.orgId }),
		insert: (w) => ({ organization_id: w.a.orgId }),
		update: () => ({ amount_sum: 999_999 }),
	},
	{
		table: 'organization_client_transaction_counts',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ organization_id: w.a.orgId }),
		insert: (w) => ({ organization_id: w.a.orgId, client_id: w.newcomer.orgId, transaction_count: 5 }),
		update: () => ({ transaction_count: 999 }),
	},
	{
		table: 'client_payment_months',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ organization_id: w.a.orgId }),
		insert: (w) => ({ organization_id: w.a.orgId, client_id: w.newcomer.orgId, month: '2020-01-01', transaction_count: 5, amount_sum: 5 }),
		update: () => ({ amount_sum: 999_999 }),
	},
	{
		table: 'client_payment_years',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ organization_id: w.a.orgId }),
		insert: (w) => ({ organization_id: w.a.orgId, year: '2020-01-01', client_id: w.newcomer.orgId, transaction_count: 5, amount_sum: 5 }),
		update: () => ({ amount_sum: 999_999 }),
	},
	{
		table: 'client_payment_totals',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ organization_id: w.a.orgId }),
		insert: (w) => ({
			organization_id: w.a.orgId,
			client_id: w.newcomer.orgId,
			first_month: '2020-01-01',
			transaction_count: 5,
			amount_sum: 5,
		}),
		update: () => ({ amount_sum: 999_999 }),
	},
	{
		table: 'client_cohort_rollups',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ organization_id: w.a.orgId }),
		insert: (w) => ({ organization_id: w.a.orgId, cohort_month: '2020-01-01', month_offset: 0, client_count: 5 }),
		update: () => ({ client_count: 999 }),
	},
	{
		table: 'modules',
		allowed: { select: SIGNED_IN, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ id: w.moduleId }),
		insert: () => ({ name: `Rogue module ${next()}`, feature_type: 'finance' }),
		update: () => ({ base_gear_cost: 0, name: `Free now ${next()}` }),
	},
	{
		table: 'module_upgrades',
		allowed: { select: SIGNED_IN, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ id: w.upgradeId }),
		insert: (w) => ({ module_id: w.moduleId, name: `Rogue upgrade ${next()}`, tier: 'basic' }),
		update: () => ({ gear_cost: 0, name: `Free now ${next()}` }),
	},
	{
		table: 'organization_modules',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ id: w.orgModuleId }),
		insert: (w) => ({ organization_id: w.a.orgId, module_id: w.otherModuleId, status: 'activated' }),
		update: (w) => ({ activated_by: w.newcomer.userId }),
	},
	{
		table: 'organization_module_upgrades',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ id: w.orgUpgradeId }),
		insert: (w) => ({ organization_id: w.a.orgId, organization_module_id: w.orgModuleId, upgrade_id: w.otherUpgradeId }),
		update: (w) => ({ purchased_by: w.newcomer.userId }),
	},
	{
		// Each member's own: the row is the owner's, so only the owner reads, adds or removes it.
		table: 'module_favorites',
		allowed: { select: ['owner of A'], insert: ['owner of A'], update: NOBODY, delete: ['owner of A'] },
		row: async (w) => {
			const key = { organization_id: w.a.orgId, user_id: w.a.userId, module_id: w.moduleId }
			await asSystem((trx) =>
				trx
					.insertInto('module_favorites')
					.values(key)
					.onConflict((oc) => oc.doNothing())
					.execute(),
			)
			return key
		},
		insert: (w) => ({ organization_id: w.a.orgId, user_id: w.a.userId, module_id: w.otherModuleId }),
		update: (w) => ({ module_id: w.otherModuleId }),
	},
	{
		table: 'module_sync_status',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => {
			await asSystem((trx) =>
				trx
					.insertInto('module_sync_status')
					.values({ organization_id: w.a.orgId, module_id: w.moduleId })
					.onConflict((oc) => oc.doNothing())
					.execute(),
			)
			return { organization_id: w.a.orgId, module_id: w.moduleId }
		},
		insert: (w) => ({ organization_id: w.a.orgId, module_id: w.otherModuleId }),
		update: () => ({ sync_status: 'pending' }),
	},
	{
		table: 'integration_connections',
		allowed: { select: MEMBERS, insert: NOBODY, update: MEMBERS, delete: NOBODY },
		row: (w) =>
			systemInsert('integration_connections', {
				organization_id: w.a.orgId,
				user_module_upgrade_id: w.orgUpgradeId,
				provider: 'gmail',
				scope: `mail.read ${next()}`,
			}),
		insert: (w) => ({ organization_id: w.a.orgId, user_module_upgrade_id: w.orgUpgradeId, provider: 'gmail', scope: `x ${next()}` }),
		update: () => ({ status: 'disconnected' }),
	},
	{
		table: 'integration_credentials',
		allowed: { select: MEMBERS, insert: NOBODY, update: MEMBERS, delete: NOBODY },
		row: (w) =>
			systemInsert('integration_credentials', {
				organization_id: w.a.orgId,
				upgrade_id: w.upgradeId,
				provider: 'gmail',
				scope: `mail.read ${next()}`,
			}),
		insert: (w) => ({ organization_id: w.a.orgId, upgrade_id: w.upgradeId, provider: 'gmail', scope: `x ${next()}` }),
		update: () => ({ status: 'disconnected' }),
	},
	{
		table: 'gear_ledger',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => ({ organization_id: w.a.orgId }),
		insert: (w) => ({ organization_id: w.a.orgId, delta: 100000, balance_after: 115000, reason: 'grant' }),
		update: () => ({ delta: 1_000_000 }),
	},
	{
		table: 'booking_services',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: MEMBERS },
		row: (w) => systemInsert('booking_services', { organization_id: w.a.orgId, name: 'Haircut', price: 30 }),
		insert: (w) => ({ organization_id: w.a.orgId, name: 'Inserted service', price: 10 }),
		update: () => ({ name: `Edited ${next()}` }),
	},
	{
		table: 'booking_providers',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: MEMBERS },
		row: (w) => systemInsert('booking_providers', { organization_id: w.a.orgId, display_name: 'Provider' }),
		insert: (w) => ({ organization_id: w.a.orgId, display_name: 'Inserted provider' }),
		update: () => ({ display_name: `Edited ${next()}` }),
	},
	{
		table: 'booking_date_overrides',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: MEMBERS },
		row: (w) => systemInsert('booking_date_overrides', { organization_id: w.a.orgId, date: '2030-01-01', closed: true }),
		insert: (w) => ({ organization_id: w.a.orgId, date: '2030-01-02', closed: true }),
		update: () => ({ note: `Edited ${next()}` }),
	},
	{
		table: 'booking_appointments',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: NOBODY },
		row: (w) =>
			systemInsert('booking_appointments', {
				organization_id: w.a.orgId,
				starts_at: '2030-01-07T10:00:00Z',
				ends_at: '2030-01-07T10:30:00Z',
				guest_name: 'Guest',
				guest_email: 'guest@example.com',
				status: 'confirmed',
			}),
		insert: (w) => ({
			organization_id: w.a.orgId,
			starts_at: '2030-01-08T10:00:00Z',
			ends_at: '2030-01-08T10:30:00Z',
			guest_name: 'Walk-in',
			guest_email: 'walkin@example.com',
		}),
		update: () => ({ notes: `Edited ${next()}` }),
	},
	{
		table: 'booking_appointment_events',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => {
			const appointment = await systemInsert('booking_appointments', {
				organization_id: w.a.orgId,
				starts_at: `2031-01-0${(next() % 9) + 1}T10:00:00Z`,
				ends_at: `2031-01-0${(counter % 9) + 1}T10:30:00Z`,
				guest_name: 'Guest',
				guest_email: 'guest@example.com',
				status: 'cancelled',
			})
			return systemInsert('booking_appointment_events', {
				organization_id: w.a.orgId,
				appointment_id: appointment.id,
				kind: 'reminder_sent',
			})
		},
		insert: async (w) => {
			const appointment = await systemInsert('booking_appointments', {
				organization_id: w.a.orgId,
				starts_at: '2031-02-01T10:00:00Z',
				ends_at: '2031-02-01T10:30:00Z',
				guest_name: 'Guest',
				status: 'cancelled',
			})
			return { organization_id: w.a.orgId, appointment_id: appointment.id, kind: 'marked_paid' }
		},
		update: () => ({ kind: 'payment_requested' }),
	},
	{
		table: 'payment_handles',
		allowed: { select: MEMBERS, insert: ['owner of A'], update: ['owner of A'], delete: NOBODY },
		row: async (w) => {
			await asSystem((trx) => sql`delete from public.payment_handles where organization_id = ${w.a.orgId}`.execute(trx))
			return systemInsert('payment_handles', { organization_id: w.a.orgId, venmo: 'studio-a' }, ['organization_id'])
		},
		insert: async (w) => {
			await asSystem((trx) => sql`delete from public.payment_handles where organization_id = ${w.a.orgId}`.execute(trx))
			return { organization_id: w.a.orgId, venmo: 'studio-b' }
		},
		update: () => ({ cashapp: `studio${next()}` }),
	},
	{
		table: 'payment_expectations',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: (w) =>
			systemInsert('payment_expectations', {
				organization_id: w.a.orgId,
				kind: 'balance',
				amount_due: 10,
				// One code per row (digits spelled in the code's letters): open codes are unique.
				memo_code: `AB${[...String(next()).padStart(4, '0')].map((d) => 'CDEFGHJKMN'[Number(d)]).join('')}`,
			}),
		insert: (w) => ({ organization_id: w.a.orgId, kind: 'balance', amount_due: 10, memo_code: 'ZZZZZZ' }),
		update: () => ({ amount_due: next() }),
	},
	{
		table: 'payment_matches',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => {
			const expectation = await systemInsert('payment_expectations', {
				organization_id: w.a.orgId,
				kind: 'balance',
				amount_due: 10,
				memo_code: 'WXYZ23',
				status: 'void',
			})
			const transaction = await systemInsert('transactions', { organization_id: w.a.orgId, amount: 10 })
			return systemInsert('payment_matches', {
				organization_id: w.a.orgId,
				transaction_id: transaction.id,
				expectation_id: expectation.id,
				amount: 10,
				method: 'manual',
			})
		},
		insert: async (w) => {
			const expectation = await systemInsert('payment_expectations', {
				organization_id: w.a.orgId,
				kind: 'balance',
				amount_due: 10,
				memo_code: 'WXYZ34',
				status: 'void',
			})
			const transaction = await systemInsert('transactions', { organization_id: w.a.orgId, amount: 10 })
			return { organization_id: w.a.orgId, transaction_id: transaction.id, expectation_id: expectation.id, amount: 10, method: 'manual' }
		},
		update: () => ({ amount: next() }),
	},
	{
		// Members write drafts; sending, voiding and paying go through functions (tests/db/invoices.test.ts).
		table: 'invoices',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: MEMBERS },
		row: (w) => systemInsert('invoices', { organization_id: w.a.orgId, notes: 'matrix draft' }),
		insert: (w) => ({ organization_id: w.a.orgId, notes: 'inserted draft' }),
		update: () => ({ notes: `edited ${next()}` }),
	},
	{
		// Bank Feed Reconciliation: members read statements; only its functions write them (tests/db/bank-feed.test.ts).
		table: 'bank_statements',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: (w) => systemInsert('bank_statements', { organization_id: w.a.orgId, accounts: '••1234' }),
		insert: (w) => ({ organization_id: w.a.orgId, accounts: '••9999' }),
		update: () => ({ line_count: next() }),
	},
	{
		table: 'bank_statement_lines',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => {
			const statement = await systemInsert('bank_statements', { organization_id: w.a.orgId, accounts: '••1234' })
			return systemInsert('bank_statement_lines', bankLine(w.a.orgId, statement.id as string))
		},
		insert: async (w) => {
			const statement = await systemInsert('bank_statements', { organization_id: w.a.orgId, accounts: '••1234' })
			return bankLine(w.a.orgId, statement.id as string)
		},
		update: () => ({ name: `edited ${next()}` }),
	},
	{
		table: 'bank_deposit_payments',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => {
			const statement = await systemInsert('bank_statements', { organization_id: w.a.orgId, accounts: '••1234' })
			const line = await systemInsert('bank_statement_lines', bankLine(w.a.orgId, statement.id as string))
			const transaction = await systemInsert('transactions', { organization_id: w.a.orgId, amount: 10, payment_method: 'Venmo' })
			return systemInsert('bank_deposit_payments', { organization_id: w.a.orgId, line_id: line.id, transaction_id: transaction.id }, [
				'transaction_id',
			])
		},
		insert: async (w) => {
			const statement = await systemInsert('bank_statements', { organization_id: w.a.orgId, accounts: '••1234' })
			const line = await systemInsert('bank_statement_lines', bankLine(w.a.orgId, statement.id as string))
			const transaction = await systemInsert('transactions', { organization_id: w.a.orgId, amount: 10, payment_method: 'Venmo' })
			return { organization_id: w.a.orgId, line_id: line.id, transaction_id: transaction.id }
		},
		update: () => ({ line_id: '00000000-0000-4000-8000-000000000000' }),
	},
	{
		// Money out: members type expenses; imported rows come through the importer's functions.
		table: 'expenses',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: MEMBERS },
		row: (w) => systemInsert('expenses', { organization_id: w.a.orgId, spent_on: '2030-01-07', amount: 12, vendor: 'Matrix supplies' }),
		insert: (w) => ({ organization_id: w.a.orgId, spent_on: '2030-01-08', amount: 3, vendor: 'Inserted vendor' }),
		update: () => ({ note: `edited ${next()}` }),
	},
	{
		// The tax year's expense sums: read by members, written only by the expenses triggers.
		table: 'expense_monthly_rollups',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => {
			await systemInsert('expenses', { organization_id: w.a.orgId, spent_on: '2030-02-07', amount: 12, vendor: 'Matrix rollup' })
			return { organization_id: w.a.orgId }
		},
		insert: (w) => ({
			organization_id: w.a.orgId,
			month: '2020-01-01',
			kind: 'expense',
			category: 'rent',
			payment_method: '',
			expense_count: 5,
		}),
		update: () => ({ expense_count: 999_999 }),
	},
	{
		// The Form 1099-K thresholds (the tax year): global, read by anyone signed in, written only by migrations.
		table: 'form_1099k_thresholds',
		allowed: { select: SIGNED_IN, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async () => ({ jurisdiction: 'US' }),
		insert: () => ({
			jurisdiction: 'ZZ',
			first_year: 2020,
			min_amount: 1,
			amount_inclusive: true,
			source_name: 'Rogue',
			source_url: 'https://rogue.example',
			verified_on: '2026-01-01',
		}),
		update: () => ({ min_amount: 999_999 }),
	},
	{
		table: 'invoice_lines',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: MEMBERS },
		row: async (w) => {
			const invoice = await systemInsert('invoices', { organization_id: w.a.orgId })
			return systemInsert('invoice_lines', {
				organization_id: w.a.orgId,
				invoice_id: invoice.id,
				position: 0,
				description: 'Work',
				quantity: 1,
				unit_price: 5,
			})
		},
		insert: async (w) => {
			const invoice = await systemInsert('invoices', { organization_id: w.a.orgId })
			return { organization_id: w.a.orgId, invoice_id: invoice.id, position: 1, description: 'More work', quantity: 2, unit_price: 5 }
		},
		update: () => ({ description: `Edited ${next()}` }),
	},
	{
		// Members write schedules while the organization owns the upgrade; the database keeps their dates (tests/db/recurring-invoices.test.ts).
		table: 'recurring_invoices',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: MEMBERS },
		row: (w) => recurringSchedule(w),
		insert: async (w) => ({
			organization_id: w.a.orgId,
			client_id: (await recurringClient(w)).id,
			cadence: 'weekly',
			anchor_date: '2030-01-07',
		}),
		update: () => ({ notes: `edited ${next()}` }),
	},
	{
		table: 'recurring_invoice_lines',
		allowed: { select: MEMBERS, insert: MEMBERS, update: MEMBERS, delete: MEMBERS },
		row: async (w) => {
			const schedule = await recurringSchedule(w)
			return systemInsert('recurring_invoice_lines', {
				organization_id: w.a.orgId,
				recurring_invoice_id: schedule.id,
				position: 0,
				description: 'Retainer',
				quantity: 1,
				unit_price: 5,
			})
		},
		insert: async (w) => {
			const schedule = await recurringSchedule(w)
			return {
				organization_id: w.a.orgId,
				recurring_invoice_id: schedule.id,
				position: 1,
				description: 'Hosting',
				quantity: 1,
				unit_price: 9,
			}
		},
		update: () => ({ description: `Edited ${next()}` }),
	},
	{
		// The history is written by public.make_recurring_invoice only.
		table: 'recurring_invoice_runs',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => {
			const schedule = await recurringSchedule(w)
			const invoice = await systemInsert('invoices', { organization_id: w.a.orgId })
			return systemInsert('recurring_invoice_runs', {
				organization_id: w.a.orgId,
				recurring_invoice_id: schedule.id,
				period_date: '2030-01-07',
				invoice_id: invoice.id,
			})
		},
		insert: async (w) => {
			const schedule = await recurringSchedule(w)
			const invoice = await systemInsert('invoices', { organization_id: w.a.orgId })
			return { organization_id: w.a.orgId, recurring_invoice_id: schedule.id, period_date: '2030-01-14', invoice_id: invoice.id }
		},
		update: () => ({ period_date: `2031-01-${String((next() % 28) + 1).padStart(2, '0')}` }),
	},
	{
		// Members read the templates; owners and administrators write them (tests/db/messaging.test.ts). One row per kind and
		// language: each cell starts from A's templates cleared.
		table: 'message_templates',
		allowed: { select: MEMBERS, insert: ['owner of A'], update: ['owner of A'], delete: ['owner of A'] },
		row: async (w) => {
			await clearTemplates(w)
			return systemInsert('message_templates', {
				organization_id: w.a.orgId,
				kind: 'invoice_after',
				language: 'es',
				subject: 'Aviso',
				body: 'Hola',
			})
		},
		insert: async (w) => {
			await clearTemplates(w)
			return { organization_id: w.a.orgId, kind: 'invoice_before', language: 'en', subject: 'Soon', body: 'Hi {{client_name}}' }
		},
		update: () => ({ subject: `Edited ${next()}` }),
	},
	{
		// Made by the module's activation; owners and administrators change it.
		table: 'messaging_settings',
		allowed: { select: MEMBERS, insert: NOBODY, update: ['owner of A'], delete: NOBODY },
		row: async (w) => {
			await asSystem((trx) =>
				sql`insert into public.messaging_settings (organization_id) values (${w.a.orgId}) on conflict do nothing`.execute(trx),
			)
			return { organization_id: w.a.orgId }
		},
		insert: (w) => ({ organization_id: w.a.orgId }),
		update: () => ({ days_after: [(next() % 120) + 1] }),
	},
	{
		// Written by the server after it checked the link's signature (app/.server/messaging/unsubscribe.ts); members read them.
		table: 'client_unsubscribes',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: (w) =>
			systemInsert('client_unsubscribes', { organization_id: w.a.orgId, email: `gone-${next()}@client.example` }, [
				'organization_id',
				'email',
			]),
		insert: (w) => ({ organization_id: w.a.orgId, email: `inserted-${next()}@client.example` }),
		update: () => ({ email: `edited-${next()}@client.example` }),
	},
	{
		// Members read the report automation; owners and administrators write it while A owns the upgrade
		// (tests/db/report-automation.test.ts). One row per organization: each cell starts from A's row cleared.
		table: 'report_automations',
		allowed: { select: MEMBERS, insert: ['owner of A'], update: ['owner of A'], delete: NOBODY },
		row: async (w) => {
			await clearReportAutomation(w)
			return systemInsert('report_automations', { organization_id: w.a.orgId, recipients: [w.a.userId] }, ['organization_id'])
		},
		insert: async (w) => {
			await clearReportAutomation(w)
			return { organization_id: w.a.orgId, weekly_report: true, recipients: [w.a.userId] }
		},
		update: () => ({ dormant_weeks: (next() % 52) + 1 }),
	},
	{
		// Personal API tokens (tests/db/api-tokens.test.ts): each member reads and revokes only their own,
		// and makes them only where A has CRM Enterprise (given to A below). The row is the owner's.
		table: 'api_tokens',
		allowed: { select: ['owner of A'], insert: ['owner of A'], update: ['owner of A'], delete: NOBODY },
		row: async (w) => {
			await withCrmEnterprise(w)
			return systemInsert('api_tokens', apiToken(w))
		},
		insert: async (w) => {
			await withCrmEnterprise(w)
			return apiToken(w)
		},
		update: () => ({ revoked_at: new Date() }),
	},
	{
		// The activity audit log (tests/db/audit-log.test.ts): read by owners only; written only by the
		// triggers, never updated or deleted by anyone.
		table: 'audit_events',
		allowed: { select: ['owner of A'], insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: (w) => systemInsert('audit_events', auditEvent(w)),
		insert: (w) => auditEvent(w),
		update: () => ({ label: 'Forged label' }),
	},
	{
		// Owners and administrators read and remove A's endpoints and turn them off; an endpoint is
		// added only through public.add_webhook_endpoint, with its sealed secret (tests/db/webhooks.test.ts).
		table: 'webhook_endpoints',
		allowed: { select: ['owner of A'], insert: NOBODY, update: ['owner of A'], delete: ['owner of A'] },
		row: (w) =>
			systemInsert('webhook_endpoints', { organization_id: w.a.orgId, url: 'https://example.com/hooks', events: ['invoice.paid'] }),
		insert: (w) => ({ organization_id: w.a.orgId, url: 'https://example.com/other', events: ['invoice.paid'] }),
		update: () => ({ enabled: false }),
	},
	{
		// Email Pro's custom parsing rules: owners and administrators read and write A's, while A has
		// Email Pro (given to A below), at most 20 (tests/db/parsing-rules.test.ts).
		table: 'email_parsing_rules',
		allowed: { select: ['owner of A'], insert: ['owner of A'], update: ['owner of A'], delete: ['owner of A'] },
		row: async (w) => {
			await withEmailPro(w)
			return systemInsert('email_parsing_rules', parsingRule(w))
		},
		insert: async (w) => {
			await withEmailPro(w)
			return parsingRule(w)
		},
		update: () => ({ name: `Renamed ${next()}` }),
	},
	{
		// The outbox and the deliveries: read by owners and administrators, written by triggers and the delivery job only.
		table: 'webhook_events',
		allowed: { select: ['owner of A'], insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: (w) => systemInsert('webhook_events', webhookEvent(w)),
		insert: (w) => webhookEvent(w),
		update: () => ({ type: 'invoice.sent' }),
	},
	{
		table: 'webhook_deliveries',
		allowed: { select: ['owner of A'], insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => systemInsert('webhook_deliveries', await webhookDelivery(w)),
		insert: (w) => webhookDelivery(w),
		update: () => ({ attempts: next() }),
	},
	{
		// Workflow Automation: members read A's rules; owners and administrators write them (tests/db/rules.test.ts).
		table: 'rules',
		allowed: { select: MEMBERS, insert: ['owner of A'], update: ['owner of A'], delete: ['owner of A'] },
		row: async (w) => {
			await clearRules(w)
			return systemInsert('rules', { organization_id: w.a.orgId, name: 'Matrix rule', amount_min: 1, add_tag: 'matrix' })
		},
		insert: async (w) => {
			await clearRules(w)
			return { organization_id: w.a.orgId, name: 'Inserted rule', amount_min: 1, add_tag: 'inserted' }
		},
		update: () => ({ name: `Renamed ${next()}` }),
	},
	{
		// The run history: read by members, written only by the rules' trigger on transactions.
		table: 'rule_runs',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: (w) => systemInsert('rule_runs', { organization_id: w.a.orgId, rule_name: 'Matrix run' }),
		insert: (w) => ({ organization_id: w.a.orgId, rule_name: 'Forged run' }),
		update: () => ({ rule_name: `Renamed ${next()}` }),
	},
	{
		// CRM Basic Fields: members read a client's notes; they are written and deleted only through
		// public.add_client_note and public.delete_client_note (tests/db/crm.test.ts).
		table: 'client_notes',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: (w) => systemInsert('client_notes', { organization_id: w.a.orgId, client_id: w.aliasClientId, body: 'Matrix note' }),
		insert: (w) => ({ organization_id: w.a.orgId, client_id: w.aliasClientId, body: 'Inserted note' }),
		update: () => ({ body: `Edited ${next()}` }),
	},
	{
		// CRM Pipelines: read by members, written only through the pipeline functions (tests/db/crm.test.ts).
		table: 'crm_pipelines',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: (w) => systemInsert('crm_pipelines', { organization_id: w.a.orgId, name: 'Matrix pipeline' }),
		insert: (w) => ({ organization_id: w.a.orgId, name: 'Inserted pipeline' }),
		update: () => ({ name: `Renamed ${next()}` }),
	},
	{
		table: 'crm_stages',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => (await crmStage(w)).row,
		insert: async (w) => {
			const pipeline = await systemInsert('crm_pipelines', { organization_id: w.a.orgId, name: 'Matrix stage insert' })
			return { organization_id: w.a.orgId, pipeline_id: pipeline.id, name: 'Inserted', position: 1 }
		},
		update: () => ({ name: `Renamed ${next()}` }),
	},
	{
		table: 'crm_cards',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => {
			const { pipeline, stage } = await crmStage(w)
			return systemInsert('crm_cards', { organization_id: w.a.orgId, pipeline_id: pipeline, stage_id: stage, client_id: w.aliasClientId })
		},
		insert: async (w) => {
			const { pipeline, stage } = await crmStage(w)
			return { organization_id: w.a.orgId, pipeline_id: pipeline, stage_id: stage, client_id: w.aliasClientId }
		},
		update: () => ({ follow_up_on: `2030-01-${String((next() % 28) + 1).padStart(2, '0')}` }),
	},
	{
		// Client merges: read by members, written only by merge_clients and undo_client_merge (tests/db/client-merge.test.ts).
		table: 'client_merges',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: (w) => systemInsert('client_merges', clientMerge(w)),
		insert: (w) => clientMerge(w),
		update: () => ({ undone_at: new Date().toISOString() }),
	},
	{
		// Pairs said not to be duplicates: read by members, written only by dismiss_client_duplicates.
		table: 'client_duplicate_dismissals',
		allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
		row: async (w) => systemInsert('client_duplicate_dismissals', await dismissal(w), ['organization_id', 'client_a', 'client_b']),
		insert: (w) => dismissal(w),
		update: () => ({ created_at: new Date(Date.now() - next() * 1000).toISOString() }),
	},
]

/** A merge record of A (its kept client is A's alias client; the merged one is gone). */
const clientMerge = (w: World) => ({
	organization_id: w.a.orgId,
	kept_client_id: w.aliasClientId,
	merged_client_id: randomUUID(),
	merged_client: JSON.stringify({ name: 'Merged away' }),
	kept_before: '{}',
	kept_after: '{}',
})

/** A pair of A's clients said not to be duplicates (a fresh one each time, in id order). */
async function dismissal(w: World) {
	const other = await systemInsert('clients', { organization_id: w.a.orgId, name: `Matrix twin ${next()}` })
	const [client_a, client_b] = [w.aliasClientId, other.id as string].sort()
	return { organization_id: w.a.orgId, client_a, client_b }
}

/** A fresh pipeline of A with one stage (a card is one per pipeline and client). */
async function crmStage(w: World) {
	const pipeline = await systemInsert('crm_pipelines', { organization_id: w.a.orgId, name: `Matrix cards ${next()}` })
	const stage = await systemInsert('crm_stages', { organization_id: w.a.orgId, pipeline_id: pipeline.id, name: 'Lead', position: 0 })
	return { pipeline: pipeline.id as string, stage: stage.id as string, row: stage }
}

const auditEvent = (w: World) => ({
	organization_id: w.a.orgId,
	actor_label: 'system',
	entity_type: 'client',
	entity_id: w.aliasClientId,
	action: 'updated',
	changes: JSON.stringify({ name: ['Old', 'New'] }),
	label: 'Matrix client',
})

const webhookEvent = (w: World) => ({ organization_id: w.a.orgId, type: 'invoice.paid', subject_id: w.a.orgId, data: '{}' })

/** A delivery of a new event of A to a new endpoint of A. */
async function webhookDelivery(w: World) {
	const endpoint = await systemInsert('webhook_endpoints', {
		organization_id: w.a.orgId,
		url: 'https://example.com/hooks',
		events: ['invoice.paid'],
	})
	const event = await systemInsert('webhook_events', webhookEvent(w))
	return { organization_id: w.a.orgId, endpoint_id: endpoint.id, event_id: event.id, next_attempt_at: new Date() }
}

/** A token of A's owner, with a hash of its own. */
const apiToken = (w: World) => ({
	organization_id: w.a.orgId,
	user_id: w.a.userId,
	name: `Matrix ${next()}`,
	token_hash: createHash('sha256').update(`matrix-${next()}-${Math.random()}`).digest('hex'),
	prefix: 'p2p_matrixab',
	scopes: ['payments:read'],
})

/** A given CRM Enterprise on the included Clients CRM (a token is made only with it). */
/** A's Email Pro (coming soon in the catalogue, given directly), and no more than a few of its parsing rules (the limit is 20). */
async function withEmailPro(w: World) {
	await asSystem(async (trx) => {
		await sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select m.organization_id, m.id, 'c0000000-0000-4000-8000-000000000002' from public.organization_modules m
			where m.organization_id = ${w.a.orgId} and m.module_id = 'b0000000-0000-4000-8000-000000000001'
			on conflict do nothing`.execute(trx)
		await sql`delete from public.email_parsing_rules where organization_id = ${w.a.orgId}`.execute(trx)
	})
}

const parsingRule = (w: World) => ({
	organization_id: w.a.orgId,
	name: `Matrix rule ${next()}`,
	sender: '@matrix.example',
	amount_label: 'Amount:',
	payer_label: 'From:',
})

async function withCrmEnterprise(w: World) {
	await asSystem((trx) =>
		sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select m.organization_id, m.id, 'c0000000-0000-4000-8000-000000000006' from public.organization_modules m
			where m.organization_id = ${w.a.orgId} and m.module_id = 'b0000000-0000-4000-8000-000000000002'
			on conflict do nothing`.execute(trx),
	)
}

/** A's row of report automation removed, and A given the Automation upgrade (a row is written only with it). */
async function clearReportAutomation(w: World) {
	await asSystem(async (trx) => {
		await trx.deleteFrom('report_automations').where('organization_id', '=', w.a.orgId).execute()
		await sql`insert into public.organization_modules (organization_id, module_id)
			values (${w.a.orgId}, 'b0000000-0000-4000-8000-000000000004') on conflict do nothing`.execute(trx)
		await sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select m.organization_id, m.id, 'c0000000-0000-4000-8000-000000000011' from public.organization_modules m
			where m.organization_id = ${w.a.orgId} and m.module_id = 'b0000000-0000-4000-8000-000000000004'
			on conflict do nothing`.execute(trx)
	})
}

/** Workflow Automation active for A (rules are written only with it), and none of A's rules left (the plan allows 10). */
async function clearRules(w: World) {
	await asSystem(async (trx) => {
		await sql`insert into public.organization_modules (organization_id, module_id)
			values (${w.a.orgId}, 'b0000000-0000-4000-8000-000000000010') on conflict do nothing`.execute(trx)
		await sql`delete from public.rules where organization_id = ${w.a.orgId}`.execute(trx)
	})
}

async function clearTemplates(w: World) {
	await asSystem((trx) => trx.deleteFrom('message_templates').where('organization_id', '=', w.a.orgId).execute())
}

/** A's Invoicing module and its Recurring Invoices upgrade: a schedule is written only with them. */
async function withRecurringUpgrade(w: World) {
	await asSystem(async (trx) => {
		await sql`insert into public.organization_modules (organization_id, module_id)
			values (${w.a.orgId}, 'b0000000-0000-4000-8000-000000000005') on conflict do nothing`.execute(trx)
		await sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select m.organization_id, m.id, 'c0000000-0000-4000-8000-000000000013' from public.organization_modules m
			where m.organization_id = ${w.a.orgId} and m.module_id = 'b0000000-0000-4000-8000-000000000005'
			on conflict do nothing`.execute(trx)
	})
}

async function recurringClient(w: World) {
	await withRecurringUpgrade(w)
	return systemInsert('clients', { organization_id: w.a.orgId, name: `Retainer Client ${next()}` })
}

async function recurringSchedule(w: World) {
	const client = await recurringClient(w)
	return systemInsert('recurring_invoices', {
		organization_id: w.a.orgId,
		client_id: client.id,
		cadence: 'monthly',
		anchor_date: '2030-01-31',
	})
}

function where(trx: Tx, table: string, key: Row) {
	let q = anyDb(trx).selectFrom(table).selectAll()
	for (const [column, value] of Object.entries(key)) q = q.where(column, '=', value)
	return q
}

async function snapshot(table: string, key: Row): Promise<Row[]> {
	return asSystem((trx) => where(trx, table, key).execute())
}

function runAs<T>(w: World, actor: Actor, fn: (trx: Tx) => Promise<T>): Promise<T> {
	switch (actor) {
		case 'anon':
			return asAnon(fn)
		case 'member of B':
			return asUser(w.b.userId, fn)
		case 'non-owner member of A':
			return asUser(w.memberOfA.userId, fn)
		case 'owner of A':
			return asUser(w.a.userId, fn)
	}
}

/** Runs one cell and reports what the database shows happened. */
async function cell(w: World, c: TableCase, operation: Operation, actor: Actor): Promise<Outcome | string> {
	const attempt = async <T>(fn: (trx: Tx) => Promise<T>) =>
		runAs(w, actor, fn).then(
			(value) => ({ value, code: null as string | null }),
			(error: unknown) => ({ value: undefined, code: dbErrorCode(error) ?? String(error) }),
		)
	const refusedBy = (code: string | null) => code === null || code === '42501' // no rows, or no privilege / policy

	if (operation === 'select') {
		const key = await c.row(w)
		const { value, code } = await attempt((trx) => where(trx, c.table, key).execute())
		if (code === null && value!.length > 0) return 'allowed'
		return refusedBy(code) ? 'refused' : `error ${code}`
	}
	if (operation === 'insert') {
		const values = await c.insert(w)
		const { value, code } = await attempt((trx) => anyDb(trx).insertInto(c.table).values(values).executeTakeFirst())
		if (code === null && value?.numInsertedOrUpdatedRows === 1n) return 'allowed'
		return refusedBy(code) ? 'refused' : `error ${code}`
	}
	const key = await c.row(w)
	const before = await snapshot(c.table, key)
	if (before.length === 0) return 'no row to test against'
	if (operation === 'update') {
		const change = c.update(w)
		const { code } = await attempt(async (trx) => {
			let q = anyDb(trx).updateTable(c.table).set(change)
			for (const [column, value] of Object.entries(key)) q = q.where(column, '=', value)
			return q.executeTakeFirst()
		})
		const after = await snapshot(c.table, key)
		const changed = after.some((row) => Object.entries(change).every(([k, v]) => String(row[k]) === String(v)))
		if (code === null && changed) return 'allowed'
		if (refusedBy(code) && JSON.stringify(after) === JSON.stringify(before)) return 'refused'
		return `inconsistent: ${code}`
	}
	const { code } = await attempt(async (trx) => {
		let q = anyDb(trx).deleteFrom(c.table)
		for (const [column, value] of Object.entries(key)) q = q.where(column, '=', value)
		return q.executeTakeFirst()
	})
	const after = await snapshot(c.table, key)
	if (code === null && after.length === 0) return 'allowed'
	if (refusedBy(code) && after.length === before.length) return 'refused'
	return `inconsistent: ${code}`
}

let world: World

beforeAll(async () => {
	const [a, b, memberOfA, newcomer] = await Promise.all([
		createUser('Owner A'),
		createUser('Owner B'),
		createUser('Member of A'),
		createUser('Newcomer'),
	])
	await addMember(a.orgId, memberOfA.userId, 'member')
	world = await asSystem(async (trx) => {
		const modules = await trx.selectFrom('modules').select('id').orderBy('name').limit(2).execute()
		const upgrades = await trx
			.selectFrom('module_upgrades')
			.select(['id', 'module_id'])
			.where('module_id', '=', modules[0]!.id)
			.orderBy('name')
			.limit(2)
			.execute()
		const orgModule = await trx
			.insertInto('organization_modules')
			.values({ organization_id: a.orgId, module_id: modules[0]!.id })
			.returning('id')
			.executeTakeFirstOrThrow()
		const orgUpgrade = await trx
			.insertInto('organization_module_upgrades')
			.values({ organization_id: a.orgId, organization_module_id: orgModule.id, upgrade_id: upgrades[0]!.id })
			.returning('id')
			.executeTakeFirstOrThrow()
		// A's transactions, with a client, so that every rollup table has a row of A.
		const client = await trx
			.insertInto('clients')
			.values({ organization_id: a.orgId, name: 'Rollup Client' })
			.returning('id')
			.executeTakeFirstOrThrow()
		await trx.insertInto('transactions').values({ organization_id: a.orgId, client_id: client.id, amount: 40 }).execute()
		return {
			a,
			b,
			memberOfA,
			newcomer,
			moduleId: modules[0]!.id,
			otherModuleId: modules[1]!.id,
			upgradeId: upgrades[0]!.id,
			otherUpgradeId: upgrades[1]!.id,
			orgModuleId: orgModule.id,
			orgUpgradeId: orgUpgrade.id,
			aliasClientId: client.id,
		}
	})
})

describe('the cross-tenant matrix', () => {
	test('covers every table of the public schema', async () => {
		const tables = await asSystem(async (trx) =>
			(
				await sql<{ name: string }>`
				select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
				where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`.execute(trx)
			).rows.map((r) => r.name),
		)
		expect(CASES.map((c) => c.table).sort()).toEqual(tables)
	})

	for (const c of CASES) {
		for (const operation of OPERATIONS) {
			const expected = Object.fromEntries(ACTORS.map((actor) => [actor, c.allowed[operation].includes(actor) ? 'allowed' : 'refused']))
			const allowedText = c.allowed[operation].length ? c.allowed[operation].join(', ') : 'nobody'
			test(`${c.table} · ${operation}: ${allowedText} may, everyone else is refused`, async () => {
				const actual: Record<string, string> = {}
				for (const actor of ACTORS) actual[actor] = await cell(world, c, operation, actor)
				expect(actual).toEqual(expected)
			})
		}
	}
})

describe('the catalog', () => {
	test('every table in the public schema has row level security on', async () => {
		const off = await asSystem(
			async (trx) =>
				(
					await sql<{ name: string }>`
				select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
				where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity`.execute(trx)
				).rows,
		)
		expect(off).toEqual([])
	})

	test('anon holds no privilege on any table, sequence or schema-private function', async () => {
		const grants = await asSystem(
			async (trx) =>
				(
					await sql<{ name: string }>`
				select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
				where n.nspname in ('public', 'private') and c.relkind in ('r', 'p', 'v', 'm', 'S')
				  and (has_table_privilege('anon', c.oid, 'select, insert, update, delete, truncate, references, trigger')
				    or (c.relkind = 'S' and has_sequence_privilege('anon', c.oid, 'usage, select, update')))
				union all
				select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
				where n.nspname = 'private' and (has_function_privilege('anon', p.oid, 'execute')
				  or has_function_privilege('authenticated', p.oid, 'execute'))
				union all
				select 'schema private' where has_schema_privilege('anon', 'private', 'usage')
				  or has_schema_privilege('authenticated', 'private', 'usage')`.execute(trx)
				).rows,
		)
		expect(grants).toEqual([])
	})

	test('anon may execute exactly the public booking and invoice page functions', async () => {
		const names = await asSystem(async (trx) =>
			(
				await sql<{ name: string }>`
				select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
				where n.nspname = 'public' and has_function_privilege('anon', p.oid, 'execute')
				order by 1`.execute(trx)
			).rows.map((r) => r.name),
		)
		expect(names).toEqual([
			'booking_attempt',
			'cancel_booking',
			'create_booking',
			'get_public_booking',
			'get_public_booking_deposit',
			'get_public_booking_settings',
			'get_public_busy_ranges',
			'get_public_date_overrides',
			'get_public_deposit_terms',
			'get_public_invoice',
			'get_public_invoice_lines',
			'get_public_organization',
			'get_public_providers',
			'get_public_services',
			'remember_booking_attempt',
			// Only for a public booking made in the caller's own transaction (its reminders' links: decision 041).
			'remember_manage_token',
			'reschedule_booking',
			'resolve_old_slug',
		])
	})

	test('every security definer function pins its search_path', async () => {
		const unpinned = await asSystem(
			async (trx) =>
				(
					await sql<{ name: string }>`
				select n.nspname || '.' || p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
				where n.nspname in ('public', 'private') and p.prosecdef
				  and not exists (select 1 from unnest(p.proconfig) c where c like 'search_path=%')`.execute(trx)
				).rows,
		)
		expect(unpinned).toEqual([])
	})
})
