import { existsSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { createSession, getSessionUser, listSessions, revokeOtherSessions, signIn, signUp } from '#app/.server/auth/local.ts'
import { localSessionHeaders } from '#app/.server/auth/port.ts'
import { asAnon, asSystem, asUser, sql } from '#app/.server/db/index.ts'
import { confirmEmailChange, findEmailChange, requestEmailChange } from '#app/.server/account/email-change.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import {
	acceptInvitation,
	changeRole,
	findInvitation,
	inviteMember,
	joinWithInvitation,
	listMembers,
	removeMember,
} from '#app/.server/organizations/members.ts'
import {
	deleteOrganization,
	getOrganizationSettings,
	resolveOldSlug,
	saveBrandColors,
	setLogo,
	updateOrganization,
} from '#app/.server/organizations/settings.ts'
import { changePassword } from '#app/.server/auth/local.ts'
import { languageAtSignIn, setAvatar, updateProfile } from '#app/.server/account/profile.ts'
import { ORGANIZATION_TIMEZONES } from '#app/lib/timezones.ts'
import { addMember, createUser } from './fixtures.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

const dataDir = useTemporaryDataDir()

async function preferredLanguage(userId: string) {
	const profile = await asSystem((trx) =>
		trx.selectFrom('profiles').select('preferred_language').where('user_id', '=', userId).executeTakeFirstOrThrow(),
	)
	return profile.preferred_language
}

async function png(width = 40, height = 30) {
	return new Blob([
		new Uint8Array(
			await sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
				.png()
				.toBuffer(),
		),
	])
}

describe('profile', () => {
	test('a username another profile has is refused with username_taken, and nothing changes', async () => {
		const a = await createUser('Ann')
		const b = await createUser('Ben')
		const username = `ann_${a.userId.slice(0, 8)}`
		expect(await updateProfile(a.userId, { fullName: 'Ann A.', username, phone: '+1 555 0100', preferredLanguage: 'es' })).toEqual({
			ok: true,
		})
		expect(await updateProfile(b.userId, { fullName: 'Ben B.', username, phone: null, preferredLanguage: 'en' })).toEqual({
			ok: false,
			code: 'username_taken',
		})
		const ben = await asSystem((trx) =>
			trx.selectFrom('profiles').select(['full_name', 'username']).where('user_id', '=', b.userId).executeTakeFirstOrThrow(),
		)
		expect(ben).toEqual({ full_name: 'Ben', username: null })
	})

	test("a sign-in keeps the profile's language, and saves the page's when the profile never had one", async () => {
		const never = await createUser('Nadia')
		await asSystem((trx) => trx.updateTable('profiles').set({ preferred_language: null }).where('user_id', '=', never.userId).execute())
		expect(await languageAtSignIn(never.userId, 'es')).toBe('es')
		expect(await preferredLanguage(never.userId)).toBe('es')
		// Saved once: a later sign-in from an English page does not change it.
		expect(await languageAtSignIn(never.userId, 'en')).toBe('es')
		expect(await preferredLanguage(never.userId)).toBe('es')
		const chosen = await createUser('Paulo')
		await updateProfile(chosen.userId, { fullName: 'Paulo', username: null, phone: null, preferredLanguage: 'pt-BR' })
		expect(await languageAtSignIn(chosen.userId, 'en')).toBe('pt-BR')
		expect(await preferredLanguage(chosen.userId)).toBe('pt-BR')
	})

	test('the avatar is stored at {user_id}/avatar.png and the URL changes with the picture', async () => {
		const a = await createUser('Pic')
		const first = await setAvatar(a.userId, await png())
		const second = await setAvatar(a.userId, await png(60, 60))
		if (!first.ok || !second.ok) throw new Error('upload refused')
		expect(first.url).toMatch(new RegExp(`^/storage/avatars/${a.userId}/avatar\\.png\\?v=`))
		expect(second.url).not.toBe(first.url)
		expect(existsSync(path.join(dataDir, 'storage', 'avatars', a.userId, 'avatar.png'))).toBe(true)
		expect(await setAvatar(a.userId, new Blob(['not an image']))).toEqual({ ok: false, code: 'invalid_type' })
	})

	test('the password changes only with the right current one, and every session ends', async () => {
		const account = { email: `pw-${crypto.randomUUID()}@example.test`, password: 'first-pass-1', fullName: 'Pat' }
		const created = await signUp(account)
		if (!created.ok) throw new Error(created.code)
		const { userId } = created.user
		const here = await createSession(userId, { userAgent: 'Firefox/1 Linux', ip: '10.0.0.1' })
		const elsewhere = await createSession(userId, { userAgent: 'Chrome/1 Windows', ip: '10.0.0.2' })
		expect(await changePassword(userId, 'wrong-pass', 'second-pass-2')).toBe(false)
		expect(await getSessionUser(elsewhere)).not.toBeNull()
		expect(await changePassword(userId, 'first-pass-1', 'second-pass-2')).toBe(true)
		expect(await getSessionUser(here)).toBeNull()
		expect(await getSessionUser(elsewhere)).toBeNull()
		expect((await signIn({ email: account.email, password: 'second-pass-2', ip: '10.0.0.3' })).ok).toBe(true)
	})

	test('"sign out everywhere else" keeps only the current session; the list marks it', async () => {
		const u = await createUser('Sessions')
		const mine = await createSession(u.userId, { userAgent: 'Firefox/1', ip: '10.1.0.1' })
		const other = await createSession(u.userId, { userAgent: 'Chrome/1', ip: '10.1.0.2' })
		const list = await listSessions(u.userId, mine)
		expect(list.map((s) => [s.ip, s.current])).toEqual([
			['10.1.0.1', true],
			['10.1.0.2', false],
		])
		expect(await revokeOtherSessions(u.userId, mine)).toBe(1)
		expect(await getSessionUser(mine)).not.toBeNull()
		expect(await getSessionUser(other)).toBeNull()
	})
})

