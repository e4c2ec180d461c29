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
import type { StoragePort } from './port.ts'
import { supabaseStorageAdapter } from './supabase.ts'

export { BUCKETS, isBucket, isPublicBucket, isSafeKey, type Bucket, type StoragePort, type StoredFile } from './port.ts'

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
