import { env } from './env.ts'

/** Cookies carry Secure when the public URL is https. */
export function secureCookies() {
	const url = env().PUBLIC_URL
	return url ? url.startsWith('https:') : false
}

/**
 * The origin that links in emails and shares point to: PUBLIC_URL, or, when it is unset, the
 * address the server was started on. Never the request's Host header, which whoever sends the
 * request chooses (a recovery link pointing at their host would hand them the token).
 */
export function publicOrigin() {
	const { PUBLIC_URL, PORT, HOST } = env()
	if (PUBLIC_URL) return new URL(PUBLIC_URL).origin
	const local = ['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost'].includes(HOST)
	return `http://${local ? 'localhost' : HOST.includes(':') ? `[${HOST}]` : HOST}:${PORT}`
}

const SAME_SITE = 'http://same.invalid'

/**
 * A same-site path to go to after sign-in, or the fallback. What is returned is checked, not
 * what was received: the target is normalised first (dot segments, backslashes, encoded
 * slashes), and the result must still be a path on this site that no browser could read as
 * another host (`//evil.example`, `/\evil.example`).
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = '/app/dashboard') {
	if (typeof target !== 'string' || !target || target.length > 2000) return fallback
	if (!target.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(target)) return fallback
	let path: string
	try {
		const url = new URL(target, SAME_SITE)
		if (url.origin !== SAME_SITE) return fallback
		path = url.pathname + url.search + url.hash
	} catch {
		return fallback
	}
	return isSameSitePath(path) ? path : fallback
}

/**
 * A path a browser resolves on this site: one leading slash, never `//` or `/\`, and no
 * encoded slash or backslash in the path (a proxy that decodes them would see `//host`).
 */
export function isSameSitePath(path: string) {
	if (!path.startsWith('/') || /^\/[/\\]/.test(path)) return false
	if (/%(2f|5c)/i.test(path.split(/[?#]/)[0]!)) return false
	try {
		return new URL(path, SAME_SITE).origin === SAME_SITE
	} catch {
		return false
	}
}

/**
 * The client's address: the socket's, or, behind TRUST_PROXY trusted proxies, the hop the
 * nearest untrusted party was seen from. Each proxy appends the address it received the
 * request from to X-Forwarded-For, so with N trusted proxies the client is the N-th entry from
 * the right (as Express's "trust proxy" counts); the entries to its left are whatever the
 * client wrote and are never believed.
 */
export function clientAddress(request: Request, socketAddress: string | undefined) {
	const hops = env().TRUST_PROXY
	if (hops > 0) {
		const forwarded = (request.headers.get('x-forwarded-for') ?? '')
			.split(',')
			.map((hop) => hop.trim())
			.filter(Boolean)
		// With N trusted proxies the socket is the nearest one; the client is N entries in from the right.
		const hop = forwarded[forwarded.length - hops]
		if (hop) return hop.slice(0, 100)
		if (forwarded.length) return forwarded[0]!.slice(0, 100)
	}
	return socketAddress ?? 'unknown'
}

/** Security headers of every HTML response: a CSP whose scripts need this response's nonce. */
export function securityHeaders(nonce: string): Record<string, string> {
	const production = env().NODE_ENV === 'production'
	const headers: Record<string, string> = {
		'X-Content-Type-Options': 'nosniff',
		'Referrer-Policy': 'strict-origin-when-cross-origin',
		'X-Frame-Options': 'DENY',
		'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
		'Content-Security-Policy': [
			"default-src 'self'",
			production ? `script-src 'self' 'nonce-${nonce}'` : `script-src 'self' 'unsafe-inline' 'unsafe-eval'`,
			"style-src 'self' 'unsafe-inline'",
			"img-src 'self' data: blob: https:",
			"font-src 'self' data:",
			production ? "connect-src 'self'" : "connect-src 'self' ws: wss:",
			"object-src 'none'",
			"base-uri 'self'",
			"form-action 'self'",
			"frame-ancestors 'none'",
		].join('; '),
	}
	if (production) headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains'
	return headers
}

/**
 * Root middleware: every response React Router makes (pages, `.data` requests, resource routes
 * such as the CSV export) tells the browser not to guess its content type, and is kept out of
 * every cache unless its route says otherwise (a stored file with a versioned name may be cached):
 * pages carry account data, so Back after signing out must ask the server again, not show them.
 */
export async function responseDefaults(_args: unknown, next: () => Promise<Response>) {
	const response = await next()
	try {
		response.headers.set('X-Content-Type-Options', 'nosniff')
		if (!response.headers.has('Cache-Control')) response.headers.set('Cache-Control', 'private, no-store')
	} catch {
		// A response with immutable headers (a redirect made by Response.redirect) carries no body to sniff or cache.
	}
	return response
}
