/**
 * The auth port's one test list (tests/contract/auth-port.ts) against the local adapter, always,
 * and against the Supabase adapter when SUPABASE_URL, SUPABASE_ANON_KEY and
 * SUPABASE_SERVICE_ROLE_KEY are set (a project, or `supabase start`, with "Confirm email" off and
 * this repository's migrations pushed); otherwise that half is skipped and says why.
 */
import { createClient } from '@supabase/supabase-js'
import { describe, test } from 'vitest'
import { localAuth } from '#app/.server/auth/port.ts'
import { serverClientOptions, supabaseAuth } from '#app/.server/auth/supabase.ts'
import { asSystem } from '#app/.server/db/index.ts'
import { authContract } from '#tests/contract/auth-port.ts'

process.env.SESSION_SECRET ??= 'test-session-secret-of-at-least-32-characters'
process.env.LOG_LEVEL = 'silent'
process.env.LOGIN_MAX_FAILURES = '3'

authContract('local', {
	port: () => localAuth,
	memberships: (userId) =>
		asSystem((trx) => trx.selectFrom('organization_members').select('role').where('user_id', '=', userId).execute()),
	profileName: async (userId) =>
		(await asSystem((trx) => trx.selectFrom('profiles').select('full_name').where('user_id', '=', userId).executeTakeFirst()))?.full_name ?? null,
	revokesAtOnce: true,
	maxFailures: 3,
})

const { SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY } = process.env
if (SUPABASE_URL && SUPABASE_ANON_KEY && SUPABASE_SERVICE_ROLE_KEY) {
	const admin = createClient(SUPABASE_URL, SUPABASE_SERVICE_ROLE_KEY, { ...serverClientOptions, auth: { persistSession: false } })
	authContract('supabase', {
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
		maxFailures: 3,
	})
} else {
	describe('auth port contract: supabase', () => {
		test.skip('skipped: set SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY to run it against a Supabase project', () => {})
	})
	console.log('auth port contract: the Supabase adapter is skipped (SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY are not all set).')
}
