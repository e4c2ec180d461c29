import { describe, expect, test } from 'vitest'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { commitImport, discardImport, importPayments, undoImport } from '#app/.server/payments/imports/pipeline.ts'
import { getStagedPreview, listReviewQueue, PREVIEW_ROWS, resolveReview } from '#app/.server/payments/imports/queries.ts'
import type { NormalizedPayment } from '#app/.server/payments/imports/parsers/index.ts'
import { ImportKeys } from '#app/.server/payments/imports/staging.ts'
import { payerKey } from '#app/.server/query.ts'
import { MAX_IMPORT_COLUMNS, MAX_IMPORT_LINE_CHARS, MAX_IMPORT_ROWS } from '#app/lib/imports.ts'
import { addMember, createUser, refusal } from './fixtures.ts'

const VENMO = [
	'Account Statement - (@owner) ,,,,,,,,,,,',
	'Account Activity,,,,,,,,,,,',
	',ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (fee),Beginning Balance,Disclaimer',
	',3921234567890123456,2026-03-01T14:22:05,Payment,Complete,Yoga,Ana Silva,Owner,"+ $1,250.00",,,',
	',3921234567890123457,2026-03-02T09:00:00,Payment,Complete,Class,Bruno Costa,Owner,+ $80.00,,,',
	',3921234567890123458,2026-03-03T09:00:00,Payment,Complete,Class,Mystery Payer,Owner,+ $15.00,,,',
	',3921234567890123459,2026-03-04T09:00:00,Payment,Complete,Supplies,Owner,Shop,- $45.00,,,',
].join('\n')

function zelle(payer: string, amount: string, date = '2026-03-05', description: string | null = 'Lesson'): NormalizedPayment {
	return { date, amount, fee: null, payer, description, externalId: null, method: 'Zelle', provider: 'bofa' }
}

async function org(label: string) {
	const owner = await createUser(`${label} Owner`)
	await asUser(owner.userId, (trx) =>
		trx
			.insertInto('clients')
			.values([
				{ organization_id: owner.orgId, name: 'Ana Silva', email: 'ana@example.com' },
				{ organization_id: owner.orgId, name: 'Bruno Costa' },
				{ organization_id: owner.orgId, name: 'Bruno  costa', email: 'other.bruno@example.com' },
			])
			.execute(),
	)
	return owner
}

async function imported(userId: string, orgId: string) {
	return asUser(userId, (trx) =>
		trx
			.selectFrom('transactions as t')
			.leftJoin('clients as c', 'c.id', 't.client_id')
			.select([
				't.id',
				't.external_id',
				't.amount',
				't.raw_payer',
				't.category',
				't.payment_method',
				't.import_source',
				'c.name as client',
				't.description',
			])
			.where('t.organization_id', '=', orgId)
			.orderBy('t.date_received')
			.orderBy('t.amount')
			.execute(),
	)
}

async function commitFile(userId: string, orgId: string, file: string) {
	const result = await importPayments({ organizationId: orgId, userId, file, label: 'venmo.csv' })
	if (!result.ok || result.status !== 'committed') throw new Error('not committed')
	return result.batch
}

