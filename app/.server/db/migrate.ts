import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { asSystem, sql } from './index.ts'

const MIGRATION_LOCK = 727_001_2026 // any constant; the same for every instance

export type MigrateResult = { applied: string[]; local: boolean }

async function sqlFiles(dir: string) {
	try {
		return (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort()
	} catch {
		return []
	}
}

/**
 * Applies supabase/local/*.sql (only when the database is not Supabase), then every
 * supabase/migrations/*.sql not yet recorded in supabase_migrations.schema_migrations, in
 * order, then supabase/seed.sql (the catalogue, idempotent), in one transaction under an
 * advisory lock so instances starting together cannot race.
 */
export async function migrate(root = process.cwd()): Promise<MigrateResult> {
	const supabaseDir = path.join(root, 'supabase')
	return asSystem(async (trx, runScript) => {
		await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx)
		const { rows } = await sql<{ supabase: boolean }>`
			select exists (select 1 from pg_roles where rolname = 'supabase_auth_admin') as supabase`.execute(trx)
		const local = !rows[0]?.supabase
		if (local) {
			for (const file of await sqlFiles(path.join(supabaseDir, 'local'))) {
				await runScript(await readFile(path.join(supabaseDir, 'local', file), 'utf8'))
			}
		}
		await runScript(`
			create schema if not exists supabase_migrations;
			create table if not exists supabase_migrations.schema_migrations (
				version text primary key, statements text[], name text
			);`)
		const done = await sql<{ version: string }>`select version from supabase_migrations.schema_migrations`.execute(trx)
		const appliedBefore = new Set(done.rows.map((r) => r.version))
		const applied: string[] = []
		for (const file of await sqlFiles(path.join(supabaseDir, 'migrations'))) {
			const match = /^(\d+)_(.+)\.sql$/.exec(file)
			if (!match) throw new Error(`Migration file name must be <timestamp>_<name>.sql: ${file}`)
			const [, version, name] = match
			if (appliedBefore.has(version!)) continue
			const text = await readFile(path.join(supabaseDir, 'migrations', file), 'utf8')
			await runScript(text)
			await sql`insert into supabase_migrations.schema_migrations (version, statements, name)
				values (${version}, ${[text]}, ${name})`.execute(trx)
			applied.push(file)
		}
		const seed = await readFile(path.join(supabaseDir, 'seed.sql'), 'utf8').catch(() => '')
		if (seed.trim()) await runScript(seed)
		return { applied, local }
	})
}
