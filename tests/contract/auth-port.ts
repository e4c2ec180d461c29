/**
 * The auth port's contract (app/.server/auth/port.ts): one list of tests, run against each
 * adapter (tests/db/auth-contract.test.ts). Everything goes through Requests and Set-Cookie
 * headers, as a browser would: the cookies an answer sets are what the next request carries.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import type { AuthPort } from '#app/.server/auth/port.ts'
import { applySupabaseHeaders } from '#app/.server/auth/supabase.ts'

export type AuthContractDriver = {
	port: () => AuthPort
	/** The user's memberships as the auth.users trigger made them. */
	memberships: (userId: string) => Promise<Array<{ role: string }>>
	/** Whether a profile row exists with this full name. */
	profileName: (userId: string) => Promise<string | null>
	/** Sign-out revokes the session at once (a replayed cookie is refused), rather than at the access token's expiry. */
	revokesAtOnce: boolean
	/** The adapter lists the user's sessions (the Security card), so one can be picked and ended; Supabase Auth lists none. */
	listsSessions: boolean
	/** Failures allowed per (email, address) before sign-in is refused (LOGIN_MAX_FAILURES). */
	maxFailures: number
	/** Sign-ups allowed per address in the window (SIGNUP_MAX_PER_IP). */
	maxSignUps: number
	/** Whether the user's current address is verified (`auth.users.email_confirmed_at`, both adapters' record). */
	isVerified: (userId: string) => Promise<boolean>
	/**
	 * Addresses are verified through a mailed link (docs/decisions/037-verified-addresses.md): `confirm`
	 * uses the link of the newest verification mail to `email` in `browser`, as the user would;
	 * `before` and `after` switch the adapter into that mode and back (Supabase's "Confirm email").
	 * `sessionFirst`: the sign-up signs in at once (local) rather than with the link (Supabase).
	 * Absent where no mail can be read (a real project).
	 */
	verification?: {
		sessionFirst: boolean
		before?: () => void
		after?: () => void
		confirm: (email: string, browser: Browser) => Promise<void>
	}
}

