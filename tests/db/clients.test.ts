import { describe, expect, test } from 'vitest'
import { editableClient, getClient, listClients, saveClients, type EditableClientRow } from '#app/.server/payments/clients.ts'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { clientsSaveSchema, type ClientRowInput } from '#app/lib/schemas/clients.ts'
import { addMember, createUser } from './fixtures.ts'

async function orgWithClients(label: string) {
	const owner = await createUser(`${label} Owner`)
	await asUser(owner.userId, (trx) =>
		trx
			.insertInto('clients')
			.values([
				{ organization_id: owner.orgId, name: 'Carla Dias', email: 'carla@example.com', company: 'Dias Studio', status: 'active' },
				{ organization_id: owner.orgId, name: 'Ana Silva', email: null, phone: '555-0100', status: 'pending' },
				{ organization_id: owner.orgId, name: 'Bruno Costa', email: 'bruno@example.com', company: 'Costa & Co', status: 'inactive' },
			])
			.execute(),
	)
	return owner
}

function asInput(row: EditableClientRow, changes: Partial<ClientRowInput> = {}): ClientRowInput {
	return {
		id: row.id,
		version: row.version,
		fingerprint: row.fingerprint,
		name: row.name,
		email: row.email,
		phone: row.phone,
		company: row.company,
		status: row.status,
		deleted: false,
		...changes,
	}
}

/** The organization's clients as the edit mode loads them. */
const list = async (userId: string, orgId: string) => (await listClients(userId, orgId, { pageSize: 100 })).rows.map(editableClient)

describe('listing clients', () => {
	test('sorts by name by default, and on every other column both ways', async () => {
		const org = await orgWithClients('Sort')
		expect((await list(org.userId, org.orgId)).map((c) => c.name)).toEqual(['Ana Silva', 'Bruno Costa', 'Carla Dias'])
		const names = async (sort: 'email' | 'status' | 'company' | 'name', dir: 'asc' | 'desc') =>
			(await listClients(org.userId, org.orgId, { sort, dir })).rows.map((c) => c.name)
		expect(await names('name', 'desc')).toEqual(['Carla Dias', 'Bruno Costa', 'Ana Silva'])
		expect(await names('email', 'asc')).toEqual(['Bruno Costa', 'Carla Dias', 'Ana Silva'])
		expect(await names('status', 'asc')).toEqual(['Carla Dias', 'Bruno Costa', 'Ana Silva'])
		expect(await names('company', 'desc')).toEqual(['Carla Dias', 'Bruno Costa', 'Ana Silva'])
	})

	test('sorts names as a reader does: neither case nor accents split them apart', async () => {
		const owner = await createUser('Collation Owner')
		await asUser(owner.userId, (trx) =>
			trx
				.insertInto('clients')
				.values(
					['zoe Park', 'Émile Roy', 'bruno Lima', 'Ángela Ruiz', 'Eva Luz', 'angela Mora', 'Zé Costa'].map((name) => ({
						organization_id: owner.orgId,
						name,
					})),
				)
				.execute(),
		)
		expect((await list(owner.userId, owner.orgId)).map((c) => c.name)).toEqual([
			'angela Mora',
			'Ángela Ruiz',
			'bruno Lima',
			'Émile Roy',
			'Eva Luz',
			'Zé Costa',
			'zoe Park',
		])
	})

	test('a search finds names and companies whatever their case and accents', async () => {
		const owner = await createUser('Accent Owner')
		await asUser(owner.userId, (trx) =>
			trx
				.insertInto('clients')
				.values([
					{ organization_id: owner.orgId, name: 'Ángela Ruiz' },
					{ organization_id: owner.orgId, name: 'Joao Brito', company: 'Padaria São João' },
					{ organization_id: owner.orgId, name: 'Eva Luz' },
				])
				.execute(),
		)
		const search = async (q: string) => (await listClients(owner.userId, owner.orgId, { q })).rows.map((c) => c.name)
		expect(await search('angela')).toEqual(['Ángela Ruiz'])
		expect(await search('ÁNGELA r')).toEqual(['Ángela Ruiz'])
		expect(await search('joão')).toEqual(['Joao Brito'])
		expect(await search('sao joao')).toEqual(['Joao Brito'])
		expect(await search('éva')).toEqual(['Eva Luz'])
		expect(await search('a_')).toEqual([])
	})

	test('searches name, email, phone and company, and shows only this organization', async () => {
		const org = await orgWithClients('Search')
		const other = await orgWithClients('Search Other')
		const search = async (q: string) => (await listClients(org.userId, org.orgId, { q })).rows.map((c) => c.name)
		expect(await search('ana')).toEqual(['Ana Silva'])
		expect(await search('BRUNO@')).toEqual(['Bruno Costa'])
		expect(await search('555-01')).toEqual(['Ana Silva'])
		expect(await search('& co')).toEqual(['Bruno Costa'])
		expect(await search('%')).toEqual([])
		const ids = new Set((await list(org.userId, org.orgId)).map((c) => c.id))
		for (const c of await list(other.userId, other.orgId)) expect(ids.has(c.id)).toBe(false)
		expect((await listClients(org.userId, other.orgId)).rows).toEqual([])
	})
	test('pages keep the sort across them and carry the total; a page past the end is empty with the total still right', async () => {
		const org = await orgWithClients('Paging')
		const page = async (options: Parameters<typeof listClients>[2]) => {
			const { rows, total, totalCapped } = await listClients(org.userId, org.orgId, options)
			return { names: rows.map((c) => c.name), total, totalCapped }
		}
		expect(await page({ pageSize: 2, page: 1 })).toEqual({ names: ['Ana Silva', 'Bruno Costa'], total: 3, totalCapped: false })
		expect(await page({ pageSize: 2, page: 2 })).toEqual({ names: ['Carla Dias'], total: 3, totalCapped: false })
		expect(await page({ pageSize: 2, page: 1, sort: 'name', dir: 'desc' })).toEqual({
			names: ['Carla Dias', 'Bruno Costa'],
			total: 3,
			totalCapped: false,
		})
		expect(await page({ pageSize: 2, page: 2, sort: 'email', dir: 'asc' })).toEqual({ names: ['Ana Silva'], total: 3, totalCapped: false })
		expect(await page({ pageSize: 2, page: 3 })).toEqual({ names: [], total: 3, totalCapped: false })
		// A search's total is the matches'; no match is an empty page with a total of 0.
		expect(await page({ q: '@example.com', pageSize: 1 })).toEqual({ names: ['Bruno Costa'], total: 2, totalCapped: false })
		expect(await page({ q: 'nobody at all' })).toEqual({ names: [], total: 0, totalCapped: false })
	})
})

