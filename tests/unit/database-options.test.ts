import { describe, expect, test } from 'vitest'
import { databaseOptionsFor } from '#app/.server/db/config.ts'

describe('which database the server opens', () => {
	test('no DATABASE_URL: the embedded database under DATA_DIR', () => {
		expect(databaseOptionsFor({ dataDir: '/srv/p2p' })).toEqual({ kind: 'pglite', dataDir: '/srv/p2p/pglite' })
	})

	test('a direct connection: named statements, and LISTEN on the same server', () => {
		expect(databaseOptionsFor({ DATABASE_URL: 'postgres://db:5432/app', dataDir: '/d' })).toEqual({
			kind: 'pg',
			url: 'postgres://db:5432/app',
			listenUrl: undefined,
			prepare: true,
		})
	})

	test('a transaction pooler (DIRECT_DATABASE_URL set): unnamed statements only, LISTEN on the direct connection', () => {
		const options = databaseOptionsFor({
			DATABASE_URL: 'postgres://pooler:6543/app',
			DIRECT_DATABASE_URL: 'postgres://db:5432/app',
			dataDir: '/d',
		})
		expect(options).toEqual({ kind: 'pg', url: 'postgres://pooler:6543/app', listenUrl: 'postgres://db:5432/app', prepare: false })
	})
})
