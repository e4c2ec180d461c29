import path from 'node:path'
import { env } from '../env.ts'
import type { DatabaseOptions } from './index.ts'

export function defaultDatabaseOptions(): DatabaseOptions {
	const { DATABASE_URL, DIRECT_DATABASE_URL, dataDir } = env()
	if (DATABASE_URL) return { kind: 'pg', url: DATABASE_URL, listenUrl: DIRECT_DATABASE_URL }
	return { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') }
}