describe('importing a file', () => {
	test('creates the received payments, matched: one client → matched, none → unmatched, several → review', async () => {
		const owner = await org('Import')
		const batch = await commitFile(owner.userId, owner.orgId, VENMO)
		expect(batch.counts).toEqual({ created: 3, duplicates: 0, deleted: 0, matched: 1, review: 1, unmatched: 1 })
		expect(batch).toMatchObject({ rowsRead: 4, payments: 3, ignored: 1, failed: 0 })
		expect(await imported(owner.userId, owner.orgId)).toEqual([
			expect.objectContaining({
				external_id: '3921234567890123456',
				amount: '1250.00',
				raw_payer: 'Ana Silva',
				category: 'matched',
				client: 'Ana Silva',
				payment_method: 'Venmo',
				import_source: 'venmo',
			}),
			expect.objectContaining({ external_id: '3921234567890123457', raw_payer: 'Bruno Costa', category: 'review', client: null }),
			expect.objectContaining({ external_id: '3921234567890123458', raw_payer: 'Mystery Payer', category: 'unmatched', client: null }),
		])
	})

	test('re-importing the same file creates nothing; a user edit is never overwritten; a deleted one stays deleted', async () => {
		const owner = await org('Reimport')
		await commitFile(owner.userId, owner.orgId, VENMO)
		const [first, second] = await imported(owner.userId, owner.orgId)
		await asUser(owner.userId, async (trx) => {
			await trx.updateTable('transactions').set({ description: 'Edited by hand', amount: '1200.00' }).where('id', '=', first!.id).execute()
			await trx.deleteFrom('transactions').where('id', '=', second!.id).execute()
		})
		const again = await commitFile(owner.userId, owner.orgId, VENMO)
		expect(again.counts).toMatchObject({ created: 0, duplicates: 2, deleted: 1 })
		const rows = await imported(owner.userId, owner.orgId)
		expect(rows).toHaveLength(2)
		expect(rows[0]).toMatchObject({ description: 'Edited by hand', amount: '1200.00' })
	})

	test('id-less payments: two identical real payments in one batch are both kept; the same batch again creates none', async () => {
		const owner = await org('Hash')
		const payments = [zelle('Ana Silva', '60.00'), zelle('Ana Silva', '60.00'), zelle('Ana Silva', '60.00', '2026-03-06')]
		const first = await importPayments({ organizationId: owner.orgId, userId: owner.userId, source: 'email', payments })
		expect(first.ok && first.status === 'committed' && first.batch.counts.created).toBe(3)
		// An overlapping batch: the two of the 5th and a new one of the 7th.
		const overlap = [zelle('Ana Silva', '60.00'), zelle('ANA  SILVA', '60.00'), zelle('Ana Silva', '60.00', '2026-03-07')]
		const second = await importPayments({ organizationId: owner.orgId, userId: owner.userId, source: 'email', payments: overlap })
		expect(second.ok && second.status === 'committed' && second.batch.counts).toMatchObject({ created: 1, duplicates: 2 })
		expect(await imported(owner.userId, owner.orgId)).toHaveLength(4)
	})

	test('the same payment id twice in one batch is one transaction', async () => {
		const owner = await org('Twice')
		const p = { ...zelle('Ana Silva', '10.00'), externalId: 'X1', provider: 'paypal', method: 'PayPal' as const }
		const result = await importPayments({ organizationId: owner.orgId, userId: owner.userId, source: 'paypal', payments: [p, p] })
		expect(result.ok && result.status === 'committed' && result.batch.counts).toMatchObject({ created: 1, duplicates: 1 })
	})

	test('a saved alias wins over names: the payer is matched to the alias client', async () => {
		const owner = await org('Alias')
		const brunoB = await asUser(owner.userId, (trx) =>
			trx.selectFrom('clients').select('id').where('email', '=', 'other.bruno@example.com').executeTakeFirstOrThrow(),
		)
		await asUser(owner.userId, (trx) =>
			trx.insertInto('payer_aliases').values({ organization_id: owner.orgId, alias: ' bruno   COSTA ', client_id: brunoB.id }).execute(),
		)
		await commitFile(owner.userId, owner.orgId, VENMO)
		const bruno = (await imported(owner.userId, owner.orgId)).find((r) => r.raw_payer === 'Bruno Costa')
		expect(bruno).toMatchObject({ category: 'matched', client: 'Bruno  costa' })
	})

	test('the review queue offers the clients in the clients list order, blind to case and accents', async () => {
		const owner = await org('Queue Order')
		await asUser(owner.userId, (trx) =>
			trx
				.insertInto('clients')
				.values(['Ángela Ruiz', 'zoe Park', 'angela Bravo'].map((name) => ({ organization_id: owner.orgId, name })))
				.execute(),
		)
		const { clients } = await listReviewQueue(owner.userId, owner.orgId)
		expect(clients.map((c) => c.name)).toEqual(['Ana Silva', 'angela Bravo', 'Ángela Ruiz', 'Bruno  costa', 'Bruno Costa', 'zoe Park'])
	})

	test('a preview stages without writing transactions; committing it twice is refused', async () => {
		const owner = await org('Preview')
		const staged = await importPayments({ organizationId: owner.orgId, userId: owner.userId, file: VENMO, mode: 'preview' })
		if (!staged.ok || staged.status !== 'staged') throw new Error('not staged')
		expect(await imported(owner.userId, owner.orgId)).toHaveLength(0)
		const preview = await asUser(
			owner.userId,
			async (trx) => (await sql`select * from public.preview_import(${staged.batch.batchId})`.execute(trx)).rows[0],
		)
		expect(preview).toEqual({ new_count: 3, duplicate_count: 0, deleted_count: 0, matched_count: 1, review_count: 1, unmatched_count: 1 })
		expect(await commitImport(owner.userId, staged.batch.batchId)).toMatchObject({ ok: true })
		expect(await commitImport(owner.userId, staged.batch.batchId)).toEqual({ ok: false, code: 'already_committed' })
		expect(await imported(owner.userId, owner.orgId)).toHaveLength(3)
	})

	test("another organization's member cannot preview, commit or undo a batch", async () => {
		const owner = await org('Owner A')
		const other = await createUser('Other B')
		const staged = await importPayments({ organizationId: owner.orgId, userId: owner.userId, file: VENMO, mode: 'preview' })
		if (!staged.ok) throw new Error('not staged')
		expect(await commitImport(other.userId, staged.batch.batchId)).toEqual({ ok: false, code: 'not_member' })
		expect(
			await refusal(asUser(other.userId, (trx) => sql`select * from public.preview_import(${staged.batch.batchId})`.execute(trx))),
		).toBe('not_member')
		expect(await refusal(importPayments({ organizationId: owner.orgId, userId: other.userId, file: VENMO }))).toBe('not_member')
		await commitImport(owner.userId, staged.batch.batchId)
		expect(await undoImport(other.userId, staged.batch.batchId)).toEqual({ ok: false, code: 'not_member' })
		expect(await imported(owner.userId, owner.orgId)).toHaveLength(3)
	})
})

