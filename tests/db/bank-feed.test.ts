/**
 * Bank Feed Reconciliation (docs/product.md, Bank feed; docs/decisions/049-bank-feed.md): an OFX
 * statement's Venmo cash-out is matched to the Venmo payments it carried (net of fees) and is never
 * a transaction; own transfers are recognised; a statement read twice adds nothing and can be
 * removed; payments imported after the statement are matched on the next reconciliation;
 * discrepancies are listed and mailed once to owners and administrators; another organization's
 * member, or an organization without the upgrade, can do none of it. On PGlite and on PostgreSQL.
 */
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { discrepancyJob, dueDiscrepancyKeys } from '#app/.server/bank-feed/discrepancy-job.ts'
import { getBankFeed, reconcile, reconcileAfterImport, recordStatement, removeStatement } from '#app/.server/bank-feed/statements.ts'
import { importPayments } from '#app/.server/payments/imports/pipeline.ts'
import { runDueJobs } from '#app/.server/scheduler.ts'
import { MODULES } from '#app/lib/modules.ts'
import { ofxSgml, ofxXml, venmoCsv } from '../fixtures/bank-feed.ts'
import { addMember, createUser, refusal, type TestUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()

async function owner(name: string, { upgrade = true } = {}) {
	const user = await createUser(name)
	if (upgrade)
		await asSystem(async (trx) => {
			const module = await trx
				.selectFrom('organization_modules')
				.select('id')
				.where('organization_id', '=', user.orgId)
				.where('module_id', '=', MODULES.p2p.id)
				.executeTakeFirstOrThrow()
			await trx
				.insertInto('organization_module_upgrades')
				.values({ organization_id: user.orgId, organization_module_id: module.id, upgrade_id: MODULES.p2p.upgrades.bankFeed.id })
				.execute()
		})
	return user
}

async function importVenmo(user: TestUser, csv: string) {
	const result = await importPayments({ organizationId: user.orgId, userId: user.userId, file: csv, label: 'venmo.csv' })
	if (!result.ok) throw new Error(`import failed: ${result.error}`)
	await reconcileAfterImport({ organizationId: user.orgId })
}

async function income(orgId: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ n: number; total: string }>`select count(*)::int as n, coalesce(sum(amount), 0)::text as total
			from public.transactions where organization_id = ${orgId}`.execute(trx),
	)
	return rows[0]!
}

async function record(user: TestUser, text: string) {
	const outcome = await recordStatement(user.userId, user.orgId, text, 'march.ofx')
	if (!outcome.ok) throw new Error(`not recorded: ${JSON.stringify(outcome)}`)
	return outcome
}

/** Two Venmo payments (one with a fee) and the Standard Transfer that took them to the bank. */
const VENMO = venmoCsv(
	[
		['4001000000000000001', '2026-03-02', 'Ana Silva', '50.00', '1.50'],
		['4001000000000000002', '2026-03-03', 'Bruno Costa', '80.00'],
	],
	['4001000000000000003', '2026-03-03', '128.50'],
)

const STATEMENT = ofxSgml([
	{ id: 'B1', date: '2026-03-05', amount: '128.50', name: 'VENMO', memo: 'CASHOUT PPD ID: 5264681992' },
	{ id: 'B2', date: '2026-03-06', amount: '500.00', type: 'XFER', name: 'Online Transfer from SAV ...4321' },
	{ id: 'B3', date: '2026-03-07', amount: '75.00', name: 'Zelle payment from ANA SILVA' },
	{ id: 'B4', date: '2026-03-08', amount: '-20.00', name: 'OFFICE DEPOT' },
])

