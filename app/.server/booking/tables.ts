import { ACTIVE_STATUSES } from '#app/lib/appointments.ts'
import { type BatchResult, type SaveHow } from '#app/lib/editable-rows.ts'
import { type DepositKind, type ProviderRowInput, type ServiceRowInput } from '#app/lib/schemas/booking-tables.ts'
import { fingerprint, saveBatch, versionOf, type BatchSpec } from '../data-table.ts'
import { asUser, sql } from '../db/index.ts'

/**
 * The booking services and providers tables of the staff administration, on the editable-table
 * kit (docs/decisions/011-editable-table-kit.md): the lists and the all-or-nothing batch saves.
 * Any member may write them (the RLS policies say so). Every query names the organization.
 */

/** The most rows either table loads (one page, no paging: organizations have a handful). */
export const BOOKING_TABLE_LIMIT = 500

// ---------------------------------------------------------------------------------------------
// Services
// ---------------------------------------------------------------------------------------------

export type ServiceRow = {
	id: string
	name: string
	description: string | null
	price: string
	durationMinutes: number
	color: string
	isActive: boolean
	/** The deposit a public booking of it asks (docs/product.md, Deposits and prepayment). */
	depositKind: DepositKind
	depositAmount: string | null
	depositAfterNoShows: number | null
	version: string
	fingerprint: string
}

type ServiceDbRow = Omit<ServiceRow, 'fingerprint'>

/** The values as the form shows them (text), in one order: the fingerprint of a row left alone. */
function serviceValues(row: {
	name: string
	description: string | null
	price: string
	durationMinutes: number
	color: string
	isActive: boolean
	depositKind: DepositKind
	depositAmount: string | null
	depositAfterNoShows: number | null
}) {
	return [
		row.name,
		row.description,
		row.price,
		String(row.durationMinutes),
		row.color.toLowerCase(),
		row.isActive ? 'active' : 'inactive',
		row.depositKind,
		row.depositAmount,
		row.depositAfterNoShows === null ? null : String(row.depositAfterNoShows),
	]
}

const toService = (row: ServiceDbRow): ServiceRow => ({ ...row, fingerprint: fingerprint(serviceValues(row)) })

const serviceColumns = sql`s.id, s.name, s.description, s.price::text as price, s.duration_minutes as "durationMinutes", s.color,
	s.is_active as "isActive", s.deposit_kind as "depositKind", s.deposit_amount::text as "depositAmount",
	s.deposit_after_no_shows as "depositAfterNoShows", ${versionOf('s.updated_at')} as version`

export async function listServices(userId: string, organizationId: string): Promise<ServiceRow[]> {
	return asUser(userId, async (trx) => {
		const { rows } = await sql<ServiceDbRow>`select ${serviceColumns} from public.booking_services s
			where s.organization_id = ${organizationId} order by s.name, s.id limit ${BOOKING_TABLE_LIMIT}`.execute(trx)
		return rows.map(toService)
	})
}

export type ServiceValues = Omit<ServiceRow, 'id' | 'version' | 'fingerprint'>

