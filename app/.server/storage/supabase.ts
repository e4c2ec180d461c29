import type { SupabaseClient } from '@supabase/supabase-js'
import { contentTypeOf } from './local.ts'
import { isSafeKey, type Bucket, type StoragePort } from './port.ts'

/** How many times a write is tried when Storage answers that it collided with another one. */
export const PUT_ATTEMPTS = 4

/** Whether Storage's error is one a second try of the same write can clear: a conflict, a lock, a busy or failing server. */
function isCollision(error: unknown) {
	const { status, statusCode } = error as { status?: number; statusCode?: string }
	const codes = [Number(status), Number(statusCode)]
	return codes.some((code) => code === 409 || code === 423 || code === 429 || (code >= 500 && code <= 599))
}

/**
 * Supabase Storage (docs/decisions/019-supabase-adapters.md): the public buckets `avatars` and
 * `logos` (made by supabase/migrations/20261124030000_storage_buckets.sql), the same keys as
 * locally (`{user_id}/avatar.{ext}`, `{organization_id}/logo.{ext}`), and Supabase's public
 * URLs. The server writes with the service role key after its own checks (type by magic bytes,
 * size, who may change what); the bucket policies are a second line for any other client.
 *
 * Writes to one key at the same moment (an upsert each) can collide inside Storage: one of them
 * may be answered 409 (the object was created between its check and its insert), 423 or a 5xx.
 * Rewriting the same bytes is harmless, so such a write is tried again, a few times, after a
 * short random pause (PUT_ATTEMPTS); any other error, or the last one, is thrown.
 */
export function supabaseStorageAdapter(client: () => SupabaseClient, { retryPauseMs = 100 }: { retryPauseMs?: number } = {}): StoragePort {
	const check = (key: string) => {
		if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`)
	}
	return {
		async put(bucket, key, bytes, contentType) {
			check(key)
			for (let attempt = 1; ; attempt++) {
				const { error } = await client().storage.from(bucket).upload(key, bytes, { contentType, upsert: true, cacheControl: '31536000' })
				if (!error) return
				if (attempt >= PUT_ATTEMPTS || !isCollision(error)) throw error
				await new Promise((resolve) => setTimeout(resolve, retryPauseMs * (0.5 + Math.random()) * attempt))
			}
		},
		async get(bucket, key) {
			if (!isSafeKey(key)) return null
			const { data, error } = await client().storage.from(bucket).download(key)
			if (error || !data) return null
			return { bytes: Buffer.from(await data.arrayBuffer()), contentType: data.type || contentTypeOf(key) }
		},
		async delete(bucket, key) {
			check(key)
			const storage = client().storage.from(bucket)
			// A folder: every file under it (one level, as the app writes); a file: itself.
			const { data: listed } = await storage.list(key, { limit: 1000 })
			const paths = [key, ...(listed ?? []).filter((f) => f.id !== null).map((f) => `${key}/${f.name}`)]
			const { error } = await storage.remove(paths)
			if (error) throw error
		},
		url(bucket: Bucket, key: string, version: string) {
			const { data } = client().storage.from(bucket).getPublicUrl(key)
			return `${data.publicUrl}?v=${encodeURIComponent(version)}`
		},
	}
}