describe('saving a batch of clients', () => {
	test('a plan-only save counts what the save would do and writes nothing (Cancel without JavaScript asks when it is not zero)', async () => {
		const org = await orgWithClients('Plan')
		const [ana, bruno] = await list(org.userId, org.orgId)
		const form = (row: EditableClientRow) => ({ ...row, email: row.email ?? '', phone: row.phone ?? '', company: row.company ?? '' })
		const rows = (values: object[]) => clientsSaveSchema.parse({ rows: values }).rows
		const plan = (values: object[]) => saveClients(org.userId, org.orgId, rows(values), { confirmed: false, planOnly: true })
		const untouchedNew = {
			name: '',
			email: '',
			phone: '',
			company: '',
			status: 'active',
			blank: JSON.stringify({ name: '', email: '', phone: '', company: '', status: 'active' }),
		}
		expect(await plan([form(ana!), form(bruno!), untouchedNew])).toEqual({ ok: true, planned: true, inserted: 0, updated: 0, deleted: 0 })
		expect(
			await plan([
				{ ...form(ana!), name: 'Ana Changed' },
				{ ...form(bruno!), deleted: true },
				{ ...untouchedNew, name: 'Dora' },
			]),
		).toEqual({
			ok: true,
			planned: true,
			inserted: 1,
			updated: 1,
			deleted: 1,
		})
		expect((await list(org.userId, org.orgId)).map((c) => [c.name, c.version])).toEqual([
			['Ana Silva', ana!.version],
			['Bruno Costa', bruno!.version],
			['Carla Dias', expect.any(String)],
		])
	})

	test('a save key writes once: the same save again writes nothing and says so; a refused save leaves its key free', async () => {
		const org = await orgWithClients('Save Key')
		const other = await orgWithClients('Save Key Other')
		const key = 'k'.repeat(24)
		const dora = clientsSaveSchema.parse({ rows: [{ name: 'Dora Lima', email: '', phone: '', company: '', status: 'active' }] }).rows
		const names = async () => (await list(org.userId, org.orgId)).map((c) => c.name)

		// Refused (a row of no one's): nothing written, and the key is not spent.
		const missing = clientsSaveSchema.parse({
			rows: [
				{ id: crypto.randomUUID(), version: '1', fingerprint: 'x', name: 'Ghost', email: '', phone: '', company: '', status: 'active' },
			],
		}).rows
		expect(await saveClients(org.userId, org.orgId, [...dora, ...missing], { confirmed: true, saveKey: key })).toMatchObject({ ok: false })
		expect(await saveClients(org.userId, org.orgId, dora, { confirmed: true, saveKey: key })).toEqual({
			ok: true,
			inserted: 1,
			updated: 0,
			deleted: 0,
		})
		expect(await saveClients(org.userId, org.orgId, dora, { confirmed: true, saveKey: key })).toEqual({
			ok: true,
			alreadySaved: true,
			inserted: 0,
			updated: 0,
			deleted: 0,
		})
		expect(await names()).toEqual(['Ana Silva', 'Bruno Costa', 'Carla Dias', 'Dora Lima'])
		// Two saves with the same key at once: one writes, the other waits for it and writes nothing.
		const both = await Promise.all(
			[1, 2].map(() =>
				saveClients(
					org.userId,
					org.orgId,
					clientsSaveSchema.parse({ rows: [{ name: 'Eva Luz', email: '', phone: '', company: '', status: 'active' }] }).rows,
					{ confirmed: true, saveKey: 'e'.repeat(24) },
				),
			),
		)
		expect(both.map((r) => ('alreadySaved' in r ? 'again' : 'saved')).sort()).toEqual(['again', 'saved'])
		expect((await names()).filter((n) => n === 'Eva Luz')).toHaveLength(1)
		// Keys are per organization, claimed by its members only, and their table is nobody's to read.
		expect(await saveClients(other.userId, other.orgId, dora, { confirmed: true, saveKey: key })).toEqual({
			ok: true,
			inserted: 1,
			updated: 0,
			deleted: 0,
		})
		await expect(
			asUser(other.userId, (trx) => sql`select public.claim_table_save(${org.orgId}, ${'z'.repeat(24)})`.execute(trx)),
		).rejects.toThrow('not_member')
		await expect(asUser(org.userId, (trx) => sql`select * from private.table_save_keys`.execute(trx))).rejects.toThrow()
	})

	test('adds, edits and deletes together; empty email, phone and company are stored as null', async () => {
		const org = await orgWithClients('Save')
		const [ana, bruno, carla] = await list(org.userId, org.orgId)
		// A payment of the client about to be deleted stays, without a client.
		await asUser(org.userId, (trx) =>
			trx.insertInto('transactions').values({ organization_id: org.orgId, client_id: carla!.id, amount: 50 }).execute(),
		)
		// As the form posts them: every field a string, the delete checkbox 'on'.
		const form = (row: EditableClientRow) => ({ ...row, email: row.email ?? '', phone: row.phone ?? '', company: row.company ?? '' })
		const parsed = clientsSaveSchema.parse({
			rows: [
				{ name: '  Dora Lima ', email: '', phone: '', company: '', status: 'active' },
				{ ...form(ana!), email: 'ana@example.com', phone: '', company: '' },
				form(bruno!),
				{ ...form(carla!), deleted: true },
			],
		})
		const result = await saveClients(org.userId, org.orgId, parsed.rows)
		expect(result).toEqual({ ok: true, inserted: 1, updated: 1, deleted: 1 })
		const after = await list(org.userId, org.orgId)
		expect(after.map((c) => c.name)).toEqual(['Ana Silva', 'Bruno Costa', 'Dora Lima'])
		expect(after[0]).toMatchObject({ email: 'ana@example.com', phone: null, company: null })
		expect(after[1]!.version).toBe(bruno!.version)
		expect(after[2]).toMatchObject({ email: null, phone: null, company: null, status: 'active' })
		const orphan = await asSystem((trx) =>
			sql<{ client_id: string | null }>`select client_id from public.transactions where organization_id = ${org.orgId}`.execute(trx),
		)
		expect(orphan.rows).toEqual([{ client_id: null }])
	})

	test("another organization's client is refused, a stale row is not overwritten, and nothing is written", async () => {
		const org = await orgWithClients('Guard')
		const other = await orgWithClients('Guard Other')
		const colleague = await createUser('Guard Colleague')
		await addMember(org.orgId, colleague.userId, 'member')
		const theirs = (await list(other.userId, other.orgId))[0]!
		const [ana, bruno] = await list(org.userId, org.orgId)

		const forged = await saveClients(org.userId, org.orgId, [
			{ ...asInput(theirs), name: 'Hijacked' },
			{ ...asInput(ana!), name: 'Ana Renamed' },
		])
		expect(forged).toMatchObject({ ok: false, rowErrors: { 0: { row: 'rowNotFound' } } })
		expect((await list(other.userId, other.orgId))[0]!.name).toBe(theirs.name)
		expect((await list(org.userId, org.orgId))[0]!.name).toBe('Ana Silva')

		expect(await saveClients(colleague.userId, org.orgId, [{ ...asInput(bruno!), company: 'Colleague Co' }])).toMatchObject({ ok: true })
		const stale = await saveClients(org.userId, org.orgId, [
			{
				id: null,
				version: null,
				fingerprint: null,
				name: 'New One',
				email: null,
				phone: null,
				company: null,
				status: 'active',
				deleted: false,
			},
			{ ...asInput(bruno!), company: 'Mine' },
		])
		expect(stale).toMatchObject({ ok: false, rowErrors: { 1: { row: 'conflict' } }, conflicts: { 1: { company: 'Colleague Co' } } })
		const now = await list(org.userId, org.orgId)
		expect(now.map((c) => c.name)).not.toContain('New One')
		expect(now.find((c) => c.id === bruno!.id)?.company).toBe('Colleague Co')
	})

	test('unless confirmed, a name another client already has (or a deletion) is asked about first', async () => {
		const org = await orgWithClients('Twin Names')
		const before = await list(org.userId, org.orgId)
		const [ana, bruno] = before
		const fresh = (name: string): ClientRowInput => ({
			...{ id: null, version: null, fingerprint: null, deleted: false },
			...{ name, email: null, phone: null, company: null, status: 'active' },
		})
		const asked = await saveClients(
			org.userId,
			org.orgId,
			[fresh('ANA SILVA'), fresh('Dora'), fresh('dora'), { ...asInput(bruno!), phone: '555' }, { ...asInput(ana!), deleted: true }],
			{ confirmed: false },
		)
		expect(asked).toEqual({
			ok: false,
			confirm: {
				inserted: 3,
				updated: 1,
				deleted: 1,
				warnings: [
					{ index: 0, code: 'duplicateName', value: 'ANA SILVA' },
					{ index: 2, code: 'duplicateName', value: 'dora' },
				],
			},
		})
		expect(await list(org.userId, org.orgId)).toEqual(before)
		// Names compare as import matching does (case and spaces ignored); emails in any case.
		const mailed = (name: string, email: string): ClientRowInput => ({ ...fresh(name), email })
		const spaced = await saveClients(
			org.userId,
			org.orgId,
			[fresh('  ana   SILVA '), mailed('Eva', 'EVA@example.com'), mailed('Eve', 'eva@EXAMPLE.com')],
			{ confirmed: false },
		)
		expect(spaced).toMatchObject({
			ok: false,
			confirm: {
				warnings: [
					{ index: 0, code: 'duplicateName', value: '  ana   SILVA ' },
					{ index: 2, code: 'duplicateEmail', value: 'eva@EXAMPLE.com' },
				],
			},
		})
		expect(await list(org.userId, org.orgId)).toEqual(before)
		// Editing a client that keeps its own name warns about nothing.
		expect(await saveClients(org.userId, org.orgId, [{ ...asInput(bruno!), phone: '555' }], { confirmed: false })).toMatchObject({
			ok: true,
			updated: 1,
		})
	})

	test('names another client has are asked about blind to accents too: "angela ruiz" as "ANGELA RUIZ" is', async () => {
		const owner = await createUser('Accent Twins Owner')
		await asUser(owner.userId, (trx) => trx.insertInto('clients').values({ organization_id: owner.orgId, name: 'Ángela Ruiz' }).execute())
		const [angela] = await list(owner.userId, owner.orgId)
		const fresh = (name: string): ClientRowInput => ({
			id: null,
			version: null,
			fingerprint: null,
			deleted: false,
			name,
			email: null,
			phone: null,
			company: null,
			status: 'active',
		})
		const warned = async (rows: ClientRowInput[]) => {
			const result = await saveClients(owner.userId, owner.orgId, rows, { confirmed: false })
			return 'confirm' in result ? result.confirm.warnings : result
		}
		expect(await warned([fresh('ANGELA RUIZ')])).toEqual([{ index: 0, code: 'duplicateName', value: 'ANGELA RUIZ' }])
		expect(await warned([fresh('angela ruiz')])).toEqual([{ index: 0, code: 'duplicateName', value: 'angela ruiz' }])
		expect(await warned([fresh('João Lima'), fresh('JOAO  LIMA')])).toEqual([{ index: 1, code: 'duplicateName', value: 'JOAO  LIMA' }])
		// Taking the accent off one's own name is no new namesake.
		expect(
			await saveClients(owner.userId, owner.orgId, [{ ...asInput(angela!), name: 'Angela Ruiz' }], { confirmed: false }),
		).toMatchObject({ ok: true, updated: 1 })
	})
})

