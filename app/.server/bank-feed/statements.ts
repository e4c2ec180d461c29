/**
 * Bank Feed Reconciliation, the screen's side (docs/product.md, Bank feed;
 * docs/decisions/049-bank-feed.md): an OFX/QFX upload parsed (../payments/imports/parsers/ofx.ts),
 * each line recognised (app/lib/bank-feed.ts) and recorded by `record_bank_statement`, which
 * skips lines already recorded and reconciles; the screen's data (statements, lines with the
 * payments each cash-out carried, discrepancies); removing a statement; reconciling again.
 * Every write is one SQL function, which checks the membership and the upgrade again.
 */
import { sql } from 'kysely'
import { classifyBankLine, MAX_OFX_BYTES, type BankLineKind } from '#app/lib/bank-feed.ts'
import { MODULES } from '#app/lib/modules.ts'
import { asSystem, asUser, dbErrorCode } from '../db/index.ts'
import { parseOfx, type OfxError } from '../payments/imports/parsers/ofx.ts'

export const BANK_FEED_UPGRADE_ID = MODULES.p2p.upgrades.bankFeed.id

export type UploadError = OfxError | 'missing' | 'tooLarge'

export type UploadOutcome =
	| { ok: true; added: number; duplicates: number; cashouts: number; matched: number }
	| { ok: false; error: UploadError }
	| { ok: false; code: 'upgrade_inactive' }

/** UTF-8 (with or without BOM), else Windows-1252 (OFX 1.x files often say CHARSET:1252); null for binary. */
function decode(bytes: Uint8Array): string | null {
	if (bytes.includes(0)) return null
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
	} catch {
		return new TextDecoder('windows-1252').decode(bytes)
	}
}

/** Reads, recognises and records an uploaded statement (the form's `file`). */
export async function uploadStatement(userId: string, organizationId: string, file: FormDataEntryValue | null): Promise<UploadOutcome> {
	if (!(file instanceof File) || file.size === 0) return { ok: false, error: file instanceof File && file.name ? 'empty' : 'missing' }
	if (file.size > MAX_OFX_BYTES) return { ok: false, error: 'tooLarge' }
	const text = decode(new Uint8Array(await file.arrayBuffer()))
	if (text === null) return { ok: false, error: 'notOfx' }
	return recordStatement(userId, organizationId, text, file.name.slice(0, 255))
}

/** Records the statement in `text` (tests call it with a file's text). */
export async function recordStatement(
	userId: string,
	organizationId: string,
	text: string,
	fileName: string | null,
): Promise<UploadOutcome> {
	const parsed = parseOfx(text)
	if (!parsed.ok) return { ok: false, error: parsed.error }
	const lines = parsed.lines.map((line) => ({ ...line, ...classifyBankLine(line) }))
	try {
		const result = await asUser(userId, async (trx) => {
			const { rows } = await sql<{ result: { statementId: string | null; added: number; duplicates: number } }>`
				select public.record_bank_statement(${organizationId}, ${fileName}, ${parsed.start}, ${parsed.end}, ${JSON.stringify(lines)}::jsonb) as result`.execute(
				trx,
			)
			const outcome = rows[0]!.result
			const { rows: counts } = await sql<{ cashouts: number; matched: number }>`
				select count(*)::int as cashouts, count(*) filter (where status = 'matched')::int as matched
				from public.bank_statement_lines where statement_id = ${outcome.statementId} and kind = 'cashout'`.execute(trx)
			return { ...outcome, ...counts[0]! }
		})
		return { ok: true, added: result.added, duplicates: result.duplicates, cashouts: result.cashouts, matched: result.matched }
	} catch (error) {
		if (dbErrorCode(error) === 'upgrade_inactive') return { ok: false, code: 'upgrade_inactive' }
		throw error
	}
}

export type RemoveOutcome = { ok: true } | { ok: false; code: 'statement_not_found' | 'upgrade_inactive' }

/** Removes an uploaded statement and its lines (the undo of an upload). */
export async function removeStatement(userId: string, statementId: string): Promise<RemoveOutcome> {
	try {
		await asUser(userId, (trx) => sql`select public.remove_bank_statement(${statementId})`.execute(trx))
		return { ok: true }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'statement_not_found' || code === 'upgrade_inactive' || code === '22P02') {
			return { ok: false, code: code === 'upgrade_inactive' ? code : 'statement_not_found' }
		}
		throw error
	}
}

/** Reconciles again: after payments were imported, edited or removed. */
export async function reconcile(userId: string, organizationId: string): Promise<boolean> {
	try {
		await asUser(userId, (trx) => sql`select public.reconcile_bank_feed(${organizationId})`.execute(trx))
		return true
	} catch (error) {
		if (dbErrorCode(error) === 'upgrade_inactive') return false
		throw error
	}
}

/**
 * After a committed import: an organization with cash-outs on its statements reconciles again,
 * so payments imported after the bank's file are matched to their deposit. Nothing for the others
 * (one indexed look-up).
 */
