/**
 * Rules (docs/product.md, Rules; docs/decisions/047-rules.md): the module's access, the
 * organization's rules in their order, what the plan allows, the "would match" preview, the run
 * history, and the writes of owners and administrators. Every read and write runs as the member,
 * under row-level security (supabase/migrations/20261209000000_rules.sql); the rules themselves
 * run in SQL, on every insert of a payment.
 */
import type { RouterContextProvider } from 'react-router'
import { errorResponse } from '#app/lib/errors.ts'
import { MODULES } from '#app/lib/modules.ts'
import { hasRole, MEMBER_MANAGERS, type Role } from '#app/lib/roles.ts'
import { parseRule, parseRuleConditions, type RuleConditions, type RuleFormText, type RuleSource } from '#app/lib/schemas/rules.ts'
import type { PaymentMethod, TransactionCategory } from '#app/lib/schemas/transactions.ts'
import { isUuid } from '#app/lib/uuid.ts'
import { requireMember } from '../auth/session.ts'
import { asUser, dbErrorCode, sql } from '../db/index.ts'
import { mayUseModule } from '../marketplace/modules.ts'

export const RULES_MODULE_ID = MODULES.automation.id

/** The member of a rules screen: 403 when the module is configured for a higher role; `active` false when it is not activated. */
export async function rulesMember(context: Readonly<RouterContextProvider>) {
	const member = requireMember(context)
	const row = await asUser(member.user.userId, (trx) =>
		trx
			.selectFrom('organization_modules')
			.select('default_visibility')
			.where('organization_id', '=', member.organization.id)
			.where('module_id', '=', RULES_MODULE_ID)
			.executeTakeFirst(),
	)
	if (row && !mayUseModule(row.default_visibility, member.organization.role)) errorResponse(403, 'forbidden')
	return { ...member, active: row !== undefined, canManage: mayManageRules(member.organization.role) }
}

/** For an action: the member, when the module is usable; else a 403, nothing done. */
export async function requireRules(context: Readonly<RouterContextProvider>) {
	const member = await rulesMember(context)
	if (!member.active) errorResponse(403, 'forbidden')
	return member
}

/** Owners and administrators write rules (the table's policies); other members read them. */
export function mayManageRules(role: Role) {
	return hasRole(role, MEMBER_MANAGERS)
}

export type Rule = RuleConditions & {
	id: string
	name: string
	enabled: boolean
	setCategory: TransactionCategory | null
	setClientId: string | null
	clientName: string | null
	addTag: string | null
	notifyUserId: string | null
	notifyName: string | null
	hold: boolean
}

export type RuleLimits = {
	unlimited: boolean
	maxRules: number | null
	maxRunsPerMonth: number | null
	historyDays: number
	runsThisMonth: number
}

type RuleRow = {
	id: string
	name: string
	enabled: boolean
	payer: string | null
	amount_min: string | null
	amount_max: string | null
	payment_method: PaymentMethod | null
	memo_contains: string | null
	source: RuleSource | null
	set_category: TransactionCategory | null
	set_client_id: string | null
	client_name: string | null
	add_tag: string | null
	notify_user_id: string | null
	notify_name: string | null
	hold_for_review: boolean
}

/** The organization's rules, in the order they run, with what the plan allows and this month's runs. */
export async function listRules(userId: string, organizationId: string): Promise<{ rules: Rule[]; limits: RuleLimits }> {
	return asUser(userId, async (trx) => {
		const { rows } = await sql<RuleRow>`
			select r.id, r.name, r.enabled, r.payer, r.amount_min::text, r.amount_max::text, r.payment_method, r.memo_contains,
				r.source, r.set_category, r.set_client_id, c.name as client_name, r.add_tag, r.notify_user_id,
				coalesce(nullif(p.full_name, ''), p.email) as notify_name, r.hold_for_review
			from public.rules r
			left join public.clients c on c.id = r.set_client_id
			left join public.profiles p on p.user_id = r.notify_user_id
			where r.organization_id = ${organizationId}
			order by r.position, r.created_at, r.id`.execute(trx)
		const limits = await sql<{ unlimited: boolean; history_days: number; runs: number }>`
			select private_owns as unlimited, case when private_owns then 365 else 90 end as history_days,
				(select count(*)::int from public.rule_runs rr where rr.organization_id = ${organizationId}
					and rr.ran_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC') as runs
			from (select exists (select 1 from public.organization_module_upgrades u
				where u.organization_id = ${organizationId} and u.upgrade_id = ${MODULES.automation.upgrades.unlimited.id}) as private_owns) x`.execute(trx)
		const l = limits.rows[0]!
		return {
			rules: rows.map((r) => ({
				id: r.id,
				name: r.name,
				enabled: r.enabled,
				payer: r.payer,
				amountMin: r.amount_min,
				amountMax: r.amount_max,
				paymentMethod: r.payment_method,
				memoContains: r.memo_contains,
				source: r.source,
				setCategory: r.set_category,
				setClientId: r.set_client_id,
				clientName: r.client_name,
				addTag: r.add_tag,
				notifyUserId: r.notify_user_id,
				notifyName: r.notify_name,
				hold: r.hold_for_review,
			})),
			limits: {
				unlimited: l.unlimited,
				maxRules: l.unlimited ? null : MAX_RULES,
				maxRunsPerMonth: l.unlimited ? null : MAX_RUNS_PER_MONTH,
				historyDays: l.history_days,
				runsThisMonth: l.runs,
			},
		}
	})
}