/** A request of `user` signed in a moment ago (the proof an account without a password gives for an email change). */
async function freshlySignedIn(user: { userId: string; email: string }) {
	const headers = await localSessionHeaders(user.userId, { ip: '10.0.0.9' })
	const request = new Request('http://localhost/app/settings', { headers: { cookie: headers.get('set-cookie')!.split(';')[0]! } })
	return (email: string) => requestEmailChange(request, user, { email, currentPassword: null, language: 'en', ip: '10.0.0.9' })
}

describe('email change', () => {
	test('the address changes only when the link is confirmed, once; the old address gets a notice', async () => {
		const u = await createUser('Mover')
		const newEmail = `moved-${crypto.randomUUID()}@example.test`
		expect(await (await freshlySignedIn(u))(newEmail)).toEqual({ ok: true })
		await drainMail()
		const [mail] = await mailsTo(newEmail)
		const token = new URL(/https?:\/\/\S+confirm-email\?\S+/.exec(mail!.text)![0]).searchParams.get('token')!
		const before = await asSystem((trx) =>
			trx.selectFrom('auth.users').select('email').where('id', '=', u.userId).executeTakeFirstOrThrow(),
		)
		expect(before.email).toBe(u.email)
		expect(await findEmailChange(token)).toEqual({ newEmail })
		expect(await confirmEmailChange(token)).toEqual({ ok: true, userId: u.userId, email: newEmail })
		expect(await confirmEmailChange(token)).toEqual({ ok: false, code: 'invalid_token' })
		const after = await asSystem((trx) =>
			trx
				.selectFrom('auth.users as u')
				.innerJoin('profiles as p', 'p.user_id', 'u.id')
				.select(['u.email', 'p.email as profile_email'])
				.where('u.id', '=', u.userId)
				.executeTakeFirstOrThrow(),
		)
		expect(after).toEqual({ email: newEmail, profile_email: newEmail })
		await drainMail()
		expect((await mailsTo(u.email)).map((m) => m.subject)).toEqual(['Your sign-in email was changed'])
	})

	test("another account's address is refused before any mail", async () => {
		const a = await createUser('A')
		const b = await createUser('B')
		const request = await freshlySignedIn(a)
		expect(await request(b.email.toUpperCase())).toEqual({ ok: false, code: 'email_taken' })
		expect(await request(a.email)).toEqual({ ok: false, code: 'same_email' })
	})
})

