/**
 * Named statements (docs/decisions/034-prepared-statements.md; which ones:
 * app/.server/db/statement-names.js), on the PostgreSQL server (app/.server/db/prepared.ts) and
 * the embedded database (app/.server/db/pglite-statements.js):
 * what a connection keeps, what it must not keep, and that a kept plan never lets one user read
 * another's rows.
 */
import pg from 'pg'
import { afterEach, describe, expect, inject, test } from 'vitest'
import { asSystem, asUser, sql, systemStatement } from '#app/.server/db/index.ts'
import { namingClient } from '#app/.server/db/prepared.ts'
import { MAX_NAMED_STATEMENTS } from '#app/.server/db/statement-names.js'
import { createUser, isDbTarget, refusal } from './fixtures.ts'

type Prepared = { name: string; statement: string; executions: number }

const connections: pg.Client[] = []

/** One connection, queried the way Kysely queries (text and values, a promise back). */
async function connect(Client: typeof pg.Client = namingClient()) {
	const connection = new Client({ connectionString: inject('databaseUrl') })
	connections.push(connection)
	await connection.connect()
	return connection
}

async function prepared(connection: pg.Client): Promise<Prepared[]> {
	const { rows } = await connection.query<Prepared>(
		'select name, statement, (generic_plans + custom_plans)::int as executions from pg_prepared_statements order by prepare_time',
	)
	return rows
}

afterEach(async () => {
	await Promise.all(connections.splice(0).map((connection) => connection.end()))
})

describe.runIf(isDbTarget('pg'))('named statements (PostgreSQL server)', () => {
	test('a statement sent three times is parsed once on the connection, and answers each time with its own values', async () => {
		const connection = await connect()
		const text = 'select $1::int * 2 as doubled'
		const answers = []
		for (const n of [1, 2, 3]) answers.push((await connection.query<{ doubled: number }>(text, [n])).rows[0]!.doubled)
		expect(answers).toEqual([2, 4, 6])
		expect(await prepared(connection)).toEqual([{ name: expect.any(String), statement: text, executions: 3 }])
	})

	test('statements without parameters, with over a hundred, and past the cap of distinct texts are sent unnamed', async () => {
		const connection = await connect()
		await connection.query('select 1')
		const many = Array.from({ length: 101 }, (_, i) => i)
		const wide = `select ${many.map((i) => `$${i + 1}::int`).join(' + ')} as total`
		expect((await connection.query<{ total: number }>(wide, many)).rows[0]!.total).toBe(5050)
		expect(await prepared(connection)).toEqual([])

		for (let i = 0; i < MAX_NAMED_STATEMENTS + 5; i++) await connection.query(`select $1::int + ${i} as n`, [i])
		const kept = await prepared(connection)
		expect(kept).toHaveLength(MAX_NAMED_STATEMENTS)
		expect(kept.map((p) => p.statement)).not.toContain(`select $1::int + ${MAX_NAMED_STATEMENTS} as n`)
		// A text that is already named stays named.
		await connection.query('select $1::int + 0 as n', [7])
		expect((await prepared(connection)).find((p) => p.statement === 'select $1::int + 0 as n')?.executions).toBe(2)
	})

	test('a table changed under a kept statement fails that statement once; the next use sees the new columns', async () => {
		const connection = await connect()
		await connection.query('create temporary table shapes (id int, label text)')
		await connection.query("insert into shapes values (1, 'one')")
		const text = 'select * from shapes where id = $1'
		expect((await connection.query(text, [1])).rows).toEqual([{ id: 1, label: 'one' }])
		await connection.query("alter table shapes add column note text default 'new'")
		// SQLSTATE 0A000: "cached plan must not change result type".
		expect(await refusal(connection.query(text, [1]))).toBe('0A000')
		expect((await connection.query(text, [1])).rows).toEqual([{ id: 1, label: 'one', note: 'new' }])
	})

	test('with naming off (a transaction-mode pooler), the connection keeps no statement', async () => {
		const connection = await connect(pg.Client)
		await connection.query('select $1::int as n', [1])
		expect(await prepared(connection)).toEqual([])
	})
})

describe("the app's statements", () => {
	test("the app's statements are kept, and a kept plan run for two users in turn shows each only their organization's rows", async () => {
		const [ana, ben] = [await createUser('Prepared Ana'), await createUser('Prepared Ben')]
		for (const user of [ana, ben]) {
			await asUser(user.userId, (trx) =>
				trx
					.insertInto('clients')
					.values({ organization_id: user.orgId, name: `Prepared client of ${user.userId}` })
					.execute(),
			)
		}
		const names = (userId: string) =>
			asUser(userId, async (trx) => {
				const rows = await trx.selectFrom('clients').select('name').where('name', 'like', 'Prepared client of %').execute()
				return rows.map((row) => row.name)
			})
		// Ten runs each, in turn: past the five after which PostgreSQL may keep a generic plan.
		for (let i = 0; i < 10; i++) {
			expect(await names(ana.userId)).toEqual([`Prepared client of ${ana.userId}`])
			expect(await names(ben.userId)).toEqual([`Prepared client of ${ben.userId}`])
		}
		// The pool hands back the connection used last, which ran every one of those statements
		// (the embedded database has only the one).
		const { rows } = await asSystem((trx) =>
			sql<Prepared>`select statement, (generic_plans + custom_plans)::int as executions from pg_prepared_statements`.execute(trx),
		)
		const clients = rows.find((row) => row.statement.includes('from "clients"') && row.statement.includes('like'))
		expect(clients?.executions).toBeGreaterThanOrEqual(20)
	})
})

describe.runIf(isDbTarget('pglite'))('named statements (embedded database)', () => {
	test('a table changed under a kept statement fails that statement once; the next use sees the new columns', async () => {
		await asSystem(async (_trx, runScript) => {
			await runScript("create table public.test_shapes (id int, label text); insert into public.test_shapes values (1, 'one')")
		})
		const select = () => systemStatement(sql`select * from public.test_shapes where id = ${1}`)
		expect(await select()).toEqual([{ id: 1, label: 'one' }])
		expect(await select()).toEqual([{ id: 1, label: 'one' }])
		await asSystem(async (_trx, runScript) => runScript("alter table public.test_shapes add column note text default 'new'"))
		expect(await refusal(select())).toBe('0A000')
		expect(await select()).toEqual([{ id: 1, label: 'one', note: 'new' }])
		await asSystem(async (_trx, runScript) => runScript('drop table public.test_shapes'))
	})

	test('a statement that could not be parsed (its table did not exist yet) runs once the table exists', async () => {
		const select = () => systemStatement(sql`select label from public.test_later where id = ${1}`)
		expect(await refusal(select())).toBe('42P01')
		await asSystem(async (_trx, runScript) =>
			runScript("create table public.test_later (id int, label text); insert into public.test_later values (1, 'here')"),
		)
		expect(await select()).toEqual([{ label: 'here' }])
		expect(await select()).toEqual([{ label: 'here' }])
		await asSystem(async (_trx, runScript) => runScript('drop table public.test_later'))
	})
})