describe('a Venmo cash-out reconciled', () => {
	test('the deposit carries the payments since the transfer, net of fees, and is never income; own transfers are recognised', async () => {
		const user = await owner('Bank Owner')
		await importVenmo(user, VENMO)
		const before = await income(user.orgId)
		expect(before).toEqual({ n: 2, total: '130.00' })

		const outcome = await record(user, STATEMENT)
		expect(outcome).toMatchObject({ added: 4, duplicates: 0, cashouts: 1, matched: 1 })
		// Nothing on the statement became a transaction: the income is what the app files said.
		expect(await income(user.orgId)).toEqual(before)

		const view = await getBankFeed(user.userId, user.orgId)
		expect(view.owned).toBe(true)
		const byName = Object.fromEntries(view.lines.map((l) => [l.name, l]))
		expect(byName['VENMO']).toMatchObject({ kind: 'cashout', rail: 'Venmo', status: 'matched', amount: '128.50', account: '••6789' })
		expect(byName['VENMO']!.payments.map((p) => [p.payer, p.amount, p.fee])).toEqual([
			['Ana Silva', '50.00', '1.50'],
			['Bruno Costa', '80.00', null],
		])
		expect(byName['Online Transfer from SAV ...4321']).toMatchObject({ kind: 'ownTransfer', status: null })
		expect(byName['Zelle payment from ANA SILVA']).toMatchObject({ kind: 'deposit', status: null })
		expect(byName['OFFICE DEPOT']).toMatchObject({ kind: 'debit' })
		expect(view.totals).toEqual({ cashouts: '128.50', ownTransfers: '500.00', deposits: '75.00' })
		expect(view.discrepancies).toEqual([])
	})

	test('the same statement again adds nothing (XML or SGML); removing it removes its lines and the links', async () => {
		const user = await owner('Twice Owner')
		await importVenmo(user, VENMO)
		await record(user, STATEMENT)
		expect(await recordStatement(user.userId, user.orgId, STATEMENT, 'again.ofx')).toMatchObject({ ok: true, added: 0, duplicates: 4 })
		let view = await getBankFeed(user.userId, user.orgId)
		expect(view.statements).toHaveLength(1)
		expect(view.lines).toHaveLength(4)

		// The same account in XML with one new line: only that line is added.
		const more = ofxXml(
			[
				{ id: 'B1', date: '2026-03-05', amount: '128.50', name: 'VENMO', memo: 'CASHOUT' },
				{ id: 'B9', date: '2026-03-20', amount: '12.00', name: 'INTEREST' },
			],
			{ account: '000123456789' },
		)
		// Another bank id: another account key, so both of its lines are new.
		expect(await recordStatement(user.userId, user.orgId, more, 'april.ofx')).toMatchObject({ ok: true, added: 2 })
		view = await getBankFeed(user.userId, user.orgId)
		const first = view.statements.find((s) => s.fileName === 'march.ofx')!
		expect(await removeStatement(user.userId, first.id)).toEqual({ ok: true })
		view = await getBankFeed(user.userId, user.orgId)
		expect(view.lines.map((l) => l.name).sort()).toEqual(['INTEREST', 'VENMO'])
		// The cash-out of the XML file now carries the payments (the removed one no longer does).
		expect(view.lines.find((l) => l.name === 'VENMO')).toMatchObject({ status: 'matched' })
		expect(await removeStatement(user.userId, first.id)).toEqual({ ok: false, code: 'statement_not_found' })
	})

	test('payments imported after the statement are matched when they arrive', async () => {
		const user = await owner('Late Owner')
		await record(user, STATEMENT)
		let view = await getBankFeed(user.userId, user.orgId)
		expect(view.lines.find((l) => l.kind === 'cashout')).toMatchObject({ status: 'uncovered' })
		expect(view.discrepancies.map((d) => d.kind)).toEqual(['uncovered'])
		await importVenmo(user, VENMO)
		view = await getBankFeed(user.userId, user.orgId)
		expect(view.lines.find((l) => l.kind === 'cashout')).toMatchObject({ status: 'matched' })
		expect(view.discrepancies).toEqual([])
	})

	test('the deposit is found after older payments it did not carry, which, like a later one, are "not deposited" 10 days before the statement end', async () => {
		const user = await owner('Window Owner')
		await importVenmo(
			user,
			venmoCsv([
				['4002000000000000001', '2026-03-01', 'Old Payer', '19.00'],
				['4002000000000000002', '2026-03-10', 'Ana Silva', '30.00'],
				['4002000000000000003', '2026-03-11', 'Bruno Costa', '45.00'],
				['4002000000000000004', '2026-03-14', 'Later Payer', '7.00'],
			]),
		)
		await record(
			user,
			ofxSgml([
				{ id: 'W1', date: '2026-03-13', amount: '75.00', name: 'VENMO CASHOUT' },
				{ id: 'W2', date: '2026-03-20', amount: '99.00', name: 'VENMO CASHOUT' },
				{ id: 'W3', date: '2026-03-21', amount: '40.00', name: 'CASH APP*CASH OUT' },
				{ id: 'W4', date: '2026-03-25', amount: '-5.00', name: 'FEE' },
			]),
		)
		const view = await getBankFeed(user.userId, user.orgId)
		const cashouts = view.lines.filter((l) => l.kind === 'cashout').sort((a, b) => a.postedOn.localeCompare(b.postedOn))
		expect(cashouts.map((l) => [l.amount, l.status, l.expected])).toEqual([
			['75.00', 'matched', '75.00'],
			// Since the cash-out of the 13th: the 7.00 of the 14th.
			['99.00', 'mismatch', '7.00'],
			['40.00', 'uncovered', '0.00'],
		])
		expect(cashouts[0]!.payments.map((p) => p.payer)).toEqual(['Ana Silva', 'Bruno Costa'])
		expect(view.discrepancies.map((d) => [d.kind, d.amount, d.label])).toEqual([
			['notDeposited', '19.00', 'Old Payer'],
			['notDeposited', '7.00', 'Later Payer'],
			['mismatch', '99.00', 'VENMO CASHOUT'],
			['uncovered', '40.00', 'CASH APP*CASH OUT'],
		])
	})
})

