/**
 * Migrates a fresh in-memory PGlite with the app's runner and writes its files to the path
 * given, for test files (and the e2e server) to load instead of migrating again.
 * Run in its own process: PGlite's dump stalls inside Vitest's main process.
 */
import { writeFileSync } from 'node:fs'
import { closeDatabase, dumpDatabaseImage, openDatabase } from '../../app/.server/db/index.ts'
import { migrate } from '../../app/.server/db/migrate.ts'

const out = process.argv[2]
if (!out) throw new Error('usage: tsx tests/db/make-image.ts <out-file>')
await openDatabase({ kind: 'pglite' })
await migrate()
writeFileSync(out, Buffer.from(await (await dumpDatabaseImage()).arrayBuffer()))
await closeDatabase()