export class Browser {
	private jar = new Map<string, string>()
	request(path = '/') {
		const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ')
		return new Request(`http://localhost${path}`, { headers: cookie ? { cookie } : {} })
	}
	/** Keeps what the answer (the port's headers plus what the request's Supabase client wrote) sets. */
	take(request: Request, headers: Headers) {
		const response = applySupabaseHeaders(request, new Response(null, { headers }))
		for (const line of response.headers.getSetCookie()) {
			const [pair, ...attributes] = line.split(';')
			const eq = pair!.indexOf('=')
			const name = pair!.slice(0, eq).trim()
			const value = pair!.slice(eq + 1).trim()
			if (!value || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.jar.delete(name)
			else this.jar.set(name, value)
		}
	}
	get cookieCount() {
		return this.jar.size
	}
	snapshot() {
		const copy = new Browser()
		for (const [k, v] of this.jar) copy.jar.set(k, v)
		return copy
	}
}

const meta = (ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`) => ({ ip, userAgent: 'contract-test' })
const address = () => `contract-${randomUUID()}@example.test`
const PASSWORD = 'contract password 1'

async function signUp(driver: AuthContractDriver, browser: Browser, email = address(), fullName = 'Contract Tester') {
	const request = browser.request('/auth')
	const outcome = await driver.port().signUp(request, { email, password: PASSWORD, fullName, ...meta() })
	if (!outcome.ok) throw new Error(`sign-up refused: ${outcome.code}`)
	browser.take(request, outcome.headers)
	return { email, user: outcome.user, signedIn: outcome.signedIn }
}

/** A second browser signed in to the account with its password. */
async function signInElsewhere(driver: AuthContractDriver, email: string) {
	const browser = new Browser()
	const request = browser.request('/auth')
	const outcome = await driver.port().signIn(request, { email, password: PASSWORD, ...meta() })
	if (!outcome.ok) throw new Error(`sign-in refused: ${outcome.code}`)
	browser.take(request, outcome.headers)
	return browser
}

export function authContract(name: string, driver: AuthContractDriver) {
	describe(`auth port contract: ${name}`, () => {
		test('sign-up makes the user, and the auth.users trigger makes profile (full_name from the metadata) and an owned organization', async () => {
			const browser = new Browser()
			const { user, email, signedIn } = await signUp(driver, browser, address(), 'Ana Contract')
			expect(user.email).toBe(email)
			expect(signedIn).toBe(true)
			expect(await driver.profileName(user.userId)).toBe('Ana Contract')
			expect(await driver.memberships(user.userId)).toEqual([{ role: 'owner' }])
		})

		test("the sign-up's cookies identify the user on the next request; no cookie or a forged one is nobody", async () => {
			const browser = new Browser()
			const { user } = await signUp(driver, browser)
			expect(browser.cookieCount).toBeGreaterThan(0)
			expect(await driver.port().getUser(browser.request())).toEqual(user)
			expect(await driver.port().getUser(new Request('http://localhost/'))).toBeNull()
			const forged = new Request('http://localhost/', {
				headers: { cookie: 'p2p_session=forged-token-forged-token-forged; sb-project-auth-token=base64-eyJmb3JnZWQiOnRydWV9' },
			})
			expect(await driver.port().getUser(forged)).toBeNull()
		})

		test('a second account with the same email is refused', async () => {
			const { email } = await signUp(driver, new Browser())
			const again = await driver.port().signUp(new Browser().request(), { email, password: PASSWORD, fullName: 'Again', ...meta() })
			expect(again).toEqual({ ok: false, code: 'email_taken' })
		})

		test('sign-in: a wrong password and an unknown email fail alike; the right one gives a session', async () => {
			const { email, user } = await signUp(driver, new Browser())
			const ip = meta()
			expect(await driver.port().signIn(new Browser().request(), { email, password: 'wrong password 1', ...ip })).toEqual({
				ok: false,
				code: 'invalid_credentials',
			})
			expect(await driver.port().signIn(new Browser().request(), { email: address(), password: PASSWORD, ...ip })).toEqual({
				ok: false,
				code: 'invalid_credentials',
			})
			const browser = new Browser()
			const request = browser.request('/auth')
			const outcome = await driver.port().signIn(request, { email: email.toUpperCase(), password: PASSWORD, ...ip })
			expect(outcome.ok).toBe(true)
			if (outcome.ok) browser.take(request, outcome.headers)
			expect(await driver.port().getUser(browser.request())).toEqual(user)
		})

		test('sign-in is refused, even with the right password, after too many failures for one email and address', async () => {
			const { email } = await signUp(driver, new Browser())
			const ip = meta()
			for (let i = 0; i < driver.maxFailures; i++) {
				expect((await driver.port().signIn(new Browser().request(), { email, password: `wrong password ${i}`, ...ip })).ok).toBe(false)
			}
			expect(await driver.port().signIn(new Browser().request(), { email, password: PASSWORD, ...ip })).toEqual({
				ok: false,
				code: 'too_many_attempts',
			})
			// From another address the account is not locked.
			expect((await driver.port().signIn(new Browser().request(), { email, password: PASSWORD, ...meta() })).ok).toBe(true)
		})

		test('sign-ups from one address stop at the limit, even when they arrive together', async () => {
			const ip = meta()
			const outcomes = await Promise.all(
				Array.from({ length: driver.maxSignUps + 2 }, () =>
					driver.port().signUp(new Browser().request('/auth'), { email: address(), password: PASSWORD, fullName: 'Crowd', ...ip }),
				),
			)
			expect(outcomes.filter((o) => o.ok)).toHaveLength(driver.maxSignUps)
			expect(outcomes.filter((o) => !o.ok)).toEqual([
				{ ok: false, code: 'too_many_attempts' },
				{ ok: false, code: 'too_many_attempts' },
			])
		})

		test("sign-out clears the browser's session", async () => {
			const browser = new Browser()
			const { user } = await signUp(driver, browser)
			const replay = browser.snapshot()
			const request = browser.request('/auth/sign-out')
			browser.take(request, await driver.port().signOut(request))
			expect(await driver.port().getUser(browser.request())).toBeNull()
			if (driver.revokesAtOnce) expect(await driver.port().getUser(replay.request())).toBeNull()
			else expect([null, user]).toContainEqual(await driver.port().getUser(replay.request()))
		})

		test('an email change asks for the current password of a password account: a wrong one is refused, the right one accepted', async () => {
			const browser = new Browser()
			const { user } = await signUp(driver, browser)
			expect(await driver.port().reauthentication(browser.request(), user)).toBe('password')
			for (const password of ['not it at all', '', null]) {
				expect(await driver.port().confirmIdentity(browser.request(), user, { password, ...meta() })).toBe('wrong_password')
			}
			expect(await driver.port().confirmIdentity(browser.request(), user, { password: PASSWORD, ...meta() })).toBe('ok')
		})

		test.skipIf(!driver.verification)(
			'a new address is verified only through the link mailed to it; the link is mailed again while it is not',
			async () => {
				const verification = driver.verification!
				verification.before?.()
				try {
					const browser = new Browser()
					const { user, email, signedIn } = await signUp(driver, browser)
					expect(signedIn).toBe(verification.sessionFirst)
					expect(await driver.isVerified(user.userId)).toBe(false)
					if (!signedIn) {
						// The right password does not sign in before the link is used, and says why.
						expect(await driver.port().signIn(new Browser().request(), { email, password: PASSWORD, ...meta() })).toEqual({
							ok: false,
							code: 'email_not_confirmed',
						})
					}
					expect(await driver.port().resendVerification(browser.request(), user, 'en')).toEqual({ ok: true, email })
					await verification.confirm(email, browser)
					expect(await driver.isVerified(user.userId)).toBe(true)
					expect(await driver.port().getUser(browser.request())).toEqual(user)
					expect(await driver.port().resendVerification(browser.request(), user, 'en')).toEqual({ ok: false, code: 'already_verified' })
				} finally {
					verification.after?.()
				}
			},
		)

		test.skipIf(!driver.listsSessions)(
			"the user's sessions are listed, this browser's first; one other can be ended, this browser's and a stranger's cannot",
			async () => {
				const browser = new Browser()
				const { user, email } = await signUp(driver, browser)
				const elsewhere = await signInElsewhere(driver, email)
				const sessions = await driver.port().listSessions(browser.request(), user)
				expect(sessions.map((s) => s.current)).toEqual([true, false])
				expect(sessions[1]).toMatchObject({ userAgent: 'contract-test', ip: expect.any(String) })
				const strangerBrowser = new Browser()
				const stranger = await signUp(driver, strangerBrowser)
				const [strangerSession] = await driver.port().listSessions(strangerBrowser.request(), stranger.user)

				expect(await driver.port().endSession(browser.request(), user, 'not-a-session-id')).toBe('invalid_id')
				expect(await driver.port().endSession(browser.request(), user, sessions[0]!.id)).toBe('current')
				expect(await driver.port().endSession(browser.request(), user, strangerSession!.id)).toBe('gone')
				expect(await driver.port().getUser(strangerBrowser.request())).toEqual(stranger.user)
				expect(await driver.port().endSession(new Browser().request(), user, sessions[1]!.id)).toBe('no_session')

				expect(await driver.port().endSession(browser.request(), user, sessions[1]!.id)).toBe('ended')
				expect(await driver.port().getUser(elsewhere.request())).toBeNull()
				expect(await driver.port().getUser(browser.request())).toEqual(user)
				expect(await driver.port().endSession(browser.request(), user, sessions[1]!.id)).toBe('gone')
				expect(await driver.port().listSessions(browser.request(), user)).toHaveLength(1)
			},
		)

		test.skipIf(driver.listsSessions)('an adapter that cannot list sessions lists none, so none can be picked', async () => {
			const browser = new Browser()
			const { user, email } = await signUp(driver, browser)
			await signInElsewhere(driver, email)
			expect(await driver.port().listSessions(browser.request(), user)).toEqual([])
			expect(await driver.port().endSession(browser.request(), user, randomUUID())).toBe('no_session')
			expect(await driver.port().getUser(browser.request())).toEqual(user)
		})

		test('"sign out everywhere else" ends the other sessions and keeps this browser signed in', async () => {
			const browser = new Browser()
			const { user, email } = await signUp(driver, browser)
			const elsewhere = [await signInElsewhere(driver, email), await signInElsewhere(driver, email)]
			const request = browser.request('/app/settings')
			const ended = await driver.port().endOtherSessions(request, user)
			// How many ended, where the adapter can count them.
			expect(ended).toEqual({ ok: true, count: driver.listsSessions ? 2 : null })
			browser.take(request, new Headers())
			expect(await driver.port().getUser(browser.request())).toEqual(user)
			for (const other of elsewhere) {
				if (driver.revokesAtOnce) expect(await driver.port().getUser(other.request())).toBeNull()
				else expect([null, user]).toContainEqual(await driver.port().getUser(other.request()))
			}
		})

		test('an account the server has just made signs in with its password (an accepted invitation)', async () => {
			const { user, email } = await signUp(driver, new Browser())
			const browser = new Browser()
			const request = browser.request('/auth/invitation')
			browser.take(request, await driver.port().signInNewAccount(request, user, { password: PASSWORD, ...meta() }))
			expect(await driver.port().getUser(browser.request())).toEqual({ userId: user.userId, email })
		})

		test('a password change needs the current password; then only the new one signs in, and this browser stays signed in', async () => {
			const browser = new Browser()
			const { user, email } = await signUp(driver, browser)
			const wrong = await driver
				.port()
				.changePassword(browser.request(), user, { current: 'not it at all', next: 'next password 2', ...meta() })
			expect(wrong).toEqual({ ok: false, code: 'wrong_password' })
			const request = browser.request('/app/settings')
			const changed = await driver.port().changePassword(request, user, { current: PASSWORD, next: 'next password 2', ...meta() })
			expect(changed.ok).toBe(true)
			if (changed.ok) browser.take(request, changed.headers)
			expect(await driver.port().getUser(browser.request())).toEqual(user)
			expect((await driver.port().signIn(new Browser().request(), { email, password: PASSWORD, ...meta() })).ok).toBe(false)
			expect((await driver.port().signIn(new Browser().request(), { email, password: 'next password 2', ...meta() })).ok).toBe(true)
		})
	})
}
