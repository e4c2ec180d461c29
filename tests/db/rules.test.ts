/**
 * Rules (docs/product.md, Rules; docs/decisions/047-rules.md): each condition and action on a
 * payment as it arrives (typed, imported from a CSV file), in order and after the matching engine,
 * each run in the history; "would match N"; the plan's limits and Automation Unlimited; the module
 * gate; another organization neither reads nor writes them. On PGlite and on the PostgreSQL server.
 */
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { commitImport, importPayments } from '#app/.server/payments/imports/pipeline.ts'
import {
	clearHold,
	countMatches,
	createRule,
	deleteRule,
	listRules,
	listRuns,
	moveRule,
	previewRule,
	ruleOfferFor,
	setRuleEnabled,
} from '#app/.server/rules/rules.ts'
import { claimRuleNotices } from '#app/.server/rules/notices.ts'
import { MODULES } from '#app/lib/modules.ts'
import { BLANK_RULE, type RuleFormText } from '#app/lib/schemas/rules.ts'
import { addMember, createUser, refusal, type TestUser } from './fixtures.ts'

async function owner({ module = true } = {}) {
	const user = await createUser('Rules Owner')
	if (module) await activate(user.orgId)
	return user
}

async function activate(orgId: string) {
	await asSystem((trx) =>
		sql`insert into public.organization_modules (organization_id, module_id) values (${orgId}, ${MODULES.automation.id})`.execute(trx),
	)
}

async function rule(user: TestUser, values: Partial<RuleFormText>) {
	const outcome = await createRule(user.userId, user.orgId, { ...BLANK_RULE, name: 'A rule', ...values })
	if (outcome.kind !== 'saved') throw new Error(`not saved: ${JSON.stringify(outcome)}`)
	return outcome.id
}

async function client(user: TestUser, name: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ id: string }>`insert into public.clients (organization_id, name) values (${user.orgId}, ${name}) returning id`.execute(trx),
	)
	return rows[0]!.id
}

type Pay = { amount: number; method?: string; memo?: string; clientId?: string | null; payer?: string | null; source?: string | null }

/** Payments inserted in one statement, as the table or an import would (the rules run as the statement ends). */
async function pay(user: TestUser, payments: Pay[]) {
	return asSystem(async (trx) => {
		const ids: string[] = []
		const values = payments.map(
			(p) =>
				sql`(${user.orgId}::uuid, ${p.amount}::numeric, ${p.method ?? 'Zelle'}::public.payment_method, ${p.memo ?? null},
					${p.clientId ?? null}::uuid, ${p.payer ?? null}, ${p.source ?? null}, '2030-03-02'::date)`,
		)
		const { rows } = await sql<{ id: string }>`insert into public.transactions
			(organization_id, amount, payment_method, description, client_id, raw_payer, import_source, date_received)
			values ${sql.join(values)} returning id`.execute(trx)
		ids.push(...rows.map((r) => r.id))
		return ids
	})
}

async function payment(id: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ category: string; client_id: string | null; tags: string[]; held_for_review: boolean }>`
			select category::text, client_id, tags, held_for_review from public.transactions where id = ${id}`.execute(trx),
	)
	return rows[0]!
}

async function runsOf(user: TestUser) {
	const { rows } = await asSystem((trx) =>
		sql<{ rule_name: string; transaction_id: string; actions: Record<string, unknown> }>`
			select rule_name, transaction_id, actions from public.rule_runs where organization_id = ${user.orgId} order by id`.execute(trx),
	)
	return rows
}