/** The figures of private.rule_limits without Automation Unlimited. */
export const MAX_RULES = 10
export const MAX_RUNS_PER_MONTH = 500

/** What the form's selects offer: the organization's clients and members. */
export async function ruleChoices(userId: string, organizationId: string) {
	return asUser(userId, async (trx) => {
		const clients = await sql<{ id: string; name: string }>`
			select id, name from public.clients where organization_id = ${organizationId} order by lower(name), id limit 500`.execute(trx)
		const members = await sql<{ id: string; name: string }>`
			select m.user_id as id, coalesce(nullif(p.full_name, ''), p.email) as name from public.organization_members m
			join public.profiles p on p.user_id = m.user_id where m.organization_id = ${organizationId} order by 2, 1`.execute(trx)
		return { clients: clients.rows, members: members.rows }
	})
}

export type RuleFormOutcome =
	{ kind: 'errors'; errors: Partial<Record<string, string>> } | { kind: 'preview'; count: number } | { kind: 'saved'; id: string }

const REFUSALS = new Set(['module_inactive', 'rule_limit', 'no_condition', 'no_action', 'recipient_not_member', 'bad_amount_range'])

/** The "would match" preview of the form's conditions: how many past payments meet them. */
export async function previewRule(userId: string, organizationId: string, text: RuleFormText): Promise<RuleFormOutcome> {
	const parsed = parseRuleConditions(text)
	if (!parsed.ok) return { kind: 'errors', errors: parsed.errors }
	return { kind: 'preview', count: await countMatches(userId, organizationId, parsed.value) }
}

/** How many of the organization's payments so far meet the conditions (public.count_rule_matches). */
export async function countMatches(userId: string, organizationId: string, c: RuleConditions) {
	const { rows } = await asUser(userId, (trx) =>
		sql<{ n: number }>`select public.count_rule_matches(${organizationId}, ${c.payer}, ${c.amountMin}::numeric, ${c.amountMax}::numeric,
			${c.paymentMethod}::public.payment_method, ${c.memoContains}, ${c.source}) as n`.execute(trx),
	)
	return rows[0]!.n
}

/** Saves a new rule from the form (last in the order): its errors, or its id. Refusals of the database come back as a form error. */
export async function createRule(userId: string, organizationId: string, text: RuleFormText): Promise<RuleFormOutcome> {
	const parsed = parseRule(text)
	if (!parsed.ok) return { kind: 'errors', errors: parsed.errors }
	const v = parsed.value
	try {
		const { rows } = await asUser(userId, (trx) =>
			sql<{ id: string }>`insert into public.rules (organization_id, name, payer, amount_min, amount_max, payment_method, memo_contains,
				source, set_category, set_client_id, add_tag, notify_user_id, hold_for_review)
				values (${organizationId}, ${v.name}, ${v.payer}, ${v.amountMin}::numeric, ${v.amountMax}::numeric,
					${v.paymentMethod}::public.payment_method, ${v.memoContains}, ${v.source}, ${v.setCategory}::public.transaction_category,
					${v.setClientId}::uuid, ${v.addTag}, ${v.notifyUserId}::uuid, ${v.hold})
				returning id`.execute(trx),
		)
		return { kind: 'saved', id: rows[0]!.id }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code && REFUSALS.has(code)) return { kind: 'errors', errors: { form: code } }
		// A client of another organization (the composite foreign key), or one deleted meanwhile.
		if (code === '23503') return { kind: 'errors', errors: { setClientId: 'invalid' } }
		throw error
	}
}

/** Deletes a rule of the organization; false when there is none (or the member may not). */
export async function deleteRule(userId: string, organizationId: string, ruleId: string) {
	if (!isUuid(ruleId)) return false
	const { rows } = await asUser(userId, (trx) =>
		sql<{ id: string }>`delete from public.rules where id = ${ruleId} and organization_id = ${organizationId} returning id`.execute(trx),
	)
	return rows.length > 0
}

/** Turns a rule on or off; false when there is none. */
export async function setRuleEnabled(userId: string, organizationId: string, ruleId: string, enabled: boolean) {
	if (!isUuid(ruleId)) return false
	const { rows } = await asUser(userId, (trx) =>
		sql<{ id: string }>`update public.rules set enabled = ${enabled} where id = ${ruleId} and organization_id = ${organizationId}
			returning id`.execute(trx),
	)
	return rows.length > 0
}