describe('members', () => {
	test('the last owner can be neither demoted, removed nor leave; with a second owner they can', async () => {
		const owner = await createUser('Solo Owner')
		const admin = await createUser('Admin')
		await addMember(owner.orgId, admin.userId, 'administrator')
		const actor = { userId: owner.userId, role: 'owner' as const }
		expect(await changeRole(actor, owner.orgId, owner.userId, 'member')).toEqual({ ok: false, code: 'last_owner' })
		expect(await removeMember(actor, owner.orgId, owner.userId)).toEqual({ ok: false, code: 'last_owner' })
		// An administrator can neither touch the owner nor make anyone owner.
		const adminActor = { userId: admin.userId, role: 'administrator' as const }
		expect(await removeMember(adminActor, owner.orgId, owner.userId)).toEqual({ ok: false, code: 'not_owner' })
		expect(await changeRole(adminActor, owner.orgId, admin.userId, 'owner')).toEqual({ ok: false, code: 'not_owner' })
		expect(await changeRole(actor, owner.orgId, admin.userId, 'owner')).toEqual({ ok: true })
		expect(await removeMember(actor, owner.orgId, owner.userId)).toEqual({ ok: true })
		expect((await listMembers(admin.userId, owner.orgId)).map((m) => [m.userId, m.role])).toEqual([[admin.userId, 'owner']])
	})

	test('two owners demoting each other at once leave one owner', async () => {
		const a = await createUser('Twin A')
		const b = await createUser('Twin B')
		await addMember(a.orgId, b.userId, 'owner')
		const results = await Promise.all([
			changeRole({ userId: a.userId, role: 'owner' }, a.orgId, b.userId, 'member'),
			changeRole({ userId: b.userId, role: 'owner' }, a.orgId, a.userId, 'member'),
		])
		const owners = (await listMembers(a.userId, a.orgId).catch(() => listMembers(b.userId, a.orgId))).filter((m) => m.role === 'owner')
		expect(owners).toHaveLength(1)
		expect(results.filter((r) => r.ok)).toHaveLength(1)
	})

	test('an existing account is invited like anyone (not added); an unknown address signs up through a single-use link into the organization only', async () => {
		const owner = await createUser('Inviting Owner')
		const existing = await createUser('Existing')
		const org = { id: owner.orgId, name: 'Inviting Org' }
		const actor = { userId: owner.userId, role: 'owner' as const, name: 'Inviting Owner', language: 'en' }
		expect(await inviteMember(actor, org, existing.email, 'manager')).toEqual({ ok: true, outcome: 'invited' })
		expect(await inviteMember(actor, org, existing.email, 'manager')).toEqual({ ok: false, code: 'already_invited' })
		expect((await listMembers(owner.userId, owner.orgId)).map((m) => m.userId)).not.toContain(existing.userId)
		await addMember(owner.orgId, existing.userId, 'member')
		expect(await inviteMember(actor, org, existing.email, 'manager')).toEqual({ ok: false, code: 'already_member' })
		const newcomer = `new-${crypto.randomUUID()}@example.test`
		expect(await inviteMember(actor, org, newcomer, 'administrator')).toEqual({ ok: true, outcome: 'invited' })
		expect(await inviteMember(actor, org, newcomer, 'member')).toEqual({ ok: false, code: 'already_invited' })
		await drainMail()
		const [mail] = await mailsTo(newcomer)
		expect(mail!.subject).toBe('You are invited to Inviting Org on P2P Transaction Tracker')
		const token = new URL(/https?:\/\/\S+invitation\?\S+/.exec(mail!.text)![0]).searchParams.get('token')!
		expect(await findInvitation(token)).toEqual({
			email: newcomer,
			role: 'administrator',
			organizationName: 'Inviting Owner',
			hasAccount: false,
		})
		const accepted = await acceptInvitation(token, { fullName: 'New Person', password: 'newcomer-pass', language: 'pt-BR' })
		if (!accepted.ok) throw new Error(accepted.code)
		expect(await acceptInvitation(token, { fullName: 'Again', password: 'newcomer-pass' })).toEqual({ ok: false, code: 'invalid_token' })
		const memberships = await asSystem((trx) =>
			trx.selectFrom('organization_members').select(['organization_id', 'role']).where('user_id', '=', accepted.userId).execute(),
		)
		expect(memberships).toEqual([{ organization_id: owner.orgId, role: 'administrator' }])
		expect(await preferredLanguage(accepted.userId)).toBe('pt-BR')
		expect((await signIn({ email: newcomer, password: 'newcomer-pass', ip: '10.2.0.1' })).ok).toBe(true)
	})

	test('an invited address that signs up on its own keeps the invitation pending; only that account, verified, can spend it, and joins', async () => {
		const owner = await createUser('Late Owner')
		const actor = { userId: owner.userId, role: 'owner' as const, name: 'Late Owner', language: 'en' }
		const late = `Late-${crypto.randomUUID()}@example.test`.toLowerCase()
		expect(await inviteMember(actor, { id: owner.orgId, name: 'Late Org' }, late, 'administrator')).toEqual({
			ok: true,
			outcome: 'invited',
		})
		await drainMail()
		const [mail] = await mailsTo(late)
		const token = new URL(/https?:\/\/\S+invitation\?\S+/.exec(mail!.text)![0]).searchParams.get('token')!
		const signedUp = await signUp({ email: late.toUpperCase(), password: 'late-password', fullName: 'Late Person' })
		if (!signedUp.ok) throw new Error(signedUp.code)

		expect(await acceptInvitation(token, { fullName: 'Late', password: 'another-pass' })).toEqual({ ok: false, code: 'email_taken' })
		expect(await findInvitation(token)).toMatchObject({ email: late, hasAccount: true })
		const stranger = await createUser('Stranger')
		expect(await joinWithInvitation(token, stranger)).toEqual({ ok: false, code: 'other_account' })
		// Typing the address at sign-up proves nothing: the account verifies it first (tests/db/verified-addresses.test.ts).
		expect(await joinWithInvitation(token, signedUp.user)).toEqual({ ok: false, code: 'unverified' })
		await asSystem((trx) =>
			trx.updateTable('auth.users').set({ email_confirmed_at: new Date() }).where('id', '=', signedUp.user.userId).execute(),
		)
		expect(await joinWithInvitation(token, signedUp.user)).toEqual({
			ok: true,
			organizationId: owner.orgId,
			organizationName: 'Late Owner',
		})
		expect(await joinWithInvitation(token, signedUp.user)).toEqual({ ok: false, code: 'invalid_token' })
		const roles = await listMembers(owner.userId, owner.orgId)
		expect(roles.map((m) => [m.userId, m.role])).toContainEqual([signedUp.user.userId, 'administrator'])
		expect(roles.map((m) => m.userId)).not.toContain(stranger.userId)
	})

	test("the language of a sign-up becomes the profile's preferred language; anything else is ignored", async () => {
		const es = await signUp({
			email: `es-${crypto.randomUUID()}@example.test`,
			password: 'language-pass',
			fullName: 'Lengua',
			language: 'es',
		})
		const none = await signUp({ email: `none-${crypto.randomUUID()}@example.test`, password: 'language-pass', fullName: 'Sin' })
		if (!es.ok || !none.ok) throw new Error('sign-up refused')
		expect(await preferredLanguage(es.user.userId)).toBe('es')
		expect(await preferredLanguage(none.user.userId)).toBeNull()
		// A browser can set Supabase user metadata itself: an unsupported language is dropped, the account is made.
		const forged = await asSystem(async (trx) => {
			const user = await trx
				.insertInto('auth.users')
				.values({
					email: `forged-${crypto.randomUUID()}@example.test`,
					raw_user_meta_data: JSON.stringify({ full_name: 'Forged', preferred_language: 'xx' }),
				})
				.returning('id')
				.executeTakeFirstOrThrow()
			return user.id
		})
		expect(await preferredLanguage(forged)).toBeNull()
	})
})