describe('staging in chunks', () => {
	test('a file of several chunks is staged whole: every row once, id-less twins across chunks both kept, counts right', async () => {
		const owner = await org('Chunks')
		// More rows than the first chunks hold on either database (their size grows from 250, doubling).
		const n = 2_017
		const header = 'Posted,Who,Value,Memo'
		// Every row the same id-less payment: the occurrence number keeps each one, across chunks.
		const file = [header, ...Array.from({ length: n }, () => '2026-03-05,Ana Silva,10.00,Lesson'), '2026-03-05,,10.00,No payer'].join('\n')
		const mapping = {
			date: 'Posted',
			amount: 'Value',
			payer: 'Who',
			externalId: '',
			description: 'Memo',
			method: 'Zelle' as const,
			dateOrder: 'mdy' as const,
		}
		const staged = await importPayments({ organizationId: owner.orgId, userId: owner.userId, file, mapping, mode: 'preview' })
		if (!staged.ok || staged.status !== 'staged') throw new Error('not staged')
		expect(staged.batch).toMatchObject({ rowsRead: n + 1, payments: n, failed: 1, failures: [{ reason: 'payerMissing' }] })
		const row = await asUser(owner.userId, (trx) =>
			trx
				.selectFrom('import_batches')
				.select(['payment_count', 'rows_read', 'failed_count'])
				.where('id', '=', staged.batch.batchId)
				.executeTakeFirstOrThrow(),
		)
		expect(row).toEqual({ payment_count: n, rows_read: n + 1, failed_count: 1 })
		const committed = await commitImport(owner.userId, staged.batch.batchId)
		expect(committed).toMatchObject({ ok: true, batch: { counts: { created: n, duplicates: 0, matched: n } } })
		const left = await asSystem(
			async (trx) =>
				(
					await sql<{
						n: number
					}>`select count(*)::int as n from private.import_staged_rows where batch_id = ${staged.batch.batchId}`.execute(trx)
				).rows[0]!.n,
		)
		expect(left).toBe(0)
	})

	test('a file found not to be CSV half-way leaves no staged batch behind', async () => {
		const owner = await org('Broken')
		const rows = Array.from({ length: 2_000 }, (_, i) => `2026-03-05,Payer ${i},10.00,Lesson`)
		// Past its first 2,000 rows, more lines that no reading can split than readable ones.
		const broken = Array.from({ length: 3_000 }, () => '2026-03-06,"Unclosed,10.00,x')
		const file = ['Posted,Who,Value,Memo', ...rows, ...broken].join('\n')
		const mapping = {
			date: 'Posted',
			amount: 'Value',
			payer: 'Who',
			externalId: '',
			description: 'Memo',
			method: 'Zelle' as const,
			dateOrder: 'mdy' as const,
		}
		expect(await importPayments({ organizationId: owner.orgId, userId: owner.userId, file, mapping })).toMatchObject({
			ok: false,
			error: 'notCsv',
		})
		const batches = await asSystem((trx) =>
			trx.selectFrom('import_batches').select('id').where('organization_id', '=', owner.orgId).execute(),
		)
		expect(batches).toEqual([])
	})

	test('a bank file with one line past repair is staged with that line reported and the rest read', async () => {
		const owner = await org('Tolerant')
		const file = [
			'Date,Description,Amount,Running Bal.',
			'01/03/2022,"Zelle payment from NINA ROCHA for "Lesson"; Conf# k7x2m9q4a","80.00","80.00"',
			'01/08/2022,"Zelle payment from BROKEN "LINE,"12.00","92.00"',
		].join('\n')
		expect(await importPayments({ organizationId: owner.orgId, userId: owner.userId, file, mode: 'preview' })).toMatchObject({
			ok: true,
			batch: { source: 'bofa', payments: 1, failed: 1, failures: [{ line: 3, reason: 'unreadable' }] },
		})
	})

	test('a file of a bank added by issue 47 is committed under its own source', async () => {
		const owner = await org('Wells')
		const file = '"03/02/2026","150.00","*","","ZELLE FROM DIANA PAZ ON 03/02 REF # WFCT0XYZ9876"\n'
		expect(await importPayments({ organizationId: owner.orgId, userId: owner.userId, file })).toMatchObject({
			ok: true,
			status: 'committed',
			batch: { source: 'wellsfargo', counts: { created: 1 } },
		})
		const rows = await asSystem((trx) =>
			trx.selectFrom('transactions').select(['import_source', 'payment_method']).where('organization_id', '=', owner.orgId).execute(),
		)
		expect(rows).toEqual([{ import_source: 'wellsfargo', payment_method: 'Zelle' }])
	})

	test('only the member who staged a batch may append to it or finish it, and only while it is staged', async () => {
		const owner = await org('Append')
		const teammate = await createUser('Teammate')
		await addMember(owner.orgId, teammate.userId, 'member')
		const other = await createUser('Stranger')
		const staged = await importPayments({ organizationId: owner.orgId, userId: owner.userId, file: VENMO, mode: 'preview' })
		if (!staged.ok) throw new Error('not staged')
		const id = staged.batch.batchId
		const chunk = JSON.stringify([
			{ ord: 99, import_key: 'h:forged:1', amount: '1.00', date_received: '2026-03-01', payment_method: 'Zelle', raw_payer: 'Forged' },
		])
		const append = (userId: string) =>
			refusal(asUser(userId, (trx) => sql`select public.stage_import_rows(${id}, ${chunk}::jsonb)`.execute(trx)))
		const finish = (userId: string) =>
			refusal(asUser(userId, (trx) => sql`select public.finish_import_stage(${id}, 0, 0, 0, '[]'::jsonb)`.execute(trx)))
		expect(await append(other.userId)).toBe('not_member')
		expect(await finish(other.userId)).toBe('not_member')
		expect(await append(teammate.userId)).toBe('batch_not_found')
		expect(await finish(teammate.userId)).toBe('batch_not_found')
		expect(await refusal(asUser(owner.userId, (trx) => sql`select public.stage_import_rows(${id}, '{}'::jsonb)`.execute(trx)))).toBe(
			'invalid_batch',
		)
		await commitImport(owner.userId, id)
		expect(await append(owner.userId)).toBe('batch_not_found')
		expect(await imported(owner.userId, owner.orgId)).toHaveLength(3)
	})
})

