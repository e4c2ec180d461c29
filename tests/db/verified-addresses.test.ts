/**
 * Verified addresses (docs/decisions/037-verified-addresses.md): every way an address is attached
 * to an account, or an account to an organization through its address, asks one rule, "this
 * account verifiably owns this address". Each path, as an attacker and as the address's owner
 * would try it; mails are read from the outbox as a user would read them.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import {
	createRecoveryToken,
	createSession,
	getSessionUser,
	resetPasswordWithToken,
	signIn,
	signInWithGoogle,
	signUp,
} from '#app/.server/auth/local.ts'
import { localAuth, localSessionHeaders } from '#app/.server/auth/port.ts'
import { requireSignedInMember } from '#app/.server/auth/session.ts'
import { hashToken } from '#app/.server/auth/tokens.ts'
import { confirmVerification, findVerification, isVerified } from '#app/.server/auth/verification.ts'
import { asSystem, sql } from '#app/.server/db/index.ts'
import { confirmEmailChange, findEmailRevert, requestEmailChange, revertEmailChange } from '#app/.server/account/email-change.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { findInvitation, inviteMember, joinWithInvitation, listMembers } from '#app/.server/organizations/members.ts'
import { createUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

useTemporaryDataDir()

const PASSWORD = 'owner password 1'
const address = (name = 'person') => `${name}-${randomUUID()}@example.test`
const ip = () => `10.37.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`

/** A browser's request carrying `cookie` (the Set-Cookie of a sign-in or sign-up). */
function requestWith(headers: Headers, path = '/app/settings') {
	const cookie = headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ')
	return new Request(`http://localhost${path}`, { headers: { cookie } })
}

/** Signs up through the auth port, as the sign-up form does: signed in at once, a verification link mailed. */
async function signUpWithForm(email = address(), password = PASSWORD) {
	const outcome = await localAuth.signUp(new Request('http://localhost/auth'), {
		email,
		password,
		fullName: 'Form User',
		language: 'en',
		ip: ip(),
	})
	if (!outcome.ok) throw new Error(outcome.code)
	return { user: outcome.user, request: requestWith(outcome.headers) }
}

/** The token of the newest link to `path` mailed to `to`. */
async function linkToken(to: string, path: string) {
	await drainMail()
	const mails = await mailsTo(to)
	const pattern = new RegExp(`https?://\\S+${path}\\?\\S+`)
	const mail = [...mails].reverse().find((m) => pattern.test(m.text))
	if (!mail) throw new Error(`no ${path} mail to ${to}`)
	return new URL(pattern.exec(mail.text)![0]).searchParams.get('token')!
}

async function userRow(userId: string) {
	return asSystem((trx) =>
		trx
			.selectFrom('auth.users')
			.select(['email', 'encrypted_password', 'email_confirmed_at'])
			.where('id', '=', userId)
			.executeTakeFirstOrThrow(),
	)
}

async function sessionsOf(userId: string) {
	const { rows } = await asSystem((trx) =>
		sql<{ n: number }>`select count(*)::int as n from auth.sessions where user_id = ${userId}`.execute(trx),
	)
	return rows[0]!.n
}

async function inviter(name = 'Inviting Owner') {
	const owner = await createUser(name)
	const actor = { userId: owner.userId, role: 'owner' as const, name, language: 'en' }
	return {
		owner,
		invite: (email: string, role: 'administrator' | 'member' = 'administrator') =>
			inviteMember(actor, { id: owner.orgId, name }, email, role),
	}
}

