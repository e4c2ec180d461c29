import { createHash } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import { asSystem, asUser, systemStatement } from '../../db/index.ts'
import { stageImportExpenses, type StagedOutgoing } from '../../expenses/imports.ts'
import type { FailReason, ImportSource, NormalizedPayment, ParsedRow } from './parsers/index.ts'

/** Failing rows kept with a batch for its preview. */
export const MAX_KEPT_FAILURES = 200

/** The most rows one statement writes (stage_import_rows and commit_import_chunk take no more). */
export const STAGE_CHUNK_ROWS = 5_000

/** How often a reading that writes nothing (a file of skipped rows) says it is still alive. */
const HEARTBEAT_MS = 20_000

export type RowFailure = { line: number; reason: FailReason; value: string }

export type StagedBatch = {
	batchId: string
	source: ImportSource
	rowsRead: number
	payments: number
	ignored: number
	failed: number
	failures: RowFailure[]
}

/** How the chunks of a long piece of import work are sized: the first chunk, and the time each should take. */
export type ChunkPolicy = { initial: number; targetMs: number }

/**
 * The embedded database has one connection, which every request of the server waits for: a
 * chunk takes about 30 ms, the longest another request should wait (docs/decisions/016-imports.md).
 */
export const EMBEDDED_CHUNKS: ChunkPolicy = { initial: 250, targetMs: 30 }

/**
 * A PostgreSQL server gives other requests connections of their own, and each chunk pays a
 * transaction, the statement's plan and the organization's totals: a chunk is the largest,
 * which holds the organization's totals row (other writes of that organization) for well under
 * a second (bench/README.md, imports.ts).
 */
export const SERVER_CHUNKS: ChunkPolicy = { initial: STAGE_CHUNK_ROWS, targetMs: Number.POSITIVE_INFINITY }

let embedded: Promise<boolean> | undefined

/**
 * The chunk policy of the database the process uses, asked of the database once (the embedded
 * one is PostgreSQL compiled to WebAssembly: its `version()` says so).
 */
export async function chunkPolicy(): Promise<ChunkPolicy> {
	embedded ??= systemStatement(sql<{ embedded: boolean }>`select version() like '%wasm%' as embedded`).then(
		(rows) => rows[0]!.embedded,
		(error: unknown) => {
			embedded = undefined
			throw error
		},
	)
	return (await embedded) ? EMBEDDED_CHUNKS : SERVER_CHUNKS
}

/**
 * Sizes the chunks of a long piece of database work (staging, commit, undo) by time: after each
 * statement the next chunk is sized so that it takes about the policy's target, as measured by
 * the caller (the wait for the embedded database's one connection included, so the chunks
 * shrink while other requests are waiting for it), growing at most twofold a step, within
 * `min` and `max` rows. One code path for both databases: on the embedded one no statement then
 * holds the database for long, whichever machine and load; on a PostgreSQL server (no target)
 * every chunk is the largest.
 */
export class ChunkSizer {
	size: number

	/** A sizer with the policy of the database in use. */
	static async forDatabase(): Promise<ChunkSizer> {
		return new ChunkSizer(await chunkPolicy())
	}

	constructor(
		private readonly policy: ChunkPolicy = EMBEDDED_CHUNKS,
		// Below this a statement's fixed cost (its transaction, the role, the plan) is most of it:
		// smaller chunks would not be shorter, only more of them.
		private readonly min = 50,
		private readonly max = STAGE_CHUNK_ROWS,
	) {
		this.size = Math.min(max, Math.max(min, policy.initial))
	}

	/** Runs one chunk of the current size and sizes the next one. */
	async run<T>(fn: (size: number) => Promise<T>): Promise<T> {
		const start = performance.now()
		const result = await fn(this.size)
		const ms = Math.max(1, performance.now() - start)
		const next = Math.min(this.size * 2, (this.size * this.policy.targetMs) / ms)
		this.size = Math.round(Math.min(this.max, Math.max(this.min, next)))
		return result
	}
}