/** The organization's batches, as the system sees them (nothing hidden by RLS). */
async function batchesOf(orgId: string) {
	return asSystem((trx) =>
		trx
			.selectFrom('import_batches')
			.select(['id', 'status', 'file_name', 'rows_read', 'payment_count'])
			.where('organization_id', '=', orgId)
			.orderBy('created_at')
			.execute(),
	)
}

/** A generic CSV (mapped below) of `rows` rows besides its header: `payments` received ones, the rest outgoing (skipped, never staged). */
function bankFile(rows: number, payments = 10) {
	const lines = ['Posted,Who,Value,Memo']
	for (let i = 0; i < rows; i++) lines.push(i < payments ? `2026-03-05,Payer ${i},10.00,Lesson` : '2026-03-05,Shop,-1.00,x')
	return lines.join('\n')
}
const BANK_MAPPING = {
	date: 'Posted',
	amount: 'Value',
	payer: 'Who',
	externalId: '',
	description: 'Memo',
	method: 'Zelle' as const,
	dateOrder: 'mdy' as const,
}

describe('bounds of a file', () => {
	test(`a file of ${MAX_IMPORT_ROWS + 1} rows is refused before anything is read or staged; one of ${MAX_IMPORT_ROWS} stages`, async () => {
		const owner = await org('Row limit')
		const over = bankFile(MAX_IMPORT_ROWS + 1)
		// Refused before parsing: not even asked for its (unknown) columns first.
		expect(await importPayments({ organizationId: owner.orgId, userId: owner.userId, file: over, mode: 'preview' })).toEqual({
			ok: false,
			error: 'tooManyRows',
		})
		expect(
			await importPayments({ organizationId: owner.orgId, userId: owner.userId, file: over, mapping: BANK_MAPPING, mode: 'preview' }),
		).toEqual({ ok: false, error: 'tooManyRows' })
		expect(await batchesOf(owner.orgId)).toEqual([])
		// Blank lines and a quoted line break are not rows.
		const limit = bankFile(MAX_IMPORT_ROWS).replace('Payer 1,', '"Payer\n1",') + '\n\n  \n'
		const staged = await importPayments({
			organizationId: owner.orgId,
			userId: owner.userId,
			file: limit,
			mapping: BANK_MAPPING,
			mode: 'preview',
		})
		expect(staged).toMatchObject({
			ok: true,
			status: 'staged',
			batch: { rowsRead: MAX_IMPORT_ROWS, payments: 10, ignored: MAX_IMPORT_ROWS - 10 },
		})
		expect(await batchesOf(owner.orgId)).toEqual([
			expect.objectContaining({ status: 'staged', rows_read: MAX_IMPORT_ROWS, payment_count: 10 }),
		])
	})

	test('a row of too many fields, or too long a line, is refused before anything is staged; quoted separators are not fields', async () => {
		const owner = await org('Shape limits')
		const import_ = (file: string) =>
			importPayments({ organizationId: owner.orgId, userId: owner.userId, file, mapping: BANK_MAPPING, mode: 'preview' })
		const wide = `${bankFile(3)}\n2026-03-05,Wide,1.00,${','.repeat(MAX_IMPORT_COLUMNS - 3)}`
		expect(await import_(wide)).toEqual({ ok: false, error: 'tooManyColumns' })
		const long = `${bankFile(3)}\n2026-03-05,Long,1.00,${'x'.repeat(MAX_IMPORT_LINE_CHARS)}`
		expect(await import_(long)).toEqual({ ok: false, error: 'lineTooLong' })
		expect(await batchesOf(owner.orgId)).toEqual([])
		// The same number of separators inside quotes is one field's text.
		const quoted = `${bankFile(3)}\n2026-03-05,"Quoted${','.repeat(MAX_IMPORT_COLUMNS)}",1.00,x`
		expect(await import_(quoted)).toMatchObject({ ok: true, batch: { payments: 4 } })
	})

	test('a chunk of more than 5,000 rows is refused by the database itself', async () => {
		const owner = await org('Chunk limit')
		const id = await asUser(
			owner.userId,
			async (trx) =>
				(
					await sql<{
						id: string
					}>`select public.stage_import(${owner.orgId}, 'venmo', 'x.csv', '[]'::jsonb, 0, 0, 0, '[]'::jsonb) as id`.execute(trx)
				).rows[0]!.id,
		)
		const rows = JSON.stringify(
			Array.from({ length: 5_001 }, (_, i) => ({
				ord: i + 1,
				import_key: `h:x:${i}`,
				amount: '1.00',
				date_received: '2026-03-01',
				payment_method: 'Zelle',
				raw_payer: 'X',
			})),
		)
		expect(await refusal(asUser(owner.userId, (trx) => sql`select public.stage_import_rows(${id}, ${rows}::jsonb)`.execute(trx)))).toBe(
			'invalid_batch',
		)
	})
})