function serviceSpec(organizationId: string, input: ServiceRowInput[]): BatchSpec<ServiceRowInput, ServiceRow, ServiceValues, undefined> {
	return {
		table: 'booking_services',
		lock: async (trx, ids) =>
			(
				await sql<ServiceDbRow>`select ${serviceColumns} from public.booking_services s
					where s.organization_id = ${organizationId} and s.id = any(${ids}::uuid[]) for update`.execute(trx)
			).rows.map(toService),
		fingerprint: (row) => fingerprint(serviceValues(row)),
		conflictValues: ({ id: _id, version: _v, fingerprint: _f, ...values }) => values,
		// A service with upcoming appointments (active ones, app/lib/appointments.ts, starting later) stays.
		prepare: async (trx, plan, _current, fail) => {
			if (plan.deletes.length === 0) return undefined
			const { rows } = await sql<{ id: string }>`select distinct a.service_id as id from public.booking_appointments a
				where a.organization_id = ${organizationId} and a.service_id = any(${plan.deletes}::uuid[])
				and a.status in (${sql.join(ACTIVE_STATUSES.map((s) => sql.lit(s)))}) and a.starts_at > now()`.execute(trx)
			const busy = new Set(rows.map((r) => r.id))
			input.forEach((row, index) => {
				if (row.id && row.deleted && busy.has(row.id)) fail(index, 'row', 'serviceHasUpcoming')
			})
			return undefined
		},
		write: async (trx, plan) => {
			for (const { row } of plan.updates) {
				await trx
					.updateTable('booking_services')
					.set({
						name: row.name,
						description: row.description,
						price: row.price,
						duration_minutes: row.durationMinutes,
						color: row.color,
						is_active: row.isActive,
						deposit_kind: row.depositKind,
						deposit_amount: row.depositAmount,
						deposit_after_no_shows: row.depositAfterNoShows,
					})
					.where('organization_id', '=', organizationId)
					.where('id', '=', row.id!)
					.execute()
			}
			if (plan.inserts.length > 0) {
				await trx
					.insertInto('booking_services')
					.values(
						plan.inserts.map(({ row }) => ({
							organization_id: organizationId,
							name: row.name,
							description: row.description,
							price: row.price,
							duration_minutes: row.durationMinutes,
							color: row.color,
							is_active: row.isActive,
							deposit_kind: row.depositKind,
							deposit_amount: row.depositAmount,
							deposit_after_no_shows: row.depositAfterNoShows,
						})),
					)
					.execute()
			}
		},
	}
}

/**
 * Saves a batch of services all or nothing (see saveBatch). A service with upcoming
 * appointments cannot be deleted (its row is refused: deactivate it instead); the past
 * appointments of a deleted service stay, without a service.
 */
export function saveServices(
	userId: string,
	organizationId: string,
	input: ServiceRowInput[],
	how?: SaveHow,
): Promise<BatchResult<ServiceValues>> {
	return saveBatch(userId, organizationId, input, serviceSpec(organizationId, input), how)
}

// ---------------------------------------------------------------------------------------------
// Providers
// ---------------------------------------------------------------------------------------------

export type ProviderRow = {
	id: string
	userId: string | null
	member: string | null
	displayName: string
	bio: string | null
	avatarUrl: string | null
	isActive: boolean
	/** Whether the provider has weekly hours of their own (edited on their hours page, not in the table). */
	ownHours: boolean
	version: string
	fingerprint: string
}

type ProviderDbRow = Omit<ProviderRow, 'fingerprint'>

function providerValues(row: { displayName: string; bio: string | null; avatarUrl: string | null; isActive: boolean }) {
	return [row.displayName, row.bio, row.avatarUrl, row.isActive ? 'active' : 'inactive']
}

const toProvider = (row: ProviderDbRow): ProviderRow => ({ ...row, fingerprint: fingerprint(providerValues(row)) })

const providerColumns = sql`p.id, p.user_id as "userId", coalesce(nullif(btrim(pr.full_name), ''), pr.email) as member,
	p.display_name as "displayName", p.bio, p.avatar_url as "avatarUrl", p.is_active as "isActive",
	p.business_hours is not null as "ownHours", ${versionOf('p.updated_at')} as version`

export async function listProviders(userId: string, organizationId: string): Promise<ProviderRow[]> {
	return asUser(userId, async (trx) => {
		const { rows } = await sql<ProviderDbRow>`select ${providerColumns} from public.booking_providers p
			left join public.profiles pr on pr.user_id = p.user_id
			where p.organization_id = ${organizationId} order by p.display_name, p.id limit ${BOOKING_TABLE_LIMIT}`.execute(trx)
		return rows.map(toProvider)
	})
}

/** A member who is not a provider yet: what the member select offers, and the name it prefills. */
export type FreeMember = { userId: string; name: string; email: string | null }