describe('a hostile statement', () => {
	test('2,000 cash-out lines: recorded, the latest 500 reconciled, in bounded time', async () => {
		const user = await owner('Flood Owner')
		await importVenmo(
			user,
			venmoCsv(
				Array.from({ length: 40 }, (_, i) => [`40090000000000000${String(i).padStart(2, '0')}`, '2026-03-02', `Payer ${i}`, '3.00']),
			),
		)
		const lines = Array.from({ length: 2_000 }, (_, i) => ({
			id: `FL${i}`,
			date: `2026-0${1 + Math.floor(i / 700)}-${String(1 + (i % 28)).padStart(2, '0')}`,
			amount: '1.00',
			name: 'VENMO CASHOUT',
		}))
		const started = Date.now()
		expect(await record(user, ofxSgml(lines))).toMatchObject({ added: 2_000, cashouts: 2_000 })
		expect(Date.now() - started).toBeLessThan(30_000)
		const { rows } = await asSystem((trx) =>
			sql<{ status: string; n: number }>`select status, count(*)::int as n from public.bank_statement_lines
				where organization_id = ${user.orgId} group by status order by status`.execute(trx),
		)
		expect(rows.find((r) => r.status === 'open')?.n).toBe(1_500)
		expect(rows.reduce((sum, r) => sum + r.n, 0)).toBe(2_000)
	}, 60_000)
})