describe('deleting a client who has payments', () => {
	test('is asked about first, by name; confirmed, the payments stay with no client', async () => {
		const org = await orgWithClients('Paid Deletion')
		const [, bruno] = await list(org.userId, org.orgId)
		await asUser(org.userId, (trx) =>
			trx
				.insertInto('transactions')
				.values({ organization_id: org.orgId, client_id: bruno!.id, amount: '25.00', date_received: '2026-03-01' })
				.execute(),
		)
		const asked = await saveClients(org.userId, org.orgId, [{ ...asInput(bruno!), deleted: true }], { confirmed: false })
		expect(asked).toEqual({
			ok: false,
			confirm: { inserted: 0, updated: 0, deleted: 1, warnings: [{ index: 0, code: 'clientHasPayments', value: bruno!.name }] },
		})
		expect(await saveClients(org.userId, org.orgId, [{ ...asInput(bruno!), deleted: true }], { confirmed: true })).toMatchObject({
			ok: true,
			deleted: 1,
		})
		const payments = await asUser(org.userId, (trx) =>
			trx.selectFrom('transactions').select(['client_id', 'amount']).where('organization_id', '=', org.orgId).execute(),
		)
		expect(payments).toEqual([{ client_id: null, amount: '25.00' }])
	})
})

describe('phones', () => {
	test('a phone written or changed is a phone number; one saved before the rule stays while it is left alone', async () => {
		const org = await orgWithClients('Phones')
		const ana = (await list(org.userId, org.orgId)).find((c) => c.name === 'Ana Silva')!
		await asUser(org.userId, (trx) => trx.updateTable('clients').set({ phone: 'after 5pm' }).where('id', '=', ana.id).execute())
		const old = (await list(org.userId, org.orgId)).find((c) => c.name === 'Ana Silva')!
		const fresh: ClientRowInput = {
			id: null,
			version: null,
			fingerprint: null,
			deleted: false,
			name: 'Dora',
			email: null,
			phone: 'call me',
			company: null,
			status: 'active',
		}
		expect(await saveClients(org.userId, org.orgId, [fresh, asInput(old, { phone: 'not a phone' })])).toMatchObject({
			ok: false,
			rowErrors: { 0: { phone: 'phoneInvalid' }, 1: { phone: 'phoneInvalid' } },
		})
		expect(
			await saveClients(org.userId, org.orgId, [{ ...fresh, phone: '+1 (555) 010-0200' }, asInput(old, { company: 'Silva Yoga' })]),
		).toMatchObject({ ok: true, inserted: 1, updated: 1 })
		expect((await list(org.userId, org.orgId)).find((c) => c.name === 'Ana Silva')).toMatchObject({
			phone: 'after 5pm',
			company: 'Silva Yoga',
		})
	})
})

