/**
 * How the JSON API answers (docs/api.md): a bearer token in `Authorization`, checked before
 * anything is read; errors as `{ "error": code, "message": text }` with the HTTP status that
 * fits; every answer `no-store`. Bad tokens are counted per address and throttled.
 */
import type { RouterContextProvider } from 'react-router'
import type { ApiScope } from '#app/lib/schemas/api-tokens.ts'
import { getClientAddress } from '../auth/session.ts'
import { allowEvent } from '../rate-limit.ts'
import { tokenHolder, type TokenHolder } from './tokens.ts'
import type { ApiError } from './v1.ts'

const HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }

function failure(status: number, error: string, message: string, extra: Record<string, string> = {}) {
	return Response.json({ error, message }, { status, headers: { ...HEADERS, ...extra } })
}

const challenge = (error?: string) => ({ 'www-authenticate': error ? `Bearer realm="api", error="${error}"` : 'Bearer realm="api"' })

/**
 * Answers an API request: the token's holder must have `scope`; `read` gives the page or an
 * input error (400).
 */
export async function apiAnswer<T>(
	request: Request,
	context: Readonly<RouterContextProvider>,
	scope: ApiScope,
	read: (holder: TokenHolder) => Promise<T | ApiError>,
): Promise<Response> {
	const header = request.headers.get('authorization') ?? ''
	const match = /^Bearer ([^\s]{1,200})$/i.exec(header.trim())
	if (!match) return failure(401, 'unauthorized', 'Send a token as "Authorization: Bearer <token>".', challenge())
	const address = getClientAddress(request, context)
	const holder = await tokenHolder(match[1]!)
	if (!holder) {
		// A refused token counts against its address; past the limit, refused tokens get 429 for a while.
		if (!(await allowEvent('api-token-failure', address))) return failure(429, 'rate_limited', 'Too many refused tokens. Try again later.')
		return failure(401, 'invalid_token', 'The token is unknown, revoked, or no longer lets its member in.', challenge('invalid_token'))
	}
	if (!holder.scopes.includes(scope)) {
		return failure(403, 'insufficient_scope', `The token lacks the scope ${scope}.`, challenge('insufficient_scope'))
	}
	if (!(await allowEvent('api-request', holder.tokenId)))
		return failure(429, 'rate_limited', 'Too many requests with this token. Try again later.')
	const result = await read(holder)
	if (result && typeof result === 'object' && 'error' in result) return failure(400, result.error, result.message)
	return Response.json(result, { headers: HEADERS })
}
