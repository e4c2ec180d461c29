/**
 * The roles a member can hold in an organization (docs/product.md, "Roles and permissions").
 * Only owners manage modules, the owner role and the organization's deletion; owners and
 * administrators manage the other members (docs/product.md, Settings). The server enforces
 * it (requireRole, and SQL's private.require_owner), the UI asks hasRole only to hide controls.
 */
export const ROLES = ['owner', 'administrator', 'manager', 'member'] as const
export type Role = (typeof ROLES)[number]

export function hasRole(role: Role, allowed: readonly Role[]): boolean {
	return allowed.includes(role)
}

export function isOwner(role: Role): boolean {
	return role === 'owner'
}