describe('one import at a time per organization', () => {
	async function team(label: string) {
		const owner = await org(label)
		const teammate = await createUser(`${label} Teammate`)
		await addMember(owner.orgId, teammate.userId, 'member')
		return { owner, teammate }
	}
	const preview = (userId: string, orgId: string, label = 'venmo.csv', file = VENMO) =>
		importPayments({ organizationId: orgId, userId, file, label, mode: 'preview' })

	test("two imports of one organization at once: one stages, the other is refused; another organization's goes on", async () => {
		const { owner, teammate } = await team('Race')
		const other = await org('Race Other')
		const [a, b, c] = await Promise.all([
			preview(owner.userId, owner.orgId, 'a.csv'),
			preview(teammate.userId, owner.orgId, 'b.csv'),
			preview(other.userId, other.orgId, 'c.csv'),
		])
		const results = [a, b]
		const won = results.find((r) => r.ok)
		const lost = results.find((r) => !r.ok)
		if (!won?.ok || won.status !== 'staged' || !lost || lost.ok)
			throw new Error(`expected one staged and one refused: ${JSON.stringify(results)}`)
		expect(lost).toMatchObject({ error: 'importInProgress', blocking: { id: won.batch.batchId } })
		expect(c).toMatchObject({ ok: true, status: 'staged' })
		expect(await batchesOf(owner.orgId)).toHaveLength(1)
	})

	test("while a preview waits, a teammate's file is refused and told whose it is; the same member's next file replaces it; discarded, it frees the way", async () => {
		const { owner, teammate } = await team('Waiting')
		const first = await preview(owner.userId, owner.orgId, 'first.csv')
		if (!first.ok) throw new Error('not staged')
		expect(await preview(teammate.userId, owner.orgId)).toEqual({
			ok: false,
			error: 'importInProgress',
			blocking: { id: first.batch.batchId, fileName: 'first.csv', status: 'staged', reading: false, who: 'Waiting Owner' },
		})
		// A committed import is no claim; mail sync batches are not counted.
		expect(
			await importPayments({
				organizationId: owner.orgId,
				userId: teammate.userId,
				source: 'email',
				payments: [zelle('Ana Silva', '5.00')],
			}),
		).toMatchObject({ ok: true, status: 'committed' })
		const second = await preview(owner.userId, owner.orgId, 'second.csv')
		if (!second.ok) throw new Error('not replaced')
		expect((await batchesOf(owner.orgId)).filter((b) => b.status === 'staged').map((b) => b.file_name)).toEqual(['second.csv'])
		expect(await discardImport(teammate.userId, second.batch.batchId)).toEqual({ ok: true })
		expect(await preview(teammate.userId, owner.orgId, 'third.csv')).toMatchObject({ ok: true, status: 'staged' })
	})

	test('a file being read holds the claim; one whose reading stopped two minutes ago gives way', async () => {
		const { owner, teammate } = await team('Reading')
		const reading = await asUser(
			owner.userId,
			async (trx) =>
				(
					await sql<{
						id: string
					}>`select public.stage_import(${owner.orgId}, 'venmo', 'slow.csv', '[]'::jsonb, 0, 0, 0, '[]'::jsonb) as id`.execute(trx)
				).rows[0]!.id,
		)
		expect(await preview(teammate.userId, owner.orgId)).toMatchObject({
			ok: false,
			error: 'importInProgress',
			blocking: { id: reading, reading: true },
		})
		expect(await discardImport(teammate.userId, reading)).toEqual({ ok: false, code: 'still_reading' })
		// Its process gone: no sign of life (a chunk written) for more than two minutes.
		await asSystem((trx) =>
			sql`update public.import_batches set worked_at = now() - interval '3 minutes' where id = ${reading}`.execute(trx),
		)
		expect(await preview(teammate.userId, owner.orgId)).toMatchObject({ ok: true, status: 'staged' })
		expect((await batchesOf(owner.orgId)).map((b) => b.file_name)).toEqual(['venmo.csv'])
	})

	test('a commit that stopped half-way holds the claim, shows how far it went, and goes on from there', async () => {
		const { owner, teammate } = await team('Half')
		const n = 230
		const file = ['Posted,Who,Value,Memo', ...Array.from({ length: n }, (_, i) => `2026-03-05,Payer ${i},${i + 1}.00,Lesson`)].join('\n')
		const staged = await importPayments({ organizationId: owner.orgId, userId: owner.userId, file, mapping: BANK_MAPPING, mode: 'preview' })
		if (!staged.ok) throw new Error('not staged')
		const id = staged.batch.batchId
		// Its second page of rows, read by ord.
		const page2 = await getStagedPreview(teammate.userId, owner.orgId, id, 2)
		expect(page2?.rows.map((r) => r.ord)).toEqual(Array.from({ length: PREVIEW_ROWS }, (_, i) => PREVIEW_ROWS + i + 1))
		// One chunk of 100, then the process stops.
		await asUser(owner.userId, (trx) => sql`select * from public.commit_import_chunk(${id}, 100)`.execute(trx))
		expect(await imported(owner.userId, owner.orgId)).toHaveLength(100)
		expect(await getStagedPreview(teammate.userId, owner.orgId, id)).toMatchObject({
			batch: { status: 'committing', committed: 100, payments: n },
		})
		expect(await preview(teammate.userId, owner.orgId)).toMatchObject({
			ok: false,
			error: 'importInProgress',
			blocking: { id, status: 'committing' },
		})
		expect(await discardImport(teammate.userId, id)).toEqual({ ok: false, code: 'already_committed' })
		const done = await commitImport(teammate.userId, id)
		expect(done).toMatchObject({ ok: true, batch: { counts: { created: n, duplicates: 0, unmatched: n } } })
		expect(await imported(owner.userId, owner.orgId)).toHaveLength(n)
		expect(await commitImport(owner.userId, id)).toEqual({ ok: false, code: 'already_committed' })
		// Undo goes chunk by chunk too, and on from where it stopped.
		await asUser(owner.userId, (trx) => sql`select * from public.undo_import_chunk(${id}, 100)`.execute(trx))
		expect(await imported(owner.userId, owner.orgId)).toHaveLength(n - 100)
		expect(await undoImport(teammate.userId, id)).toEqual({ ok: true, removed: n })
		expect(await imported(owner.userId, owner.orgId)).toHaveLength(0)
	})
})