describe('who may', () => {
	test('without the upgrade: refused before anything is written; the screen says so', async () => {
		const user = await owner('No Upgrade', { upgrade: false })
		expect(await recordStatement(user.userId, user.orgId, STATEMENT, 'x.ofx')).toEqual({ ok: false, code: 'upgrade_inactive' })
		expect(await reconcile(user.userId, user.orgId)).toBe(false)
		expect(await getBankFeed(user.userId, user.orgId)).toMatchObject({ owned: false, lines: [] })
		const { rows } = await asSystem((trx) =>
			sql<{ n: number }>`select count(*)::int as n from public.bank_statements where organization_id = ${user.orgId}`.execute(trx),
		)
		expect(rows[0]!.n).toBe(0)
	})

	test("another organization's member reads, records, removes and reconciles none of it", async () => {
		const user = await owner('Victim Owner')
		await importVenmo(user, VENMO)
		await record(user, STATEMENT)
		const attacker = await owner('Attacker Owner')
		const statementId = (await getBankFeed(user.userId, user.orgId)).statements[0]!.id
		expect(await removeStatement(attacker.userId, statementId)).toEqual({ ok: false, code: 'statement_not_found' })
		expect(await refusal(recordStatement(attacker.userId, user.orgId, STATEMENT, 'x.ofx'))).toBe('not_member')
		expect(await refusal(reconcile(attacker.userId, user.orgId))).toBe('not_member')
		const seen = await asUser(attacker.userId, async (trx) => ({
			statements: (await sql`select 1 from public.bank_statements where organization_id = ${user.orgId}`.execute(trx)).rows.length,
			lines: (await sql`select 1 from public.bank_statement_lines where organization_id = ${user.orgId}`.execute(trx)).rows.length,
			links: (await sql`select 1 from public.bank_deposit_payments where organization_id = ${user.orgId}`.execute(trx)).rows.length,
		}))
		expect(seen).toEqual({ statements: 0, links: 0, lines: 0 })
		expect(
			await refusal(asUser(attacker.userId, (trx) => sql`select * from public.bank_feed_discrepancies(${user.orgId})`.execute(trx))),
		).toBe('not_member')
		// Members write only through the functions.
		expect(
			await refusal(
				asUser(user.userId, (trx) =>
					sql`update public.bank_statement_lines set status = 'matched' where organization_id = ${user.orgId}`.execute(trx),
				),
			),
		).toBe('42501')
	})
})

describe('discrepancies mailed', () => {
	test('once per discrepancy, to owners and administrators in their language; members are not mailed', async () => {
		const user = await owner('Mail Owner')
		const admin = await createUser('Mail Admin')
		const member = await createUser('Mail Member')
		await addMember(user.orgId, admin.userId, 'administrator')
		await addMember(user.orgId, member.userId, 'member')
		await asSystem((trx) => sql`update public.profiles set preferred_language = 'es' where user_id = ${admin.userId}`.execute(trx))
		await record(
			user,
			ofxSgml([
				{ id: 'M1', date: '2026-03-05', amount: '60.00', name: 'VENMO', memo: 'CASHOUT' },
				{ id: 'M2', date: '2026-03-06', amount: '500.00', type: 'XFER', name: 'Transfer' },
			]),
		)
		const keys = await dueDiscrepancyKeys({ organizationId: user.orgId })
		expect(keys).toHaveLength(1)
		const job = { ...discrepancyJob, due: () => dueDiscrepancyKeys({ organizationId: user.orgId }) }
		const now = new Date('2026-03-30T10:00:00Z')
		await runDueJobs(now, [job])
		await runDueJobs(new Date('2026-03-30T10:01:00Z'), [job])
		const toOwner = await mailsTo(user.email)
		expect(toOwner).toHaveLength(1)
		expect(toOwner[0]!.subject).toContain(': a Venmo cash-out with no app payments')
		expect(toOwner[0]!.text).toContain('$60.00')
		expect(toOwner[0]!.text).toContain('/app/transactions/reconciliation')
		const toAdmin = await mailsTo(admin.email)
		expect(toAdmin).toHaveLength(1)
		expect(toAdmin[0]!.subject).toContain('un retiro de Venmo sin pagos de la app')
		expect(await mailsTo(member.email)).toEqual([])
		// Mailed: not due again, even after it is reconciled again.
		await reconcile(user.userId, user.orgId)
		expect(await dueDiscrepancyKeys({ organizationId: user.orgId })).toEqual([])
	})
})
