import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { env } from '../env.ts'
import { isSafeKey, type Bucket, type StoragePort } from './index.ts'

const TYPES: Record<string, string> = {
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	gif: 'image/gif',
	webp: 'image/webp',
}

/** The content type a stored file is served with, from its extension (the server chose it). */
export function contentTypeOf(key: string) {
	const ext = key.split('.').at(-1)?.toLowerCase() ?? ''
	return TYPES[ext] ?? 'application/octet-stream'
}

/** Files under DATA_DIR/storage/{bucket}/{key}; written to a temporary name, then renamed. */
export function localStorageAdapter(root = () => path.join(env().dataDir, 'storage')): StoragePort {
	const fileOf = (bucket: Bucket, key: string) => {
		if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`)
		return path.join(root(), bucket, ...key.split('/'))
	}
	return {
		async put(bucket, key, bytes) {
			const file = fileOf(bucket, key)
			await mkdir(path.dirname(file), { recursive: true })
			const temporary = `${file}.${process.pid}.${Date.now()}.tmp`
			await writeFile(temporary, bytes)
			await rename(temporary, file)
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
