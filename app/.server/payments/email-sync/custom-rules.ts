/**
 * Custom parsing rules, the screen's and the sync's side (docs/product.md, Email sync › Custom
 * parsing rules; docs/decisions/052-custom-parsing-rules.md). Owners and administrators list,
 * test, save and delete the rules while the organization owns Email Pro; the database checks the
 * same again (RLS, `upgrade_inactive`, `parsing_rule_limit`). The sync asks `customRulesFor` for a
 * reader over the rules (parsers/custom.ts), which parseNotice gives the notices of senders no
 * built-in parser knows. After an email import is committed, `applyDefaultCategories` gives the
 * payments a rule read the rule's default category where the matching engine left them unmatched.
 */
import { dateIn } from '#app/lib/dates.ts'
import { MODULES } from '#app/lib/modules.ts'
import {
	parseParsingRule,
	parseSample,
	type ParsingRuleErrors,
	type ParsingRuleFormText,
	type ParsingRuleSample,
	type ParsingRuleValues,
} from '#app/lib/schemas/parsing-rules.ts'
import type { PaymentMethod, TransactionCategory } from '#app/lib/schemas/transactions.ts'
import { asSystem, asUser, dbErrorCode, sql } from '../../db/index.ts'
import { logError } from '../../log.ts'
import type { CommittedBatch } from '../imports/pipeline.ts'
import { htmlToText, readNotice, type Notice } from './notice.ts'
import {
	customReader,
	readWithRule,
	ruleProvider,
	senderMatches,
	subjectMatches,
	type ParsingRule,
	type RuleField,
} from './parsers/custom.ts'
import { parserFor } from './parsers/index.ts'

export const EMAIL_PRO_UPGRADE_ID = MODULES.p2p.upgrades.emailPro.id

type RuleRow = {
	id: string
	name: string
	sender: string
	subject_contains: string | null
	amount_label: string
	payer_label: string
	id_label: string | null
	payment_method: PaymentMethod
	default_category: TransactionCategory | null
}

const toRule = (r: RuleRow): ParsingRule => ({
	id: r.id,
	name: r.name,
	sender: r.sender,
	subjectContains: r.subject_contains,
	amountLabel: r.amount_label,
	payerLabel: r.payer_label,
	idLabel: r.id_label,
	paymentMethod: r.payment_method,
	defaultCategory: r.default_category,
})

const RULE_COLUMNS = sql`id, name, sender, subject_contains, amount_label, payer_label, id_label, payment_method, default_category`

/** The screen's data, read as the member: whether the organization owns Email Pro, and its rules (oldest first). */
export async function listParsingRules(userId: string, organizationId: string): Promise<{ owned: boolean; rules: ParsingRule[] }> {
	return asUser(userId, async (trx) => {
		const owned = await sql<{ owned: boolean }>`
			select exists (select 1 from public.organization_module_upgrades
				where organization_id = ${organizationId} and upgrade_id = ${EMAIL_PRO_UPGRADE_ID}) as owned`.execute(trx)
		const rules = await sql<RuleRow>`select ${RULE_COLUMNS} from public.email_parsing_rules
			where organization_id = ${organizationId} order by created_at, id`.execute(trx)
		return { owned: owned.rows[0]?.owned ?? false, rules: rules.rows.map(toRule) }
	})
}

/** A rule as its form shows it (for editing). */
export function ruleFormText(rule: ParsingRule): ParsingRuleFormText {
	return {
		name: rule.name,
		sender: rule.sender,
		subjectContains: rule.subjectContains ?? '',
		amountLabel: rule.amountLabel,
		payerLabel: rule.payerLabel,
		idLabel: rule.idLabel ?? '',
		paymentMethod: rule.paymentMethod,
		defaultCategory: rule.defaultCategory ?? '',
		sampleFrom: '',
		sampleSubject: '',
		sample: '',
	}
}

/** What a rule read in a pasted sample, as the screen shows it. */
export type SampleReading = {
	amount: string | null
	payer: string | null
	externalId: string | null
	/** The day the payment would be dated: the sample's Date header, else today (the organization's day). */
	date: string
	missing: RuleField[]
	/** null: the sample gave no sender (or no subject) to compare. */
	senderMatches: boolean | null
	subjectMatches: boolean | null
}

