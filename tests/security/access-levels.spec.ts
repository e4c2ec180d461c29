/**
 * Every route's access level (app/route-security.ts), checked both ways: someone just below the
 * level is refused, someone at it is let in. The roles climb member, manager, administrator,
 * owner (docs/product.md, Roles and permissions): a plain member or a manager is refused an
 * administrator's page, an administrator an owner's intent; below a member is a signed-in
 * account of no organization, below a module's page a member of an organization without it.
 */
import { expect, test } from '@playwright/test'
import type { Access } from '../../app/route-security.ts'
import { FORM, raw, type Raw } from './http.ts'
import { baseURLOf, concretePath, routeSecurity, type RouteSecurity } from './walk.ts'
import { BOOKING_MODULE_ID, fingerprint, makeOrg, memberOf, signUp, withoutOrganization, type Org } from './world.ts'

type Who = 'signed out' | 'no organization' | 'member' | 'manager' | 'administrator' | 'owner' | 'member without the module'

/** For each level, who is refused (just below it, and the ones under them) and who is let in. */
const LADDER: Record<Exclude<Access, 'token'>, { below: Who[]; at: Who[] }> = {
	public: { below: [], at: ['signed out'] },
	guest: { below: [], at: ['signed out'] },
	user: { below: ['signed out'], at: ['no organization'] },
	member: { below: ['no organization', 'signed out'], at: ['member'] },
	module: { below: ['member without the module'], at: ['member'] },
	administrator: { below: ['manager', 'member'], at: ['administrator', 'owner'] },
	owner: { below: ['administrator', 'manager'], at: ['owner'] },
}

/**
 * Links whose token only their own flow mints (a recovery, an email change, an invitation, a
 * verification, an unsubscribe, Google's callback, an invoice's page): their tests make real ones (tests/e2e/auth.spec.ts,
 * settings.spec.ts, tests/db/verified-addresses.test.ts, notifications.test.ts, tests/security/invoice-page.spec.ts); the bad-input walk
 * posts to them with no token. The walk checks the booking's manage link, whose token the world holds.
 */
const TOKENS_MINTED_ELSEWHERE = [
	'routes/api/v1/clients',
	'routes/api/v1/payments',
	'routes/auth/callback',
	'routes/auth/confirm-email',
	'routes/auth/invitation',
	'routes/auth/reset-password',
	'routes/auth/revert-email',
	'routes/auth/verify-email',
	'routes/invoice/page',
	'routes/invoice/pdf',
	'routes/messaging/unsubscribe',
	'routes/unsubscribe',
]

/** Clients CRM (part of the free base, docs/decisions/039): its owners' intents can be posted without touching the booking module. */
const OTHER_MODULE_ID = 'b0000000-0000-4000-8000-000000000002'
const NO_ROW = '00000000-0000-4000-8000-000000000000'

const SIGNED_IN: Access[] = ['user', 'member', 'module', 'administrator', 'owner']

/** Refused: 401/403, or, where the route needs a signed-in user, sent to sign in or to onboarding. */
function refused(entry: RouteSecurity, response: Raw) {
	if (response.status === 401 || response.status === 403) return true
	const to = response.headers.location ?? ''
	return (
		SIGNED_IN.includes(entry.access) && [302, 303].includes(response.status) && (to.startsWith('/auth') || to.startsWith('/onboarding'))
	)
}

/**
 * Let in: not refused, and for a signed-in route its page (200) or its redirect. Anyone's routes
 * and the catch-alls answer by their own state (a wizard step without its choices goes back to
 * the first, `/book` and an unknown path are 404 pages): not being refused is being let in.
 */
function letIn(entry: RouteSecurity, response: Raw) {
	if (refused(entry, response) || response.status >= 500) return false
	if (!SIGNED_IN.includes(entry.access) || entry.path.endsWith('*')) return true
	return entry.html ? response.status === 200 : response.status < 400
}

type Cast = { a: Org; cookies: Record<Who, string> }

/** Organization A (with the booking module) and one account of each kind around it. */
async function cast(base: string): Promise<Cast> {
	const [a, without, nobody] = await Promise.all([
		makeOrg(base, 'Levels', 'LevelsOwn'),
		signUp(base, 'No Module Owner'),
		withoutOrganization(base),
	])
	const [member, manager, administrator] = await Promise.all(
		(['member', 'manager', 'administrator'] as const).map((role) => memberOf(base, a, role)),
	)
	return {
		a,
		cookies: {
			'signed out': '',
			'no organization': nobody.cookie,
			member: member!.cookie,
			manager: manager!.cookie,
			administrator: administrator!.cookie,
			owner: a.cookie,
			'member without the module': without.cookie,
		},
	}
}

/** A post of `intent` with a value for every field an owner's intent checks before the role (ids of no row, no delete phrase). */
function postBody(intent: string) {
	return new URLSearchParams({
		intent,
		moduleId: OTHER_MODULE_ID,
		visibility: 'any',
		upgradeId: NO_ROW,
		credentialId: NO_ROW,
		invitationId: NO_ROW,
		userId: NO_ROW,
	}).toString()
}

