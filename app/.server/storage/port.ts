/**
 * What the storage port is (app/.server/storage/index.ts picks the adapter): buckets, keys and
 * the four calls each adapter implements, apart from the choice so that the adapters name them
 * without importing the module that imports them.
 */
export const BUCKETS = ['avatars', 'logos', 'receipts'] as const
export type Bucket = (typeof BUCKETS)[number]
/**
 * The buckets the public route `/storage/{bucket}/{key}` serves. `receipts` (expense receipts,
 * docs/security.md, Receipts) is private: only app/routes/app/expenses/receipt.ts serves it, to members.
 */
export const PUBLIC_BUCKETS: readonly Bucket[] = ['avatars', 'logos']

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

/** Whether a bucket's files may be served to anyone (PUBLIC_BUCKETS). */
export function isPublicBucket(value: string): value is Bucket {
	return (PUBLIC_BUCKETS as readonly string[]).includes(value)
}

/** A key is one or more segments of letters, digits, `-`, `_` and one inner dot: no `..`, no absolute paths. */
export function isSafeKey(key: string) {
	return /^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)?(\/[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)?)*$/.test(key) && key.length <= 300
}