/** A raw message pasted whole (its headers, a blank line, the body): read as the sync reads mail. */
function looksRaw(body: string) {
	const head = body.slice(0, 20_000).replace(/^\s+/, '')
	const end = head.search(/\r?\n\r?\n/)
	if (end < 0) return false
	const headers = head.slice(0, end)
	return /^[A-Za-z][\w-]*:/.test(headers) && /^(from|subject|date|received|return-path|mime-version):/im.test(headers)
}

/** The sample as a notice: a raw message parsed as mail, an HTML body read as text, or plain text as it is. */
export async function sampleNotice(sample: ParsingRuleSample): Promise<Notice> {
	if (looksRaw(sample.body)) {
		try {
			const notice = await readNotice(sample.body)
			return { ...notice, from: sample.from || notice.from, subject: sample.subject || notice.subject }
		} catch {
			// Not mail after all: read as text below.
		}
	}
	const body = sample.body.replace(/\r\n?/g, '\n')
	const text = /<(html|body|table|div|p|br|td)\b/i.test(body) ? htmlToText(body) : body
	return { from: sample.from, fromName: '', subject: sample.subject, date: null, text, messageId: null, authResults: null }
}

/** Reads a sample with the rule's values, before anything is saved. */
export async function testOnSample(values: ParsingRuleValues, sample: ParsingRuleSample, timeZone: string): Promise<SampleReading> {
	const notice = await sampleNotice(sample)
	const reading = readWithRule(values, notice.text)
	return {
		amount: reading.amount,
		payer: reading.payer,
		externalId: reading.externalId,
		date: dateIn(timeZone, notice.date ?? new Date()),
		missing: reading.ok ? [] : reading.missing,
		senderMatches: notice.from ? senderMatches(values, notice.from) : null,
		subjectMatches: notice.subject ? subjectMatches(values, notice.subject) : null,
	}
}

/** The fields a reading names as not found, as the form's errors. */
function readingErrors(reading: SampleReading): ParsingRuleErrors {
	const errors: ParsingRuleErrors = {}
	if (reading.missing.includes('amount')) errors.amountLabel = 'amountNotFound'
	if (reading.missing.includes('payer')) errors.payerLabel = 'payerNotFound'
	if (reading.missing.includes('id')) errors.idLabel = 'idNotFound'
	if (reading.senderMatches === false) errors.sender = 'sampleSenderMismatch'
	if (reading.subjectMatches === false) errors.subjectContains = 'sampleSubjectMismatch'
	return errors
}

export type ParsingRuleOutcome =
	| { kind: 'errors'; errors: ParsingRuleErrors; reading: SampleReading | null }
	| { kind: 'tested'; reading: SampleReading }
	| { kind: 'saved'; id: string }

/**
 * "Test on a sample" (`save` false) or "Save" (`save` true) as the member: the form's values are
 * checked, a sender the app reads itself is refused (built-in parsers always win), the sample (if
 * any) is read; a save whose sample cannot be read is refused with the field named. `ruleId`:
 * the rule being edited, null for a new one.
 */
