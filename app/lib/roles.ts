/**
 * The roles a member can hold in an organization (docs/product.md, "Roles and permissions"), and
 * every rule about who may do what to whom, in one place. Only owners manage modules, the owner
 * role and the organization's deletion; owners and administrators manage the other members
 * (docs/product.md, Settings). The server enforces them (requireRole and requireOwner before any
 * work, the member services under the organization's lock, SQL's private.require_owner); the UI
 * asks the same functions only to hide controls.
 */
export const ROLES = ['owner', 'administrator', 'manager', 'member'] as const
export type Role = (typeof ROLES)[number]

/** Whether `role` is one of `allowed`. */
export function hasRole(role: Role, allowed: readonly Role[]): boolean {
	return allowed.includes(role)
}

/** Whether `role` is the owner's. */
export function isOwner(role: Role): boolean {
	return role === 'owner'
}

/** The roles that manage members (the Members tab: invitations, role changes, removals). */
export const MEMBER_MANAGERS = ['owner', 'administrator'] as const satisfies readonly Role[]

/** Whether a member of `role` manages the other members. */
export function canManageMembers(role: Role): boolean {
	return hasRole(role, MEMBER_MANAGERS)
}

/** May a member of `actorRole` give or take `role`, or act on someone holding it? Managers only, and only owners touch owners. */
export function mayHandle(actorRole: Role, role: Role): boolean {
	return canManageMembers(actorRole) && (role !== 'owner' || isOwner(actorRole))
}

/** The roles a member of `actorRole` may grant: every one for an owner, all but owner for an administrator, none for the others. */
export function grantableRoles(actorRole: Role): Role[] {
	return ROLES.filter((role) => mayHandle(actorRole, role))
}

type Person = { userId: string; role: Role }

/**
 * May `actor` take `target` out of the organization? Anyone may leave (target = actor); removing
 * someone else is mayHandle's. The last owner can go neither way (the member services count owners).
 */
export function mayRemove(actor: Person, target: Person): boolean {
	return target.userId === actor.userId || mayHandle(actor.role, target.role)
}
