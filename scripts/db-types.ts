/**
 * Regenerates app/.server/db/types.ts: migrates a fresh in-memory PGlite with the app's own
 * runner and introspects it with kysely-codegen. Run after adding a migration:
 *   npm run db:types
 */
import { PGlite } from '@electric-sql/pglite'
import { Kysely } from 'kysely'
import { generate, PostgresDialect } from 'kysely-codegen'
import { PGliteDialect } from 'kysely-pglite-dialect'
import { closeDatabase, dumpDatabaseImage, openDatabase } from '../app/.server/db/index.ts'
import { migrate } from '../app/.server/db/migrate.ts'
import { pgliteOptions } from '../app/.server/db/pglite-options.js'

await openDatabase({ kind: 'pglite' })
await migrate()
const image = await dumpDatabaseImage()
await closeDatabase()

const client = await PGlite.create({ extensions: pgliteOptions().extensions, loadDataDir: image })
const db = new Kysely<unknown>({ dialect: new PGliteDialect(client) })
await generate({
	db,
	dialect: new PostgresDialect({ dateParser: 'string', numericParser: 'string' }),
	outFile: 'app/.server/db/types.ts',
	defaultSchemas: ['public'],
	includePattern: '{public,auth}.*',
	typeMapping: { int8: 'number' },
})
await db.destroy()