/** Where a post goes: a module's page is the other module's, so that no post reaches the booking module the walk reads. */
function postPath(entry: RouteSecurity, org: Org) {
	return concretePath(entry, org, { post: true }).replace(BOOKING_MODULE_ID, OTHER_MODULE_ID)
}

test('every route refuses whoever is just below its level and lets in whoever is at it', async () => {
	test.setTimeout(180_000)
	const base = baseURLOf()
	const { a, cookies } = await cast(base)
	let checked = 0
	for (const entry of routeSecurity.filter((e) => e.access !== 'token')) {
		const path = concretePath(entry, a)
		const { below, at } = LADDER[entry.access as Exclude<Access, 'token'>]
		for (const who of below) {
			const response = await raw(base, 'GET', path, { headers: { cookie: cookies[who] } })
			expect
				.soft(
					refused(entry, response),
					`${who}: GET ${path} (${entry.access}) answered ${response.status} ${response.headers.location ?? ''}`,
				)
				.toBe(true)
			checked++
		}
		for (const who of at) {
			const response = await raw(base, 'GET', path, { headers: { cookie: cookies[who] } })
			expect
				.soft(
					letIn(entry, response),
					`${who}: GET ${path} (${entry.access}) answered ${response.status} ${response.headers.location ?? ''}`,
				)
				.toBe(true)
			checked++
		}
	}
	expect(checked).toBeGreaterThan(routeSecurity.length)
})

test('the manage link opens with its token and not without; the other links’ tokens are tested where they are made', async () => {
	const base = baseURLOf()
	const a = await makeOrg(base, 'Token', 'TokenOwn')
	const tokenRoutes = routeSecurity.filter((e) => e.access === 'token')
	expect(
		tokenRoutes
			.filter((e) => !e.ids)
			.map((e) => e.id)
			.sort(),
	).toEqual(TOKENS_MINTED_ELSEWHERE)
	for (const entry of tokenRoutes.filter((e) => e.ids)) {
		const held = await raw(base, 'GET', concretePath(entry, a, { token: a.appointmentToken }))
		expect(held.status, `${entry.path} with its token`).toBe(200)
		for (const token of [undefined, 'x'.repeat(32)]) {
			const path = concretePath(entry, a, { token })
			const response = await raw(base, 'GET', path)
			expect(response.status, `${path} without its token`).toBe(404)
		}
	}
})

test('every action refuses whoever is below its level, for every intent, and changes nothing', async () => {
	test.setTimeout(180_000)
	const base = baseURLOf()
	const { a, cookies } = await cast(base)
	const before = await fingerprint(a.orgId)
	let checked = 0
	for (const entry of routeSecurity.filter((e) => e.post && SIGNED_IN.includes(e.access))) {
		for (const who of LADDER[entry.access as Exclude<Access, 'token'>].below) {
			for (const intent of entry.post!.intents.length ? entry.post!.intents : ['']) {
				const response = await raw(base, 'POST', postPath(entry, a), { headers: { ...FORM, cookie: cookies[who] }, body: postBody(intent) })
				expect(
					refused(entry, response),
					`${who}: POST ${entry.path} intent=${intent} answered ${response.status} ${response.headers.location ?? ''}`,
				).toBe(true)
				checked++
			}
		}
	}
	expect(checked).toBeGreaterThan(20)
	expect(await fingerprint(a.orgId)).toBe(before)
})

test('an owner’s intent is refused to an administrator, changing nothing, and let through for an owner', async () => {
	test.setTimeout(120_000)
	const base = baseURLOf()
	const { a, cookies } = await cast(base)
	const owned = routeSecurity.filter((e) => e.post?.owner?.length)
	expect(owned.map((e) => e.id)).toEqual(
		expect.arrayContaining(['routes/app/settings/organization', 'routes/app/module-marketplace', 'routes/app/module-detail']),
	)
	const before = await fingerprint(a.orgId)
	for (const entry of owned) {
		for (const intent of entry.post!.owner!) {
			const response = await raw(base, 'POST', postPath(entry, a), {
				headers: { ...FORM, cookie: cookies.administrator },
				body: postBody(intent),
			})
			expect(response.status, `administrator: POST ${entry.path} intent=${intent}`).toBe(403)
		}
	}
	expect(await fingerprint(a.orgId)).toBe(before)
	// The owner's posts may change A (a module of no interest activated, then deactivated): last.
	for (const entry of owned) {
		for (const intent of entry.post!.owner!) {
			const response = await raw(base, 'POST', postPath(entry, a), { headers: { ...FORM, cookie: cookies.owner }, body: postBody(intent) })
			expect(refused(entry, response), `owner: POST ${entry.path} intent=${intent} answered ${response.status}`).toBe(false)
			expect(response.status, `owner: POST ${entry.path} intent=${intent}`).toBeLessThan(500)
		}
	}
})
