import { decodeIdToken, Google, generateCodeVerifier, generateState, OAuth2RequestError, OAuth2Tokens } from 'arctic'
import { createCookie } from 'react-router'
import { env, usesSupabase } from '../env.ts'
import { OUTBOUND, OutboundError, outboundFetch } from '../outbound.ts'
import { publicOrigin, secureCookies } from '../security.ts'

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token'

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
	const cookie = await oauthCookie.serialize(JSON.stringify({ state, codeVerifier, redirectTo }), { secure: secureCookies() })
	return { url: url.toString(), cookie }
}

/**
 * A request to Google's token endpoint under the outbound policy (app/.server/outbound.ts): a
 * deadline and a cap on the answer, which arctic's own calls do not have. The client
 * authenticates with HTTP Basic, as arctic does. Throws arctic's OAuth2RequestError when Google
 * refuses (a revoked refresh token, a used code), OutboundError when it cannot be reached in time.
 */
export async function googleTokenRequest(
	params: Record<string, string>,
	options: { endpoint?: string; clientId?: string; clientSecret?: string; signal?: AbortSignal } = {},
): Promise<OAuth2Tokens> {
	const clientId = options.clientId ?? env().GOOGLE_CLIENT_ID ?? ''
	const clientSecret = options.clientSecret ?? env().GOOGLE_CLIENT_SECRET ?? ''
	const response = await outboundFetch(
		options.endpoint ?? GOOGLE_TOKEN_URL,
		{
			method: 'POST',
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				accept: 'application/json',
				authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
			},
			body: new URLSearchParams(params).toString(),
		},
		{ timeoutMs: OUTBOUND.google.timeoutMs, maxBytes: OUTBOUND.google.maxBytes, signal: options.signal },
	)
	const data = response.json<Record<string, unknown> | null>()
	if (typeof data !== 'object' || data === null) throw new OutboundError('invalid', 'token answer')
	if (response.status === 400 || response.status === 401) {
		const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
		throw new OAuth2RequestError(text('error') ?? 'invalid_request', text('error_description'), text('error_uri'), null)
	}
	if (response.status !== 200) throw new OutboundError('invalid', `token endpoint answered ${response.status}`)
	return new OAuth2Tokens(data)
}

export type GoogleProfile = { sub: string; email: string; emailVerified: boolean; name?: string; redirectTo: string }

/** Checks the state, exchanges the code and reads the ID token's claims; null on any mismatch. */
export async function finishGoogleSignIn(request: Request): Promise<GoogleProfile | null> {
	const url = new URL(request.url)
	const code = url.searchParams.get('code')
	const state = url.searchParams.get('state')
	const raw: unknown = await oauthCookie.parse(request.headers.get('cookie'))
	if (!code || !state || typeof raw !== 'string') return null
	let saved: { state: string; codeVerifier: string; redirectTo: string }
	try {
		saved = JSON.parse(raw) as typeof saved
	} catch {
		return null
	}
	if (saved.state !== state) return null
	// Through the outbound policy (a deadline, a cap on the answer), not arctic's own fetch.
	const tokens = await googleTokenRequest({
		grant_type: 'authorization_code',
		code,
		redirect_uri: `${publicOrigin()}/auth/callback`,
		code_verifier: saved.codeVerifier,
	})
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
