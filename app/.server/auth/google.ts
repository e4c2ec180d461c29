import { decodeIdToken, Google, generateCodeVerifier, generateState } from 'arctic'
import { createCookie } from 'react-router'
import { env, usesSupabase } from '../env.ts'
import { publicOrigin, secureCookies } from '../security.ts'

const oauthCookie = createCookie('p2p_oauth', { path: '/auth', sameSite: 'lax', httpOnly: true, maxAge: 600 })

export function googleConfigured() {
	const { GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET } = env()
	return Boolean(GOOGLE_CLIENT_ID && GOOGLE_CLIENT_SECRET)
}

/** Whether the sign-in page offers Google: through Supabase Auth when it is the adapter, else our own OAuth client. */
export function googleSignInAvailable() {
	return usesSupabase() ? env().SUPABASE_AUTH_GOOGLE === 'true' : googleConfigured()
}

function client() {
	const { GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET } = env()
	return new Google(GOOGLE_CLIENT_ID!, GOOGLE_CLIENT_SECRET!, `${publicOrigin()}/auth/callback`)
}

/** The Google authorization URL and the cookie that remembers state, verifier and redirect. */
export async function startGoogleSignIn(request: Request, redirectTo: string) {
	const state = generateState()
	const codeVerifier = generateCodeVerifier()
	const url = client().createAuthorizationURL(state, codeVerifier, ['openid', 'profile', 'email'])
	const cookie = await oauthCookie.serialize(
		JSON.stringify({ state, codeVerifier, redirectTo }),
		{ secure: secureCookies() },
	)
	return { url: url.toString(), cookie }
}

export type GoogleProfile = { sub: string; email: string; emailVerified: boolean; name?: string; redirectTo: string }

/** Checks the state, exchanges the code and reads the ID token's claims; null on any mismatch. */
export async function finishGoogleSignIn(request: Request): Promise<GoogleProfile | null> {
	const url = new URL(request.url)
	const code = url.searchParams.get('code')
	const state = url.searchParams.get('state')
	const raw: unknown = await oauthCookie.parse(request.headers.get('cookie'))
	if (!code || !state || typeof raw !== 'string') return null
	const saved = JSON.parse(raw) as { state: string; codeVerifier: string; redirectTo: string }
	if (saved.state !== state) return null
	const tokens = await client().validateAuthorizationCode(code, saved.codeVerifier)
	const claims = decodeIdToken(tokens.idToken()) as { sub: string; email?: string; email_verified?: boolean; name?: string }
	if (!claims.email) return null
	return {
		sub: claims.sub,
		email: claims.email,
		emailVerified: claims.email_verified === true,
		name: claims.name,
		redirectTo: saved.redirectTo,
	}
}

export async function clearOauthCookie() {
	return oauthCookie.serialize('', { maxAge: 0, secure: secureCookies() })
}