/** Moves a rule one place up or down (it swaps places with its neighbour); false when there is none. */
export async function moveRule(userId: string, organizationId: string, ruleId: string, direction: 'up' | 'down') {
	if (!isUuid(ruleId)) return false
	return asUser(userId, async (trx) => {
		const { rows } = await sql<{ id: string }>`
			select id from public.rules where organization_id = ${organizationId} order by position, created_at, id for update`.execute(trx)
		const ids = rows.map((r) => r.id)
		const at = ids.indexOf(ruleId)
		if (at < 0) return false
		const to = direction === 'up' ? at - 1 : at + 1
		if (to < 0 || to >= ids.length) return true
		;[ids[at], ids[to]] = [ids[to]!, ids[at]!]
		await sql`update public.rules r set position = o.ord - 1
			from unnest(${ids}::uuid[]) with ordinality as o(id, ord) where r.id = o.id`.execute(trx)
		return true
	})
}

export type RuleRun = {
	id: string
	ranAt: string
	ruleName: string
	ruleId: string | null
	transactionId: string | null
	amount: string | null
	payer: string | null
	dateReceived: string | null
	actions: { category?: TransactionCategory; client_id?: string; tag?: string; hold?: boolean; notify?: boolean }
	clientName: string | null
	held: boolean
}

export const RUN_PAGE_SIZE = 50

/** The run history, newest first, within the plan's days. */
export async function listRuns(userId: string, organizationId: string, historyDays: number): Promise<RuleRun[]> {
	const { rows } = await asUser(userId, (trx) =>
		sql<{
			id: string
			ran_at: Date
			rule_name: string
			rule_id: string | null
			transaction_id: string | null
			amount: string | null
			payer: string | null
			date_received: string | null
			actions: RuleRun['actions']
			client_name: string | null
			held: boolean | null
		}>`
			select rr.id::text, rr.ran_at, rr.rule_name, rr.rule_id, rr.transaction_id, t.amount::text, coalesce(t.raw_payer, tc.name) as payer,
				t.date_received::text, rr.actions, c.name as client_name, t.held_for_review as held
			from public.rule_runs rr
			left join public.transactions t on t.id = rr.transaction_id
			left join public.clients tc on tc.id = t.client_id
			left join public.clients c on c.id = (rr.actions ->> 'client_id')::uuid
			where rr.organization_id = ${organizationId} and rr.ran_at > now() - make_interval(days => ${historyDays})
			order by rr.ran_at desc, rr.id desc
			limit ${RUN_PAGE_SIZE}`.execute(trx),
	)
	return rows.map((r) => ({
		id: r.id,
		ranAt: new Date(r.ran_at).toISOString(),
		ruleName: r.rule_name,
		ruleId: r.rule_id,
		transactionId: r.transaction_id,
		amount: r.amount,
		payer: r.payer,
		dateReceived: r.date_received,
		actions: r.actions,
		clientName: r.client_name,
		held: r.held ?? false,
	}))
}

/** Clears a payment's hold for review; false when it is not the organization's. */
export async function clearHold(userId: string, organizationId: string, transactionId: string) {
	if (!isUuid(transactionId)) return false
	const { rows } = await asUser(userId, (trx) =>
		sql<{ id: string }>`update public.transactions set held_for_review = false
			where id = ${transactionId} and organization_id = ${organizationId} returning id`.execute(trx),
	)
	return rows.length > 0
}

/** Whether the organization has Workflow Automation active (the review queue offers a rule only then). */
export async function rulesActive(userId: string, organizationId: string) {
	const { rows } = await asUser(userId, (trx) =>
		sql<{ one: number }>`select 1 as one from public.organization_modules
			where organization_id = ${organizationId} and module_id = ${RULES_MODULE_ID}`.execute(trx),
	)
	return rows.length > 0
}

/**
 * A learned alias offered as a rule (docs/product.md, Rules): the payer name of a payment the
 * review queue has just assigned, and its client, when the module is active and the payment has both.
 */
export async function ruleOfferFor(userId: string, organizationId: string, transactionId: string | null) {
	if (!transactionId || !isUuid(transactionId) || !(await rulesActive(userId, organizationId))) return null
	const { rows } = await asUser(userId, (trx) =>
		sql<{ payer: string; client_id: string; client_name: string }>`
			select t.raw_payer as payer, t.client_id, c.name as client_name from public.transactions t
			join public.clients c on c.id = t.client_id
			where t.id = ${transactionId} and t.organization_id = ${organizationId} and t.raw_payer is not null`.execute(trx),
	)
	const row = rows[0]
	return row ? { payer: row.payer, clientId: row.client_id, clientName: row.client_name } : null
}
