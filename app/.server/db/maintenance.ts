/**
 * The embedded database's autovacuum (docs/decisions/033-embedded-autovacuum.md). PostgreSQL's
 * autovacuum is a background worker, and PGlite runs none: on the embedded database no table
 * was ever analyzed (the planner guessed every row count: a transactions page read all of an
 * organization's rows to find its 25) and no dead row was ever cleared. This does what
 * autovacuum would, with its default thresholds, from the server (startup.ts). The PostgreSQL
 * server has its own autovacuum and does not need it.
 */
import { log, logError } from '../log.ts'
import { sql, systemStatement } from './index.ts'

/**
 * PostgreSQL's defaults: a table is vacuumed past 50 dead rows + 20 % of its rows, or 1,000
 * inserted rows + 20 % (which keeps the visibility map fresh for index-only scans), and analyzed
 * past 50 changed rows + 10 %. A table never analyzed counts as empty.
 */
const dueTables = sql<{ schema: string; table: string }>`
	select s.schemaname as schema, s.relname as table
	from pg_stat_user_tables s join pg_class c on c.oid = s.relid
	where s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
		or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)
		or s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
	order by s.schemaname, s.relname`

/** Vacuums and analyzes each table that autovacuum would; returns their names (schema.table). */
export async function vacuumWhereDue(): Promise<string[]> {
	// The counters that pg_stat_user_tables shows are the ones flushed from the backend, at most
	// once a second and only when it goes idle; on the embedded database, whose one backend is
	// every request's, this one has the latest writes flushed first.
	await systemStatement(sql`select pg_stat_force_next_flush()`)
	const due = await systemStatement(dueTables)
	// One statement each, outside any transaction (VACUUM cannot run inside one).
	for (const { schema, table } of due) await systemStatement(sql`vacuum (analyze) ${sql.id(schema, table)}`)
	return due.map(({ schema, table }) => `${schema}.${table}`)
}

/**
 * Analyzes every table that holds rows, after a bulk load (the demo's seed). Until then the
 * planner takes the new rows' tables for nearly empty, and the first pages read every row of a
 * table to find a page of them (on the PostgreSQL server, until autovacuum gets to the database:
 * a minute or more). A table without rows is left alone: analyzed while empty, it would be
 * planned as empty however much it grew until autovacuum looked again (the rate limits' events
 * get a row with every public request). Only the connection's own tables (on Supabase, the
 * platform's schemas belong to other roles, which may not even let it read them).
 */
export async function analyzeFilledTables() {
	await systemStatement(sql`do $$
declare
	t text;
	filled boolean;
begin
	for t in select format('%I.%I', n.nspname, c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace
		where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_'
			and pg_has_role(c.relowner, 'usage')
	loop
		begin
			execute format('select exists (select from %s)', t) into filled;
			if filled then
				execute format('analyze %s', t);
			end if;
		exception when undefined_table then
			-- Dropped since the list was read (another connection's work): nothing to analyze.
		end;
	end loop;
end
$$`)
}

/** How often the embedded database is checked: autovacuum's own default nap. */
export const VACUUM_INTERVAL_MS = 60_000

/**
 * Checks now and then every `intervalMs`; a pass never overlaps the one before. `stop` waits
 * for the pass under way, so the database can be closed after it.
 */
export function startEmbeddedVacuum(intervalMs = VACUUM_INTERVAL_MS) {
	let running: Promise<void> = Promise.resolve()
	const pass = () => {
		running = running.then(async () => {
			try {
				const tables = await vacuumWhereDue()
				if (tables.length) log({ event: 'vacuumed', tables })
			} catch (error) {
				logError(error, { event: 'vacuum_failed' })
			}
		})
	}
	pass()
	const timer = setInterval(pass, intervalMs)
	// The server's other work keeps the process alive; this timer alone must not.
	timer.unref()
	return {
		stop: async () => {
			clearInterval(timer)
			await running
		},
	}
}
