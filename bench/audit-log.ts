/**
 * The audit log's cost on a bulk insert (docs/decisions/053-audit-log.md): 100,000 payments in one
 * statement on a fresh database of the PostgreSQL test server, for an organization without CRM
 * Enterprise with the audit triggers off and on (what it pays: one `exists` per statement), and for
 * one with it (one summary event). Prints the times; not a pass/fail test.
 *
 *   node_modules/.bin/tsx bench/audit-log.ts
 */
import { performance } from 'node:perf_hooks'
import { freshPgDatabase } from './pg-database.ts'
import { asSystem, closeDatabase, openDatabase, sql } from '../app/.server/db/index.ts'
import { migrate } from '../app/.server/db/migrate.ts'

const ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 100_000)
const ROUNDS = Number(process.env.BENCH_AUDIT_ROUNDS ?? 5)

const database = await freshPgDatabase('p2p_bench_audit')
try {
	await openDatabase({ kind: 'pg', url: database.url, max: 2 })
	await migrate()
	const org = async (name: string) =>
		asSystem(async (trx) => {
			const { rows } = await sql<{ id: string }>`insert into auth.users (email, raw_user_meta_data)
				values (${`${name}@bench.test`}, ${JSON.stringify({ full_name: name })}::jsonb) returning id`.execute(trx)
			const member = await sql<{ organization_id: string }>`select organization_id from public.organization_members
				where user_id = ${rows[0]!.id}`.execute(trx)
			return member.rows[0]!.organization_id
		})
	const plain = await org('plain')
	const enterprise = await org('enterprise')
	await asSystem((trx) =>
		sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
			select m.organization_id, m.id, 'c0000000-0000-4000-8000-000000000006' from public.organization_modules m
			where m.organization_id = ${enterprise} and m.module_id = 'b0000000-0000-4000-8000-000000000002'`.execute(trx),
	)
	/** The statement's time, and the audit trigger's own (PostgreSQL's function statistics, which a busy machine blurs less). */
	const triggerMs: number[][] = [[], [], []]
	const insert = async (orgId: string, triggers: boolean, n: number) => {
		let ms = 0
		await asSystem(async (trx) => {
			if (!triggers) await sql`alter table public.transactions disable trigger audit_inserted`.execute(trx)
			await sql`set local track_functions = 'pl'`.execute(trx)
			const start = performance.now()
			await sql`insert into public.transactions (organization_id, amount, date_received, description)
				select ${orgId}::uuid, (g % 500) + 1, date '2026-01-01' + (g % 300), 'Bench ' || g
				from generate_series(1, ${ROWS}) g`.execute(trx)
			ms = performance.now() - start
			const { rows } = await sql<{ ms: number }>`select coalesce(sum(total_time), 0)::float8 as ms from pg_stat_xact_user_functions
				where schemaname = 'private' and funcname = 'audit_changes'`.execute(trx)
			triggerMs[n]!.push(rows[0]!.ms)
			// Rolled back: every round starts from the same table.
			throw new Error('rollback')
		}).catch((error: unknown) => {
			if (!(error instanceof Error && error.message === 'rollback')) throw error
		})
		return ms
	}
	// Rounds interleave the three cases, so that a busy machine slows each alike.
	const cases = [
		['without CRM Enterprise, audit triggers off', plain, false],
		['without CRM Enterprise, audit triggers on ', plain, true],
		['with CRM Enterprise (one summary event)    ', enterprise, true],
	] as const
	const times: number[][] = cases.map(() => [])
	for (let i = 0; i < ROUNDS; i++) for (const [n, [, orgId, triggers]] of cases.entries()) times[n]!.push(await insert(orgId, triggers, n))
	for (const [n, [label]] of cases.entries()) {
		const sorted = [...times[n]!].sort((a, b) => a - b)
		const median = sorted[Math.floor(sorted.length / 2)]!
		const trigger = [...triggerMs[n]!].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!
		console.log(
			`${label}: median ${(median / 1000).toFixed(2)} s of ${ROUNDS} (${times[n]!.map((t) => (t / 1000).toFixed(2)).join(', ')}); audit trigger ${trigger.toFixed(1)} ms`,
		)
	}
} finally {
	await closeDatabase()
	await database.drop()
}
