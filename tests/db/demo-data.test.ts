import { describe, expect, test } from 'vitest'
import { seedDemoData } from '#app/.server/db/demo-data.ts'
import { parseWeeklyHours, WEEKDAYS } from '#app/lib/availability.ts'
import { asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { CATALOGUE, createUser, gearBalance } from './fixtures.ts'

async function seeded(name: string) {
	const owner = await createUser(name)
	await asSystem((trx) => seedDemoData(trx, owner.orgId, owner.userId))
	return owner
}

describe('the demo data', () => {
	test('fills a fresh organization with a year of payments, clients, a booking setup and an active module, all visible to its owner', async () => {
		const owner = await seeded('Demo Owner')
		const seen = await asUser(owner.userId, async (trx) => {
			const count = (
				table: 'transactions' | 'clients' | 'booking_services' | 'booking_providers' | 'booking_appointments' | 'organization_modules',
			) =>
				trx
					.selectFrom(table)
					.select((eb) => eb.fn.countAll<number>().as('n'))
					.where('organization_id', '=', owner.orgId)
					.executeTakeFirstOrThrow()
					.then((r) => Number(r.n))
			const span = await sql<{ oldest: string; newest: string; methods: string[]; categories: string[]; with_client: number }>`
				select min(date_received)::text as oldest, max(date_received)::text as newest,
					array_agg(distinct payment_method::text order by payment_method::text) as methods,
					array_agg(distinct category::text order by category::text) as categories,
					count(client_id)::int as with_client
				from public.transactions where organization_id = ${owner.orgId}`.execute(trx)
			return {
				transactions: await count('transactions'),
				clients: await count('clients'),
				services: await count('booking_services'),
				providers: await count('booking_providers'),
				appointments: await count('booking_appointments'),
				modules: await trx
					.selectFrom('organization_modules')
					.select(['module_id', 'activated_by'])
					.where('organization_id', '=', owner.orgId)
					.execute(),
				span: span.rows[0]!,
				statuses: (
					await trx.selectFrom('booking_appointments').select('status').distinct().where('organization_id', '=', owner.orgId).execute()
				)
					.map((r) => r.status)
					.sort(),
				hours: (
					await trx.selectFrom('booking_providers').select('business_hours').where('organization_id', '=', owner.orgId).execute()
				).map((r) => r.business_hours),
				totals: await trx
					.selectFrom('organization_transaction_totals')
					.select(['transaction_count', 'unique_client_count'])
					.where('organization_id', '=', owner.orgId)
					.executeTakeFirstOrThrow(),
			}
		})
		expect(seen.transactions).toBeGreaterThanOrEqual(200)
		expect(seen).toMatchObject({ clients: 40, services: 3, providers: 2, appointments: 20 })
		// Appointment Booking, besides the included modules every organization has.
		expect(seen.modules.map((m) => m.module_id).sort()).toEqual(
			[CATALOGUE.modules.p2p, CATALOGUE.modules.crm, CATALOGUE.modules.booking, CATALOGUE.modules.reports].sort(),
		)
		expect(seen.modules.find((m) => m.module_id === CATALOGUE.modules.booking)?.activated_by).toBe(owner.userId)
		expect(seen.span.methods).toEqual(['CashApp', 'Other', 'PayPal', 'Venmo', 'Wire Transfer', 'Zelle'])
		expect(seen.span.categories).toEqual(['matched', 'pending', 'review', 'unmatched'])
		const yearAgo = new Date(Date.now() - 366 * 86_400_000).toISOString().slice(0, 10)
		expect(seen.span.oldest >= yearAgo).toBe(true)
		expect(seen.span.newest <= new Date().toISOString().slice(0, 10)).toBe(true)
		expect(seen.span.with_client).toBeGreaterThan(seen.transactions / 2)
		// Every status, on any day the data is made (the draw depends on today's weekday).
		expect(seen.statuses).toEqual(['cancelled', 'completed', 'confirmed', 'no_show', 'pending'])
		expect(seen.hours.every((h) => h !== null)).toBe(true)
		expect(seen.totals.transaction_count).toBe(seen.transactions)
		expect(await gearBalance(owner.orgId)).toMatchObject({ remaining: 14000, ledger: 14000, rows: 2 })
	})

	test("each provider's working hours lie inside the organization's, so every hour they work can be booked", async () => {
		const owner = await seeded('Demo Hours')
		const { organization, providers } = await asUser(owner.userId, async (trx) => ({
			organization: parseWeeklyHours(
				(
					await trx
						.selectFrom('booking_settings')
						.select('business_hours')
						.where('organization_id', '=', owner.orgId)
						.executeTakeFirstOrThrow()
				).business_hours,
			)!,
			providers: (
				await trx.selectFrom('booking_providers').select('business_hours').where('organization_id', '=', owner.orgId).execute()
			).map((r) => parseWeeklyHours(r.business_hours)!),
		}))
		for (const hours of providers) {
			for (const day of WEEKDAYS) {
				if (!hours[day].enabled) continue
				expect(organization[day], day).toMatchObject({ enabled: true })
				expect(organization[day].start <= hours[day].start && hours[day].end <= organization[day].end, day).toBe(true)
			}
		}
		expect(providers.some((h) => h.saturday.enabled)).toBe(true)
	})

	test('is the same data every time (a seeded generator), relative to today', async () => {
		const [a, b] = [await seeded('Demo A'), await seeded('Demo B')]
		const fingerprint = (orgId: string) =>
			asSystem(
				async (trx) =>
					(
						await sql<{ f: string }>`
				select string_agg(amount::text || payment_method || category || coalesce(description, ''), ',' order by amount, external_id) as f
				from public.transactions where organization_id = ${orgId}`.execute(trx)
					).rows[0]!.f,
			)
		expect(await fingerprint(a.orgId)).toBe(await fingerprint(b.orgId))
	})
})
