import { describe, expect, test } from 'vitest'
import { asSystem, sql } from '#app/.server/db/index.ts'
import { analyzeFilledTables, vacuumWhereDue } from '#app/.server/db/maintenance.ts'
import { createUser, isDbTarget } from './fixtures.ts'

/** The planner's guess of how many transactions an organization has. */
async function estimatedRows(orgId: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>`
			explain (format json) select * from public.transactions where organization_id = ${orgId}`.execute(trx),
	)
	return rows[0]!['QUERY PLAN'][0]!.Plan['Plan Rows']
}

async function addTransactions(orgId: string, count: number) {
	await asSystem((trx) =>
		sql`insert into public.transactions (organization_id, amount, date_received)
			select ${orgId}, (g % 500) + 0.99, date '2026-01-01' + (g % 300) from generate_series(1, ${count}) g`.execute(trx),
	)
}

// PGlite runs no autovacuum (app/.server/db/maintenance.ts): the server's pass is all there is.
describe.runIf(isDbTarget('pglite'))('the embedded database vacuums and analyzes what autovacuum would', () => {
	test('after a bulk insert and deletes the planner knows the row counts, the dead rows are gone, and a second pass finds nothing due', async () => {
		const org = await createUser('Vacuum Owner')
		await addTransactions(org.orgId, 3000)
		await asSystem((trx) => sql`delete from public.transactions where organization_id = ${org.orgId} and amount < 100`.execute(trx))
		const left = 3000 - 3000 / 5

		expect(await vacuumWhereDue()).toContain('public.transactions')

		const estimate = await estimatedRows(org.orgId)
		expect(estimate).toBeGreaterThan(left * 0.5)
		expect(estimate).toBeLessThan(left * 1.5)
		const { rows } = await asSystem((trx) =>
			sql<{ n_dead_tup: number; last_analyze: Date | null }>`
				select n_dead_tup, last_analyze from pg_stat_user_tables where schemaname = 'public' and relname = 'transactions'`.execute(trx),
		)
		expect(rows[0]).toMatchObject({ n_dead_tup: 0, last_analyze: expect.any(Date) })
		expect(await vacuumWhereDue()).toEqual([])

		// Under the thresholds (50 rows + 10 % of the table): nothing to do yet.
		await addTransactions(org.orgId, 40)
		expect(await vacuumWhereDue()).toEqual([])
	})
})

describe.runIf(isDbTarget('pg'))('on the PostgreSQL server (which has its own autovacuum)', () => {
	test('the same pass runs too (outside any transaction, which VACUUM refuses), and vacuums each table it lists', async () => {
		// A table of its own, surely due (2,000 rows never vacuumed), whatever the shared test
		// database's other tables hold; in a schema of its own, away from the data model's catalogue tests.
		const schema = `vacuum_probe_${process.pid}_${Date.now()}`
		await asSystem((trx) =>
			sql`create schema ${sql.id(schema)}; create table ${sql.id(schema, 'rows')} as select g as n from generate_series(1, 2000) g`.execute(
				trx,
			),
		)
		try {
			const since = new Date(Date.now() - 1_000)
			const vacuumed = await vacuumWhereDue()
			expect(vacuumed).toContain(`${schema}.rows`)
			for (const name of vacuumed) {
				const [tableSchema, table] = name.split('.')
				const { rows } = await asSystem((trx) =>
					sql<{ vacuumed: Date | null }>`select greatest(last_vacuum, last_autovacuum) as vacuumed
						from pg_stat_user_tables where schemaname = ${tableSchema} and relname = ${table}`.execute(trx),
				)
				expect(rows[0]?.vacuumed?.getTime() ?? 0, name).toBeGreaterThanOrEqual(since.getTime())
			}
		} finally {
			await asSystem((trx) => sql`drop schema ${sql.id(schema)} cascade`.execute(trx))
		}
	})
})

test('after a bulk load, every table that holds rows is analyzed and an empty one is left as never analyzed', async () => {
	// Tables of their own, in a schema of their own (the shared test database's other tables
	// change under other test files).
	const schema = `analyze_probe_${process.pid}_${Date.now()}`
	await asSystem(async (trx) => {
		await sql`create schema ${sql.id(schema)}`.execute(trx)
		await sql`create table ${sql.id(schema, 'filled')} as select g as n from generate_series(1, 300) g`.execute(trx)
		await sql`create table ${sql.id(schema, 'empty')} (n int)`.execute(trx)
	})
	try {
		await analyzeFilledTables()
		const { rows } = await asSystem((trx) =>
			sql<{ table: string; estimated: number }>`select c.relname as table, c.reltuples::int as estimated
				from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${schema} order by c.relname`.execute(trx),
		)
		// -1: never analyzed, so the planner looks at the table's size when it plans; 0 would mean empty for good.
		expect(rows).toEqual([
			{ table: 'empty', estimated: -1 },
			{ table: 'filled', estimated: 300 },
		])
	} finally {
		await asSystem((trx) => sql`drop schema ${sql.id(schema)} cascade`.execute(trx))
	}
})