describe('sign-up and the verification link', () => {
	test('a new account is signed in, owns its organization, and is not verified until its mailed link is confirmed by that account', async () => {
		const email = address('signup')
		const { user, request } = await signUpWithForm(email)
		expect(await isVerified(user.userId)).toBe(false)
		const shell = await requireSignedInMember(request)
		expect(shell.member?.organization.role).toBe('owner')
		expect(shell.emailVerified).toBe(false)

		const token = await linkToken(email, '/auth/verify-email')
		expect(await findVerification(token)).toEqual({ userId: user.userId, email })
		// Someone else signed in (the address's real owner clicking a link for an account they did not make) verifies nothing.
		const other = await createUser('Other')
		expect(await confirmVerification(token, other.userId)).toEqual({ ok: false, code: 'other_account' })
		expect(await isVerified(user.userId)).toBe(false)

		expect(await confirmVerification(token, user.userId)).toEqual({ ok: true, email })
		expect(await isVerified(user.userId)).toBe(true)
		expect((await requireSignedInMember(request)).emailVerified).toBe(true)
		expect(await confirmVerification(token, user.userId)).toEqual({ ok: false, code: 'invalid_token' })
	})

	test('a link older than 24 hours, or for an address the account no longer has, verifies nothing', async () => {
		const email = address('late')
		const { user } = await signUpWithForm(email)
		const token = await linkToken(email, '/auth/verify-email')
		await asSystem((trx) =>
			sql`update private.email_verifications set sent_at = now() - interval '25 hours' where user_id = ${user.userId}`.execute(trx),
		)
		expect(await findVerification(token)).toBeNull()
		expect(await confirmVerification(token, user.userId)).toEqual({ ok: false, code: 'invalid_token' })

		await localAuth.resendVerification(requestWith(new Headers()), user, 'en')
		const fresh = await linkToken(email, '/auth/verify-email')
		expect(fresh).not.toBe(token)
		await asSystem((trx) => sql`update auth.users set email = ${address('moved')} where id = ${user.userId}`.execute(trx))
		expect(await findVerification(fresh)).toBeNull()
		expect(await confirmVerification(fresh, user.userId)).toEqual({ ok: false, code: 'invalid_token' })
		expect(await isVerified(user.userId)).toBe(false)
	})

	test('the link is mailed again at most 3 times an hour, and not at all to a verified address', async () => {
		const email = address('resend')
		const { user, request } = await signUpWithForm(email)
		for (let i = 0; i < 3; i++) expect(await localAuth.resendVerification(request, user, 'es')).toEqual({ ok: true, email })
		expect(await localAuth.resendVerification(request, user, 'es')).toEqual({ ok: false, code: 'too_many_attempts' })
		await drainMail()
		const subjects = (await mailsTo(email)).map((m) => m.subject)
		expect(subjects).toEqual(['Verify your email address', ...Array(3).fill('Verifica tu dirección de correo')])

		const verified = await createUser('Verified')
		await asSystem((trx) => sql`update auth.users set email_confirmed_at = now() where id = ${verified.userId}`.execute(trx))
		expect(await localAuth.resendVerification(request, { userId: verified.userId, email: verified.email }, 'en')).toEqual({
			ok: false,
			code: 'already_verified',
		})
	})
})

