/**
 * The roles a member can hold in an organization (docs/product.md, "Roles and permissions").
 * Only owners manage members, modules and the organization's deletion; the server enforces
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
