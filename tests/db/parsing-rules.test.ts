/**
 * Email Pro's custom parsing rules (docs/product.md, Email sync › Custom parsing rules) in the
 * database and through the sync: who may write them, the limit of 20, the screen's save refusing
 * a rule that cannot read its own sample, and a notice of an unknown sender in a real IMAP
 * mailbox (dovecot, tests/support/imap-server.ts) read by a rule and imported like any notice.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { applyDefaultCategories, listParsingRules, submitParsingRule } from '#app/.server/payments/email-sync/custom-rules.ts'
import { connectImap } from '#app/.server/payments/email-sync/connections.ts'
import { syncMailbox } from '#app/.server/payments/email-sync/sync.ts'
import { onImportCommitted } from '#app/.server/payments/imports/pipeline.ts'
import { BLANK_PARSING_RULE, type ParsingRuleFormText } from '#app/lib/schemas/parsing-rules.ts'
import { startImapServer, type ImapServer } from '#tests/support/imap-server.ts'
import { addMember, CATALOGUE, createUser, refusal, type TestUser } from './fixtures.ts'

process.env.SECRETS_KEY ??= 'db-test-secrets-key-of-at-least-32-characters'
process.env.IMAP_ALLOW_PRIVATE_HOSTS ??= 'true'

const EMAIL_PRO = CATALOGUE.upgrades.emailPro

/** Gives the organization Email Pro (coming soon in the catalogue: given directly, as the lead will sell it). */
async function giveEmailPro(orgId: string) {
	await asSystem((trx) =>
		sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select om.organization_id, om.id, ${EMAIL_PRO} from public.organization_modules om
			where om.organization_id = ${orgId} and om.module_id = ${CATALOGUE.modules.p2p} on conflict do nothing`.execute(trx),
	)
}

const insertRule = (orgId: string, name: string) =>
	sql`insert into public.email_parsing_rules (organization_id, name, sender, amount_label, payer_label)
		values (${orgId}, ${name}, '@cu.example', 'Amount:', 'From:')`

const FORM: ParsingRuleFormText = {
	...BLANK_PARSING_RULE,
	name: 'Credit union',
	sender: '@cu.example',
	subjectContains: 'deposit',
	amountLabel: 'Amount:',
	payerLabel: 'From:',
	idLabel: 'Reference:',
	paymentMethod: 'Wire Transfer',
	defaultCategory: 'review',
}

describe('who may write rules, and how many', () => {
	let owner: TestUser
	beforeAll(async () => {
		owner = await createUser('Rules Owner')
	})

	test('without Email Pro nobody adds a rule (upgrade_inactive); with it, owners and administrators do, members and others do not', async () => {
		expect(await refusal(asUser(owner.userId, (trx) => insertRule(owner.orgId, 'Too early').execute(trx)))).toBe('upgrade_inactive')
		await giveEmailPro(owner.orgId)
		await asUser(owner.userId, (trx) => insertRule(owner.orgId, 'By the owner').execute(trx))
		const admin = await createUser('Rules Admin')
		const member = await createUser('Rules Member')
		const stranger = await createUser('Rules Stranger')
		await giveEmailPro(stranger.orgId)
		await addMember(owner.orgId, admin.userId, 'administrator')
		await addMember(owner.orgId, member.userId, 'member')
		await asUser(admin.userId, (trx) => insertRule(owner.orgId, 'By the administrator').execute(trx))
		expect(await refusal(asUser(member.userId, (trx) => insertRule(owner.orgId, 'By a member').execute(trx)))).toBe('42501')
		expect(await refusal(asUser(stranger.userId, (trx) => insertRule(owner.orgId, 'By a stranger').execute(trx)))).toBe('42501')
		// Members and strangers read none of them, change none, delete none.
		for (const who of [member, stranger]) {
			const read = await asUser(who.userId, (trx) =>
				trx.selectFrom('email_parsing_rules').select('id').where('organization_id', '=', owner.orgId).execute(),
			)
			expect(read).toEqual([])
			await asUser(who.userId, (trx) => trx.deleteFrom('email_parsing_rules').where('organization_id', '=', owner.orgId).execute())
			await asUser(who.userId, (trx) =>
				trx.updateTable('email_parsing_rules').set({ name: 'Taken' }).where('organization_id', '=', owner.orgId).execute(),
			)
		}
		const rules = await listParsingRules(admin.userId, owner.orgId)
		expect(rules.owned).toBe(true)
		expect(rules.rules.map((r) => r.name)).toEqual(['By the owner', 'By the administrator'])
	})

	test('at most 20 per organization: the 21st is refused with parsing_rule_limit', async () => {
		const org = await createUser('Rules Limit')
		await giveEmailPro(org.orgId)
		await asUser(org.userId, async (trx) => {
			for (let i = 1; i <= 20; i++) await insertRule(org.orgId, `Rule ${i}`).execute(trx)
		})
		expect(await refusal(asUser(org.userId, (trx) => insertRule(org.orgId, 'Rule 21').execute(trx)))).toBe('parsing_rule_limit')
		const outcome = await submitParsingRule(org.userId, org.orgId, null, FORM, { save: true, timeZone: 'UTC' })
		expect(outcome).toEqual({ kind: 'errors', errors: { form: 'ruleLimit' }, reading: null })
	})

	test('a bad sender or label is refused by the table too', async () => {
		const org = await createUser('Rules Checks')
		await giveEmailPro(org.orgId)
		const bad = (sender: string, label: string) =>
			refusal(
				asUser(org.userId, (trx) =>
					sql`insert into public.email_parsing_rules (organization_id, name, sender, amount_label, payer_label)
						values (${org.orgId}, 'Bad', ${sender}, ${label}, 'From:')`.execute(trx),
				),
			)
		expect(await bad('cu.example', 'Amount:')).toBe('23514')
		expect(await bad('@cu', 'Amount:')).toBe('23514')
		expect(await bad('@cu.example', '   ')).toBe('23514')
		expect(await bad('@cu.example', 'x'.repeat(101))).toBe('23514')
	})

	test('deleting the organization deletes its rules', async () => {
		const org = await createUser('Rules Deleted')
		await giveEmailPro(org.orgId)
		await asUser(org.userId, (trx) => insertRule(org.orgId, 'Goes with it').execute(trx))
		await asSystem((trx) => sql`delete from public.organizations where id = ${org.orgId}`.execute(trx))
		const left = await asSystem((trx) =>
			trx.selectFrom('email_parsing_rules').select('id').where('organization_id', '=', org.orgId).execute(),
		)
		expect(left).toEqual([])
	})
})

describe('saving from the screen', () => {
	test('a rule that cannot read its sample is refused with the field named; without a sample it saves; a known sender is refused', async () => {
		const org = await createUser('Rules Screen')
		await giveEmailPro(org.orgId)
		const sample = {
			sampleFrom: 'alerts@cu.example',
			sampleSubject: 'New deposit',
			sample: 'Amount: $40.00\nPaid by: Jane Doe\nReference: R-1',
		}
		const tested = await submitParsingRule(org.userId, org.orgId, null, { ...FORM, ...sample }, { save: false, timeZone: 'UTC' })
		expect(tested).toEqual({
			kind: 'tested',
			reading: {
				amount: '40.00',
				payer: null,
				externalId: 'R-1',
				date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
				missing: ['payer'],
				senderMatches: true,
				subjectMatches: true,
			},
		})
		const refused = await submitParsingRule(org.userId, org.orgId, null, { ...FORM, ...sample }, { save: true, timeZone: 'UTC' })
		expect(refused).toMatchObject({ kind: 'errors', errors: { payerLabel: 'payerNotFound' } })
		expect((await listParsingRules(org.userId, org.orgId)).rules).toEqual([])
		const saved = await submitParsingRule(
			org.userId,
			org.orgId,
			null,
			{ ...FORM, ...sample, payerLabel: 'Paid by:' },
			{ save: true, timeZone: 'UTC' },
		)
		expect(saved).toEqual({ kind: 'saved', id: expect.any(String) })
		const known = await submitParsingRule(org.userId, org.orgId, null, { ...FORM, sender: '@venmo.com' }, { save: true, timeZone: 'UTC' })
		expect(known).toEqual({ kind: 'errors', errors: { sender: 'senderKnown' }, reading: null })
		const raw = [
			'From: Credit Union <alerts@cu.example>',
			'To: owner@example.test',
			'Subject: New deposit received',
			'Date: Tue, 04 Mar 2031 15:00:00 +0000',
			'Content-Type: text/plain; charset=utf-8',
			'',
			'Amount: 1.234,56 USD',
			'From: Maria Souza',
			'Reference: BR-77',
			'',
		].join('\r\n')
		const fromRaw = await submitParsingRule(org.userId, org.orgId, null, { ...FORM, sample: raw }, { save: false, timeZone: 'UTC' })
		expect(fromRaw).toEqual({
			kind: 'tested',
			reading: {
				amount: '1234.56',
				payer: 'Maria Souza',
				externalId: 'BR-77',
				date: '2031-03-04',
				missing: [],
				senderMatches: true,
				subjectMatches: true,
			},
		})
	})
})

describe('the sync reads an unknown sender with a rule', () => {
	let imap: ImapServer
	beforeAll(async () => {
		imap = await startImapServer()
	})
	afterAll(async () => {
		await imap?.stop()
	})

	const notice = (id: string, amount: string, payer: string) =>
		[
			'From: Credit Union <alerts@cu.example>',
			'To: owner@example.test',
			'Subject: New deposit received',
			`Date: ${new Date(Date.now() - 86_400_000).toUTCString()}`,
			`Message-ID: <${id}@cu.example>`,
			'Content-Type: text/plain; charset=utf-8',
			'',
			'You have a new deposit.',
			`Amount: ${amount}`,
			`From: ${payer}`,
			`Reference: ${id}`,
			'',
		].join('\r\n')

	test('imported with source email, deduped by its id, counted in the run; its default category where no client matched', async () => {
		const owner = await createUser('Rules Sync')
		await asUser(owner.userId, (trx) => sql`select public.purchase_upgrade(${owner.orgId}, ${CATALOGUE.upgrades.p2pEmail})`.execute(trx))
		expect(
			await connectImap(owner.userId, owner.orgId, CATALOGUE.upgrades.p2pEmail, {
				host: imap.host,
				port: imap.port,
				tls: false,
				user: imap.user,
				password: imap.password,
			}),
		).toEqual({ ok: true, provider: 'imap' })
		const mailbox = `Rules-${process.env.DB_TARGET}-${Date.now()}`
		const c = await imap.client()
		await c.mailboxCreate(mailbox)
		await c.logout()
		await imap.appendMessage(Buffer.from(notice('CU-1001', '$1,234.56', 'Jane Doe')), { mailbox })
		await imap.appendMessage(Buffer.from(notice('CU-1001', '$1,234.56', 'Jane Doe')), { mailbox })

		await giveEmailPro(owner.orgId)
		expect(await submitParsingRule(owner.userId, owner.orgId, null, FORM, { save: true, timeZone: 'UTC' })).toMatchObject({ kind: 'saved' })
		const stop = onImportCommitted(applyDefaultCategories)
		try {
			const run = await syncMailbox(owner.orgId, { trigger: 'button', userId: owner.userId, mailbox })
			expect(run).toMatchObject({ ok: true, counts: { read: 2, created: 1, duplicates: 1 } })
		} finally {
			stop()
		}
		const rows = await asSystem((trx) =>
			trx
				.selectFrom('transactions')
				.select(['amount', 'raw_payer', 'external_id', 'payment_method', 'import_source', 'category'])
				.where('organization_id', '=', owner.orgId)
				.execute(),
		)
		expect(rows).toEqual([
			{
				amount: '1234.56',
				raw_payer: 'Jane Doe',
				external_id: 'CU-1001',
				payment_method: 'Wire Transfer',
				import_source: 'email',
				category: 'review',
			},
		])
		const runs = await asSystem((trx) =>
			trx.selectFrom('email_sync_runs').select(['custom_rule_count']).where('organization_id', '=', owner.orgId).execute(),
		)
		expect(runs).toEqual([{ custom_rule_count: 2 }])
	})
})