describe('conditions', () => {
	test('each condition picks only the payments that meet it', async () => {
		const user = await owner()
		const ana = await client(user, 'Ana Silva')
		await rule(user, { name: 'Payer', payer: 'ANA  silva', addTag: 'payer' })
		await rule(user, { name: 'Range', amountMin: '10', amountMax: '20', addTag: 'range' })
		await rule(user, { name: 'Method', paymentMethod: 'Venmo', addTag: 'method' })
		await rule(user, { name: 'Memo', memoContains: 'Yoga', addTag: 'memo' })
		await rule(user, { name: 'Source', source: 'csv', addTag: 'csv' })
		await rule(user, { name: 'Email', source: 'email', addTag: 'email' })
		const [byPayer, byClient, inRange, venmo, memo, csv, email, none] = await pay(user, [
			{ amount: 100, payer: 'Ána Silva', source: 'chase' },
			{ amount: 101, clientId: ana },
			{ amount: 15 },
			{ amount: 50, method: 'Venmo' },
			{ amount: 60, memo: 'Monday yoga class' },
			{ amount: 70, source: 'generic', payer: 'Bruno' },
			{ amount: 80, source: 'email', payer: 'Carla' },
			{ amount: 90, payer: 'Dana' },
		])
		expect((await payment(byPayer!)).tags).toEqual(['payer', 'csv'])
		expect((await payment(byClient!)).tags).toEqual(['payer'])
		expect((await payment(inRange!)).tags).toEqual(['range'])
		expect((await payment(venmo!)).tags).toEqual(['method'])
		expect((await payment(memo!)).tags).toEqual(['memo'])
		expect((await payment(csv!)).tags).toEqual(['csv'])
		expect((await payment(email!)).tags).toEqual(['email'])
		expect((await payment(none!)).tags).toEqual([])
		// A rule with several conditions needs them all.
		await rule(user, { name: 'Both', paymentMethod: 'PayPal', amountMin: '5', addTag: 'both' })
		const [both, onlyOne] = await pay(user, [
			{ amount: 6, method: 'PayPal' },
			{ amount: 4, method: 'PayPal' },
		])
		expect((await payment(both!)).tags).toContain('both')
		expect((await payment(onlyOne!)).tags).not.toContain('both')
	})

	test('"would match N" counts the past payments that meet the conditions, as the form has them', async () => {
		const user = await owner()
		await pay(user, [{ amount: 12 }, { amount: 18, method: 'Venmo' }, { amount: 40 }, { amount: 0 }])
		expect(await countMatches(user.userId, user.orgId, { ...none(), amountMin: '10', amountMax: '20' })).toBe(2)
		expect(await previewRule(user.userId, user.orgId, { ...BLANK_RULE, paymentMethod: 'Venmo' })).toEqual({ kind: 'preview', count: 1 })
		expect(await previewRule(user.userId, user.orgId, { ...BLANK_RULE })).toEqual({ kind: 'errors', errors: { form: 'noCondition' } })
		expect(await previewRule(user.userId, user.orgId, { ...BLANK_RULE, amountMin: '30', amountMax: '20' })).toMatchObject({
			kind: 'errors',
			errors: { amountMax: 'amountRange' },
		})
		// Another organization's payments are not counted: its member is refused.
		const other = await owner()
		expect(await refusal(countMatches(other.userId, user.orgId, { ...none(), amountMin: '1' }))).toBe('not_member')
	})
})

function none() {
	return { payer: null, amountMin: null, amountMax: null, paymentMethod: null, memoContains: null, source: null }
}

