/** npm run db:migrate: applies pending migrations to DATABASE_URL, or to the embedded database under DATA_DIR. */
import { closeDatabase, openDatabase } from '../app/.server/db/index.ts'
import { defaultDatabaseOptions } from '../app/.server/db/config.ts'
import { migrate } from '../app/.server/db/migrate.ts'

await openDatabase(defaultDatabaseOptions())
const { applied, local } = await migrate()
console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Nothing to apply: the database is up to date.')
if (local) console.log('(supabase/local/*.sql applied: this database is not Supabase)')
await closeDatabase()