export async function listFreeMembers(userId: string, organizationId: string): Promise<FreeMember[]> {
	return asUser(userId, async (trx) => {
		const { rows } = await sql<FreeMember>`select m.user_id as "userId",
				coalesce(nullif(btrim(pr.full_name), ''), pr.email, '') as name, pr.email
			from public.organization_members m left join public.profiles pr on pr.user_id = m.user_id
			where m.organization_id = ${organizationId}
				and not exists (select 1 from public.booking_providers p where p.organization_id = m.organization_id and p.user_id = m.user_id)
			order by 2, m.user_id`.execute(trx)
		return rows
	})
}

export type ProviderValues = Pick<ProviderRow, 'displayName' | 'bio' | 'avatarUrl' | 'isActive'>

/** For the new rows: the display name each takes (its own, else the member's name or email). */
type ProviderPrepared = Map<number, string>

function providerSpec(
	organizationId: string,
	input: ProviderRowInput[],
): BatchSpec<ProviderRowInput, ProviderRow, ProviderValues, ProviderPrepared> {
	return {
		table: 'booking_providers',
		lock: async (trx, ids) =>
			(
				await sql<ProviderDbRow>`select ${providerColumns} from public.booking_providers p
					left join public.profiles pr on pr.user_id = p.user_id
					where p.organization_id = ${organizationId} and p.id = any(${ids}::uuid[]) for update of p`.execute(trx)
			).rows.map(toProvider),
		fingerprint: (row) => fingerprint(providerValues(row)),
		conflictValues: ({ displayName, bio, avatarUrl, isActive }) => ({ displayName, bio, avatarUrl, isActive }),
		// Providers are added and edited, never deleted (docs/product.md): Inactive stops offering one
		// and keeps their appointments' provider. A new provider is a member of this organization
		// who is not a provider yet, once.
		prepare: async (trx, plan, _current, fail) => {
			input.forEach((row, index) => {
				if (row.id && row.deleted) fail(index, 'row', 'providerNotDeletable')
			})
			const names: ProviderPrepared = new Map()
			if (plan.inserts.length === 0) return names
			const wanted = plan.inserts.map(({ row }) => row.member!)
			const { rows } = await sql<{ userId: string; name: string }>`select m.user_id as "userId",
					coalesce(nullif(btrim(pr.full_name), ''), pr.email, '') as name
				from public.organization_members m left join public.profiles pr on pr.user_id = m.user_id
				where m.organization_id = ${organizationId} and m.user_id = any(${wanted}::uuid[])
					and not exists (select 1 from public.booking_providers p where p.organization_id = m.organization_id and p.user_id = m.user_id)`.execute(
				trx,
			)
			const free = new Map(rows.map((r) => [r.userId, r.name]))
			const taken = new Set<string>()
			for (const { index, row } of plan.inserts) {
				const member = row.member!
				if (!free.has(member) || taken.has(member)) {
					fail(index, 'member', 'memberNotFree')
					continue
				}
				taken.add(member)
				const name = (row.displayName || free.get(member) || '').slice(0, 120)
				if (!name) fail(index, 'displayName', 'displayNameRequired')
				names.set(index, name)
			}
			return names
		},
		write: async (trx, plan, names) => {
			for (const { row } of plan.updates) {
				await trx
					.updateTable('booking_providers')
					.set({ display_name: row.displayName, bio: row.bio, avatar_url: row.avatarUrl, is_active: row.isActive })
					.where('organization_id', '=', organizationId)
					.where('id', '=', row.id!)
					.execute()
			}
			if (plan.inserts.length > 0) {
				await trx
					.insertInto('booking_providers')
					.values(
						plan.inserts.map(({ index, row }) => ({
							organization_id: organizationId,
							user_id: row.member,
							display_name: names.get(index)!,
							bio: row.bio,
							avatar_url: row.avatarUrl,
							is_active: row.isActive,
						})),
					)
					.execute()
			}
		},
	}
}

/**
 * Saves a batch of providers all or nothing (see saveBatch): new ones are members who are not
 * providers yet; an empty display name takes the member's full name, else their email; a row
 * marked deleted is refused.
 */
export function saveProviders(
	userId: string,
	organizationId: string,
	input: ProviderRowInput[],
	how?: SaveHow,
): Promise<BatchResult<ProviderValues>> {
	return saveBatch(userId, organizationId, input, providerSpec(organizationId, input), how)
}