describe('actions', () => {
	test('set category, set client, add a tag, hold for review, notify a member; each run in the history', async () => {
		const user = await owner()
		const teammate = await createUser('Teammate')
		await addMember(user.orgId, teammate.userId, 'member')
		const ana = await client(user, 'Ana Silva')
		await rule(user, {
			name: 'Ana pays',
			payer: 'ana silva',
			setCategory: 'pending',
			setClientId: ana,
			addTag: 'yoga',
			hold: 'on',
			notifyUserId: teammate.userId,
		})
		const [id] = await pay(user, [{ amount: 30, payer: 'Ana Silva', source: 'venmo' }])
		expect(await payment(id!)).toEqual({ category: 'pending', client_id: ana, tags: ['yoga'], held_for_review: true })
		expect(await runsOf(user)).toEqual([
			{
				rule_name: 'Ana pays',
				transaction_id: id,
				actions: { category: 'pending', client_id: ana, tag: 'yoga', hold: true, notify: true },
			},
		])
		const { rules, limits } = await listRules(user.userId, user.orgId)
		const runs = await listRuns(user.userId, user.orgId, limits.historyDays)
		expect(runs.map((r) => [r.ruleName, r.clientName, r.amount, r.held])).toEqual([['Ana pays', 'Ana Silva', '30.00', true]])
		expect(rules[0]).toMatchObject({ clientName: 'Ana Silva', notifyName: 'Teammate', hold: true })
		expect(limits.runsThisMonth).toBe(1)
		// The member clears the hold; another organization's member cannot.
		const stranger = await owner()
		expect(await clearHold(stranger.userId, stranger.orgId, id!)).toBe(false)
		expect(await clearHold(teammate.userId, user.orgId, id!)).toBe(true)
		expect((await payment(id!)).held_for_review).toBe(false)
		// The notice is claimed once, for the teammate.
		const first = await claimRuleNotices(10)
		expect(first.filter((n) => n.organizationId === user.orgId).map((n) => n.email)).toEqual([teammate.email])
		expect((await claimRuleNotices(10)).filter((n) => n.organizationId === user.orgId)).toEqual([])
	})

	test('a rule does not take a client from a payment that has one (the engine and payer matching come first)', async () => {
		const user = await owner()
		const ana = await client(user, 'Ana Silva')
		const bruno = await client(user, 'Bruno Costa')
		await rule(user, { name: 'To Bruno', amountMin: '1', setClientId: bruno, setCategory: 'matched' })
		const [withClient, without] = await pay(user, [{ amount: 10, clientId: ana }, { amount: 11 }])
		expect(await payment(withClient!)).toMatchObject({ client_id: ana, category: 'matched' })
		expect(await payment(without!)).toMatchObject({ client_id: bruno, category: 'matched' })
		const runs = await runsOf(user)
		expect(runs.find((r) => r.transaction_id === withClient)!.actions).toEqual({ category: 'matched' })
	})

	test('the engine matches first: a memo code pays its expectation and gives the client before the rules run', async () => {
		const user = await owner()
		const ana = await client(user, 'Ana Silva')
		const bruno = await client(user, 'Bruno Costa')
		await asSystem((trx) =>
			sql`insert into public.payment_expectations (organization_id, kind, client_id, amount_due, memo_code)
				values (${user.orgId}, 'balance', ${ana}, 25, 'K7QM4P')`.execute(trx),
		)
		await rule(user, { name: 'Fallback', memoContains: 'hold', setClientId: bruno })
		const [id] = await pay(user, [{ amount: 25, memo: 'hold k7qm4p' }])
		expect((await payment(id!)).client_id).toBe(ana)
	})
})

describe('order', () => {
	test('rules run in their order: a later rule overrides an earlier category; moves and disabling follow', async () => {
		const user = await owner()
		const first = await rule(user, { name: 'First', amountMin: '1', setCategory: 'pending', addTag: 'a' })
		const second = await rule(user, { name: 'Second', amountMin: '1', setCategory: 'review', addTag: 'b' })
		const [one] = await pay(user, [{ amount: 5 }])
		expect(await payment(one!)).toMatchObject({ category: 'review', tags: ['a', 'b'] })
		expect(await moveRule(user.userId, user.orgId, second, 'up')).toBe(true)
		expect((await listRules(user.userId, user.orgId)).rules.map((r) => r.name)).toEqual(['Second', 'First'])
		const [two] = await pay(user, [{ amount: 5 }])
		expect(await payment(two!)).toMatchObject({ category: 'pending', tags: ['b', 'a'] })
		expect(await setRuleEnabled(user.userId, user.orgId, first, false)).toBe(true)
		const [three] = await pay(user, [{ amount: 5 }])
		expect(await payment(three!)).toMatchObject({ category: 'review', tags: ['b'] })
		expect((await runsOf(user)).map((r) => r.rule_name)).toEqual(['First', 'Second', 'Second', 'First', 'Second'])
	})

	test('a CSV import is sorted by the rules, in the statement that brings it in', async () => {
		const user = await owner()
		const ana = await client(user, 'Studio Client')
		await rule(user, { name: 'Yoga', memoContains: 'yoga', source: 'csv', setClientId: ana, setCategory: 'matched' })
		const file = [
			'Account Statement - (@studio-owner) ,,,,,,,,,,,,,,,,,,,,,',
			'Account Activity,,,,,,,,,,,,,,,,,,,,,',
			',ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (tip),Amount (tax),Amount (fee),Tax Rate,Tax Exempt,Funding Source,Destination,Beginning Balance,Ending Balance,Statement Period Venmo Fees,Terminal Location,Year to Date Venmo Fees,Disclaimer',
			',3921234567890199456,2030-03-01T14:22:05,Payment,Complete,Yoga class,Zed Newcomer,Studio Owner,+ $40.00,,0,,0,,,Venmo balance,,,,Venmo,,',
			',3921234567890199457,2030-03-01T15:22:05,Payment,Complete,Rent share,Yan Other,Studio Owner,+ $41.00,,0,,0,,,Venmo balance,,,,Venmo,,',
			'',
		].join('\n')
		const result = await importPayments({ organizationId: user.orgId, userId: user.userId, file, label: 'venmo.csv', mode: 'preview' })
		if (!result.ok || result.status !== 'staged') throw new Error(`not staged: ${JSON.stringify(result)}`)
		expect((await commitImport(user.userId, result.batch.batchId)).ok).toBe(true)
		const { rows } = await asSystem((trx) =>
			sql<{ amount: string; client_id: string | null; category: string }>`
				select amount::text, client_id, category::text from public.transactions where organization_id = ${user.orgId} order by amount`.execute(trx),
		)
		expect(rows[0]).toEqual({ amount: '40.00', client_id: ana, category: 'matched' })
		expect(rows[1]!.client_id).toBeNull()
		expect((await runsOf(user)).map((r) => r.rule_name)).toEqual(['Yoga'])
	})
})

