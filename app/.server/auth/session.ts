import { createCookie, redirect, type RouterContextProvider } from 'react-router'
import { errorResponse } from '#app/lib/errors.ts'
import { hasRole, type Role } from '#app/lib/roles.ts'
import { memberContext, socketAddressContext } from '../context.ts'
import { languageCookie } from '../i18n.ts'
import { clientAddress, secureCookies } from '../security.ts'
import { asSystemThenUser } from '../db/index.ts'
import { activeModulesIn, type ActiveModule } from '../modules.ts'
import { chooseMember, membershipsIn, type CurrentMember } from '../organizations.ts'
import { createSession, getSessionUser, revokeSession, sessionUserIn, SESSION_ABSOLUTE_DAYS, type AuthUser } from './local.ts'

const sessionCookie = createCookie('p2p_session', { path: '/', sameSite: 'lax', httpOnly: true })

/** The session token of the request's cookie (to tell the current session in the list of sessions). */
export async function readSessionToken(request: Request): Promise<string | null> {
	return readToken(request)
}

async function readToken(request: Request): Promise<string | null> {
	const value: unknown = await sessionCookie.parse(request.headers.get('cookie'))
	return typeof value === 'string' && value.length > 20 ? value : null
}

export async function getOptionalUser(request: Request): Promise<AuthUser | null> {
	const token = await readToken(request)
	return token ? getSessionUser(token) : null
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
 * For the /app layout's middleware: requireUser, then the member of the current organization
 * (resolveMember; null when the user belongs to none) and the sidebar's modules, all in one
 * transaction instead of three (docs/decisions/018-one-transaction-per-signed-in-shell.md).
 */
export async function requireSignedInMember(request: Request): Promise<{ member: CurrentMember | null; activeModules: ActiveModule[] }> {
	const token = await readToken(request)
	const result = token
		? await asSystemThenUser(
				(trx) => sessionUserIn(trx, token),
				async (trx, user) => {
					const member = await chooseMember(request, user, await membershipsIn(trx, user.userId))
					const activeModules = member ? await activeModulesIn(trx, member.organization.id, member.organization.role) : []
					return { member, activeModules }
				},
			)
		: null
	if (!result) throw signInRedirect(request)
	return result.value
}

export function getClientAddress(request: Request, context: Readonly<RouterContextProvider>) {
	return clientAddress(request, context.get(socketAddressContext))
}

/** Starts a session and returns the Set-Cookie headers (plus the profile's language, if any). */
export async function startSession(
	request: Request,
	context: Readonly<RouterContextProvider>,
	userId: string,
	preferredLanguage?: string | null,
) {
	const token = await createSession(userId, {
		userAgent: request.headers.get('user-agent'),
		ip: getClientAddress(request, context),
	})
	const headers = new Headers()
	headers.append(
		'set-cookie',
		await sessionCookie.serialize(token, { maxAge: SESSION_ABSOLUTE_DAYS * 86_400, secure: secureCookies() }),
	)
	if (preferredLanguage) {
		headers.append('set-cookie', await languageCookie.serialize(preferredLanguage, { secure: secureCookies() }))
	}
	return headers
}

export async function endSession(request: Request) {
	const token = await readToken(request)
	if (token) await revokeSession(token)
	return new Headers({ 'set-cookie': await sessionCookie.serialize('', { maxAge: 0, secure: secureCookies() }) })
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
		return errorResponse(403, roles.length === 1 && roles[0] === 'owner' ? 'ownerOnly' : 'forbidden')
	}
	return member
}

export function requireOwner(context: Readonly<RouterContextProvider>) {
	return requireRole(context, 'owner')
}
