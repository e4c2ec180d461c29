/**
 * Connecting a Gmail mailbox with Google OAuth (docs/product.md, Integrations): read-only scope
 * gmail.readonly, its own callback (/app/integrations/google/callback), the state and PKCE
 * verifier kept in a short-lived cookie and checked on return. Only when GOOGLE_CLIENT_ID and
 * GOOGLE_CLIENT_SECRET are set; otherwise there is no authorization URL and nothing is stored.
 * The same library (arctic) as the Google sign-in (app/.server/auth/google.ts).
 */
import { decodeIdToken, Google, generateCodeVerifier, generateState, OAuth2RequestError } from 'arctic'
import { createCookie } from 'react-router'
import { googleConfigured, googleTokenRequest } from '../../auth/google.ts'
import { env } from '../../env.ts'
import { storeTokens, type CheckResult, type StoredSecrets } from './connections.ts'
import { OUTBOUND, OutboundError, outboundFetch } from '../../outbound.ts'
import { publicOrigin, secureCookies } from '../../security.ts'
import { PROVIDER_SCOPES } from '#app/lib/integrations.ts'

export const GMAIL_CALLBACK_PATH = '/app/integrations/google/callback'
const GMAIL_PROFILE_URL = 'https://gmail.googleapis.com/gmail/v1/users/me/profile'

// Signed: the organization, upgrade and way back it carries were set by this server.
let signedCookie: ReturnType<typeof createCookie> | undefined
const cookie = () =>
	(signedCookie ??= createCookie('p2p_gmail_oauth', {
		path: '/app/integrations',
		sameSite: 'lax',
		httpOnly: true,
		maxAge: 600,
		secrets: [env().SESSION_SECRET],
	}))

function client() {
	const { GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET } = env()
	return new Google(GOOGLE_CLIENT_ID!, GOOGLE_CLIENT_SECRET!, `${publicOrigin()}${GMAIL_CALLBACK_PATH}`)
}

type Pending = { state: string; codeVerifier: string; organizationId: string; upgradeId: string; back: string }

/** The authorization URL and the cookie to set, or null when Google is not configured. */
export async function startGmailConnect(pending: Omit<Pending, 'state' | 'codeVerifier'>) {
	if (!googleConfigured()) return null
	const state = generateState()
	const codeVerifier = generateCodeVerifier()
	const url = client().createAuthorizationURL(state, codeVerifier, ['openid', 'email', PROVIDER_SCOPES.gmail])
	// A refresh token, so the mailbox can be read later without the owner present.
	url.searchParams.set('access_type', 'offline')
	url.searchParams.set('prompt', 'consent')
	const setCookie = await cookie().serialize(JSON.stringify({ ...pending, state, codeVerifier } satisfies Pending), {
		secure: secureCookies(),
	})
	return { url: url.toString(), cookie: setCookie }
}

export type GmailGrant = {
	pending: Pending
	email: string
	accessToken: string
	refreshToken: string | null
	expiresAt: Date | null
}

/** The pending connection the cookie remembers, when its state matches the callback's. */
export async function readPending(request: Request): Promise<Pending | null> {
	const url = new URL(request.url)
	const state = url.searchParams.get('state')
	const raw: unknown = await cookie().parse(request.headers.get('cookie'))
	if (!state || typeof raw !== 'string') return null
	try {
		const saved = JSON.parse(raw) as Pending
		return saved.state === state ? saved : null
	} catch {
		return null
	}
}

/** Exchanges the code for tokens; throws on a refused exchange. */
export async function finishGmailConnect(request: Request, pending: Pending): Promise<GmailGrant> {
	const code = new URL(request.url).searchParams.get('code')
	if (!code) throw new Error('No authorization code received')
	const tokens = await googleTokenRequest({
		grant_type: 'authorization_code',
		code,
		redirect_uri: `${publicOrigin()}${GMAIL_CALLBACK_PATH}`,
		code_verifier: pending.codeVerifier,
	})
	const claims = decodeIdToken(tokens.idToken()) as { email?: string }
	return {
		pending,
		email: claims.email ?? '',
		accessToken: tokens.accessToken(),
		refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : null,
		expiresAt: tokens.accessTokenExpiresAt(),
	}
}

export async function clearPendingCookie() {
	return cookie().serialize('', { maxAge: 0, secure: secureCookies() })
}

/**
 * A usable access token for a Gmail connection: the stored one while it has a minute left,
 * else a refreshed one, which is stored (sealed) for the next call. Throws arctic's
 * OAuth2RequestError when Google refuses the refresh token (revoked: the owner must reconnect).
 * The email sync reads Gmail through the Gmail API with it (docs/decisions/015-integration-secrets.md).
 */
export async function gmailAccessToken(secrets: StoredSecrets, signal?: AbortSignal): Promise<string> {
	if (secrets.accessToken && secrets.expiresAt && secrets.expiresAt.getTime() > Date.now() + 60_000) return secrets.accessToken
	if (!secrets.refreshToken) throw new Error('No refresh token: connect Gmail again')
	const tokens = await googleTokenRequest({ grant_type: 'refresh_token', refresh_token: secrets.refreshToken }, { signal })
	const accessToken = tokens.accessToken()
	await storeTokens(secrets.organizationId, secrets.credentialId, {
		accessToken,
		refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : null,
		expiresAt: tokens.accessTokenExpiresAt(),
	})
	return accessToken
}

/** Refresh Status for a Gmail connection: a fresh access token, then the mailbox profile. */
export async function checkGmail(secrets: StoredSecrets): Promise<CheckResult> {
	if (!googleConfigured()) return { ok: false, failure: 'protocol' }
	try {
		if (!secrets.refreshToken && !secrets.accessToken) return { ok: false, failure: 'auth' }
		// One deadline for both calls.
		const signal = AbortSignal.timeout(OUTBOUND.google.checkMs)
		const token = await gmailAccessToken(secrets, signal)
		const response = await outboundFetch(
			GMAIL_PROFILE_URL,
			{ headers: { authorization: `Bearer ${token}` } },
			{ timeoutMs: OUTBOUND.google.timeoutMs, maxBytes: OUTBOUND.google.maxBytes, signal },
		)
		if (response.status === 401 || response.status === 403) return { ok: false, failure: 'auth' }
		return response.ok ? { ok: true } : { ok: false, failure: 'protocol' }
	} catch (error) {
		// arctic's OAuth2RequestError: the refresh token was revoked or expired.
		if (error instanceof OAuth2RequestError) return { ok: false, failure: 'auth' }
		if (error instanceof OutboundError && error.reason === 'timeout') return { ok: false, failure: 'timeout' }
		if (error instanceof OutboundError && (error.reason === 'too_large' || error.reason === 'invalid'))
			return { ok: false, failure: 'protocol' }
		return { ok: false, failure: 'unreachable' }
	}
}