describe('the preview is planned once, at staging', () => {
	test('its counts and rows are those planned when the file was read, whatever changed since; the commit plans again', async () => {
		const owner = await org('Planned')
		const staged = await importPayments({ organizationId: owner.orgId, userId: owner.userId, file: VENMO, mode: 'preview' })
		if (!staged.ok) throw new Error('not staged')
		const id = staged.batch.batchId
		const atStaging = await getStagedPreview(owner.userId, owner.orgId, id)
		expect(atStaging?.counts).toEqual({
			new_count: 3,
			duplicate_count: 0,
			deleted_count: 0,
			matched_count: 1,
			review_count: 1,
			unmatched_count: 1,
		})
		// Underneath: Ana's payment arrives by another way, and a client is named as the mystery payer.
		await asSystem((trx) =>
			sql`insert into public.transactions (organization_id, amount, import_key) values (${owner.orgId}, 1250, 'id:venmo:3921234567890123456')`.execute(
				trx,
			),
		)
		await asUser(owner.userId, (trx) => trx.insertInto('clients').values({ organization_id: owner.orgId, name: 'Mystery Payer' }).execute())
		// Planning the batch now would say otherwise…
		const now = await asUser(owner.userId, async (trx) => (await sql`select * from public.preview_import(${id})`.execute(trx)).rows[0])
		expect(now).toEqual({ new_count: 2, duplicate_count: 1, deleted_count: 0, matched_count: 1, review_count: 1, unmatched_count: 0 })
		// …but the preview reads what was planned at staging, counts and rows alike.
		expect(await getStagedPreview(owner.userId, owner.orgId, id)).toEqual(atStaging)
		// The commit plans its rows again: what it does is what is true now.
		expect(await commitImport(owner.userId, id)).toMatchObject({
			ok: true,
			batch: { counts: { created: 2, duplicates: 1, matched: 1, review: 1, unmatched: 0 } },
		})
	})
})

describe('the commit keeps the match planned at staging only while the clients and aliases are the same', () => {
	test('a client renamed or removed, or an alias saved, since the preview: the commit matches by what is true then', async () => {
		const renamed = await org('Renamed since')
		const stagedA = await importPayments({ organizationId: renamed.orgId, userId: renamed.userId, file: VENMO, mode: 'preview' })
		if (!stagedA.ok) throw new Error('not staged')
		const [ana, bruno] = await asUser(renamed.userId, (trx) =>
			trx.selectFrom('clients').select(['id', 'name']).where('organization_id', '=', renamed.orgId).orderBy('name').execute(),
		)
		await asUser(renamed.userId, async (trx) => {
			await trx.updateTable('clients').set({ name: 'Ana Souza' }).where('id', '=', ana!.id).execute()
			await trx
				.insertInto('payer_aliases')
				.values({ organization_id: renamed.orgId, alias: 'Mystery Payer', client_id: bruno!.id })
				.execute()
		})
		expect(await commitImport(renamed.userId, stagedA.batch.batchId)).toMatchObject({
			ok: true,
			batch: { counts: { created: 3, matched: 1, review: 1, unmatched: 1 } },
		})
		expect((await imported(renamed.userId, renamed.orgId)).map((t) => [t.raw_payer, t.category, t.client])).toEqual([
			['Ana Silva', 'unmatched', null],
			['Bruno Costa', 'review', null],
			['Mystery Payer', 'matched', bruno!.name],
		])

		const removed = await org('Removed since')
		const stagedB = await importPayments({ organizationId: removed.orgId, userId: removed.userId, file: VENMO, mode: 'preview' })
		if (!stagedB.ok) throw new Error('not staged')
		// The preview matched Ana Silva to her client; she and one of the two Brunos are gone since.
		await asUser(removed.userId, (trx) =>
			trx.deleteFrom('clients').where('organization_id', '=', removed.orgId).where('name', 'in', ['Ana Silva', 'Bruno  costa']).execute(),
		)
		expect(await commitImport(removed.userId, stagedB.batch.batchId)).toMatchObject({
			ok: true,
			batch: { counts: { created: 3, matched: 1, review: 0, unmatched: 2 } },
		})
		expect((await imported(removed.userId, removed.orgId)).map((t) => [t.raw_payer, t.category, t.client])).toEqual([
			['Ana Silva', 'unmatched', null],
			['Bruno Costa', 'matched', 'Bruno Costa'],
			['Mystery Payer', 'unmatched', null],
		])
	})

	test('a client added while the file was being read: the rows planned before it are matched at commit', async () => {
		const owner = await org('Added while reading')
		// Two chunks of 1,000 rows (chunks that large keep the preview's match for the commit).
		const chunk = (first: number) =>
			JSON.stringify(
				Array.from({ length: 1_000 }, (_, i) => ({
					ord: first + i,
					import_key: `h:added-while-reading:${first + i}`,
					amount: '10.00',
					date_received: '2026-03-01',
					payment_method: 'Zelle',
					raw_payer: i === 0 ? 'Zoe Quinn' : `Payer ${first + i}`,
				})),
			)
		const id = await asUser(owner.userId, async (trx) => {
			const { rows } = await sql<{
				id: string
			}>`select public.stage_import(${owner.orgId}, 'bofa', 'x.csv', ${chunk(1)}::jsonb, 0, 0, 0, '[]'::jsonb) as id`.execute(trx)
			return rows[0]!.id
		})
		await asUser(owner.userId, (trx) => trx.insertInto('clients').values({ organization_id: owner.orgId, name: 'Zoe Quinn' }).execute())
		await asUser(owner.userId, async (trx) => {
			await sql`select public.stage_import_rows(${id}, ${chunk(1_001)}::jsonb)`.execute(trx)
			await sql`select public.finish_import_stage(${id}, 2000, 0, 0, '[]'::jsonb)`.execute(trx)
		})
		// The preview is what was planned as each chunk was read: the first Zoe before the client existed.
		expect((await getStagedPreview(owner.userId, owner.orgId, id))?.counts).toMatchObject({ matched_count: 1, unmatched_count: 1_999 })
		expect(await commitImport(owner.userId, id)).toMatchObject({
			ok: true,
			batch: { counts: { created: 2_000, matched: 2, unmatched: 1_998 } },
		})
	})
})

