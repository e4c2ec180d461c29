import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, inject } from 'vitest'
import { closeDatabase, openDatabase } from '#app/.server/db/index.ts'

beforeAll(async () => {
	if (inject('dbTarget') === 'pg') {
		await openDatabase({ kind: 'pg', url: inject('databaseUrl'), max: 60 })
	} else {
		const image = readFileSync(inject('pgliteImage'))
		await openDatabase({ kind: 'pglite', loadDataDir: new Blob([image], { type: 'application/x-gzip' }) })
	}
})

afterAll(async () => {
	await closeDatabase()
})
