/**
 * Members of an organization (docs/product.md, Settings › Members): the list, invitations,
 * role changes, removal and leaving. Owners and administrators manage members; only an owner
 * grants, changes or removes the owner role; the last owner can be neither removed, demoted nor
 * leave. Every change runs in one transaction that first locks the organization's row, so two
 * concurrent demotions cannot leave it without an owner.
 */
import { hashPassword } from '../auth/password.ts'
import { normalizeEmail } from '../auth/local.ts'
import { hashToken, newToken } from '../auth/tokens.ts'
import { asSystem, asUser, dbErrorCode, sql, type Tx } from '../db/index.ts'
import { auditActor } from '../db/audit.ts'
import { queueMail } from '../mail/index.ts'
import { tIn } from '../i18n.ts'
import { publicOrigin } from '../security.ts'
import type { Language } from '#app/lib/i18n.ts'
import { mayHandle, mayRemove, ROLES, type Role } from '#app/lib/roles.ts'

export type MemberRow = {
	userId: string
	fullName: string | null
	email: string | null
	avatarUrl: string | null
	role: Role
	joinedAt: string
}

/** Members ordered by role (owner first), then by when they joined. Read as the user (RLS). */
export async function listMembers(userId: string, organizationId: string): Promise<MemberRow[]> {
	const rows = await asUser(userId, (trx) =>
		trx
			.selectFrom('organization_members as m')
			.leftJoin('profiles as p', 'p.user_id', 'm.user_id')
			.select(['m.user_id', 'm.role', 'm.joined_at', 'p.full_name', 'p.email', 'p.avatar_url'])
			.where('m.organization_id', '=', organizationId)
			.orderBy('m.role')
			.orderBy('m.joined_at')
			.execute(),
	)
	return rows.map((r) => ({
		userId: r.user_id,
		fullName: r.full_name,
		email: r.email,
		avatarUrl: r.avatar_url,
		role: r.role,
		joinedAt: new Date(r.joined_at).toISOString(),
	}))
}

export type Invitation = { id: string; email: string; role: Role; expiresAt: string }

/** The organization's invitations still pending (not accepted, not expired), oldest first. */
export async function listInvitations(organizationId: string): Promise<Invitation[]> {
	const { rows } = await asSystem((trx) =>
		sql<{ id: string; email: string; role: Role; expires_at: Date }>`
			select id, email, role, expires_at from private.organization_invitations
			where organization_id = ${organizationId} and accepted_at is null and expires_at > now()
			order by created_at`.execute(trx),
	)
	return rows.map((r) => ({ id: r.id, email: r.email, role: r.role, expiresAt: new Date(r.expires_at).toISOString() }))
}

export type MemberChange =
	{ ok: true } | { ok: false; code: 'not_owner' | 'last_owner' | 'not_found' | 'already_member' | 'already_invited' }

type Actor = { userId: string; role: Role }

/** Locks the organization and reads the actor's current role (null when no longer a member). */
async function lockAndReadRole(trx: Tx, organizationId: string, userId: string): Promise<Role | null> {
	await sql`select 1 from public.organizations where id = ${organizationId} for update`.execute(trx)
	const row = await trx
		.selectFrom('organization_members')
		.select('role')
		.where('organization_id', '=', organizationId)
		.where('user_id', '=', userId)
		.executeTakeFirst()
	return row?.role ?? null
}

async function ownerCount(trx: Tx, organizationId: string) {
	const row = await trx
		.selectFrom('organization_members')
		.select((eb) => eb.fn.countAll<number>().as('n'))
		.where('organization_id', '=', organizationId)
		.where('role', '=', 'owner')
		.executeTakeFirstOrThrow()
	return Number(row.n)
}

/**
 * Gives a member another role (app/lib/roles.ts, mayHandle, with the actor's role read under the
 * lock): `not_owner` when the actor may not, SQL's code for a change that needs an owner.
 */
export async function changeRole(actor: Actor, organizationId: string, targetUserId: string, role: Role): Promise<MemberChange> {
	// A role that does not exist: refused as any role the actor may not grant.
	if (!ROLES.includes(role)) return { ok: false, code: 'not_owner' }
	return asSystem(async (trx) => {
		const actorRole = await lockAndReadRole(trx, organizationId, actor.userId)
		const current = await trx
			.selectFrom('organization_members')
			.select('role')
			.where('organization_id', '=', organizationId)
			.where('user_id', '=', targetUserId)
			.executeTakeFirst()
		if (!actorRole || !current) return { ok: false, code: 'not_found' } as const
		if (!mayHandle(actorRole, current.role) || !mayHandle(actorRole, role)) return { ok: false, code: 'not_owner' } as const
		if (current.role === 'owner' && role !== 'owner' && (await ownerCount(trx, organizationId)) <= 1)
			return { ok: false, code: 'last_owner' } as const
		// The audit log names who changed the role (docs/decisions/053-audit-log.md).
		await auditActor(trx, actor.userId)
		await trx
			.updateTable('organization_members')
			.set({ role })
			.where('organization_id', '=', organizationId)
			.where('user_id', '=', targetUserId)
			.execute()
		return { ok: true } as const
	})
}

