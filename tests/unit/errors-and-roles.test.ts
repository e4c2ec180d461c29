import { UNSAFE_ErrorResponseImpl as ErrorResponseImpl, RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { refuseNonOwner, requireMember, requireOwner, requireRole } from '#app/.server/auth/session.ts'
import { memberContext } from '#app/.server/context.ts'
import type { CurrentMember } from '#app/.server/organizations/current.ts'
import { invariantResponse } from '#app/lib/errors.ts'
import { pageMeta, pageTitle } from '#app/lib/meta.ts'
import { canManageMembers, grantableRoles, mayHandle, mayRemove, ROLES, type Role } from '#app/lib/roles.ts'

/** What a loader threw: its status and the message key the error boundary translates. */
function thrown(fn: () => unknown) {
	try {
		fn()
	} catch (error) {
		// data() throws a DataWithResponseInit; the router turns it into an error response.
		const { data, init } = error as { data: unknown; init: { status: number } | null }
		return { status: init?.status, data }
	}
	throw new Error('nothing was thrown')
}

function contextAs(role: Role | null) {
	const context = new RouterContextProvider()
	if (role) {
		const organization = {
			id: 'org',
			name: 'Org',
			slug: 'org',
			description: null,
			role,
			gearsOwned: 0,
			gearsRemaining: 0,
			timezone: 'UTC',
			timezoneConfirmed: true,
		}
		const member: CurrentMember = {
			user: { userId: 'u', email: 'u@example.com', fullName: null, avatarUrl: null, preferredLanguage: null },
			organization,
			memberships: [organization],
		}
		context.set(memberContext, member)
	}
	return context
}

describe('permissions', () => {
	test('outside /app there is no member: a 403 that says so, in words the boundary translates', () => {
		expect(thrown(() => requireMember(contextAs(null)))).toEqual({ status: 403, data: { message: 'notMember' } })
	})

	test('only an owner passes requireOwner, as SQL private.require_owner decides', () => {
		expect(requireOwner(contextAs('owner')).organization.role).toBe('owner')
		for (const role of ['administrator', 'manager', 'member'] as const) {
			expect(
				thrown(() => requireOwner(contextAs(role))),
				role,
			).toEqual({ status: 403, data: { message: 'ownerOnly' } })
			expect(
				thrown(() => requireRole(contextAs(role), 'owner')),
				role,
			).toEqual({ status: 403, data: { message: 'ownerOnly' } })
		}
	})

	test('requireRole lets in any of the roles it names and refuses the others', () => {
		expect(requireRole(contextAs('manager'), 'owner', 'administrator', 'manager').organization.role).toBe('manager')
		expect(thrown(() => requireRole(contextAs('member'), 'owner', 'administrator'))).toEqual({
			status: 403,
			data: { message: 'forbidden' },
		})
		expect(thrown(() => requireRole(contextAs(null), 'member'))).toEqual({ status: 403, data: { message: 'notMember' } })
	})

	test("a non-owner is refused one way: the 403 of requireOwner is the one a route gives for a service's not_owner", () => {
		expect(thrown(() => refuseNonOwner())).toEqual(thrown(() => requireOwner(contextAs('administrator'))))
	})
})

describe('member rules (app/lib/roles.ts)', () => {
	test('owners and administrators manage members; managers and members do not', () => {
		expect(ROLES.filter(canManageMembers)).toEqual(['owner', 'administrator'])
	})

	test('only owners touch owners: an administrator grants and handles every role but owner; the others none', () => {
		expect(grantableRoles('owner')).toEqual(['owner', 'administrator', 'manager', 'member'])
		expect(grantableRoles('administrator')).toEqual(['administrator', 'manager', 'member'])
		expect(grantableRoles('manager')).toEqual([])
		expect(grantableRoles('member')).toEqual([])
		expect(mayHandle('administrator', 'owner')).toBe(false)
		expect(mayHandle('owner', 'owner')).toBe(true)
	})

	test('anyone may leave; removing someone else follows mayHandle', () => {
		const as = (userId: string, role: Role) => ({ userId, role })
		expect(mayRemove(as('m', 'member'), as('m', 'member'))).toBe(true)
		expect(mayRemove(as('o', 'owner'), as('o', 'owner'))).toBe(true)
		expect(mayRemove(as('a', 'administrator'), as('m', 'manager'))).toBe(true)
		expect(mayRemove(as('a', 'administrator'), as('o', 'owner'))).toBe(false)
		expect(mayRemove(as('m', 'manager'), as('x', 'member'))).toBe(false)
		expect(mayRemove(as('o', 'owner'), as('p', 'owner'))).toBe(true)
	})
})

describe('invariantResponse', () => {
	test('passes a true condition and stops a false one with a 404 or 400 and its message', () => {
		expect(() => invariantResponse(1, 404)).not.toThrow()
		expect(thrown(() => invariantResponse(null, 404))).toEqual({ status: 404, data: { message: 'notFound' } })
		expect(thrown(() => invariantResponse('', 400))).toEqual({ status: 400, data: { message: 'badRequest' } })
		expect(thrown(() => invariantResponse(false, 404, 'forbidden'))).toEqual({ status: 404, data: { message: 'forbidden' } })
	})
})

describe('page titles', () => {
	test('the page and the product, in the language the root loader chose', () => {
		expect(pageTitle('en', 'transactions')).toBe('Transactions · P2P Transaction Tracker')
		expect(pageTitle('es', 'transactions')).toBe('Transacciones · P2P Transaction Tracker')
		expect(pageTitle('pt-BR', 'reports')).toBe('Relatórios · P2P Transaction Tracker')
		expect(pageTitle('en', null)).toBe('P2P Transaction Tracker')
		expect(pageTitle('es', 'clientDetail', 'Acme')).toBe('Acme · Cliente · P2P Transaction Tracker')
	})

	test('a meta function reads the language from the root match, English when there is none', () => {
		const matches = [
			{ id: 'root', loaderData: { locale: 'es' } },
			{ id: 'routes/app/layout', loaderData: {} },
		]
		expect(pageMeta({ matches }, 'dashboard')).toEqual([{ title: 'Panel · P2P Transaction Tracker' }])
		expect(pageMeta({ matches: [{ id: 'root', loaderData: undefined }] }, 'dashboard')).toEqual([
			{ title: 'Dashboard · P2P Transaction Tracker' },
		])
	})

	test('a screen that answers 404 is titled "not found"; the root boundary is titled "error"', () => {
		const matches = [{ id: 'root', loaderData: { locale: 'pt-BR' } }]
		const notFound = new ErrorResponseImpl(404, 'Not Found', { message: 'notFound' })
		expect(pageMeta({ matches, error: notFound }, 'clientDetail', 'Acme')).toEqual([
			{ title: 'Página não encontrada · P2P Transaction Tracker' },
		])
		const forbidden = new ErrorResponseImpl(403, 'Forbidden', { message: 'ownerOnly' })
		expect(pageMeta({ matches, error: forbidden }, 'settings')).toEqual([{ title: 'Configurações · P2P Transaction Tracker' }])
		expect(pageMeta({ matches: [], error: new Error('boom') }, null)).toEqual([{ title: 'Error · P2P Transaction Tracker' }])
	})
})
