import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { env } from '../env.ts'
import { isSafeKey, type Bucket, type StoragePort } from './port.ts'

const TYPES: Record<string, string> = {
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	gif: 'image/gif',
	webp: 'image/webp',
	pdf: 'application/pdf',
}

/** The content type a stored file is served with, from its extension (the server chose it). */
export function contentTypeOf(key: string) {
	const ext = key.split('.').at(-1)?.toLowerCase() ?? ''
	return TYPES[ext] ?? 'application/octet-stream'
}

/**
 * Files under DATA_DIR/storage/{bucket}/{key}. A write goes to a temporary file of its own (a
 * random name in the target's folder, starting with a dot, which no key may, so it is never
 * served), then `rename` replaces the target at once: a reader sees the old file or the new one,
 * never half of one, and writes to one key at the same moment all succeed, the last rename
 * winning. A failed write removes its temporary file and leaves the target as it was.
 */
export function localStorageAdapter(root = () => path.join(env().dataDir, 'storage')): StoragePort {
	const fileOf = (bucket: Bucket, key: string) => {
		if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`)
		return path.join(root(), bucket, ...key.split('/'))
	}
	return {
		async put(bucket, key, bytes) {
			const file = fileOf(bucket, key)
			const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(12).toString('hex')}.tmp`)
			// Twice at most: a folder deleted at the same moment (a removal) is made again once.
			for (let attempt = 1; ; attempt++) {
				try {
					await mkdir(path.dirname(file), { recursive: true })
					await writeFile(temporary, bytes, { flag: 'wx' })
					await rename(temporary, file)
					return
				} catch (error) {
					await rm(temporary, { force: true }).catch(() => undefined)
					if (attempt >= 2 || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
				}
			}
		},
		async get(bucket, key) {
			if (!isSafeKey(key)) return null
			try {
				return { bytes: await readFile(fileOf(bucket, key)), contentType: contentTypeOf(key) }
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR') return null
				throw error
			}
		},
		async delete(bucket, key) {
			await rm(fileOf(bucket, key), { recursive: true, force: true })
		},
		url(bucket, key, version) {
			return `/storage/${bucket}/${key}?v=${encodeURIComponent(version)}`
		},
	}
}
