import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import {
	createRecoveryToken,
	createSession,
	findRecoveryUser,
	getSessionUser,
	revokeSession,
	setPassword,
	signIn,
	signUp,
} from '#app/.server/auth/local.ts'
import { hashToken } from '#app/.server/auth/tokens.ts'
import { asSystem, sql } from '#app/.server/db/index.ts'

beforeAll(() => {
	process.env.SESSION_SECRET ??= 'test-session-secret-of-at-least-32-characters'
	process.env.LOG_LEVEL = 'silent'
})

const email = () => `Auth-${randomUUID()}@Example.test`

describe('local auth adapter', () => {
	test('sign-up stores only a hash, is case-insensitive on email, and refuses a second account', async () => {
		const address = email()
		const first = await signUp({ email: address, password: 'secret-1', fullName: 'Case Test' })
		expect(first.ok).toBe(true)
		const stored = await asSystem((trx) =>
			trx
				.selectFrom('auth.users')
				.select(['email', 'encrypted_password'])
				.where(sql`lower(email)`, '=', address.toLowerCase())
				.executeTakeFirstOrThrow(),
		)
		expect(stored.email).toBe(address.toLowerCase())
		expect(stored.encrypted_password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
		expect(await signUp({ email: address.toUpperCase(), password: 'secret-2', fullName: 'Again' })).toEqual({
			ok: false,
			code: 'email_taken',
		})
	})

	test('an unknown email and a wrong password fail alike; the right password signs in', async () => {
		const address = email()
		await signUp({ email: address, password: 'right-pass', fullName: 'Sign In' })
		expect(await signIn({ email: address, password: 'wrong-pass', ip: '10.0.0.1' })).toEqual({ ok: false, code: 'invalid_credentials' })
		expect(await signIn({ email: email(), password: 'right-pass', ip: '10.0.0.1' })).toEqual({ ok: false, code: 'invalid_credentials' })
		const ok = await signIn({ email: ` ${address.toUpperCase()} `, password: 'right-pass', ip: '10.0.0.1' })
		expect(ok.ok).toBe(true)
	})

	test('after 10 failures for one email and address, even the right password is refused there, not elsewhere', async () => {
		const address = email()
		await signUp({ email: address, password: 'right-pass', fullName: 'Throttle' })
		const ip = `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`
		for (let i = 0; i < 10; i++) {
			expect((await signIn({ email: address, password: `wrong-${i}`, ip })).ok).toBe(false)
		}
		expect(await signIn({ email: address, password: 'right-pass', ip })).toEqual({ ok: false, code: 'too_many_attempts' })
		expect((await signIn({ email: address, password: 'right-pass', ip: `${ip}9` })).ok).toBe(true)
	})

	test('a session lives until revoked, idle for 7 days, or 30 days old', async () => {
		const address = email()
		const { user } = (await signUp({ email: address, password: 'right-pass', fullName: 'Sessions' })) as { user: { userId: string } }
		const token = await createSession(user.userId, { ip: '10.0.0.2' })
		expect(await getSessionUser(token)).toEqual({ userId: user.userId, email: address.toLowerCase() })
		expect(await getSessionUser(token + 'x')).toBeNull()
		await revokeSession(token)
		expect(await getSessionUser(token)).toBeNull()

		const idle = await createSession(user.userId, {})
		await asSystem((trx) =>
			trx
				.updateTable('auth.sessions')
				.set({ updated_at: new Date(Date.now() - 8 * 86_400_000) })
				.where('token_hash', '=', hashToken(idle))
				.execute(),
		)
		expect(await getSessionUser(idle)).toBeNull()

		const old = await createSession(user.userId, {})
		await asSystem((trx) =>
			trx
				.updateTable('auth.sessions')
				.set({ not_after: new Date(Date.now() - 1000) })
				.where('token_hash', '=', hashToken(old))
				.execute(),
		)
		expect(await getSessionUser(old)).toBeNull()
	})

	test('a password change revokes every session and the recovery link works once, for an hour', async () => {
		const address = email()
		const { user } = (await signUp({ email: address, password: 'right-pass', fullName: 'Recovery' })) as { user: { userId: string } }
		const session = await createSession(user.userId, {})
		const recovery = await createRecoveryToken(address)
		expect(recovery).not.toBeNull()
		expect(await createRecoveryToken(address)).toBeNull() // one mail a minute
		expect(await findRecoveryUser(recovery!.token)).toEqual({ userId: user.userId, email: address.toLowerCase() })
		await setPassword(user.userId, 'new-pass-1')
		expect(await getSessionUser(session)).toBeNull()
		expect(await findRecoveryUser(recovery!.token)).toBeNull()
		expect((await signIn({ email: address, password: 'new-pass-1', ip: '10.0.0.3' })).ok).toBe(true)

		await asSystem((trx) => trx.updateTable('auth.users').set({ recovery_sent_at: null }).where('id', '=', user.userId).execute())
		const late = await createRecoveryToken(address)
		await asSystem((trx) =>
			trx
				.updateTable('auth.users')
				.set({ recovery_sent_at: new Date(Date.now() - 61 * 60_000) })
				.where('id', '=', user.userId)
				.execute(),
		)
		expect(await findRecoveryUser(late!.token)).toBeNull()
		expect(await createRecoveryToken(email())).toBeNull()
	})
})