describe('organization', () => {
	test('owners change name and slug; the old slug resolves to the new one; a taken slug is refused', async () => {
		const owner = await createUser('Slug Owner')
		const other = await createUser('Slug Other')
		const member = await createUser('Slug Member')
		await addMember(owner.orgId, member.userId, 'member')
		const oldSlug = (
			await asSystem((trx) => trx.selectFrom('organizations').select('slug').where('id', '=', owner.orgId).executeTakeFirstOrThrow())
		).slug
		const otherSlug = (
			await asSystem((trx) => trx.selectFrom('organizations').select('slug').where('id', '=', other.orgId).executeTakeFirstOrThrow())
		).slug
		const newSlug = `renamed-${owner.orgId.slice(0, 8)}`
		expect(
			await updateOrganization(owner.userId, owner.orgId, {
				name: 'Renamed',
				description: 'We do things',
				slug: newSlug,
				timezone: 'America/Sao_Paulo',
			}),
		).toEqual({ ok: true })
		expect(
			await updateOrganization(owner.userId, owner.orgId, { name: 'Renamed', description: null, slug: otherSlug, timezone: 'UTC' }),
		).toEqual({ ok: false, code: 'slug_taken' })
		expect(
			await updateOrganization(member.userId, owner.orgId, { name: 'Hijack', description: null, slug: 'hijack', timezone: 'Asia/Tokyo' }),
		).toEqual({ ok: false, code: 'not_found' })
		expect(await resolveOldSlug(oldSlug)).toBe(newSlug)
		expect(await resolveOldSlug('never-used-slug')).toBeNull()
		// The old slug stays reserved for its organization.
		expect(
			await updateOrganization(other.userId, other.orgId, { name: 'Slug Other', description: null, slug: oldSlug, timezone: 'UTC' }),
		).toEqual({ ok: false, code: 'slug_taken' })
		const org = await asSystem((trx) =>
			trx.selectFrom('organizations').select(['name', 'slug', 'description']).where('id', '=', owner.orgId).executeTakeFirstOrThrow(),
		)
		expect(org).toEqual({ name: 'Renamed', slug: newSlug, description: 'We do things' })
		// The timezone is the organization's clock, kept in its booking settings; a refused save changed nothing.
		expect((await getOrganizationSettings(owner.userId, owner.orgId))?.timezone).toBe('America/Sao_Paulo')
	})

	test('every timezone the screens offer is one the database accepts, and no other', async () => {
		const owner = await createUser('Zone Owner')
		const setZone = (timezone: string) =>
			asSystem((trx) => trx.updateTable('booking_settings').set({ timezone }).where('organization_id', '=', owner.orgId).execute())
		for (const zone of ORGANIZATION_TIMEZONES) await setZone(zone)
		for (const zone of ['Europe/Rome', 'Mars/Olympus', 'utc'])
			await expect(setZone(zone), zone).rejects.toThrow(/booking_settings_timezone_check/)
		const constraint = await asSystem((trx) =>
			sql<{
				def: string
			}>`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'booking_settings_timezone_check'`.execute(trx),
		)
		const allowed = [...constraint.rows[0]!.def.matchAll(/'([^']+)'/g)].map((m) => m[1])
		expect(allowed.sort()).toEqual([...ORGANIZATION_TIMEZONES].sort())
	})

	test('branding is saved where the public booking page reads it; a non-owner cannot change it', async () => {
		const owner = await createUser('Brand Owner')
		const member = await createUser('Brand Member')
		await addMember(owner.orgId, member.userId, 'manager')
		expect(await saveBrandColors(owner.userId, owner.orgId, { primary: '#112233', secondary: '#445566' })).toBe(true)
		expect(await saveBrandColors(member.userId, owner.orgId, { primary: '#ffffff', secondary: '#ffffff' })).toBe(false)
		expect(await setLogo(owner.userId, owner.orgId, await png())).toMatchObject({ ok: true })
		expect(await setLogo(member.userId, owner.orgId, await png())).toEqual({ ok: false, code: 'not_found' })
		const slug = (
			await asSystem((trx) => trx.selectFrom('organizations').select('slug').where('id', '=', owner.orgId).executeTakeFirstOrThrow())
		).slug
		const { rows } = await asAnon((trx) =>
			sql<{ logo_url: string; brand_colors: unknown }>`select logo_url, brand_colors from public.get_public_organization(${slug})`.execute(
				trx,
			),
		)
		expect(rows[0]!.brand_colors).toEqual({ primary: '#112233', secondary: '#445566' })
		expect(rows[0]!.logo_url).toMatch(new RegExp(`^/storage/logos/${owner.orgId}/logo\\.png\\?v=`))
	})

	test('deletion: a member and a wrong phrase are refused; the owner with the phrase removes the data and the logo, not the other organizations', async () => {
		const owner = await createUser('Doomed Owner')
		const member = await createUser('Doomed Member')
		await addMember(owner.orgId, member.userId, 'administrator')
		expect(await setLogo(owner.userId, owner.orgId, await png())).toMatchObject({ ok: true })
		const logoDir = path.join(dataDir, 'storage', 'logos', owner.orgId)
		expect(await deleteOrganization(member.userId, owner.orgId, 'DELETE MY ORGANIZATION')).toEqual({ ok: false, code: 'not_owner' })
		expect(await deleteOrganization(owner.userId, owner.orgId, 'delete my organization')).toEqual({ ok: false, code: 'wrong_confirmation' })
		expect(existsSync(logoDir)).toBe(true)
		expect(await deleteOrganization(owner.userId, owner.orgId, 'DELETE MY ORGANIZATION')).toEqual({ ok: true })
		expect(existsSync(logoDir)).toBe(false)
		const left = await asSystem((trx) =>
			trx.selectFrom('organizations').select('id').where('id', 'in', [owner.orgId, member.orgId]).execute(),
		)
		expect(left.map((r) => r.id)).toEqual([member.orgId])
		// The owner keeps their account (and reaches onboarding, having no organization left).
		expect(await asUser(owner.userId, (trx) => trx.selectFrom('organization_members').select('organization_id').execute())).toEqual([])
		expect(await asSystem((trx) => trx.selectFrom('auth.users').select('id').where('id', '=', owner.userId).execute())).toHaveLength(1)
	})
})
