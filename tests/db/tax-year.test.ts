import { describe, expect, test } from 'vitest'
import { asSystem, asUser, dbErrorCode, sql } from '#app/.server/db/index.ts'
import type { PaymentMethod } from '#app/.server/db/types.ts'
import { importPayments } from '#app/.server/payments/imports/pipeline.ts'
import { getTaxYear, type TaxYear } from '#app/.server/reports/tax-year.ts'
import { addMember, createUser, type TestUser } from './fixtures.ts'

/** A fixed clock: the tax year's "current year" is 2031, whatever the day the tests run. */
const NOW = new Date('2031-06-15T12:00:00Z')
const YEAR = 2030

type Payment = { amount: string; date: string; method: PaymentMethod; fee?: string | null; tip?: string | null }

/** Payments as a member types them (tips on the form); fees only come from imports, so they are set as the importer does. */
async function seedPayments(user: TestUser, payments: Payment[]) {
	const ids = await asUser(user.userId, (trx) =>
		trx
			.insertInto('transactions')
			.values(
				payments.map((p) => ({
					organization_id: user.orgId,
					user_id: user.userId,
					amount: p.amount,
					date_received: p.date,
					payment_method: p.method,
					tip: p.tip ?? null,
				})),
			)
			.returning('id')
			.execute(),
	)
	const withFees = payments.map((p, i) => ({ id: ids[i]!.id, fee: p.fee ?? null })).filter((p) => p.fee !== null)
	if (withFees.length)
		await asSystem(async (trx) => {
			for (const p of withFees) await trx.updateTable('transactions').set({ fee: p.fee }).where('id', '=', p.id).execute()
		})
	return ids.map((r) => r.id)
}

async function seedSpending(
	user: TestUser,
	rows: Array<{ kind: 'expense' | 'refund'; amount: string; date: string; category?: string; method?: PaymentMethod | null }>,
) {
	await asUser(user.userId, (trx) =>
		trx
			.insertInto('expenses')
			.values(
				rows.map((r) => ({
					organization_id: user.orgId,
					created_by: user.userId,
					kind: r.kind,
					spent_on: r.date,
					amount: r.amount,
					vendor: 'Vendor',
					category: r.category ?? 'other',
					payment_method: r.method ?? null,
				})),
			)
			.execute(),
	)
}

async function report(user: TestUser, year: string | null = String(YEAR), orgId = user.orgId): Promise<TaxYear> {
	const result = await getTaxYear(user.userId, orgId, year, { now: NOW, timezone: 'UTC' })
	if (!result.ok) throw new Error(`refused: ${result.error}`)
	return result.report
}

const rail = (r: TaxYear, method: PaymentMethod) => r.rails.find((x) => x.method === method)!
const cents = (values: string[]) => values.reduce((s, v) => s + Math.round(Number(v) * 100), 0)
const money = (c: number) => (c / 100).toFixed(2)

/** `count` payments on one rail summing exactly to `total` (all equal but the last). */
function paymentsSumming(method: PaymentMethod, count: number, total: string, date = `${YEAR}-05-10`): Payment[] {
	const totalCents = Math.round(Number(total) * 100)
	const each = Math.floor(totalCents / count)
	return Array.from({ length: count }, (_, i) => ({
		method,
		date,
		amount: money(i === count - 1 ? totalCents - each * (count - 1) : each),
	}))
}