/** Removes a member (or, when target = actor, leaves the organization): app/lib/roles.ts, mayRemove. */
export async function removeMember(actor: Actor, organizationId: string, targetUserId: string): Promise<MemberChange> {
	return asSystem(async (trx) => {
		const actorRole = await lockAndReadRole(trx, organizationId, actor.userId)
		const current = await trx
			.selectFrom('organization_members')
			.select('role')
			.where('organization_id', '=', organizationId)
			.where('user_id', '=', targetUserId)
			.executeTakeFirst()
		if (!actorRole || !current) return { ok: false, code: 'not_found' } as const
		if (!mayRemove({ userId: actor.userId, role: actorRole }, { userId: targetUserId, role: current.role }))
			return { ok: false, code: 'not_owner' } as const
		if (current.role === 'owner' && (await ownerCount(trx, organizationId)) <= 1) return { ok: false, code: 'last_owner' } as const
		await auditActor(trx, actor.userId)
		await trx.deleteFrom('organization_members').where('organization_id', '=', organizationId).where('user_id', '=', targetUserId).execute()
		await sql`delete from private.notification_preferences where organization_id = ${organizationId} and user_id = ${targetUserId}`.execute(
			trx,
		)
		return { ok: true } as const
	})
}

export type InviteResult =
	{ ok: true; outcome: 'invited' } | { ok: false; code: 'not_owner' | 'already_member' | 'already_invited' | 'not_found' }

/**
 * Invites an address: a single-use link valid 7 days, whether or not the address has an account
 * (docs/decisions/037-verified-addresses.md). Nobody joins by being invited: an unknown address
 * creates its account through the link (which proves the address), an account of that address
 * accepts through the link while signed in with it and verified (`joinWithInvitation`). So
 * whoever registered someone else's address first gains nothing, and the inviter learns nothing
 * about which addresses have accounts. The mail is in the account's language when the address
 * has one, else in the inviter's.
 */
export async function inviteMember(
	actor: Actor & { name: string; language: string | null },
	organization: { id: string; name: string },
	rawEmail: string,
	role: Role,
): Promise<InviteResult> {
	const email = normalizeEmail(rawEmail)
	const token = newToken()
	const result = await asSystem(async (trx) => {
		const actorRole = await lockAndReadRole(trx, organization.id, actor.userId)
		if (!actorRole) return { ok: false, code: 'not_found' } as const
		if (!mayHandle(actorRole, role)) return { ok: false, code: 'not_owner' } as const
		const existing = await trx
			.selectFrom('auth.users as u')
			.leftJoin('profiles as p', 'p.user_id', 'u.id')
			.select(['u.id', 'p.preferred_language'])
			.where(sql`lower(u.email)`, '=', email)
			.where('u.deleted_at', 'is', null)
			.executeTakeFirst()
		if (existing) {
			const member = await trx
				.selectFrom('organization_members')
				.select('role')
				.where('organization_id', '=', organization.id)
				.where('user_id', '=', existing.id)
				.executeTakeFirst()
			if (member) return { ok: false, code: 'already_member' } as const
		}
		// An expired invitation of the address gives way to the new one.
		await sql`delete from private.organization_invitations
			where organization_id = ${organization.id} and lower(email) = ${email} and accepted_at is null and expires_at <= now()`.execute(trx)
		const { rows } = await sql<{ id: string }>`
			insert into private.organization_invitations (organization_id, email, role, token_hash, invited_by)
			values (${organization.id}, ${email}, ${role}, ${hashToken(token)}, ${actor.userId})
			on conflict do nothing returning id`.execute(trx)
		if (!rows[0]) return { ok: false, code: 'already_invited' } as const
		return { ok: true, hasAccount: Boolean(existing), language: existing ? existing.preferred_language : actor.language } as const
	})
	if (!result.ok) return result
	const t = tIn(result.language, 'settings')
	const tc = tIn(result.language, 'common')
	const values = { inviter: actor.name, organization: organization.name, role: tc(`roles.${role}`) }
	const link = `${publicOrigin()}/auth/invitation?${new URLSearchParams({ token })}`
	const mail = result.hasAccount ? 'members.invite.accountMail' : 'members.invite.mail'
	queueMail({ to: email, subject: t(`${mail}.subject`, values), text: t(`${mail}.body`, { ...values, link }) })
	return { ok: true, outcome: 'invited' }
}

