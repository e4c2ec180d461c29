/**
 * What webhooks cost a statement of an organization without endpoints (docs/decisions/050-webhooks.md):
 * 100,000 payments inserted in one statement (as an import's commit does, in chunks), on a fresh
 * database of the PostgreSQL test server, with the webhook trigger and with it disabled, while
 * other organizations of the installation have endpoints. Then the same with an endpoint of the
 * organization's own, which writes 100,000 events and deliveries. Prints the medians; not a
 * pass/fail test.
 *
 *   node_modules/.bin/tsx bench/webhooks.ts
 *   BENCH_WEBHOOK_ROWS=20000 node_modules/.bin/tsx bench/webhooks.ts
 */
import { performance } from 'node:perf_hooks'
import { freshPgDatabase } from './pg-database.ts'
import { asSystem, closeDatabase, openDatabase, sql } from '../app/.server/db/index.ts'
import { migrate } from '../app/.server/db/migrate.ts'

const ROWS = Number(process.env.BENCH_WEBHOOK_ROWS ?? 100_000)
const RUNS = 3

async function organization(name: string, withEndpoint: boolean): Promise<string> {
	return asSystem(async (trx) => {
		const { rows } = await sql<{ id: string }>`
			insert into auth.users (email, raw_user_meta_data) values (${`${name}-${Date.now()}@bench.test`}, '{"full_name":"Bench"}')
			returning id`.execute(trx)
		const org = await sql<{ organization_id: string }>`
			select organization_id from public.organization_members where user_id = ${rows[0]!.id}`.execute(trx)
		const orgId = org.rows[0]!.organization_id
		if (withEndpoint) {
			await sql`insert into public.organization_modules (organization_id, module_id) values (${orgId}, 'b0000000-0000-4000-8000-000000000010')`.execute(
				trx,
			)
			await sql`insert into public.organization_module_upgrades (organization_id, organization_module_id, upgrade_id)
				select organization_id, id, 'c0000000-0000-4000-8000-000000000015' from public.organization_modules
				where organization_id = ${orgId} and module_id = 'b0000000-0000-4000-8000-000000000010'`.execute(trx)
			await sql`insert into public.webhook_endpoints (organization_id, url, events)
				values (${orgId}, 'https://example.com/hooks', '{payment.received}')`.execute(trx)
		}
		return orgId
	})
}

async function insertPayments(orgId: string, trigger: boolean): Promise<number> {
	return asSystem(async (trx) => {
		if (!trigger) await sql`alter table public.transactions disable trigger transactions_webhooks`.execute(trx)
		const start = performance.now()
		await sql`insert into public.transactions (organization_id, amount, date_received, payment_method, description)
			select ${orgId}, (n % 500) + 0.5, date '2026-01-01' + (n % 300), 'Venmo', 'bench ' || n
			from generate_series(1, ${ROWS}) n`.execute(trx)
		const ms = performance.now() - start
		if (!trigger) await sql`alter table public.transactions enable trigger transactions_webhooks`.execute(trx)
		await sql`delete from public.transactions where organization_id = ${orgId}`.execute(trx)
		return ms
	})
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const db = await freshPgDatabase('bench_webhooks')
try {
	await openDatabase({ kind: 'pg', url: db.url, max: 2 })
	await migrate()
	// Other organizations of the installation have endpoints: the check is per organization.
	for (let i = 0; i < 50; i++) await organization(`other-${i}`, true)
	const bare = await organization('bare', false)
	const hooked = await organization('hooked', true)
	const results: Record<string, number[]> = { 'no endpoint, trigger off': [], 'no endpoint, trigger on': [], 'an endpoint, trigger on': [] }
	for (let run = 0; run < RUNS; run++) {
		results['no endpoint, trigger off']!.push(await insertPayments(bare, false))
		results['no endpoint, trigger on']!.push(await insertPayments(bare, true))
		results['an endpoint, trigger on']!.push(await insertPayments(hooked, true))
	}
	console.log(`${ROWS} payments in one statement, median of ${RUNS}:`)
	for (const [label, values] of Object.entries(results)) console.log(`  ${label}: ${Math.round(median(values))} ms`)
} finally {
	await closeDatabase()
	await db.drop()
}
