import { createCookie } from 'react-router'
import type { Role } from '#app/lib/roles.ts'
import { asUser, dbErrorCode, sql, type Tx } from '../db/index.ts'
import { secureCookies } from '../security.ts'
import type { AuthUser } from '../auth/types.ts'
import { isUuid } from '#app/lib/uuid.ts'
import { ORGANIZATION_TIMEZONES } from '#app/lib/timezones.ts'

export type Membership = {
	id: string
	name: string
	slug: string
	description: string | null
	role: Role
	gearsOwned: number
	gearsRemaining: number
	/** The organization's booking timezone (its clock: "today" on every screen), UTC when unset. */
	timezone: string
	/** Whether someone chose that zone (sign-up, onboarding, settings, the shell's question); else the owner is asked. */
	timezoneConfirmed: boolean
}

/** A membership as the database gives it (membershipsIn's rows, private.signed_in_shell's JSON). */
export type MembershipRow = {
	id: string
	name: string
	slug: string
	description: string | null
	role: Role
	gears_owned: number
	gears_remaining: number
	timezone: string | null
	timezone_confirmed: boolean | null
}

export function membershipOf(r: MembershipRow): Membership {
	return {
		id: r.id,
		name: r.name,
		slug: r.slug,
		description: r.description,
		role: r.role,
		gearsOwned: Number(r.gears_owned),
		gearsRemaining: Number(r.gears_remaining),
		timezone: r.timezone || 'UTC',
		timezoneConfirmed: r.timezone_confirmed ?? true,
	}
}

export type ProfileRow = { full_name: string | null; avatar_url: string | null; preferred_language: string | null }

export type CurrentMember = {
	user: AuthUser & { fullName: string | null; avatarUrl: string | null; preferredLanguage: string | null }
	organization: Membership
	memberships: Membership[]
}

const orgCookie = createCookie('p2p_org', { path: '/', sameSite: 'lax', httpOnly: true, maxAge: 60 * 60 * 24 * 365 })

/** How to greet a user: their full name, else their email. */
export async function displayName(user: { userId: string; email: string }) {
	const profile = await asUser(user.userId, (trx) =>
		trx.selectFrom('profiles').select('full_name').where('user_id', '=', user.userId).executeTakeFirst(),
	)
	return profile?.full_name?.trim() || user.email
}

export async function listMemberships(userId: string) {
	return asUser(userId, (trx) => membershipsIn(trx, userId))
}

/** listMemberships inside the caller's transaction (as the user). */
export async function membershipsIn(trx: Tx, userId: string) {
	const rows = await trx
		.selectFrom('organization_members as m')
		.innerJoin('organizations as o', 'o.id', 'm.organization_id')
		.leftJoin('booking_settings as b', 'b.organization_id', 'o.id')
		.select([
			'o.id',
			'o.name',
			'o.slug',
			'o.description',
			'm.role',
			'o.gears_owned',
			'o.gears_remaining',
			'b.timezone',
			'b.timezone_confirmed',
		])
		.where('m.user_id', '=', userId)
		.orderBy('m.joined_at')
		.orderBy('o.id')
		.execute()
	const profile: ProfileRow | undefined = await trx
		.selectFrom('profiles')
		.select(['full_name', 'avatar_url', 'preferred_language'])
		.where('user_id', '=', userId)
		.executeTakeFirst()
	return { memberships: rows.map(membershipOf), profile }
}

/**
 * The current organization: the cookie's choice when the user is still a member of it,
 * else the first by joined_at; null when the user belongs to none (onboarding).
 */
export async function resolveMember(request: Request, user: AuthUser): Promise<CurrentMember | null> {
	return chooseMember(request, user, await listMemberships(user.userId))
}

/** The organization cookie's choice: an organization id, or null. */
export async function chosenOrganization(request: Request): Promise<string | null> {
	const chosen: unknown = await orgCookie.parse(request.headers.get('cookie'))
	return isUuid(chosen) ? chosen : null
}

/** resolveMember's choice among memberships already read. */
export async function chooseMember(
	request: Request,
	user: AuthUser,
	read: Awaited<ReturnType<typeof membershipsIn>>,
): Promise<CurrentMember | null> {
	const chosen = await chosenOrganization(request)
	return memberOf(user, read, read.memberships.find((m) => m.id === chosen) ?? read.memberships[0])
}

/** The current member, from the user, their memberships and profile, and the organization chosen. */
export function memberOf(
	user: AuthUser,
	{ memberships, profile }: { memberships: Membership[]; profile: ProfileRow | null | undefined },
	organization: Membership | undefined,
): CurrentMember | null {
	if (!organization) return null
	return {
		user: {
			...user,
			fullName: profile?.full_name ?? null,
			avatarUrl: profile?.avatar_url ?? null,
			preferredLanguage: profile?.preferred_language ?? null,
		},
		organization,
		memberships,
	}
}

export async function currentOrganizationCookie(orgId: string) {
	return orgCookie.serialize(orgId, { secure: secureCookies() })
}

/**
 * A new organization's zone as a sign-up or onboarding form posts it (docs/product.md, Sign-up):
 * absent (a caller without the field: the organization starts in UTC), one of
 * ORGANIZATION_TIMEZONES, or refused; the form then says so and creates nothing.
 */
export function newOrganizationZone(value: FormDataEntryValue | null): { ok: true; zone: string | undefined } | { ok: false } {
	if (value === null || value === '') return { ok: true, zone: undefined }
	return typeof value === 'string' && (ORGANIZATION_TIMEZONES as readonly string[]).includes(value)
		? { ok: true, zone: value }
		: { ok: false }
}

export type CreateOrganizationResult = { ok: true; id: string } | { ok: false; code: 'invalid_name' | 'already_member' }

/**
 * Creates the signed-in user's first organization (public.create_organization: only for a user
 * without one) and, in the same transaction, sets its zone when the form gave one
 * (`newOrganizationZone`), so it never starts a few hours off its owner's clock.
 */
export async function createOrganization(userId: string, name: string, timezone?: string): Promise<CreateOrganizationResult> {
	try {
		const id = await asUser(userId, async (trx) => {
			const { rows } = await sql<{ id: string }>`select public.create_organization(${name}) as id`.execute(trx)
			const created = rows[0]!.id
			if (timezone) {
				await trx
					.updateTable('booking_settings')
					.set({ timezone, timezone_confirmed: true })
					.where('organization_id', '=', created)
					.execute()
			}
			return created
		})
		return { ok: true, id }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code === 'invalid_name' || code === 'already_member') return { ok: false, code }
		throw error
	}
}
