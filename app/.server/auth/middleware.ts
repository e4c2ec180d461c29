import type { MiddlewareFunction } from 'react-router'
import { usesSupabase } from '../env.ts'
import { applySupabaseHeaders, withSupabaseScope } from './supabase.ts'

/**
 * With the Supabase auth adapter: whatever the request's Supabase client wrote (a sign-in, a
 * refreshed token, a sign-out) goes out with the response, whatever it is: a page, a data
 * answer, a redirect, an error (app/.server/auth/supabase.ts). Nothing to do locally.
 */
export const supabaseCookies: MiddlewareFunction<Response> = async ({ request }, next) => {
	if (!usesSupabase()) return next()
	return withSupabaseScope(async () => {
		try {
			return applySupabaseHeaders(request, await next())
		} catch (thrown) {
			if (thrown instanceof Response) throw applySupabaseHeaders(request, thrown)
			throw thrown
		}
	})
}