describe('invitations wait for the verified owner of the address', () => {
	test('an attacker who signed up first with the invitee’s address is not added; the owner verifies through the mail, accepts through the link, and joins', async () => {
		const invitee = address('new.hire')
		// The attacker registers the address before the invitation goes out.
		const attacker = await signUpWithForm(invitee, 'attacker password')
		const { owner, invite } = await inviter('Hiring Org')
		expect(await invite(invitee)).toEqual({ ok: true, outcome: 'invited' })
		expect((await listMembers(owner.userId, owner.orgId)).map((m) => m.userId)).toEqual([owner.userId])
		await drainMail()
		const invitation = await linkToken(invitee, '/auth/invitation')
		expect((await mailsTo(invitee)).at(-1)!.text).toContain('Sign in with this address and accept with this link')
		expect(await findInvitation(invitation)).toMatchObject({ email: invitee, hasAccount: true })

		// Signed in with the unverified account, the invitation is refused and stays pending.
		expect(await joinWithInvitation(invitation, attacker.user)).toEqual({ ok: false, code: 'unverified' })
		expect((await listMembers(owner.userId, owner.orgId)).map((m) => m.userId)).toEqual([owner.userId])
		expect(await findInvitation(invitation)).not.toBeNull()
		// Another account cannot spend it either.
		const stranger = await createUser('Stranger')
		await asSystem((trx) => sql`update auth.users set email_confirmed_at = now() where id = ${stranger.userId}`.execute(trx))
		expect(await joinWithInvitation(invitation, stranger)).toEqual({ ok: false, code: 'other_account' })

		// The address's owner takes the account through a password reset (the link comes to the address) …
		const recovery = await createRecoveryToken(invitee)
		const owned = await resetPasswordWithToken(recovery!.token, 'the real owner 1')
		expect(owned?.userId).toBe(attacker.user.userId)
		expect(
			await requireSignedInMember(attacker.request).then(
				() => 'signed in',
				() => 'refused',
			),
		).toBe('refused')
		expect((await signIn({ email: invitee, password: 'attacker password', ip: ip() })).ok).toBe(false)
		// … which proved the address: the invitation now works, once, with its role.
		expect(await joinWithInvitation(invitation, attacker.user)).toEqual({
			ok: true,
			organizationId: owner.orgId,
			organizationName: 'Hiring Org',
		})
		expect(await joinWithInvitation(invitation, attacker.user)).toEqual({ ok: false, code: 'invalid_token' })
		const members = await listMembers(owner.userId, owner.orgId)
		expect(members.map((m) => [m.userId, m.role])).toContainEqual([attacker.user.userId, 'administrator'])
	})

	test('the invitee who signed up themselves verifies through the mailed link, then accepts through the invitation link and joins', async () => {
		const invitee = address('invitee')
		const { user } = await signUpWithForm(invitee)
		const { owner, invite } = await inviter('Welcoming Org')
		expect(await invite(invitee, 'member')).toEqual({ ok: true, outcome: 'invited' })
		const invitation = await linkToken(invitee, '/auth/invitation')
		expect(await joinWithInvitation(invitation, user)).toEqual({ ok: false, code: 'unverified' })
		expect(await confirmVerification(await linkToken(invitee, '/auth/verify-email'), user.userId)).toEqual({ ok: true, email: invitee })
		expect(await joinWithInvitation(invitation, user)).toEqual({ ok: true, organizationId: owner.orgId, organizationName: 'Welcoming Org' })
		expect((await listMembers(owner.userId, owner.orgId)).map((m) => [m.userId, m.role])).toContainEqual([user.userId, 'member'])
	})

	test('an expired invitation is refused, and gives way to a new one for the same address', async () => {
		const invitee = address('expired')
		const { invite, owner } = await inviter('Late Org')
		expect(await invite(invitee)).toEqual({ ok: true, outcome: 'invited' })
		const first = await linkToken(invitee, '/auth/invitation')
		await asSystem((trx) =>
			sql`update private.organization_invitations set expires_at = now() - interval '1 second' where token_hash = ${hashToken(first)}`.execute(
				trx,
			),
		)
		const account = await createUser('Expired Invitee')
		await asSystem((trx) =>
			sql`update auth.users set email = ${invitee}, email_confirmed_at = now() where id = ${account.userId}`.execute(trx),
		)
		expect(await joinWithInvitation(first, account)).toEqual({ ok: false, code: 'invalid_token' })
		expect(await invite(invitee)).toEqual({ ok: true, outcome: 'invited' })
		expect(await joinWithInvitation(await linkToken(invitee, '/auth/invitation'), account)).toEqual({
			ok: true,
			organizationId: owner.orgId,
			organizationName: 'Late Org',
		})
	})
})

