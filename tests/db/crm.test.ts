/**
 * CRM Basic Fields and CRM Pipelines (supabase/migrations/20261209100000_crm.sql, app/.server/crm/):
 * tags filter the list through their index, notes are read by the organization only and deleted by
 * their author or an owner or administrator, a client file dedupes by email (blanks filled, nothing
 * overwritten) and an export imported back adds nothing, pipelines are named and ordered by owners
 * and administrators, moves stay within a pipeline, follow-ups are listed for the day and mailed
 * once to the card's owner (or the owners). Nothing works without the upgrade. On PGlite and on
 * the PostgreSQL server.
 */
import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { crmAccess } from '#app/.server/crm/access.ts'
import { FOLLOW_UP_JOB, dueFollowUpKeys, followUpJob, runFollowUpKey } from '#app/.server/crm/follow-up-job.ts'
import { addClientNote, deleteClientNote, listClientNotes, setClientTags } from '#app/.server/crm/notes.ts'
import {
	addCrmCard,
	deleteCrmPipeline,
	followUpsDue,
	getBoard,
	listPipelines,
	moveCrmCard,
	removeCrmCard,
	saveCrmPipeline,
	setCrmFollowUp,
} from '#app/.server/crm/pipelines.ts'
import { exportClients, importClients, previewClientImport, readClientFile } from '#app/.server/crm/transfer.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { listClients } from '#app/.server/payments/clients.ts'
import { runDueJobs } from '#app/.server/scheduler.ts'
import { addDays } from '#app/lib/dates.ts'
import { MODULES } from '#app/lib/modules.ts'
import { addMember, createUser, refusal, type TestUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()

const BASIC = MODULES.crm.upgrades.basicFields.id
const PIPELINES = MODULES.crm.upgrades.pipelines.id

async function buy(user: TestUser, ...upgrades: string[]) {
	for (const id of upgrades) await asUser(user.userId, (trx) => sql`select public.purchase_upgrade(${user.orgId}, ${id})`.execute(trx))
}

type World = { owner: TestUser; admin: TestUser; member: TestUser; outsider: TestUser }

async function world({ basic = true, pipelines = true } = {}): Promise<World> {
	const [owner, admin, member, outsider] = await Promise.all([
		createUser('Olga Owner'),
		createUser('Ada Admin'),
		createUser('Mia Member'),
		createUser('Otto Outsider'),
	])
	await addMember(owner.orgId, admin.userId, 'administrator')
	await addMember(owner.orgId, member.userId, 'member')
	if (basic) await buy(owner, BASIC)
	if (pipelines) await buy(owner, PIPELINES)
	return { owner, admin, member, outsider }
}

async function client(orgId: string, name: string, email: string | null = null) {
	const { rows } = await asSystem((trx) =>
		sql<{
			id: string
		}>`insert into public.clients (organization_id, name, email) values (${orgId}, ${name}, ${email}) returning id`.execute(trx),
	)
	return rows[0]!.id
}

async function all(gen: AsyncGenerator<string>) {
	let text = ''
	for await (const chunk of gen) text += chunk
	return text
}

describe('tags', () => {
	test('set, normalised and filtered by; bad tags change nothing; the filter reads the tags index', async () => {
		const { owner, member } = await world({ pipelines: false })
		const ana = await client(owner.orgId, 'Ana Tag', 'ana@example.test')
		const bo = await client(owner.orgId, 'Bo Tag')
		expect(await setClientTags(member.userId, ana, [' VIP ', 'Wholesale  Buyer', 'vip'])).toEqual({
			ok: true,
			value: ['vip', 'wholesale buyer'],
		})
		await setClientTags(owner.userId, bo, ['wholesale buyer'])
		expect(await setClientTags(member.userId, ana, ['a,b'])).toEqual({ ok: false, code: 'tag_invalid' })
		expect(await setClientTags(member.userId, ana, ['x'.repeat(41)])).toEqual({ ok: false, code: 'tag_invalid' })
		expect(
			await setClientTags(
				member.userId,
				ana,
				Array.from({ length: 21 }, (_, i) => `t${i}`),
			),
		).toEqual({ ok: false, code: 'too_many_tags' })
		const vip = await listClients(owner.userId, owner.orgId, { tag: 'VIP' })
		expect(vip.rows.map((r) => [r.name, r.tags])).toEqual([['Ana Tag', ['vip', 'wholesale buyer']]])
		expect((await listClients(owner.userId, owner.orgId, { tag: 'wholesale buyer' })).rows.map((r) => r.name)).toEqual([
			'Ana Tag',
			'Bo Tag',
		])
		// With many clients and few tagged, the filter reads the GIN index on tags.
		const plan = await asSystem(async (trx) => {
			await sql`insert into public.clients (organization_id, name) select ${owner.orgId}, 'Bulk ' || g from generate_series(1, 3000) g`.execute(
				trx,
			)
			await sql`analyze public.clients`.execute(trx)
			const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select id from public.clients c
				where c.organization_id = ${owner.orgId} and c.tags @> array['vip']::text[]`.execute(trx)
			return rows.map((r) => r['QUERY PLAN']).join('\n')
		})
		expect(plan).toContain('clients_tags_idx')
	})

	test('another organization cannot tag a client, and without the upgrade nobody can', async () => {
		const { owner, outsider } = await world({ basic: false, pipelines: false })
		const ana = await client(owner.orgId, 'Ana Plain')
		expect(await setClientTags(outsider.userId, ana, ['vip'])).toEqual({ ok: false, code: 'not_found' })
		expect(await setClientTags(owner.userId, ana, ['vip'])).toEqual({ ok: false, code: 'upgrade_inactive' })
		expect(await setClientTags(owner.userId, 'not-a-uuid', ['vip'])).toEqual({ ok: false, code: 'not_found' })
		expect(await crmAccess(owner.userId, owner.orgId)).toEqual({ basicFields: false, pipelines: false, enterprise: false })
		// Members have no direct write to the column.
		expect(await refusal(asUser(owner.userId, (trx) => sql`update public.clients set tags = '{vip}' where id = ${ana}`.execute(trx)))).toBe(
			'42501',
		)
	})
})

describe('notes', () => {
	test('a timeline of who wrote what; other organizations read none; deleting is the author’s, an owner’s or an administrator’s', async () => {
		const { owner, admin, member, outsider } = await world({ pipelines: false })
		const ana = await client(owner.orgId, 'Ana Notes')
		const first = await addClientNote(member.userId, ana, '  Called, wants a quote  ')
		const second = await addClientNote(owner.userId, ana, 'Sent the quote')
		expect(first.ok && second.ok).toBe(true)
		expect(await addClientNote(member.userId, ana, '   ')).toEqual({ ok: false, code: 'note_empty' })
		expect(await addClientNote(member.userId, ana, 'x'.repeat(5001))).toEqual({ ok: false, code: 'note_too_long' })
		expect(await addClientNote(outsider.userId, ana, 'Hello')).toEqual({ ok: false, code: 'not_found' })

		const notes = await listClientNotes(member.userId, owner.orgId, ana, false)
		expect(notes.map((n) => [n.body, n.authorName, n.mine])).toEqual([
			['Sent the quote', 'Olga Owner', false],
			['Called, wants a quote', 'Mia Member', true],
		])
		// Another organization's member reads nothing, even by the client's id.
		const seen = await asUser(outsider.userId, (trx) => sql`select id from public.client_notes where client_id = ${ana}`.execute(trx))
		expect(seen.rows).toEqual([])
		expect(await refusal(asUser(member.userId, (trx) => sql`delete from public.client_notes where client_id = ${ana}`.execute(trx)))).toBe(
			'42501',
		)

		const ownersNote = (second as { value: string }).value
		const membersNote = (first as { value: string }).value
		expect(await deleteClientNote(member.userId, ownersNote)).toEqual({ ok: false, code: 'not_author' })
		expect(await deleteClientNote(outsider.userId, membersNote)).toEqual({ ok: false, code: 'not_found' })
		expect(await deleteClientNote(admin.userId, ownersNote)).toEqual({ ok: true, value: undefined })
		expect(await deleteClientNote(member.userId, membersNote)).toEqual({ ok: true, value: undefined })
		expect(await listClientNotes(owner.userId, owner.orgId, ana, true)).toEqual([])
	})
})

describe('client CSV import and export', () => {
	test('an existing email fills blanks and adds tags, never overwrites; new rows are added; bad lines are listed', async () => {
		const { owner } = await world({ pipelines: false })
		await asSystem((trx) =>
			sql`insert into public.clients (organization_id, name, email, phone, company, status)
				values (${owner.orgId}, 'Ana Saved', 'ana@example.test', '555 0100', null, 'inactive')`.execute(trx),
		)
		const file = [
			'Name,Email,Phone,Company,Status,Tags',
			'Ana Other Name,ANA@example.test,555 9999,Acme,Active,"vip, new"',
			'Bea New,bea@example.test,,,Pending,',
			'Bea Again,bea@example.test,555 0200,,,',
			'No Email,,,,,',
			'Bad Mail,not-an-email,,,,',
			'Bad Phone,bp@example.test,call me,,,',
		].join('\n')
		const read = await readClientFile(file)
		if (!read.ok) throw new Error(read.code)
		expect(read.errors).toEqual([
			{ line: 6, code: 'emailInvalid' },
			{ line: 7, code: 'phoneInvalid' },
		])
		const preview = await previewClientImport(owner.userId, owner.orgId, read.rows)
		expect(preview.map((r) => [r.name, r.outcome])).toEqual([
			['Ana Other Name', 'fill'],
			['Bea New', 'add'],
			['Bea Again', 'fill'],
			['No Email', 'add'],
		])
		expect(await importClients(owner.userId, owner.orgId, read.rows)).toEqual({ ok: true, value: { added: 2, filled: 2, unchanged: 0 } })
		const { rows } = await listClients(owner.userId, owner.orgId, { sort: 'email', dir: 'asc' })
		expect(rows.map((r) => [r.name, r.email, r.phone, r.company, r.status, r.tags])).toEqual([
			['Ana Saved', 'ana@example.test', '555 0100', 'Acme', 'inactive', ['vip', 'new']],
			['Bea New', 'bea@example.test', '555 0200', null, 'pending', []],
			['No Email', null, null, null, 'active', []],
		])
	})

	test('the export is the filtered list, and importing it back (in another language) adds and changes nothing', async () => {
		const { owner } = await world({ pipelines: false })
		const ana = await client(owner.orgId, 'Ana, "Quoted"', 'ana@example.test')
		const bo = await client(owner.orgId, 'Bo NoMail')
		await asSystem((trx) => sql`update public.clients set phone = '+1 555 0100' where id = ${ana}`.execute(trx))
		await setClientTags(owner.userId, ana, ['vip'])
		await setClientTags(owner.userId, bo, ['vip', 'late payer'])
		await client(owner.orgId, 'Cy Untagged', 'cy@example.test')

		const vipOnly = await all(exportClients(owner.userId, owner.orgId, { tag: 'vip' }, 'es'))
		expect(vipOnly.startsWith('\uFEFFNombre,Correo electrónico,Teléfono,Empresa,Estado,Etiquetas\r\n')).toBe(true)
		expect(vipOnly).not.toContain('Cy Untagged')
		// A phone starting with + is guarded against spreadsheets' formulas, and read back without the guard.
		expect(vipOnly).toContain("'+1 555 0100")

		const everything = await all(exportClients(owner.userId, owner.orgId, {}, 'pt-BR'))
		const read = await readClientFile(everything)
		if (!read.ok) throw new Error(read.code)
		expect(read.errors).toEqual([])
		expect(read.rows.find((r) => r.email === 'ana@example.test')).toMatchObject({
			name: 'Ana, "Quoted"',
			phone: '+1 555 0100',
			tags: ['vip'],
		})
		expect((await previewClientImport(owner.userId, owner.orgId, read.rows)).map((r) => r.outcome)).toEqual(['same', 'same', 'same'])
		expect(await importClients(owner.userId, owner.orgId, read.rows)).toEqual({ ok: true, value: { added: 0, filled: 0, unchanged: 3 } })
		expect((await listClients(owner.userId, owner.orgId)).total).toBe(3)
	})

	test('files that are not client lists are refused with a reason; without the upgrade nothing is imported', async () => {
		const { owner } = await world({ basic: false, pipelines: false })
		expect(await readClientFile('')).toEqual({ ok: false, code: 'empty' })
		expect(await readClientFile('Date,Amount\n2026-01-01,5')).toEqual({ ok: false, code: 'unknownHeaders' })
		expect(await readClientFile('Name,Email\n')).toEqual({ ok: false, code: 'noRows' })
		expect(await readClientFile('a\0b')).toEqual({ ok: false, code: 'notCsv' })
		const read = await readClientFile('Name\nSomeone')
		if (!read.ok) throw new Error(read.code)
		expect(await importClients(owner.userId, owner.orgId, read.rows)).toEqual({ ok: false, code: 'upgrade_inactive' })
		expect((await listClients(owner.userId, owner.orgId)).total).toBe(0)
	})
})

describe('pipelines', () => {
	test('owners and administrators name and order stages; members move cards within the pipeline', async () => {
		const { owner, admin, member, outsider } = await world()
		expect(await saveCrmPipeline(member.userId, owner.orgId, null, 'Sales', [{ id: null, name: 'Lead' }])).toEqual({
			ok: false,
			code: 'not_manager',
		})
		expect(await saveCrmPipeline(outsider.userId, owner.orgId, null, 'Sales', [{ id: null, name: 'Lead' }])).toEqual({
			ok: false,
			code: 'not_member',
		})
		expect(await saveCrmPipeline(owner.userId, owner.orgId, null, 'Sales', [])).toEqual({ ok: false, code: 'stages_required' })
		expect(await saveCrmPipeline(owner.userId, owner.orgId, null, ' ', [{ id: null, name: 'Lead' }])).toEqual({
			ok: false,
			code: 'name_invalid',
		})
		const created = await saveCrmPipeline(admin.userId, owner.orgId, null, 'Sales', [
			{ id: null, name: 'Lead' },
			{ id: null, name: 'Proposal' },
			{ id: null, name: 'Won' },
		])
		if (!created.ok) throw new Error(created.code)
		const pipelineId = created.value
		let board = (await getBoard(member.userId, owner.orgId, pipelineId))!
		expect(board.stages.map((s) => s.name)).toEqual(['Lead', 'Proposal', 'Won'])
		const [lead, proposal, won] = board.stages

		const ana = await client(owner.orgId, 'Ana Pipe')
		const added = await addCrmCard(member.userId, pipelineId, ana)
		if (!added.ok) throw new Error(added.code)
		expect(await addCrmCard(member.userId, pipelineId, ana)).toEqual({ ok: false, code: 'already_on_pipeline' })
		const stranger = await client(outsider.orgId, 'Not Yours')
		expect(await addCrmCard(member.userId, pipelineId, stranger)).toEqual({ ok: false, code: 'not_found' })

		// A move to a stage of another pipeline is refused; within the pipeline it goes.
		const other = await saveCrmPipeline(owner.userId, owner.orgId, null, 'Other', [{ id: null, name: 'Elsewhere' }])
		const elsewhere = (await getBoard(owner.userId, owner.orgId, (other as { value: string }).value))!.stages[0]!
		expect(await moveCrmCard(member.userId, added.value, elsewhere.id)).toEqual({ ok: false, code: 'stage_not_in_pipeline' })
		expect(await moveCrmCard(outsider.userId, added.value, proposal!.id)).toEqual({ ok: false, code: 'not_found' })
		expect(await moveCrmCard(member.userId, added.value, proposal!.id)).toEqual({ ok: true, value: undefined })
		board = (await getBoard(member.userId, owner.orgId, pipelineId))!
		expect(board.cards.map((c) => [c.clientName, c.stageId, c.ownerName])).toEqual([['Ana Pipe', proposal!.id, 'Mia Member']])

		// Reorder and rename; a stage with a card cannot be dropped; an empty one can.
		expect(
			await saveCrmPipeline(owner.userId, owner.orgId, pipelineId, 'Sales 2', [
				{ id: won!.id, name: 'Won' },
				{ id: lead!.id, name: 'New lead' },
			]),
		).toEqual({ ok: false, code: 'stage_not_empty' })
		const saved = await saveCrmPipeline(owner.userId, owner.orgId, pipelineId, 'Sales 2', [
			{ id: proposal!.id, name: 'Quote sent' },
			{ id: lead!.id, name: 'New lead' },
			{ id: null, name: 'Lost' },
		])
		expect(saved).toEqual({ ok: true, value: pipelineId })
		board = (await getBoard(member.userId, owner.orgId, pipelineId))!
		expect([board.name, board.stages.map((s) => s.name)]).toEqual(['Sales 2', ['Quote sent', 'New lead', 'Lost']])
		expect((await listPipelines(member.userId, owner.orgId)).map((p) => [p.name, p.stages, p.cards])).toEqual([
			['Sales 2', 3, 1],
			['Other', 1, 0],
		])
		// Nobody writes the tables directly.
		expect(
			await refusal(
				asUser(owner.userId, (trx) => sql`update public.crm_cards set stage_id = ${lead!.id} where id = ${added.value}`.execute(trx)),
			),
		).toBe('42501')
		expect(await getBoard(outsider.userId, outsider.orgId, pipelineId)).toBeNull()

		expect(await removeCrmCard(member.userId, added.value)).toEqual({ ok: true, value: undefined })
		expect(await deleteCrmPipeline(member.userId, pipelineId)).toEqual({ ok: false, code: 'not_manager' })
		expect(await deleteCrmPipeline(owner.userId, pipelineId)).toEqual({ ok: true, value: undefined })
		expect((await listPipelines(owner.userId, owner.orgId)).map((p) => p.name)).toEqual(['Other'])
	})

	test('without CRM Pipelines nothing is created', async () => {
		const { owner } = await world({ pipelines: false })
		expect(await saveCrmPipeline(owner.userId, owner.orgId, null, 'Sales', [{ id: null, name: 'Lead' }])).toEqual({
			ok: false,
			code: 'upgrade_inactive',
		})
	})
})

describe('follow-ups', () => {
	const DAY = addDays(new Date().toISOString().slice(0, 10), 30)
	const at = (day: string, time: string) => new Date(`${day}T${time}:00Z`)

	test('listed for the day, and mailed once at 08:00 to the card’s owner, or the owners when it has none', async () => {
		const { owner, admin, member } = await world()
		const created = await saveCrmPipeline(owner.userId, owner.orgId, null, 'Sales', [{ id: null, name: 'Lead' }])
		if (!created.ok) throw new Error(created.code)
		const ana = await client(owner.orgId, 'Ana Follow')
		const bo = await client(owner.orgId, 'Bo Follow')
		const cy = await client(owner.orgId, 'Cy Later')
		const cards = []
		for (const c of [ana, bo, cy]) {
			const card = await addCrmCard(member.userId, created.value, c)
			if (!card.ok) throw new Error(card.code)
			cards.push(card.value)
		}
		expect(await setCrmFollowUp(member.userId, cards[0]!, DAY, null)).toEqual({ ok: true, value: undefined })
		expect(await setCrmFollowUp(member.userId, cards[1]!, DAY, admin.userId)).toEqual({ ok: true, value: undefined })
		await setCrmFollowUp(member.userId, cards[2]!, addDays(DAY, 1), null)
		const stranger = await createUser('Not A Member')
		expect(await setCrmFollowUp(member.userId, cards[0]!, DAY, stranger.userId)).toEqual({ ok: false, code: 'owner_not_member' })
		expect(await setCrmFollowUp(member.userId, cards[0]!, 'someday', null)).toEqual({ ok: false, code: 'date_invalid' })

		expect((await followUpsDue(member.userId, owner.orgId, DAY)).map((f) => [f.clientName, f.stageName])).toEqual([
			['Ana Follow', 'Lead'],
			['Bo Follow', 'Lead'],
		])
		// The admin leaves: their card's mail goes to the owners.
		await asSystem((trx) =>
			sql`delete from public.organization_members where organization_id = ${owner.orgId} and user_id = ${admin.userId}`.execute(trx),
		)

		expect(await dueFollowUpKeys(at(DAY, '07:59'), { organizationId: owner.orgId })).toEqual([])
		const key = `${owner.orgId}:${DAY}`
		expect(await dueFollowUpKeys(at(DAY, '08:00'), { organizationId: owner.orgId })).toEqual([key])
		// Two instances tick at once, then a takeover reruns the key: each person is mailed once.
		const job = { ...followUpJob, due: () => dueFollowUpKeys(at(DAY, '09:00'), { organizationId: owner.orgId }) }
		await Promise.all([runDueJobs(at(DAY, '09:00'), [job]), runDueJobs(at(DAY, '09:00'), [job])])
		await runFollowUpKey(key)
		await drainMail()
		const toMember = await mailsTo(member.email)
		const toOwner = await mailsTo(owner.email)
		expect(toMember.map((m) => m.subject)).toHaveLength(1)
		expect(toMember[0]!.text).toContain('Ana Follow')
		expect(toMember[0]!.text).not.toContain('Bo Follow')
		expect(toOwner).toHaveLength(1)
		expect(toOwner[0]!.text).toContain('Bo Follow')
		expect(await mailsTo(admin.email)).toEqual([])
		const { rows } = await asSystem((trx) =>
			sql<{ n: number }>`select count(*)::int as n from private.job_deliveries where job = ${FOLLOW_UP_JOB} and run_key = ${key}`.execute(
				trx,
			),
		)
		expect(rows[0]!.n).toBe(2)
		// A day later, the window of DAY is over and the next day's key is due.
		expect(await dueFollowUpKeys(at(addDays(DAY, 1), '08:30'), { organizationId: owner.orgId })).toEqual([
			`${owner.orgId}:${addDays(DAY, 1)}`,
		])
	})
})