/** Withdraws a pending invitation of the organization (its link stops working); false when there was none. */
export async function revokeInvitation(organizationId: string, invitationId: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ id: string }>`delete from private.organization_invitations
			where id = ${invitationId} and organization_id = ${organizationId} and accepted_at is null returning id`.execute(trx),
	)
	return rows.length > 0
}

/**
 * The pending invitation a token belongs to (to show the page; nothing is spent), and whether
 * its address already has an account: that person joins by signing in, not by signing up.
 */
export async function findInvitation(token: string) {
	return asSystem((trx) => pendingInvitation(trx, token))
}

async function pendingInvitation(trx: Tx, token: string) {
	const { rows } = await sql<{ email: string; role: Role; name: string; has_account: boolean }>`
		select i.email, i.role, o.name,
			exists (select 1 from auth.users u where lower(u.email) = i.email and u.deleted_at is null) as has_account
		from private.organization_invitations i
		join public.organizations o on o.id = i.organization_id
		where i.token_hash = ${hashToken(token)} and i.accepted_at is null and i.expires_at > now()`.execute(trx)
	const row = rows[0]
	return row ? { email: row.email, role: row.role, organizationName: row.name, hasAccount: row.has_account } : null
}

export type AcceptResult =
	{ ok: true; userId: string; organizationId: string; organizationName: string } | { ok: false; code: 'invalid_token' | 'email_taken' }

/** Marks the invitation used and returns it, or null when the token is unknown, used or expired. */
async function spendInvitation(trx: Tx, token: string) {
	const { rows } = await sql<{ organization_id: string; email: string; role: Role; name: string }>`
		update private.organization_invitations i set accepted_at = now()
		from public.organizations o
		where o.id = i.organization_id and i.token_hash = ${hashToken(token)} and i.accepted_at is null and i.expires_at > now()
		returning i.organization_id, i.email, i.role, o.name`.execute(trx)
	return rows[0] ?? null
}

/**
 * Spends the invitation and creates the account in the organization, in one transaction: the
 * account gets no organization of its own (supabase/migrations/20261123001100_invited_sign_up.sql)
 * and the interface language as its preferred one. Its address is verified: the link came to it.
 * An address that has an account by now leaves the invitation unspent: that account joins with
 * `joinWithInvitation` after signing in (and verifying its address).
 */
export async function acceptInvitation(
	token: string,
	input: { fullName: string; password: string; language?: Language },
): Promise<AcceptResult> {
	const passwordHash = await hashPassword(input.password)
	return asSystem(async (trx) => {
		const pending = await pendingInvitation(trx, token)
		if (!pending) return { ok: false, code: 'invalid_token' } as const
		if (pending.hasAccount) return { ok: false, code: 'email_taken' } as const
		const invitation = await spendInvitation(trx, token)
		if (!invitation) return { ok: false, code: 'invalid_token' } as const
		const user = await trx
			.insertInto('auth.users')
			.values({
				email: invitation.email,
				encrypted_password: passwordHash,
				raw_user_meta_data: JSON.stringify({ full_name: input.fullName.trim(), preferred_language: input.language }),
				raw_app_meta_data: JSON.stringify({ provider: 'email', providers: ['email'], invited: true }),
				email_confirmed_at: new Date(),
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		await auditActor(trx, user.id)
		await trx
			.insertInto('organization_members')
			.values({ organization_id: invitation.organization_id, user_id: user.id, role: invitation.role })
			.execute()
		return { ok: true, userId: user.id, organizationId: invitation.organization_id, organizationName: invitation.name } as const
	})
}

export type JoinResult =
	{ ok: true; organizationId: string; organizationName: string } | { ok: false; code: 'invalid_token' | 'other_account' | 'unverified' }

const JOIN_REFUSALS = {
	invitation_invalid: 'invalid_token',
	invitation_other_address: 'other_account',
	address_unverified: 'unverified',
} as const

/**
 * The signed-in account of the invited address joins with the invitation's role, if it
 * verifiably owns that address (`private.join_invitation`, which checks it under the
 * invitation's lock): 'other_account' for an account of another address, 'unverified' for one
 * that has not proved its address yet (the invitation stays pending). A person who is a member
 * already keeps their role and the invitation is used.
 */
export async function joinWithInvitation(token: string, user: { userId: string }): Promise<JoinResult> {
	try {
		const rows = await asSystem(
			async (trx) =>
				(
					await sql<{ organization_id: string; organization_name: string }>`
					select organization_id, organization_name from private.join_invitation(${hashToken(token)}, ${user.userId}::uuid)`.execute(trx)
				).rows,
		)
		const joined = rows[0]!
		return { ok: true, organizationId: joined.organization_id, organizationName: joined.organization_name }
	} catch (error) {
		const code = dbErrorCode(error)
		if (code && code in JOIN_REFUSALS) return { ok: false, code: JOIN_REFUSALS[code as keyof typeof JOIN_REFUSALS] }
		throw error
	}
}