describe('the tax year per payment rail', () => {
	test('each rail shows the sums of the payments, fees, tips and refunds typed in that year, and nothing from other years', async () => {
		const owner = await createUser('Tax Owner')
		const payments: Payment[] = [
			{ amount: '120.00', date: `${YEAR}-01-01`, method: 'Venmo', fee: '2.10', tip: '15.00' },
			{ amount: '80.50', date: `${YEAR}-06-30`, method: 'Venmo', tip: '7.25' },
			{ amount: '45.99', date: `${YEAR}-12-31`, method: 'Venmo', fee: '1.19' },
			{ amount: '300.00', date: `${YEAR}-03-03`, method: 'Zelle' },
			{ amount: '250.00', date: `${YEAR}-11-11`, method: 'PayPal', fee: '7.55' },
			{ amount: '999.99', date: `${YEAR - 1}-12-31`, method: 'Venmo', fee: '9.00', tip: '9.00' },
			{ amount: '888.88', date: `${YEAR + 1}-01-01`, method: 'Zelle' },
		]
		await seedPayments(owner, payments)
		await seedSpending(owner, [
			{ kind: 'refund', amount: '20.00', date: `${YEAR}-02-02`, method: 'Venmo' },
			{ kind: 'refund', amount: '5.50', date: `${YEAR}-02-03`, method: 'Venmo' },
			{ kind: 'refund', amount: '100.00', date: `${YEAR - 1}-02-03`, method: 'Venmo' },
			{ kind: 'expense', amount: '60.00', date: `${YEAR}-04-01`, category: 'supplies', method: 'Zelle' },
			{ kind: 'expense', amount: '40.25', date: `${YEAR}-09-01`, category: 'supplies' },
			{ kind: 'expense', amount: '1200.00', date: `${YEAR}-01-05`, category: 'rent' },
			{ kind: 'expense', amount: '77.00', date: `${YEAR + 1}-01-05`, category: 'rent' },
		])
		const r = await report(owner)
		const inYear = payments.filter((p) => p.date.startsWith(String(YEAR)))
		for (const method of ['Zelle', 'Venmo', 'CashApp', 'PayPal', 'Wire Transfer', 'Other'] as const) {
			const mine = inYear.filter((p) => p.method === method)
			expect(rail(r, method), method).toMatchObject({
				count: mine.length,
				received: money(cents(mine.map((p) => p.amount))),
				fees: money(cents(mine.map((p) => p.fee ?? '0'))),
				tips: money(cents(mine.map((p) => p.tip ?? '0'))),
			})
		}
		expect(rail(r, 'Venmo')).toMatchObject({ refundCount: 2, refunds: '25.50', fees: '3.29', tips: '22.25', received: '246.49' })
		expect(r.totals).toEqual({ count: 5, received: '796.49', fees: '10.84', tips: '22.25', refundCount: 2, refunds: '25.50' })
		expect(r.expenses).toEqual([
			{ category: 'rent', count: 1, amount: '1200.00' },
			{ category: 'supplies', count: 2, amount: '100.25' },
		])
		expect(r.expenseTotal).toBe('1300.25')
		expect(r.profit).toBe('-503.76')
		// The select offers every year from the first with data to the current one.
		expect(r.years).toEqual([YEAR + 1, YEAR, YEAR - 1])
	})

	test('the federal threshold is passed only above both more than $20,000 and more than 200 payments', async () => {
		const owner = await createUser('Threshold Owner')
		await seedPayments(owner, [
			// Just above both: 201 payments, $20,000.01.
			...paymentsSumming('Venmo', 201, '20000.01'),
			// At the amount, above the count: $20,000.00 in 201 payments.
			...paymentsSumming('CashApp', 201, '20000.00'),
			// Above the amount, at the count: $25,000 in 200 payments.
			...paymentsSumming('PayPal', 200, '25000.00'),
			// Zelle passes both figures but no app reports it.
			...paymentsSumming('Zelle', 300, '40000.00'),
		])
		const r = await report(owner)
		const federal = (method: string) => r.appChecks.find((a) => a.method === method)!.checks.find((c) => c.threshold.jurisdiction === 'US')!
		expect(federal('Venmo')).toMatchObject({ passes: true })
		expect(federal('CashApp')).toMatchObject({ passes: false })
		expect(federal('PayPal')).toMatchObject({ passes: false })
		expect(federal('Venmo').threshold).toMatchObject({
			minAmount: '20000.00',
			amountInclusive: false,
			minCount: 200,
			countInclusive: false,
		})
		expect(r.appChecks.map((a) => a.method)).toEqual(['Venmo', 'CashApp', 'PayPal'])
		// Below on both figures (the year before): no check passes.
		const before = await report(owner, String(YEAR - 1))
		expect(before.appChecks.every((a) => a.checks.every((c) => !c.passes))).toBe(true)
	})

	test("the organization's state adds its own row: $600 or more in Massachusetts, more than $1,000 and 3 payments in Illinois", async () => {
		const owner = await createUser('State Owner')
		await seedPayments(owner, [
			...paymentsSumming('Venmo', 2, '600.00'),
			...paymentsSumming('CashApp', 5, '599.99'),
			...paymentsSumming('PayPal', 4, '1000.01'),
		])
		// No state: the federal row only.
		expect((await report(owner)).thresholds.map((t) => t.jurisdiction)).toEqual(['US'])

		await asUser(owner.userId, (trx) => trx.updateTable('organizations').set({ state: 'MA' }).where('id', '=', owner.orgId).execute())
		let r = await report(owner)
		expect(r.state).toBe('MA')
		const stateCheck = (method: string) =>
			r.appChecks.find((a) => a.method === method)!.checks.find((c) => c.threshold.jurisdiction !== 'US')
		expect(stateCheck('Venmo')).toMatchObject({
			passes: true,
			threshold: { jurisdiction: 'MA', minAmount: '600.00', amountInclusive: true },
		})
		expect(stateCheck('CashApp')).toMatchObject({ passes: false })
		expect(stateCheck('PayPal')).toMatchObject({ passes: true })
		expect(r.thresholds.every((t) => t.sourceUrl.startsWith('https://'))).toBe(true)

		await asUser(owner.userId, (trx) => trx.updateTable('organizations').set({ state: 'IL' }).where('id', '=', owner.orgId).execute())
		r = await report(owner)
		// $1,000.01 in 4 payments passes; $600 in 2 payments does not.
		expect(stateCheck('PayPal')).toMatchObject({ passes: true, threshold: { jurisdiction: 'IL', minCount: 3 } })
		expect(stateCheck('Venmo')).toMatchObject({ passes: false })

		// A state whose row ended (Vermont's $600 rule is on record through 2025): the federal row only in 2030.
		await asUser(owner.userId, (trx) => trx.updateTable('organizations').set({ state: 'VT' }).where('id', '=', owner.orgId).execute())
		expect((await report(owner)).thresholds.map((t) => t.jurisdiction)).toEqual(['US'])
	})

	test('a state that is not a US state or DC is refused, and only an owner sets it', async () => {
		const owner = await createUser('Bad State Owner')
		const member = await createUser('Bad State Member')
		await addMember(owner.orgId, member.userId, 'member')
		const code = await asUser(owner.userId, (trx) =>
			trx.updateTable('organizations').set({ state: 'XX' }).where('id', '=', owner.orgId).execute(),
		).then(
			() => null,
			(error: unknown) => dbErrorCode(error),
		)
		expect(code).toBe('23514')
		await asUser(member.userId, (trx) => trx.updateTable('organizations').set({ state: 'MA' }).where('id', '=', owner.orgId).execute())
		const row = await asSystem((trx) =>
			trx.selectFrom('organizations').select('state').where('id', '=', owner.orgId).executeTakeFirstOrThrow(),
		)
		expect(row.state).toBeNull()
	})

	test('fees and tips follow edits, moves to another year and deletes', async () => {
		const owner = await createUser('Edit Owner')
		const [a, b] = await seedPayments(owner, [
			{ amount: '100.00', date: `${YEAR}-03-01`, method: 'Venmo', fee: '1.00', tip: '10.00' },
			{ amount: '200.00', date: `${YEAR}-03-02`, method: 'Venmo', fee: '2.00', tip: '20.00' },
		])
		expect(rail(await report(owner), 'Venmo')).toMatchObject({ count: 2, received: '300.00', fees: '3.00', tips: '30.00' })

		// A tip edited alone (nothing else moves) still moves the year's tips.
		await asUser(owner.userId, (trx) => trx.updateTable('transactions').set({ tip: '12.50' }).where('id', '=', a!).execute())
		expect(rail(await report(owner), 'Venmo')).toMatchObject({ tips: '32.50', fees: '3.00' })
		await asSystem((trx) => trx.updateTable('transactions').set({ fee: null }).where('id', '=', a!).execute())
		expect(rail(await report(owner), 'Venmo')).toMatchObject({ fees: '2.00' })

		// Moved to the year before and to another rail: it leaves this year's Venmo line.
		await asUser(owner.userId, (trx) =>
			trx
				.updateTable('transactions')
				.set({ date_received: `${YEAR - 1}-12-31`, payment_method: 'CashApp' })
				.where('id', '=', b!)
				.execute(),
		)
		let r = await report(owner)
		expect(rail(r, 'Venmo')).toMatchObject({ count: 1, received: '100.00', fees: '0.00', tips: '12.50' })
		expect(rail(await report(owner, String(YEAR - 1)), 'CashApp')).toMatchObject({ count: 1, fees: '2.00', tips: '20.00' })

		await asUser(owner.userId, (trx) => trx.deleteFrom('transactions').where('id', '=', a!).execute())
		r = await report(owner)
		expect(r.totals).toMatchObject({ count: 0, received: '0.00', fees: '0.00', tips: '0.00' })

		// The rollups hold exactly what the transactions add up to.
		const drift = await asSystem(async (trx) =>
			sql<{ n: number }>`
				select count(*)::int as n from (
					select date_trunc('month', date_received::timestamp)::date as month, category, payment_method,
						coalesce(sum(fee), 0)::numeric(18, 2) as f, coalesce(sum(tip), 0)::numeric(18, 2) as p
					from public.transactions where organization_id = ${owner.orgId} group by 1, 2, 3
				) t full join (
					select month, category, payment_method, fee_sum as f, tip_sum as p
					from public.transaction_monthly_rollups where organization_id = ${owner.orgId}
				) r using (month, category, payment_method)
				where t.f is distinct from r.f or t.p is distinct from r.p`.execute(trx),
		)
		expect(drift.rows[0]!.n).toBe(0)
	})

	test("a Venmo statement's tip and fee columns reach the payments and the year's tips and fees, once however often it is read", async () => {
		const owner = await createUser('Import Owner')
		const file = [
			'Account Statement - (@owner) ,,,,,,,,,,,',
			'Account Activity,,,,,,,,,,,',
			',ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (tip),Amount (fee),Beginning Balance,Disclaimer',
			`,3921234567890120001,${YEAR}-03-01T14:22:05,Payment,Complete,Cut,Ana Silva,Owner,+ $60.00,+ $10.00,- $1.05,,`,
			`,3921234567890120002,${YEAR}-03-02T09:00:00,Payment,Complete,Color,Bruno Costa,Owner,"+ $1,200.00",$0.00,,,`,
			// A "tip" above the amount is no tip of this payment: the payment comes in, the tip does not.
			`,3921234567890120003,${YEAR}-03-03T09:00:00,Payment,Complete,Cut,Caro Diaz,Owner,+ $15.00,+ $20.00,,,`,
		].join('\n')
		for (let i = 0; i < 2; i++) {
			const result = await importPayments({ organizationId: owner.orgId, userId: owner.userId, file, label: 'venmo.csv' })
			expect(result.ok).toBe(true)
		}
		const rows = await asUser(owner.userId, (trx) =>
			trx
				.selectFrom('transactions')
				.select(['amount', 'tip', 'fee'])
				.where('organization_id', '=', owner.orgId)
				.orderBy('amount')
				.execute(),
		)
		expect(rows).toEqual([
			{ amount: '15.00', tip: null, fee: null },
			{ amount: '60.00', tip: '10.00', fee: '1.05' },
			{ amount: '1200.00', tip: null, fee: null },
		])
		expect(rail(await report(owner), 'Venmo')).toMatchObject({ count: 3, received: '1275.00', tips: '10.00', fees: '1.05' })
	})

	test('expenses and refunds follow edits (kind, category, rail, day) and deletes', async () => {
		const owner = await createUser('Expense Edit Owner')
		await seedSpending(owner, [
			{ kind: 'expense', amount: '50.00', date: `${YEAR}-02-01`, category: 'rent' },
			{ kind: 'expense', amount: '25.00', date: `${YEAR}-02-02`, category: 'rent' },
		])
		const ids = await asUser(owner.userId, (trx) =>
			trx.selectFrom('expenses').select('id').where('organization_id', '=', owner.orgId).orderBy('amount').execute(),
		)
		const [small, big] = ids.map((r) => r.id)
		expect((await report(owner)).expenses).toEqual([{ category: 'rent', count: 2, amount: '75.00' }])
		await asUser(owner.userId, (trx) =>
			trx.updateTable('expenses').set({ kind: 'refund', payment_method: 'CashApp', amount: '30.00' }).where('id', '=', small!).execute(),
		)
		let r = await report(owner)
		expect(r.expenses).toEqual([{ category: 'rent', count: 1, amount: '50.00' }])
		expect(rail(r, 'CashApp')).toMatchObject({ refundCount: 1, refunds: '30.00' })
		await asUser(owner.userId, (trx) =>
			trx
				.updateTable('expenses')
				.set({ category: 'supplies', spent_on: `${YEAR - 1}-12-31` })
				.where('id', '=', big!)
				.execute(),
		)
		r = await report(owner)
		expect(r.expenses).toEqual([])
		expect((await report(owner, String(YEAR - 1))).expenses).toEqual([{ category: 'supplies', count: 1, amount: '50.00' }])
		await asUser(owner.userId, (trx) => trx.deleteFrom('expenses').where('organization_id', '=', owner.orgId).execute())
		r = await report(owner)
		expect(r.totals.refunds).toBe('0.00')
		const left = await asSystem((trx) =>
			trx.selectFrom('expense_monthly_rollups').select('month').where('organization_id', '=', owner.orgId).execute(),
		)
		expect(left).toEqual([])
	})

	test('a tip below zero is refused by the database', async () => {
		const owner = await createUser('Tip Owner')
		const code = await seedPayments(owner, [{ amount: '10.00', date: `${YEAR}-01-01`, method: 'Venmo', tip: '-1.00' }]).then(
			() => null,
			(error: unknown) => dbErrorCode(error),
		)
		expect(code).toBe('23514')
	})

	test("another organization's figures never show, even when its id is asked for", async () => {
		const owner = await createUser('Private Owner')
		const stranger = await createUser('Stranger')
		await seedPayments(owner, [{ amount: '5000.00', date: `${YEAR}-05-05`, method: 'Venmo', fee: '50.00', tip: '5.00' }])
		await seedSpending(owner, [{ kind: 'expense', amount: '70.00', date: `${YEAR}-05-06`, category: 'rent' }])
		const mine = await report(stranger)
		expect(mine.totals.received).toBe('0.00')
		const theirs = await report(stranger, String(YEAR), owner.orgId)
		expect(theirs.totals).toEqual({ count: 0, received: '0.00', fees: '0.00', tips: '0.00', refundCount: 0, refunds: '0.00' })
		expect(theirs.expenses).toEqual([])
		expect(theirs.state).toBeNull()
	})

	test('a malformed or out-of-range year is refused; none means the current year', async () => {
		const owner = await createUser('Year Owner')
		for (const year of ['1999', '2032', '20x0', '99999', ' 2030', '2030.0', '-2030', '0x7e6']) {
			expect(await getTaxYear(owner.userId, owner.orgId, year, { now: NOW, timezone: 'UTC' }), year).toEqual({
				ok: false,
				error: 'invalidYear',
				currentYear: 2031,
			})
		}
		expect((await report(owner, null)).year).toBe(2031)
		expect((await report(owner, '')).year).toBe(2031)
		// The current year follows the organization's zone: 2031 begins earlier in Tokyo than in UTC.
		const newYear = await getTaxYear(owner.userId, owner.orgId, null, { now: new Date('2030-12-31T20:00:00Z'), timezone: 'Asia/Tokyo' })
		expect(newYear.ok && newYear.report.year).toBe(2031)
	})
})
