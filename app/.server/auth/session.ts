import { createContext, redirect, type RouterContextProvider } from 'react-router'
import { errorResponse } from '#app/lib/errors.ts'
import { hasRole, type Role } from '#app/lib/roles.ts'
import { memberContext, socketAddressContext } from '../context.ts'
import { clientAddress } from '../security.ts'
import { sql, systemStatement } from '../db/index.ts'
import { visibleModules, type ActiveModule } from '../marketplace/modules.ts'
import {
	chosenOrganization,
	memberOf,
	membershipOf,
	type CurrentMember,
	type MembershipRow,
	type ProfileRow,
} from '../organizations/current.ts'
import { SESSION_IDLE, SESSION_TOUCH_AFTER } from './local.ts'
import { hashToken } from './tokens.ts'
import { auth, readLocalToken, type AuthUser, type ClientMeta } from './port.ts'

/** The signed-in user, from the configured auth adapter (app/.server/auth/port.ts), or null. */
export async function getOptionalUser(request: Request): Promise<AuthUser | null> {
	return auth().getUser(request)
}

/** The signed-in user, or a redirect to /auth that comes back here afterwards. */
export async function requireUser(request: Request): Promise<AuthUser> {
	const user = await getOptionalUser(request)
	if (user) return user
	throw signInRedirect(request)
}

function signInRedirect(request: Request) {
	const url = new URL(request.url)
	const redirectTo = url.pathname + url.search
	return redirect(`/auth?${new URLSearchParams({ redirectTo })}`)
}

/**
 * Whether the signed-in user's address is verified (docs/decisions/037-verified-addresses.md),
 * set by the /app layout's middleware from the signed-in shell: the shell reminds the user until it is.
 */
export const emailVerifiedContext = createContext<boolean>(true)

/**
 * For the /app layout's middleware: requireUser, then the member of the current organization
 * (null when the user belongs to none), the sidebar's modules and whether the user's address is
 * verified, in one statement (`private.signed_in_shell`; docs/decisions/023-fewer-round-trips.md).
 * With the local adapter the session is checked in that statement too; Supabase's verified
 * claims need no database. `chosen`: the organization to act in, instead of the current one (a
 * posted form's).
 */
export async function requireSignedInMember(request: Request, chosenForRequest?: string | null): Promise<SignedInShell> {
	const chosen = chosenForRequest ?? (await chosenOrganization(request))
	const port = auth()
	let shell: SignedInShell | null = null
	if (port.name === 'local') {
		const token = await readLocalToken(request)
		if (token) shell = await readSignedInShell({ sessionTokenHash: hashToken(token), verifiedUser: null, chosen })
	} else {
		const user = await port.getUser(request)
		if (user) shell = await readSignedInShell({ sessionTokenHash: null, verifiedUser: user, chosen })
	}
	if (!shell) throw signInRedirect(request)
	return shell
}

type SignedInShell = { member: CurrentMember | null; activeModules: ActiveModule[]; emailVerified: boolean }

async function readSignedInShell({
	sessionTokenHash,
	verifiedUser,
	chosen,
}: {
	sessionTokenHash: string | null
	verifiedUser: AuthUser | null
	chosen: string | null
}): Promise<SignedInShell | null> {
	const rows = await systemStatement(
		sql<{
			shell: {
				user_id: string
				email: string | null
				email_verified: boolean
				memberships: MembershipRow[]
				organization_id: string | null
				profile: ProfileRow | null
				modules: Array<ActiveModule & { default_visibility: string }>
			} | null
		}>`select private.signed_in_shell(${sessionTokenHash}, ${verifiedUser?.userId ?? null}::uuid, ${chosen}::uuid,
			${SESSION_IDLE}::interval, ${SESSION_TOUCH_AFTER}::interval) as shell`,
	)
	const shell = rows[0]?.shell
	if (!shell) return null
	const user: AuthUser = verifiedUser ?? { userId: shell.user_id, email: shell.email ?? '' }
	const memberships = shell.memberships.map(membershipOf)
	const member = memberOf(
		user,
		{ memberships, profile: shell.profile },
		memberships.find((m) => m.id === shell.organization_id),
	)
	return {
		member,
		activeModules: member ? visibleModules(shell.modules, member.organization.role) : [],
		emailVerified: shell.email_verified,
	}
}

export function getClientAddress(request: Request, context: Readonly<RouterContextProvider>) {
	return clientAddress(request, context.get(socketAddressContext))
}

/** Who sent the request, for throttling and the list of sessions. */
export function clientMeta(request: Request, context: Readonly<RouterContextProvider>): ClientMeta {
	return { ip: getClientAddress(request, context), userAgent: request.headers.get('user-agent') }
}

/** Ends the request's session (a sign-out); the headers clear its cookies. */
export async function endSession(request: Request) {
	return auth().signOut(request)
}

/**
 * For loaders and actions under /app: the user and organization the middleware resolved.
 * Anywhere else there is none, and the answer is a 403 the error boundary shows translated.
 */
export function requireMember(context: Readonly<RouterContextProvider>) {
	const member = context.get(memberContext)
	if (!member) return errorResponse(403, 'notMember')
	return member
}

/**
 * The member, when their role in the current organization is one of `roles`; else a
 * translated 403. `requireRole(context, 'owner')` is the TypeScript side of SQL's
 * `private.require_owner`: only owners manage members, modules and the organization's
 * deletion. The SQL functions check again; this answers before any work is done.
 */
export function requireRole(context: Readonly<RouterContextProvider>, ...roles: [Role, ...Role[]]) {
	const member = requireMember(context)
	if (!hasRole(member.organization.role, roles)) {
		if (roles.length === 1 && roles[0] === 'owner') refuseNonOwner()
		return errorResponse(403, 'forbidden')
	}
	return member
}

/** The member, when an owner of the current organization; else refuseNonOwner's 403. */
export function requireOwner(context: Readonly<RouterContextProvider>) {
	return requireRole(context, 'owner')
}

/**
 * The one answer to a change only an owner may make: a 403 whose message, translated, says so.
 * requireOwner gives it before any work; a route gives it too when a domain service refuses with
 * `not_owner` (SQL's private.require_owner, or the member rules of app/lib/roles.ts checked under
 * the organization's lock: the role changed meanwhile, or the change touches an owner).
 */
export function refuseNonOwner(): never {
	return errorResponse(403, 'ownerOnly')
}