describe('undo', () => {
	test('removes what the batch created and nobody edited; edited rows stay; the undone payments may be imported again', async () => {
		const owner = await org('Undo')
		const member = await createUser('Undo Member')
		await addMember(owner.orgId, member.userId, 'member')
		const batch = await commitFile(owner.userId, owner.orgId, VENMO)
		const [first] = await imported(owner.userId, owner.orgId)
		await asUser(member.userId, (trx) => trx.updateTable('transactions').set({ description: 'kept' }).where('id', '=', first!.id).execute())
		expect(await undoImport(member.userId, batch.batchId)).toEqual({ ok: true, removed: 2 })
		expect(await undoImport(member.userId, batch.batchId)).toEqual({ ok: false, code: 'already_undone' })
		expect((await imported(owner.userId, owner.orgId)).map((r) => r.description)).toEqual(['kept'])
		const history = await asUser(owner.userId, (trx) =>
			trx
				.selectFrom('import_batches')
				.select(['status', 'undone_count', 'undone_by', 'created_count'])
				.where('id', '=', batch.batchId)
				.executeTakeFirstOrThrow(),
		)
		expect(history).toEqual({ status: 'undone', undone_count: 2, undone_by: member.userId, created_count: 3 })
		const tombstones = await asSystem((trx) =>
			trx.selectFrom('import_tombstones').select('import_key').where('organization_id', '=', owner.orgId).execute(),
		)
		expect(tombstones).toEqual([])
		const again = await commitFile(owner.userId, owner.orgId, VENMO)
		expect(again.counts).toMatchObject({ created: 2, duplicates: 1 })
	})

	test('rollups follow the commit and the undo', async () => {
		const owner = await org('Rollup')
		const batch = await commitFile(owner.userId, owner.orgId, VENMO)
		const totals = () =>
			asSystem((trx) =>
				trx
					.selectFrom('organization_transaction_totals')
					.select(['transaction_count', 'amount_sum', 'matched_count'])
					.where('organization_id', '=', owner.orgId)
					.executeTakeFirst(),
			)
		expect(await totals()).toEqual({ transaction_count: 3, amount_sum: '1345.00', matched_count: 1 })
		await undoImport(owner.userId, batch.batchId)
		expect(await totals()).toMatchObject({ transaction_count: 0, matched_count: 0 })
	})
})

describe('bad input', () => {
	test('payments a caller normalised badly are failed rows with their reason; the good ones import', async () => {
		const owner = await org('Bad payments')
		const good = zelle('Ana Silva', '10.00')
		const result = await importPayments({
			organizationId: owner.orgId,
			userId: owner.userId,
			source: 'email',
			payments: [
				good,
				{ ...good, date: '2026-02-30' },
				{ ...good, amount: '-5.00' },
				{ ...good, payer: ' ' },
				{ ...good, method: 'Bitcoin' as 'Zelle' },
			],
		})
		if (!result.ok || result.status !== 'committed') throw new Error('not committed')
		expect(result.batch.counts.created).toBe(1)
		expect(result.batch.failures.map((f) => f.reason)).toEqual(['dateInvalid', 'amountInvalid', 'payerMissing', 'methodInvalid'])
	})

	test.each([
		['', 'empty'],
		['\0\0\0', 'notCsv'],
		['a,b\n1,2', 'mappingRequired'],
	])('%j: nothing is written', async (file, error) => {
		const owner = await org(`Bad ${error}`)
		expect(await importPayments({ organizationId: owner.orgId, userId: owner.userId, file })).toMatchObject({ ok: false, error })
		const batches = await asUser(owner.userId, (trx) => trx.selectFrom('import_batches').select('id').execute())
		expect(batches).toEqual([])
	})
})