describe('one client', () => {
	test("shows a client's totals, and an unknown or another organization's client is not found", async () => {
		const org = await orgWithClients('Detail')
		const other = await orgWithClients('Detail Other')
		const ana = (await list(org.userId, org.orgId))[0]!
		await asUser(org.userId, (trx) =>
			trx
				.insertInto('transactions')
				.values([
					{ organization_id: org.orgId, client_id: ana.id, amount: '100.10', date_received: '2026-01-05' },
					{ organization_id: org.orgId, client_id: ana.id, amount: '20.00', date_received: '2026-03-07' },
					{ organization_id: org.orgId, client_id: null, amount: '999.00', date_received: '2026-02-01' },
				])
				.execute(),
		)
		const found = await getClient(org.userId, org.orgId, ana.id)
		expect(found?.client.name).toBe('Ana Silva')
		expect(found?.totals).toEqual({ count: 2, amount: '120.10', first: '2026-01-05', last: '2026-03-07' })
		const theirs = (await list(other.userId, other.orgId))[0]!
		expect(await getClient(org.userId, org.orgId, theirs.id)).toBeNull()
		expect(await getClient(org.userId, other.orgId, theirs.id)).toBeNull()
		expect(await getClient(org.userId, org.orgId, '00000000-0000-4000-8000-000000000000')).toBeNull()
	})
})