/**
 * Stages a batch while its rows are read: each payment gets its dedupe key and is written with
 * the next chunk (`stage_import_rows`, which plans the chunk's rows as it writes them: the
 * preview's counts are kept with the batch), so the importing process holds a chunk or two of
 * rows, never the whole file's (docs/decisions/016-imports.md, "Staging in chunks"). A chunk is
 * written while the file is read on: the database plans and writes one chunk while the parser
 * reads the next, and the parser waits only when a second chunk is ready before the first is
 * written. The batch is created as soon as the file's layout is known: for a file import that
 * is the organization's claim, refused with `import_in_progress` while another import of it is
 * in progress. `finish` records the counts, `abandon` removes a batch left half read.
 */
export class Stager {
	#source: ImportSource | null = null
	#batchId: string | null = null
	#pending: string[] = []
	#keys = new ImportKeys()
	#sizer: ChunkSizer | null = null
	/** The chunk being written, if any (its failure is thrown by the next drain, finish or abandon). */
	#writing: Promise<void> | null = null
	#lastWrite = 0
	#rowsRead = 0
	#payments = 0
	#ignored = 0
	#failed = 0
	#failures: RowFailure[] = []
	#outgoing: StagedOutgoing[] = []
	#outgoingKeys = new ImportKeys()

	constructor(
		private readonly organizationId: string,
		private readonly userId: string,
		private readonly label: string | null,
	) {}

	layout(source: ImportSource) {
		this.#source = source
	}

	row(row: ParsedRow) {
		this.#rowsRead++
		if (row.kind === 'ignored') {
			this.#ignored++
			// Money out: an expense or a refund, staged at the end if the organization has Expense Tracking.
			if (row.outgoing)
				this.#outgoing.push({ ...row.outgoing, ord: this.#outgoing.length + 1, importKey: this.#outgoingKeys.next(row.outgoing.payment) })
		} else if (row.kind === 'failed') {
			this.#failed++
			if (this.#failures.length < MAX_KEPT_FAILURES)
				this.#failures.push({ line: row.line, reason: row.reason, value: row.value.slice(0, 80) })
		} else {
			const p = row.payment
			this.#payments++
			this.#pending.push(
				JSON.stringify({
					ord: this.#payments,
					import_key: this.#keys.next(p),
					external_id: p.externalId,
					amount: p.amount,
					fee: p.fee,
					tip: p.tip ?? null,
					date_received: p.date,
					payment_method: p.method,
					raw_payer: p.payer,
					payer_email: p.payerEmail ?? null,
					description: p.description?.slice(0, 2000) ?? null,
				}),
			)
		}
	}