describe('Google sign-in', () => {
	test('to the address of an unverified password account: its sessions end, its password no longer signs in, and the address is verified', async () => {
		const email = address('prehijack')
		const attacker = await signUpWithForm(email, 'attacker password')
		const elsewhere = await createSession(attacker.user.userId, { ip: '10.0.0.66' })
		const google = await signInWithGoogle({
			sub: `google-${randomUUID()}`,
			email: email.toUpperCase(),
			emailVerified: true,
			name: 'Real Owner',
		})
		expect(google).toEqual({ ok: true, user: { userId: attacker.user.userId, email } })
		expect(await sessionsOf(attacker.user.userId)).toBe(0)
		expect(await getSessionUser(elsewhere)).toBeNull()
		expect(
			await requireSignedInMember(attacker.request).then(
				() => 'signed in',
				() => 'refused',
			),
		).toBe('refused')
		expect(await signIn({ email, password: 'attacker password', ip: ip() })).toEqual({ ok: false, code: 'invalid_credentials' })
		expect(await isVerified(attacker.user.userId)).toBe(true)
	})

	test('to a verified account: linked, and its password and sessions are kept', async () => {
		const email = address('linked')
		const { user } = await signUpWithForm(email)
		await confirmVerification(await linkToken(email, '/auth/verify-email'), user.userId)
		const session = await createSession(user.userId, {})
		const sub = `google-${randomUUID()}`
		expect(await signInWithGoogle({ sub, email, emailVerified: true })).toEqual({ ok: true, user: { userId: user.userId, email } })
		expect(await getSessionUser(session)).not.toBeNull()
		expect((await signIn({ email, password: PASSWORD, ip: ip() })).ok).toBe(true)
		// The identity signs in by itself from now on, whatever address Google reports.
		expect(await signInWithGoogle({ sub, email: address('elsewhere'), emailVerified: false })).toEqual({
			ok: true,
			user: { userId: user.userId, email },
		})
	})

	test('an address Google does not report verified is refused, and the account is untouched', async () => {
		const email = address('unverified-google')
		const { user } = await signUpWithForm(email)
		const before = await userRow(user.userId)
		expect(await signInWithGoogle({ sub: `google-${randomUUID()}`, email, emailVerified: false })).toEqual({
			ok: false,
			code: 'email_not_verified',
		})
		expect(await userRow(user.userId)).toEqual(before)
		expect(await sessionsOf(user.userId)).toBe(1)
	})

	test('a new address makes a verified account without a password', async () => {
		const email = address('google-new')
		const outcome = await signInWithGoogle({ sub: `google-${randomUUID()}`, email, emailVerified: true, name: 'New Googler' })
		if (!outcome.ok) throw new Error(outcome.code)
		const row = await userRow(outcome.user.userId)
		expect([row.email, Boolean(row.email_confirmed_at), row.encrypted_password]).toEqual([email, true, null])
	})
})

describe('password reset of an unverified account', () => {
	test('verifies the address and ends what the creator left pending: sessions, an email change', async () => {
		const email = address('reset')
		const creator = await signUpWithForm(email, 'creator password')
		const changeTo = address('creators-own')
		expect(
			await requestEmailChange(creator.request, creator.user, {
				email: changeTo,
				currentPassword: 'creator password',
				language: 'en',
				ip: ip(),
			}),
		).toEqual({ ok: true })
		const pendingChange = await linkToken(changeTo, '/auth/confirm-email')
		const recovery = await createRecoveryToken(email)
		await resetPasswordWithToken(recovery!.token, 'owner chose this 1')
		expect(await isVerified(creator.user.userId)).toBe(true)
		expect(await sessionsOf(creator.user.userId)).toBe(0)
		// The creator's pending change to their own address can no longer move the account.
		expect(await confirmEmailChange(pendingChange)).toEqual({ ok: false, code: 'invalid_token' })
		expect((await userRow(creator.user.userId)).email).toBe(email)
	})
})

describe('email change asks who you are', () => {
	test('without the right current password it is refused, and nothing is stored or mailed', async () => {
		const email = address('mover')
		const { user, request } = await signUpWithForm(email)
		const next = address('next')
		for (const currentPassword of ['wrong password', '', null]) {
			expect(await requestEmailChange(request, user, { email: next, currentPassword, language: 'en', ip: ip() })).toEqual({
				ok: false,
				code: 'wrong_password',
			})
		}
		const { rows } = await asSystem((trx) => sql`select 1 from private.email_changes where user_id = ${user.userId}`.execute(trx))
		expect(rows).toEqual([])
		await drainMail()
		expect(await mailsTo(next)).toEqual([])
		expect((await userRow(user.userId)).email).toBe(email)

		expect(await requestEmailChange(request, user, { email: next, currentPassword: PASSWORD, language: 'en', ip: ip() })).toEqual({
			ok: true,
		})
		expect(await confirmEmailChange(await linkToken(next, '/auth/confirm-email'))).toEqual({ ok: true, userId: user.userId, email: next })
		// The link reached the new address: it is verified.
		expect(await isVerified(user.userId)).toBe(true)
	})

	test('an account without a password must have signed in within the last 10 minutes', async () => {
		const google = await signInWithGoogle({ sub: `google-${randomUUID()}`, email: address('googler'), emailVerified: true })
		if (!google.ok) throw new Error(google.code)
		const headers = await localSessionHeaders(google.user.userId, { ip: '10.0.0.7' })
		const request = requestWith(headers)
		expect(await localAuth.reauthentication(request, google.user)).toBe('recent')
		await asSystem((trx) =>
			sql`update auth.sessions set created_at = now() - interval '11 minutes' where user_id = ${google.user.userId}`.execute(trx),
		)
		expect(await localAuth.reauthentication(request, google.user)).toBe('stale')
		const next = address('googler-next')
		expect(await requestEmailChange(request, google.user, { email: next, currentPassword: 'anything', language: 'en', ip: ip() })).toEqual({
			ok: false,
			code: 'sign_in_again',
		})
		await drainMail()
		expect(await mailsTo(next)).toEqual([])
	})
})

