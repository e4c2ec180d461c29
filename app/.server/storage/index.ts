/**
 * The storage port (docs/product.md, Settings; docs/decisions/014-settings-storage-and-notifications.md):
 * a small interface over where uploaded files live. The local adapter, the default, keeps them
 * under DATA_DIR/storage/{bucket}/{key} and the resource route `/storage/{bucket}/{key}` serves
 * them. With SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY set, the Supabase Storage adapter
 * (./supabase.ts) implements the same four calls; tests/contract/storage-port.ts runs against each.
 *
 * Both buckets are public, like Supabase's public `avatars` bucket: organization logos are shown
 * on the public booking pages, and avatars to co-members; their keys start with a random uuid.
 */
import { supabaseAdmin } from '../auth/supabase.ts'
import { env, usesSupabase } from '../env.ts'
import { localStorageAdapter } from './local.ts'
import { supabaseStorageAdapter } from './supabase.ts'

export const BUCKETS = ['avatars', 'logos'] as const
export type Bucket = (typeof BUCKETS)[number]

export type StoredFile = { bytes: Buffer; contentType: string }

export interface StoragePort {
	/** Writes (or overwrites) a file, whole or not at all; writes to one key at the same moment all succeed, one of them last. */
	put(bucket: Bucket, key: string, bytes: Buffer, contentType: string): Promise<void>
	/** The file, or null when there is none. */
	get(bucket: Bucket, key: string): Promise<StoredFile | null>
	/** Removes one file, or every file under `key/` when `key` is a folder; nothing when absent. */
	delete(bucket: Bucket, key: string): Promise<void>
	/** The URL a browser loads the file from; `version` changes whenever the file does. */
	url(bucket: Bucket, key: string, version: string): string
}

export function isBucket(value: string): value is Bucket {
	return (BUCKETS as readonly string[]).includes(value)
}

/** A key is one or more segments of letters, digits, `-`, `_` and one inner dot: no `..`, no absolute paths. */
export function isSafeKey(key: string) {
	return /^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)?(\/[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)?)*$/.test(key) && key.length <= 300
}

let adapter: StoragePort | undefined

/** Supabase Storage when the project and its service role key are configured, else files under DATA_DIR. */
export function usesSupabaseStorage() {
	return usesSupabase() && Boolean(env().SUPABASE_SERVICE_ROLE_KEY)
}

/** The configured adapter. */
export function storage(): StoragePort {
	if (!adapter) {
		let admin: ReturnType<typeof supabaseAdmin> | undefined
		adapter = usesSupabaseStorage() ? supabaseStorageAdapter(() => (admin ??= supabaseAdmin())) : localStorageAdapter()
	}
	return adapter
}