	/**
	 * Between two chunks of the file: claims the batch once the layout is known, starts writing
	 * the pending rows once a chunk's worth is held (after the chunk before it is written), and
	 * otherwise says now and then that the reading is alive.
	 */
	async drain() {
		if (!this.#source) return
		await this.#batch()
		const sizer = await this.#chunkSizer()
		if (this.#pending.length >= sizer.size) {
			await this.#written()
			this.#writing = this.#flush()
			// Thrown by whoever waits for it next; until then it must not count as unhandled.
			this.#writing.catch(() => undefined)
		} else if (performance.now() - this.#lastWrite > HEARTBEAT_MS) {
			await this.#written()
			if (performance.now() - this.#lastWrite > HEARTBEAT_MS) await this.#write('[]')
		}
	}

	async finish(): Promise<StagedBatch> {
		const batchId = await this.#batch()
		await this.#written()
		while (this.#pending.length > 0) await this.#flush()
		if (this.#outgoing.length > 0) await stageImportExpenses(this.userId, batchId, this.#outgoing)
		await asUser(this.userId, (trx) =>
			sql`select public.finish_import_stage(${batchId}, ${this.#rowsRead}::int, ${this.#ignored}::int, ${this.#failed}::int,
				${JSON.stringify(this.#failures)}::jsonb)`.execute(trx),
		)
		return {
			batchId,
			source: this.#source!,
			rowsRead: this.#rowsRead,
			payments: this.#payments,
			ignored: this.#ignored,
			failed: this.#failed,
			failures: this.#failures,
		}
	}

	/** Removes the batch staged so far (a file found not to be CSV half-way through). */
	async abandon() {
		await this.#written().catch(() => undefined)
		const batchId = this.#batchId
		if (!batchId) return
		await asSystem((trx) => sql`delete from public.import_batches where id = ${batchId} and status = 'staged'`.execute(trx))
	}

	/** Waits for the chunk being written, if any, and throws its failure. */
	async #written() {
		const writing = this.#writing
		this.#writing = null
		await writing
	}

	async #chunkSizer(): Promise<ChunkSizer> {
		this.#sizer ??= await ChunkSizer.forDatabase()
		return this.#sizer
	}

	async #flush() {
		const sizer = await this.#chunkSizer()
		await sizer.run((size) => this.#write(`[${this.#pending.splice(0, size).join(',')}]`))
	}

	async #write(chunk: string) {
		const batchId = await this.#batch()
		await asUser(this.userId, (trx) => sql`select public.stage_import_rows(${batchId}, ${chunk}::jsonb)`.execute(trx))
		this.#lastWrite = performance.now()
	}

	async #batch(): Promise<string> {
		if (this.#batchId) return this.#batchId
		if (!this.#source) throw new Error('staging before the layout is known')
		const id = await asUser(this.userId, async (trx) => {
			const { rows } = await sql<{ id: string }>`
				select public.stage_import(${this.organizationId}, ${this.#source}, ${this.label}, '[]'::jsonb, 0, 0, 0, '[]'::jsonb) as id`.execute(trx)
			return rows[0]!.id
		})
		this.#batchId = id
		this.#lastWrite = performance.now()
		return id
	}
}

/**
 * The payer as an id-less payment's hash has it: lowercased, trimmed, spaces collapsed, accents
 * kept. It was payerKey before matching became blind to accents, and it must not follow it:
 * every transaction imported before keeps its key, and a file imported again would otherwise
 * create each of its payments from "José" or "Núñez" a second time.
 */
function hashedPayer(payer: string) {
	return payer.trim().replace(/\s+/g, ' ').toLowerCase()
}

/**
 * The dedupe key of each payment in turn: its provider's id (`idKey`), else the key its
 * channel gave it (a mail notice's message id), else a content hash plus its occurrence in the
 * file, so two real identical payments on one day are both kept.
 */
export class ImportKeys {
	/**
	 * The providers whose ids mean the same whatever their case: Cash App's CSV writes `rmgsrz`
	 * where its mail writes `#RMGSRZ`, the banks' Zelle and wire references are read upper-cased
	 * from a notice and as written from a statement (every bank's, whether its statement or its
	 * notices are read yet or not), PayPal's ids are upper-case and Venmo's are digits. A generic
	 * CSV's ids are the user's own column: they are kept as written.
	 */
	static readonly CASE_BLIND_PROVIDERS: ReadonlySet<string> = new Set([
		'venmo',
		'paypal',
		'cashapp',
		'chase',
		'bofa',
		'capitalone',
		'td',
		'wellsfargo',
		'navyfederal',
		'usbank',
		'pnc',
		'citi',
		'truist',
	])

	/**
	 * The dedupe key of a provider's id, `id:<provider>:<id>`, the id upper-cased where the
	 * provider's ids are blind to case, so the same payment read from a notice and from a CSV is
	 * one key. Migration 20261204020000_case_blind_import_keys.sql gave the keys stored before
	 * this rule the same form (the SQL there lists the same providers).
	 */
	static idKey(provider: string, externalId: string): string {
		return `id:${provider}:${ImportKeys.CASE_BLIND_PROVIDERS.has(provider) ? externalId.toUpperCase() : externalId}`
	}

	#seen = new Map<string, number>()

	next(p: NormalizedPayment): string {
		if (p.externalId) return ImportKeys.idKey(p.provider, p.externalId)
		if (p.dedupeKey) return p.dedupeKey
		const content = [p.date, p.amount, hashedPayer(p.payer), (p.description ?? '').trim().toLowerCase(), p.method].join('\u001f')
		const hash = createHash('sha256').update(content).digest('base64url')
		const n = (this.#seen.get(hash) ?? 0) + 1
		this.#seen.set(hash, n)
		return `h:${hash}:${n}`
	}
}
