import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { signIn } from '#app/.server/auth/local.ts'
import { asSystem, sql } from '#app/.server/db/index.ts'
import { DEMO_EMAIL, seedDemo } from '#app/.server/db/seed-demo.ts'

const root = mkdtempSync(path.join(tmpdir(), 'p2p-seed-'))

beforeAll(() => {
	process.env.SESSION_SECRET ??= 'test-session-secret-of-at-least-32-characters'
	process.env.LOG_LEVEL = 'silent'
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

async function demoCounts() {
	const { rows } = await asSystem((trx) =>
		sql<{ users: number; orgs: number; transactions: number }>`
			select (select count(*)::int from auth.users where email = ${DEMO_EMAIL}) as users,
			       (select count(*)::int from public.organization_members m join auth.users u on u.id = m.user_id where u.email = ${DEMO_EMAIL}) as orgs,
			       (select count(*)::int from public.transactions t join public.organization_members m on m.organization_id = t.organization_id
			          join auth.users u on u.id = m.user_id where u.email = ${DEMO_EMAIL}) as transactions`.execute(trx),
	)
	return rows[0]!
}

test('seeding into a DATA_DIR that does not exist yet works, is idempotent, and survives a lost credentials file', async () => {
	const dataDir = path.join(root, 'not', 'created', 'yet')
	const first = await seedDemo(dataDir)
	expect(JSON.parse(readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8'))).toEqual(first)
	const after = await demoCounts()
	expect(after).toMatchObject({ users: 1, orgs: 1 })
	expect(after.transactions).toBeGreaterThan(100)

	expect(await seedDemo(dataDir)).toEqual(first)
	expect(await demoCounts()).toEqual(after)

	// The file is gone (a crash after the commit, a wiped folder): a new password, nothing doubled.
	rmSync(path.join(dataDir, 'demo-credentials.json'))
	const again = await seedDemo(dataDir)
	expect(again.password).not.toBe(first.password)
	expect(await demoCounts()).toEqual(after)
	expect((await signIn({ email: DEMO_EMAIL, password: again.password, ip: '10.8.0.1' })).ok).toBe(true)
	expect((await signIn({ email: DEMO_EMAIL, password: first.password, ip: '10.8.0.2' })).ok).toBe(false)
	// Usable at once: its address is verified (docs/decisions/037-verified-addresses.md), no reminder, invitations open to it.
	const { rows } = await asSystem((trx) =>
		sql<{ verified: boolean }>`select email_confirmed_at is not null as verified from auth.users where email = ${DEMO_EMAIL}`.execute(trx),
	)
	expect(rows).toEqual([{ verified: true }])
})

test('the seeded tables are analyzed: the planner counts at least the demo’s rows in them', async () => {
	await seedDemo(path.join(root, 'analyzed'))
	const { rows } = await asSystem((trx) =>
		sql<{ table: string; estimated: number; demo: number }>`
			select c.relname as table, c.reltuples::int as estimated,
			       (case c.relname when 'transactions' then (select count(*) from public.transactions t where t.organization_id = o.id)
			                       else (select count(*) from public.clients k where k.organization_id = o.id) end)::int as demo
			from pg_class c,
			     (select m.organization_id as id from public.organization_members m join auth.users u on u.id = m.user_id where u.email = ${DEMO_EMAIL}) o
			where c.oid in ('public.transactions'::regclass, 'public.clients'::regclass)`.execute(trx),
	)
	expect(rows).toHaveLength(2)
	for (const row of rows) {
		expect(row.demo, row.table).toBeGreaterThan(0)
		// Other test files share the database on the PostgreSQL server and add rows of their own.
		expect(row.estimated, row.table).toBeGreaterThanOrEqual(row.demo)
	}
})

test('a first start that fails after the seed committed (credentials file not writable) does not stop the next start', async () => {
	const dataDir = path.join(root, 'blocked')
	// A folder where the credentials file should go: the write fails with EISDIR after the commit.
	mkdirSync(path.join(dataDir, 'demo-credentials.json'), { recursive: true })
	await expect(seedDemo(dataDir)).rejects.toThrow()
	rmSync(path.join(dataDir, 'demo-credentials.json'), { recursive: true })
	const next = await seedDemo(dataDir)
	expect((await demoCounts()).users).toBe(1)
	expect((await signIn({ email: DEMO_EMAIL, password: next.password, ip: '10.8.0.3' })).ok).toBe(true)
})
