/**
 * The auth port's one test list (tests/contract/auth-port.ts) against:
 * - the local adapter, always;
 * - the Supabase adapter talking to a local stand-in for Supabase Auth
 *   (tests/support/supabase-auth-stand-in.ts) that creates users in this test database, always:
 *   it checks our side of the protocol, not Supabase;
 * - the Supabase adapter against a real project when SUPABASE_URL, SUPABASE_ANON_KEY and
 *   SUPABASE_SERVICE_ROLE_KEY are set (a project, or `supabase start`, with "Confirm email" off
 *   and this repository's migrations pushed); otherwise that part is skipped and says why.
 */
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { localAuth } from '#app/.server/auth/port.ts'
import { finishSupabaseCallback, serverClientOptions, supabaseAuth } from '#app/.server/auth/supabase.ts'
import { confirmVerification, isVerified } from '#app/.server/auth/verification.ts'
import { asSystem } from '#app/.server/db/index.ts'
import { drainMail } from '#app/.server/mail/index.ts'
import { authContract } from '#tests/contract/auth-port.ts'
import { startSupabaseAuthStandIn, type StandIn } from '#tests/support/supabase-auth-stand-in.ts'
import { mailsTo, useTemporaryDataDir } from './outbox.ts'

// The local adapter mails a verification link at sign-up: into this folder's outbox.
useTemporaryDataDir()

const real = {
	url: process.env.SUPABASE_URL,
	anonKey: process.env.SUPABASE_ANON_KEY,
	serviceRoleKey: process.env.SUPABASE_SERVICE_ROLE_KEY,
}
const useReal = Boolean(real.url && real.anonKey && real.serviceRoleKey)

process.env.SESSION_SECRET ??= 'test-session-secret-of-at-least-32-characters'
process.env.LOG_LEVEL = 'silent'
process.env.LOGIN_MAX_FAILURES = '3'
process.env.SIGNUP_MAX_PER_IP = '3'

const memberships = (userId: string) =>
	asSystem((trx) => trx.selectFrom('organization_members').select('role').where('user_id', '=', userId).execute())
const profileName = async (userId: string) =>
	(await asSystem((trx) => trx.selectFrom('profiles').select('full_name').where('user_id', '=', userId).executeTakeFirst()))?.full_name ??
	null

authContract('local', {
	port: () => localAuth,
	memberships,
	profileName,
	revokesAtOnce: true,
	listsSessions: true,
	maxFailures: 3,
	maxSignUps: 3,
	isVerified,
	verification: {
		sessionFirst: true,
		// The link of the newest verification mail, confirmed by the signed-in account (app/routes/auth/verify-email.tsx).
		confirm: async (email, browser) => {
			await drainMail()
			const mail = (await mailsTo(email)).at(-1)!
			const token = new URL(/https?:\/\/\S+verify-email\?\S+/.exec(mail.text)![0]).searchParams.get('token')!
			const user = await localAuth.getUser(browser.request())
			if (!user || !(await confirmVerification(token, user.userId)).ok) throw new Error('the verification link did not verify')
		},
	},
})

if (useReal) {
	const admin = createClient(real.url!, real.serviceRoleKey!, { ...serverClientOptions, auth: { persistSession: false } })
	authContract('supabase (the configured project)', {
		port: () => supabaseAuth,
		memberships: async (userId) => {
			const { data, error } = await admin.from('organization_members').select('role').eq('user_id', userId)
			if (error) throw error
			return data
		},
		profileName: async (userId) => {
			const { data, error } = await admin.from('profiles').select('full_name').eq('user_id', userId).maybeSingle()
			if (error) throw error
			return (data?.full_name as string | undefined) ?? null
		},
		// getClaims() verifies the access token's signature; a signed-out token stays valid until it expires (jwt_expiry).
		revokesAtOnce: false,
		listsSessions: false,
		maxFailures: 3,
		maxSignUps: 3,
		isVerified: async (userId) => {
			const { data, error } = await admin.auth.admin.getUserById(userId)
			if (error) throw error
			return Boolean(data.user?.email_confirmed_at)
		},
	})
} else {
	// The adapter reads SUPABASE_URL once (app/.server/env.ts): here it is the stand-in's.
	let standIn: StandIn | undefined
	beforeAll(async () => {
		standIn = await startSupabaseAuthStandIn(
			0,
			async (email, metadata, confirmed = true) => {
				const row = await asSystem((trx) =>
					trx
						.insertInto('auth.users')
						.values({
							email,
							raw_user_meta_data: JSON.stringify(metadata),
							raw_app_meta_data: JSON.stringify({ provider: 'email', providers: ['email'] }),
							email_confirmed_at: confirmed ? new Date() : null,
						})
						.returning('id')
						.executeTakeFirstOrThrow(),
				)
				return row.id
			},
			async (id) => {
				await asSystem((trx) => trx.updateTable('auth.users').set({ email_confirmed_at: new Date() }).where('id', '=', id).execute())
			},
		)
		process.env.SUPABASE_URL = standIn.url
		process.env.SUPABASE_ANON_KEY = 'anon-key-of-the-stand-in-0123456789'
	})
	afterAll(async () => {
		await standIn?.stop()
	})
	authContract('supabase (a local stand-in for Supabase Auth)', {
		port: () => supabaseAuth,
		memberships,
		profileName,
		revokesAtOnce: false,
		listsSessions: false,
		maxFailures: 3,
		maxSignUps: 3,
		isVerified,
		verification: {
			sessionFirst: false,
			before: () => standIn!.setConfirmEmail(true),
			after: () => standIn!.setConfirmEmail(false),
			// The "Confirm signup" mail's link comes back through /auth/callback with its token_hash (finishSupabaseCallback).
			confirm: async (email, browser) => {
				const tokenHash = standIn!.confirmationToken(email)
				const request = browser.request(
					`/auth/callback?${new URLSearchParams({ token_hash: tokenHash ?? '', type: 'signup', next: '/app/dashboard' })}`,
				)
				if (!(await finishSupabaseCallback(request))) throw new Error('the confirmation link did not sign in')
				browser.take(request, new Headers())
			},
		},
	})
	describe('auth port contract: supabase (the configured project)', () => {
		test.skip('skipped: set SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY to run it against a Supabase project', () => {})
	})
	console.log(
		'auth port contract: the real Supabase project is skipped (SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY are not all set); the Supabase adapter runs against a local stand-in.',
	)
}