describe('limits and the module', () => {
	test('ten rules without Automation Unlimited; runs stop at the month limit; the upgrade lifts both', async () => {
		const user = await owner()
		for (let i = 0; i < 10; i++) await rule(user, { name: `Rule ${i}`, amountMin: '1000', addTag: `t${i}` })
		expect(await createRule(user.userId, user.orgId, { ...BLANK_RULE, name: 'Eleventh', amountMin: '1', addTag: 'x' })).toEqual({
			kind: 'errors',
			errors: { form: 'rule_limit' },
		})
		for (const r of (await listRules(user.userId, user.orgId)).rules.slice(1)) await deleteRule(user.userId, user.orgId, r.id)
		await rule(user, { name: 'Every payment', amountMin: '1', addTag: 'seen' })
		// 499 runs used this month: two new payments, one run left.
		await asSystem((trx) =>
			sql`insert into public.rule_runs (organization_id, rule_name, actions)
				select ${user.orgId}, 'Earlier', '{}' from generate_series(1, 499)`.execute(trx),
		)
		const [a, b] = await pay(user, [{ amount: 5 }, { amount: 6 }])
		expect([(await payment(a!)).tags, (await payment(b!)).tags].flat()).toEqual(['seen'])
		expect((await listRules(user.userId, user.orgId)).limits).toMatchObject({ maxRunsPerMonth: 500, runsThisMonth: 500, historyDays: 90 })
		// Automation Unlimited: no limits, a year of history.
		await asSystem((trx) =>
			sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
				select ${user.orgId}, m.id, ${MODULES.automation.upgrades.unlimited.id} from public.organization_modules m
				where m.organization_id = ${user.orgId} and m.module_id = ${MODULES.automation.id}`.execute(trx),
		)
		const [c] = await pay(user, [{ amount: 7 }])
		expect((await payment(c!)).tags).toEqual(['seen'])
		for (let i = 0; i < 10; i++) await rule(user, { name: `More ${i}`, amountMin: '1000', addTag: 'm' })
		expect((await listRules(user.userId, user.orgId)).limits).toMatchObject({ unlimited: true, maxRules: null, historyDays: 365 })
	})

	test('without the module no rule is written and none runs', async () => {
		const user = await owner({ module: false })
		expect(await createRule(user.userId, user.orgId, { ...BLANK_RULE, name: 'R', amountMin: '1', addTag: 'x' })).toEqual({
			kind: 'errors',
			errors: { form: 'module_inactive' },
		})
		await activate(user.orgId)
		await rule(user, { name: 'R', amountMin: '1', addTag: 'x' })
		await asSystem((trx) =>
			sql`delete from public.organization_modules where organization_id = ${user.orgId} and module_id = ${MODULES.automation.id}`.execute(
				trx,
			),
		)
		const [id] = await pay(user, [{ amount: 5 }])
		expect((await payment(id!)).tags).toEqual([])
		expect(await runsOf(user)).toEqual([])
	})

	test('bad input changes nothing and says what is wrong', async () => {
		const user = await owner()
		const form = (values: Partial<RuleFormText>) => createRule(user.userId, user.orgId, { ...BLANK_RULE, name: 'R', ...values })
		expect(await form({ amountMin: '1' })).toEqual({ kind: 'errors', errors: { form: 'noAction' } })
		expect(await form({ addTag: 'x' })).toEqual({ kind: 'errors', errors: { form: 'noCondition' } })
		expect(await form({ amountMin: 'abc', addTag: 'x' })).toMatchObject({ errors: { amountMin: 'amountInvalid' } })
		expect(await form({ amountMin: '1', paymentMethod: 'Bitcoin', addTag: 'x' })).toMatchObject({ errors: { paymentMethod: 'invalid' } })
		expect(await form({ amountMin: '1', addTag: 'a,b' })).toMatchObject({ errors: { addTag: 'tagComma' } })
		expect(await form({ name: '', amountMin: '1', addTag: 'x' })).toMatchObject({ errors: { name: 'required' } })
		const other = await owner()
		const theirs = await client(other, 'Not yours')
		expect(await form({ amountMin: '1', setClientId: theirs })).toEqual({ kind: 'errors', errors: { setClientId: 'invalid' } })
		expect(await form({ amountMin: '1', notifyUserId: other.userId })).toEqual({ kind: 'errors', errors: { form: 'recipient_not_member' } })
		expect((await listRules(user.userId, user.orgId)).rules).toEqual([])
	})
})

describe('learned aliases', () => {
	test('a payment the review queue assigned is offered as a rule, only with the module and only to its organization', async () => {
		const user = await owner()
		const ana = await client(user, 'Ana Silva')
		const [id] = await pay(user, [{ amount: 9, payer: 'ANA S', clientId: ana, source: 'venmo' }])
		expect(await ruleOfferFor(user.userId, user.orgId, id!)).toEqual({ payer: 'ANA S', clientId: ana, clientName: 'Ana Silva' })
		const other = await owner()
		expect(await ruleOfferFor(other.userId, other.orgId, id!)).toBeNull()
		expect(await ruleOfferFor(user.userId, user.orgId, 'not-an-id')).toBeNull()
		const without = await owner({ module: false })
		const bruno = await client(without, 'Bruno')
		const [theirs] = await pay(without, [{ amount: 9, payer: 'Bruno', clientId: bruno }])
		expect(await ruleOfferFor(without.userId, without.orgId, theirs!)).toBeNull()
	})
})

describe('row-level security', () => {
	test('another organization neither reads nor writes the rules and their history; a plain member only reads', async () => {
		const user = await owner()
		const id = await rule(user, { name: 'Mine', amountMin: '1', addTag: 'x' })
		await pay(user, [{ amount: 3 }])
		const other = await owner()
		const seen = await asUser(other.userId, async (trx) => {
			const r = await sql`select id from public.rules where id = ${id}`.execute(trx)
			const h = await sql`select id from public.rule_runs where organization_id = ${user.orgId}`.execute(trx)
			return [r.rows.length, h.rows.length]
		})
		expect(seen).toEqual([0, 0])
		expect(await deleteRule(other.userId, user.orgId, id)).toBe(false)
		expect(await setRuleEnabled(other.userId, user.orgId, id, false)).toBe(false)
		expect(
			await refusal(
				asUser(other.userId, (trx) =>
					sql`insert into public.rules (organization_id, name, amount_min, add_tag)
			values (${user.orgId}, 'Theirs', 1, 'x')`.execute(trx),
				),
			),
		).toBe('42501')
		expect(
			await refusal(
				asUser(user.userId, (trx) =>
					sql`insert into public.rule_runs (organization_id, rule_name) values (${user.orgId}, 'Forged')`.execute(trx),
				),
			),
		).toBe('42501')
		const member = await createUser('Plain member')
		await addMember(user.orgId, member.userId, 'member')
		expect((await listRules(member.userId, user.orgId)).rules.map((r) => r.name)).toEqual(['Mine'])
		expect(await deleteRule(member.userId, user.orgId, id)).toBe(false)
		expect((await listRules(user.userId, user.orgId)).rules).toHaveLength(1)
	})
})