describe('payer names compared blind to accents', () => {
	const payments = (userId: string, orgId: string, list: NormalizedPayment[]) =>
		importPayments({ organizationId: orgId, userId, source: 'email', payments: list })
	const clientIds = (userId: string, orgId: string, names: string[]) =>
		asUser(userId, async (trx) => {
			const rows = await trx
				.insertInto('clients')
				.values(names.map((name) => ({ organization_id: orgId, name })))
				.returning(['id', 'name'])
				.execute()
			return names.map((name) => rows.find((r) => r.name === name)!.id)
		})

	test("payerKey in TypeScript is public.payer_key's key: case, spaces and accents aside", async () => {
		const names = [
			'JOSÉ',
			'José',
			'NÚÑEZ',
			'Núñez',
			'JOÃO',
			'João',
			'ÇA',
			'ça',
			'Conceição',
			'CONCEIÇÃO',
			'Ángela Ruiz',
			'ÁNGELA',
			'á é í ó ú ñ ç ã õ â ê ô à ü',
			'Á É Í Ó Ú Ñ Ç Ã Õ Â Ê Ô À Ü',
			'Müller',
			'GÜNTHER',
			'Ærø Œuvre',
			'Straße',
			'Łódź',
			'Øster',
			'  José   PÉREZ ',
			'Zelle payment from JOSE PEREZ',
			'Jose\u0301 Pe\u0301rez',
			'Ana\tMaria\nSousa',
			'İlkay',
			'François Pâquerette',
		]
		const { rows } = await asSystem((trx) =>
			sql<{ name: string; key: string }>`select n as name, public.payer_key(n) as key from unnest(${names}::text[]) n`.execute(trx),
		)
		expect(rows.map((r) => [r.name, payerKey(r.name)])).toEqual(rows.map((r) => [r.name, r.key]))
		expect(rows.slice(0, 8).map((r) => r.key)).toEqual(['jose', 'jose', 'nunez', 'nunez', 'joao', 'joao', 'ca', 'ca'])
		expect(payerKey('  José   PÉREZ ')).toBe('jose perez')
	})

	test('a bank file\'s "JOSE PEREZ" is the client José Pérez; two clients of that name are a review, not a pick', async () => {
		const owner = await org('Accents')
		const [jose, alberto] = await clientIds(owner.userId, owner.orgId, ['José Pérez', 'Alberto Núñez', 'Jõao Lima', 'João Lima'])
		const result = await payments(owner.userId, owner.orgId, [
			zelle('JOSE PEREZ', '10.00'),
			zelle('alberto  nunez', '11.00'),
			zelle('JOAO LIMA', '12.00'),
		])
		expect(result.ok && result.status === 'committed' && result.batch.counts).toMatchObject({
			created: 3,
			matched: 2,
			review: 1,
			unmatched: 0,
		})
		const rows = await asUser(owner.userId, (trx) =>
			trx
				.selectFrom('transactions')
				.select(['raw_payer', 'client_id', 'category'])
				.where('organization_id', '=', owner.orgId)
				.orderBy('amount')
				.execute(),
		)
		expect(rows).toEqual([
			{ raw_payer: 'JOSE PEREZ', client_id: jose, category: 'matched' },
			{ raw_payer: 'alberto  nunez', client_id: alberto, category: 'matched' },
			{ raw_payer: 'JOAO LIMA', client_id: null, category: 'review' },
		])
	})

	test('the review queue offers José Pérez first for "JOSE PEREZ", and will not make a second one', async () => {
		const owner = await org('Accent Queue')
		await payments(owner.userId, owner.orgId, [zelle('JOSE PEREZ', '10.00')])
		const [jose] = await clientIds(owner.userId, owner.orgId, ['José Pérez', 'Zoe Park'])
		const { rows, clients } = await listReviewQueue(owner.userId, owner.orgId)
		expect(rows).toEqual([expect.objectContaining({ payer: 'JOSE PEREZ', category: 'unmatched', candidates: [jose] })])
		expect(clients.map((c) => c.name)).toContain('José Pérez')
		expect(await resolveReview(owner.userId, owner.orgId, { transactionId: rows[0]!.id, clientId: null, saveAlias: true })).toEqual({
			ok: false,
			error: 'clientExists',
		})
	})

	test('aliases of one payer for two clients (accents once told them apart) make it a review; remembering one settles it', async () => {
		const owner = await org('Accent Aliases')
		const [first, second] = await clientIds(owner.userId, owner.orgId, ['Pérez Studio', 'J. Perez'])
		await asUser(owner.userId, (trx) =>
			trx
				.insertInto('payer_aliases')
				.values([
					{ organization_id: owner.orgId, alias: 'JOSE PEREZ', client_id: first! },
					{ organization_id: owner.orgId, alias: 'José Pérez', client_id: second! },
				])
				.execute(),
		)
		const batch = await payments(owner.userId, owner.orgId, [zelle('Jose Perez', '10.00'), zelle('JOSÉ PÉREZ', '11.00')])
		expect(batch.ok && batch.status === 'committed' && batch.batch.counts).toMatchObject({ created: 2, review: 2 })
		const { rows } = await listReviewQueue(owner.userId, owner.orgId)
		expect(rows.map((r) => r.candidates)).toEqual([
			[second, first],
			[second, first],
		])
		expect(await resolveReview(owner.userId, owner.orgId, { transactionId: rows[0]!.id, clientId: second!, saveAlias: true })).toEqual({
			ok: true,
			updated: 2,
		})
		const aliases = await asUser(owner.userId, (trx) =>
			trx.selectFrom('payer_aliases').select(['alias_key', 'client_id']).where('organization_id', '=', owner.orgId).execute(),
		)
		expect(aliases).toEqual([{ alias_key: 'jose perez', client_id: second }])
		const next = await payments(owner.userId, owner.orgId, [zelle('JOSE PEREZ', '12.00')])
		expect(next.ok && next.status === 'committed' && next.batch.counts).toMatchObject({ created: 1, matched: 1 })
	})

	test("an id-less payment's key keeps the payer's accents: payments imported before are still found on re-import", () => {
		// The key the import gave this payment before payer names were compared blind to accents.
		expect(new ImportKeys().next(zelle('  José   PÉREZ ', '60.00'))).toBe('h:a4woQUjXNF8TevEsdv9CDkA7laZnZsoKce1nhCU1CO0:1')
	})
})
