import { isPublicBucket, isSafeKey, storage } from '#app/.server/storage/index.ts'
import type { Route } from './+types/storage'

/**
 * Serves stored files (the local storage adapter; docs/product.md, Settings) without sign-in:
 * logos appear on the public booking pages. Only the stored picture types are ever served, with
 * their own content type, `nosniff` and a sandboxing CSP. A URL carries `?v=` with the file's
 * hash, which changes with every upload, so a versioned answer is cached for a year. The private
 * bucket of receipts is never served here (docs/security.md, Receipts).
 */
export async function loader({ params, request }: Route.LoaderArgs) {
	const key = params['*'] ?? ''
	const file = isPublicBucket(params.bucket) && isSafeKey(key) ? await storage().get(params.bucket, key) : null
	if (!file || !file.contentType.startsWith('image/')) {
		return new Response('Not found', {
			status: 404,
			headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
		})
	}
	const versioned = new URL(request.url).searchParams.has('v')
	return new Response(new Uint8Array(file.bytes), {
		headers: {
			'content-type': file.contentType,
			'content-length': String(file.bytes.byteLength),
			'x-content-type-options': 'nosniff',
			'content-disposition': 'inline',
			'content-security-policy': "default-src 'none'; sandbox",
			'cache-control': versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=60',
		},
	})
}