export async function reconcileAfterImport(batch: { organizationId: string }) {
	await asSystem(async (trx) => {
		const { rows } = await sql<{ yes: boolean }>`
			select exists (select 1 from public.bank_statement_lines b where b.organization_id = ${batch.organizationId} and b.kind = 'cashout')
			  and private.owns_upgrade(${batch.organizationId}, ${BANK_FEED_UPGRADE_ID}) as yes`.execute(trx)
		if (rows[0]?.yes) await sql`select private.reconcile_bank_feed(${batch.organizationId})`.execute(trx)
	})
}

export type Statement = {
	id: string
	fileName: string | null
	accounts: string
	periodStart: string | null
	periodEnd: string | null
	lineCount: number
	createdAt: string
}

export type CarriedPayment = { id: string; date: string; payer: string; amount: string; fee: string | null }

export type BankLine = {
	id: string
	postedOn: string
	amount: string
	name: string
	account: string
	kind: BankLineKind
	rail: string | null
	status: 'open' | 'matched' | 'uncovered' | 'mismatch' | null
	expected: string | null
	payments: CarriedPayment[]
}

export type Discrepancy = {
	kind: 'uncovered' | 'mismatch' | 'notDeposited'
	id: string
	rail: string | null
	day: string
	amount: string
	expected: string | null
	label: string
}

export type BankFeedView = {
	owned: boolean
	statements: Statement[]
	lines: BankLine[]
	discrepancies: Discrepancy[]
	totals: { cashouts: string; ownTransfers: string; deposits: string }
}

/** The most recent lines the screen lists. */
const LISTED_LINES = 200

/** The screen's data, read as the member. */
export async function getBankFeed(userId: string, organizationId: string): Promise<BankFeedView> {
	return asUser(userId, async (trx) => {
		const { rows: owns } = await sql<{ yes: boolean }>`
			select exists (select 1 from public.organization_module_upgrades u
			  where u.organization_id = ${organizationId} and u.upgrade_id = ${BANK_FEED_UPGRADE_ID}) as yes`.execute(trx)
		const owned = owns[0]?.yes ?? false
		const empty = { cashouts: '0.00', ownTransfers: '0.00', deposits: '0.00' }
		if (!owned) return { owned, statements: [], lines: [], discrepancies: [], totals: empty }
		const { rows: statements } = await sql<Statement>`
			select s.id, s.file_name as "fileName", s.accounts, to_char(s.period_start, 'YYYY-MM-DD') as "periodStart",
			  to_char(s.period_end, 'YYYY-MM-DD') as "periodEnd", s.line_count as "lineCount", s.created_at::text as "createdAt"
			from public.bank_statements s where s.organization_id = ${organizationId}
			order by s.created_at desc, s.id limit 50`.execute(trx)
		const { rows: lines } = await sql<Omit<BankLine, 'payments'> & { payments: CarriedPayment[] | null }>`
			select b.id, to_char(b.posted_on, 'YYYY-MM-DD') as "postedOn", b.amount::text as amount,
			  coalesce(b.name, b.memo, '') as name, b.account_label as account, b.kind, b.rail::text as rail, b.status,
			  b.expected_amount::text as expected,
			  (select json_agg(json_build_object('id', t.id, 'date', to_char(t.date_received, 'YYYY-MM-DD'),
			      'payer', coalesce(c.name, t.raw_payer, ''), 'amount', t.amount::text, 'fee', t.fee::text)
			    order by t.date_received, t.created_at, t.id)
			   from public.bank_deposit_payments d join public.transactions t on t.id = d.transaction_id
			   left join public.clients c on c.organization_id = t.organization_id and c.id = t.client_id
			   where d.line_id = b.id) as payments
			from public.bank_statement_lines b where b.organization_id = ${organizationId}
			order by b.posted_on desc, b.amount desc, b.id limit ${LISTED_LINES}`.execute(trx)
		const { rows: sums } = await sql<{ cashouts: string; ownTransfers: string; deposits: string }>`
			select coalesce(sum(amount) filter (where kind = 'cashout'), 0)::numeric(14, 2)::text as cashouts,
			  coalesce(sum(amount) filter (where kind = 'ownTransfer' and amount > 0), 0)::numeric(14, 2)::text as "ownTransfers",
			  coalesce(sum(amount) filter (where kind = 'deposit'), 0)::numeric(14, 2)::text as deposits
			from public.bank_statement_lines where organization_id = ${organizationId}`.execute(trx)
		const { rows: discrepancies } = await sql<Discrepancy>`
			select d.kind, d.ref_id as id, d.rail::text as rail, to_char(d.day, 'YYYY-MM-DD') as day, d.amount::text as amount,
			  d.expected::text as expected, d.label
			from public.bank_feed_discrepancies(${organizationId}) d limit 200`.execute(trx)
		return {
			owned,
			statements,
			lines: lines.map((l) => ({ ...l, payments: l.payments ?? [] })),
			discrepancies,
			totals: sums[0] ?? empty,
		}
	})
}