describe('the undo link of an email change', () => {
	/** An account that moved from `old` to `next` with the right password; the undo token mailed to `old`. */
	async function moved() {
		const old = address('victim')
		const { user, request } = await signUpWithForm(old)
		const next = address('thief')
		expect(await requestEmailChange(request, user, { email: next, currentPassword: PASSWORD, language: 'en', ip: ip() })).toEqual({
			ok: true,
		})
		expect(await confirmEmailChange(await linkToken(next, '/auth/confirm-email'))).toMatchObject({ ok: true })
		await drainMail()
		expect((await mailsTo(old)).at(-1)!.subject).toBe('Your sign-in email was changed')
		return { old, next, user, request, undo: await linkToken(old, '/auth/revert-email') }
	}

	test('restores the old address, ends every session, clears the password and the identities linked since; works once', async () => {
		const { old, next, user, request, undo } = await moved()
		const other = await createSession(user.userId, { ip: '10.0.0.8' })
		await signInWithGoogle({ sub: `google-${randomUUID()}`, email: next, emailVerified: true })
		expect(await findEmailRevert(undo)).toEqual({ oldEmail: old, newEmail: next })
		// Meanwhile nobody else can take the old address.
		expect(await signUp({ email: old, password: 'squatter password', fullName: 'Squatter' })).toEqual({ ok: false, code: 'email_taken' })

		expect(await revertEmailChange(undo)).toEqual({ ok: true, userId: user.userId, email: old })
		const row = await userRow(user.userId)
		expect([row.email, Boolean(row.email_confirmed_at), row.encrypted_password]).toEqual([old, true, ''])
		expect(await sessionsOf(user.userId)).toBe(0)
		expect(await getSessionUser(other)).toBeNull()
		expect(
			await requireSignedInMember(request).then(
				() => 'signed in',
				() => 'refused',
			),
		).toBe('refused')
		expect((await signIn({ email: old, password: PASSWORD, ip: ip() })).ok).toBe(false)
		const identities = await asSystem((trx) => trx.selectFrom('auth.identities').select('id').where('user_id', '=', user.userId).execute())
		expect(identities).toEqual([])
		const profile = await asSystem((trx) =>
			trx.selectFrom('profiles').select('email').where('user_id', '=', user.userId).executeTakeFirstOrThrow(),
		)
		expect(profile.email).toBe(old)
		expect(await revertEmailChange(undo)).toEqual({ ok: false, code: 'invalid_token' })
		// The owner gets back in through the restored address.
		const recovery = await createRecoveryToken(old)
		expect((await resetPasswordWithToken(recovery!.token, 'back in control 1'))?.userId).toBe(user.userId)
	})

	test('is refused after 7 days, and changes nothing', async () => {
		const { next, user, undo } = await moved()
		await asSystem((trx) =>
			sql`update private.email_change_reverts set changed_at = now() - interval '7 days 1 minute' where user_id = ${user.userId}`.execute(
				trx,
			),
		)
		expect(await findEmailRevert(undo)).toBeNull()
		expect(await revertEmailChange(undo)).toEqual({ ok: false, code: 'invalid_token' })
		expect((await userRow(user.userId)).email).toBe(next)
		expect(await sessionsOf(user.userId)).toBeGreaterThan(0)
	})
})