export async function submitParsingRule(
	userId: string,
	organizationId: string,
	ruleId: string | null,
	text: ParsingRuleFormText,
	options: { save: boolean; timeZone: string },
): Promise<ParsingRuleOutcome> {
	const parsed = parseParsingRule(text)
	const sample = parseSample(text)
	const errors: ParsingRuleErrors = { ...(parsed.ok ? {} : parsed.errors), ...(sample.ok ? {} : sample.errors) }
	if (parsed.ok && parserFor(parsed.values.sender.startsWith('@') ? `x${parsed.values.sender}` : parsed.values.sender)) {
		errors.sender = 'senderKnown'
	}
	if (!parsed.ok || !sample.ok || Object.keys(errors).length > 0) return { kind: 'errors', errors, reading: null }
	if (!options.save && !sample.sample) return { kind: 'errors', errors: { sample: 'sampleRequired' }, reading: null }
	const reading = sample.sample ? await testOnSample(parsed.values, sample.sample, options.timeZone) : null
	if (!options.save) return { kind: 'tested', reading: reading! }
	if (reading) {
		const refused = readingErrors(reading)
		if (Object.keys(refused).length > 0) return { kind: 'errors', errors: refused, reading }
	}
	const v = parsed.values
	try {
		const id = await asUser(userId, async (trx) => {
			if (ruleId) {
				const { rows } = await sql<{ id: string }>`update public.email_parsing_rules set name = ${v.name}, sender = ${v.sender},
					subject_contains = ${v.subjectContains}, amount_label = ${v.amountLabel}, payer_label = ${v.payerLabel},
					id_label = ${v.idLabel}, payment_method = ${v.paymentMethod}, default_category = ${v.defaultCategory}
					where id = ${ruleId} and organization_id = ${organizationId} returning id`.execute(trx)
				return rows[0]?.id ?? null
			}
			const { rows } = await sql<{ id: string }>`insert into public.email_parsing_rules
				(organization_id, name, sender, subject_contains, amount_label, payer_label, id_label, payment_method, default_category)
				values (${organizationId}, ${v.name}, ${v.sender}, ${v.subjectContains}, ${v.amountLabel}, ${v.payerLabel}, ${v.idLabel},
					${v.paymentMethod}, ${v.defaultCategory}) returning id`.execute(trx)
			return rows[0]!.id
		})
		if (!id) return { kind: 'errors', errors: { form: 'notFound' }, reading }
		return { kind: 'saved', id }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'parsing_rule_limit') return { kind: 'errors', errors: { form: 'ruleLimit' }, reading }
		if (code === 'upgrade_inactive') return { kind: 'errors', errors: { form: 'upgradeInactive' }, reading }
		// RLS: not an owner or administrator of the organization.
		if (code === '42501') return { kind: 'errors', errors: { form: 'forbidden' }, reading }
		throw error
	}
}

/** Removes a rule as the member; false when there is none of the organization's. */
export async function deleteParsingRule(userId: string, organizationId: string, ruleId: string): Promise<boolean> {
	const { rows } = await asUser(userId, (trx) =>
		sql<{ id: string }>`delete from public.email_parsing_rules where id = ${ruleId} and organization_id = ${organizationId}
			returning id`.execute(trx),
	)
	return rows.length > 0
}

/** The organization's rules for the sync (read as the system), while it owns Email Pro; else none. */
export async function syncRules(organizationId: string): Promise<ParsingRule[]> {
	const { rows } = await asSystem((trx) =>
		sql<RuleRow>`select ${RULE_COLUMNS} from public.email_parsing_rules r
			where r.organization_id = ${organizationId}
				and exists (select 1 from public.organization_module_upgrades u
					where u.organization_id = r.organization_id and u.upgrade_id = ${EMAIL_PRO_UPGRADE_ID})
			order by r.created_at, r.id`.execute(trx),
	)
	return rows.map(toRule)
}

/**
 * The sync's hook (sync.ts): a reader over the organization's rules for parseNotice's `custom`
 * option, counting the notices it reads; undefined when it has none (or no Email Pro).
 */
export async function customRulesFor(organizationId: string) {
	const rules = await syncRules(organizationId)
	return rules.length > 0 ? customReader(rules) : undefined
}

/**
 * After an email import is committed (the pipeline's listener, registered at start-up): the
 * payments a rule with a default category read, left unmatched by the matching engine, take
 * that category. Their import keys start with the rule's provider (`id:<provider>:` with an id,
 * `m:<provider>:` without).
 */
export async function applyDefaultCategories(batch: Pick<CommittedBatch, 'batchId' | 'organizationId' | 'source'>) {
	if (batch.source !== 'email') return
	const rules = (await syncRules(batch.organizationId)).filter((r) => r.defaultCategory)
	if (rules.length === 0) return
	// One category per sender (the oldest rule's), as one sender's rules share a provider.
	const byProvider = new Map<string, TransactionCategory>()
	for (const rule of rules) if (!byProvider.has(ruleProvider(rule))) byProvider.set(ruleProvider(rule), rule.defaultCategory!)
	try {
		await asSystem(async (trx) => {
			for (const [provider, category] of byProvider) {
				await sql`update public.transactions set category = ${category}
					where organization_id = ${batch.organizationId} and import_batch_id = ${batch.batchId} and category = 'unmatched'
						and (starts_with(import_key, ${`id:${provider}:`}) or starts_with(import_key, ${`m:${provider}:`}))`.execute(trx)
			}
		})
	} catch (error) {
		logError(error, { where: 'parsing rules default category', batchId: batch.batchId })
	}
}
