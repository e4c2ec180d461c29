/**
 * supabase/migrations/20261124030000_storage_buckets.sql: a no-op without Supabase's `storage`
 * schema (here, on PGlite and a plain PostgreSQL server), and on a database that has one, the
 * two public buckets and their policies. Supabase's schema is stood in for by its few objects
 * the migration touches, inside a transaction that is rolled back.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { asSystem, sql } from '#app/.server/db/index.ts'

const FILE = 'supabase/migrations/20261124030000_storage_buckets.sql'

class Rollback extends Error {}

describe('the storage buckets migration', () => {
	test('is recorded as applied and creates nothing where there is no storage schema', async () => {
		const { applied, storage } = await asSystem(async (trx) => {
			const a = await sql<{
				n: number
			}>`select count(*)::int as n from supabase_migrations.schema_migrations where version = '20261124030000'`.execute(trx)
			const s = await sql<{ n: number }>`select count(*)::int as n from pg_namespace where nspname = 'storage'`.execute(trx)
			return { applied: a.rows[0]!.n, storage: s.rows[0]!.n }
		})
		expect(applied).toBe(1)
		expect(storage).toBe(0)
	})

	test("with Supabase's storage schema it makes the public buckets avatars and logos and their eight read and write policies", async () => {
		let seen: { buckets: Array<{ id: string; public: boolean }>; policies: string[] } | undefined
		await asSystem(async (trx, runScript) => {
			await runScript(`
				create schema storage;
				create table storage.buckets (id text primary key, name text not null, public boolean default false,
					file_size_limit bigint, allowed_mime_types text[]);
				create table storage.objects (id uuid primary key default gen_random_uuid(), bucket_id text references storage.buckets (id), name text);
				alter table storage.objects enable row level security;
				create function storage.foldername(name text) returns text[] language sql immutable as $$ select string_to_array(name, '/') $$;`)
			await runScript(readFileSync(FILE, 'utf8'))
			const buckets = await sql<{ id: string; public: boolean }>`select id, public from storage.buckets order by id`.execute(trx)
			const policies = await sql<{
				policyname: string
			}>`select policyname from pg_policies where schemaname = 'storage' order by 1`.execute(trx)
			seen = { buckets: buckets.rows, policies: policies.rows.map((r) => r.policyname) }
			throw new Rollback()
		}).catch((error: unknown) => {
			if (!(error instanceof Rollback)) throw error
		})
		expect(seen?.buckets).toEqual([
			{ id: 'avatars', public: true },
			{ id: 'logos', public: true },
		])
		expect(seen?.policies).toHaveLength(8)
		expect(seen?.policies).toContain('avatars: a user writes their own folder')
		expect(seen?.policies).toContain("logos: an owner writes their organization's folder")
	})
})
