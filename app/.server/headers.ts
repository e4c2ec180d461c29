import { env } from './env.ts'

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
