import { randomUUID } from 'node:crypto'
import { asSystem, dbErrorCode, sql } from '#app/.server/db/index.ts'

export type TestUser = { userId: string; email: string; orgId: string }

/** A user signed up through the same trigger as the app: profile, organization, membership. */
export async function createUser(name = 'Test User'): Promise<TestUser> {
	const email = `${randomUUID()}@example.test`
	return asSystem(async (trx) => {
		const { rows } = await sql<{ id: string }>`
			insert into auth.users (email, raw_user_meta_data)
			values (${email}, ${JSON.stringify({ full_name: name })}::jsonb) returning id`.execute(trx)
		const userId = rows[0]!.id
		const org = await sql<{ organization_id: string }>`
			select organization_id from public.organization_members where user_id = ${userId}`.execute(trx)
		return { userId, email, orgId: org.rows[0]!.organization_id }
	})
}

/** Adds an existing user to an organization with a role (what an owner's invitation does). */
export async function addMember(orgId: string, userId: string, role: 'owner' | 'administrator' | 'manager' | 'member') {
	await asSystem((trx) =>
		sql`insert into public.organization_members (organization_id, user_id, role)
			values (${orgId}, ${userId}, ${role})`.execute(trx),
	)
}

export function isDbTarget(target: 'pg' | 'pglite') {
	return process.env.DB_TARGET === target
}

/** The stable code (or SQLSTATE) a call was refused with, or null when it succeeded. */
export async function refusal(promise: Promise<unknown>): Promise<string | null> {
	return promise.then(
		() => null,
		(error: unknown) => dbErrorCode(error) ?? String(error),
	)
}

/** A booking service and an active provider in the organization, created as the system. */
export async function createBookingSetup(orgId: string, options: { durationMinutes?: number; price?: number } = {}) {
	return asSystem(async (trx) => {
		const service = await trx
			.insertInto('booking_services')
			.values({ organization_id: orgId, name: 'Consultation', price: options.price ?? 45, duration_minutes: options.durationMinutes ?? 30 })
			.returning('id')
			.executeTakeFirstOrThrow()
		const provider = await trx
			.insertInto('booking_providers')
			.values({ organization_id: orgId, display_name: 'Dr. Rivera', bio: 'Ten years of practice' })
			.returning('id')
			.executeTakeFirstOrThrow()
		return { serviceId: service.id, providerId: provider.id }
	})
}

/** A weekday (Monday to Friday, UTC) at least `daysAhead` days from today, as yyyy-mm-dd. */
export function upcomingWeekday(daysAhead = 2): string {
	const d = new Date()
	d.setUTCHours(0, 0, 0, 0)
	d.setUTCDate(d.getUTCDate() + daysAhead)
	while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1)
	return d.toISOString().slice(0, 10)
}

/**
 * The first weekday (UTC) after `date` (yyyy-mm-dd). Two calls of upcomingWeekday with nearby
 * counts can land on the same Monday (from a Thursday, 2 and 4 days ahead both give Monday): a
 * test that needs a second, different day takes this one.
 */
export function weekdayAfter(date: string): string {
	const d = new Date(`${date}T00:00:00Z`)
	do d.setUTCDate(d.getUTCDate() + 1)
	while (d.getUTCDay() === 0 || d.getUTCDay() === 6)
	return d.toISOString().slice(0, 10)
}

/** An instant on a date at a UTC wall-clock time, e.g. at('2026-12-01', '10:30'). */
export function at(date: string, time: string): string {
	return `${date}T${time}:00Z`
}

/** Fixed ids of supabase/seed.sql's catalogue. */
export const CATALOGUE = {
	modules: {
		p2p: 'b0000000-0000-4000-8000-000000000001',
		crm: 'b0000000-0000-4000-8000-000000000002',
		booking: 'b0000000-0000-4000-8000-000000000003',
		reports: 'b0000000-0000-4000-8000-000000000004',
		expenses: 'b0000000-0000-4000-8000-000000000009',
	},
	upgrades: {
		p2pEmail: 'c0000000-0000-4000-8000-000000000001',
		reminders: 'c0000000-0000-4000-8000-000000000007',
		deposits: 'c0000000-0000-4000-8000-000000000008',
		emailPro: 'c0000000-0000-4000-8000-000000000002',
		crmEnterprise: 'c0000000-0000-4000-8000-000000000006',
		advancedAnalytics: 'c0000000-0000-4000-8000-000000000010',
		automation: 'c0000000-0000-4000-8000-000000000011',
	},
} as const

/** The organization's balance next to what its gear ledger says it should be. */
export async function gearBalance(orgId: string) {
	return asSystem(async (trx) => {
		const { rows } = await sql<{ owned: number; remaining: number; granted: number; ledger: number; rows: number }>`
			select o.gears_owned as owned, o.gears_remaining as remaining,
				coalesce((select sum(delta) from public.gear_ledger where organization_id = o.id and reason in ('initial_grant', 'grant')), 0)::int as granted,
				coalesce((select sum(delta) from public.gear_ledger where organization_id = o.id), 0)::int as ledger,
				(select count(*) from public.gear_ledger where organization_id = o.id)::int as rows
			from public.organizations o where o.id = ${orgId}`.execute(trx)
		return rows[0]!
	})
}
