import { env } from './env.ts'

/** Cookies carry Secure when the public URL is https (or in production behind TLS). */
export function secureCookies() {
	const url = env().PUBLIC_URL
	return url ? url.startsWith('https:') : false
}

/** The origin links in emails and shares point to. */
export function publicOrigin(request: Request) {
	return env().PUBLIC_URL?.replace(/\/+$/, '') ?? new URL(request.url).origin
}

/**
 * A same-site path to go to after sign-in, or the fallback. Absolute URLs, protocol-relative
 * paths (`//evil.example`) and backslash tricks (`/\evil.example`) are refused.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = '/app/dashboard') {
	if (typeof target !== 'string' || !target) return fallback
	if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback
	if (/[\u0000-\u001f\\]/.test(target)) return fallback
	try {
		const base = 'http://same.invalid'
		const url = new URL(target, base)
		if (url.origin !== base) return fallback
		return url.pathname + url.search + url.hash
	} catch {
		return fallback
	}
}

/** The client's address: the socket's, or the first X-Forwarded-For hop behind a trusted proxy. */
export function clientAddress(request: Request, socketAddress: string | undefined) {
	if (env().TRUST_PROXY) {
		const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim()
		if (forwarded) return forwarded
	}
	return socketAddress ?? 'unknown'
}
