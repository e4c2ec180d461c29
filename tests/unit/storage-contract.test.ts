/**
 * The storage port's one test list (tests/contract/storage-port.ts) against the local adapter,
 * always; against Supabase Storage when SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are set (a
 * project with this repository's migrations pushed, so the buckets exist); otherwise the
 * Supabase adapter runs against a local stand-in (tests/support/supabase-storage-stand-in.ts)
 * and the real-project part is skipped, saying why.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { serverClientOptions } from '#app/.server/auth/supabase.ts'
import { localStorageAdapter } from '#app/.server/storage/local.ts'
import { supabaseStorageAdapter } from '#app/.server/storage/supabase.ts'
import { storageContract } from '#tests/contract/storage-port.ts'
import { startSupabaseStorageStandIn, type StorageStandIn } from '#tests/support/supabase-storage-stand-in.ts'

const root = mkdtempSync(path.join(tmpdir(), 'storage-contract-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

storageContract('local', {
	adapter: () => localStorageAdapter(() => root),
	urlPattern: (bucket, key) => new RegExp(`^/storage/${bucket}/${escape(key)}\\?v=`),
})

const { SUPABASE_URL, SUPABASE_SERVICE_ROLE_KEY } = process.env
if (SUPABASE_URL && SUPABASE_SERVICE_ROLE_KEY) {
	const client = createClient(SUPABASE_URL, SUPABASE_SERVICE_ROLE_KEY, { ...serverClientOptions, auth: { persistSession: false } })
	storageContract('supabase', {
		adapter: () => supabaseStorageAdapter(() => client),
		urlPattern: (bucket, key) =>
			new RegExp(`^${escape(SUPABASE_URL.replace(/\/$/, ''))}/storage/v1/object/public/${bucket}/${escape(key)}\\?v=`),
	})
} else {
	// Our side of the Storage protocol, against a local stand-in (not Supabase).
	let standIn: StorageStandIn | undefined
	let client: ReturnType<typeof createClient> | undefined
	beforeAll(async () => {
		standIn = await startSupabaseStorageStandIn()
		client = createClient(standIn.url, 'service-role-key-of-the-stand-in-0123456789', {
			...serverClientOptions,
			auth: { persistSession: false },
		})
	})
	afterAll(async () => {
		await standIn?.stop()
	})
	storageContract('supabase (a local stand-in for Supabase Storage)', {
		adapter: () => supabaseStorageAdapter(() => client!),
		urlPattern: (bucket, key) => new RegExp(`^${escape(standIn!.url)}/storage/v1/object/public/${bucket}/${escape(key)}\\?v=`),
	})
	describe('storage port contract: supabase (the configured project)', () => {
		test.skip('skipped: set SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY to run it against a Supabase project', () => {})
	})
	console.log(
		'storage port contract: the real Supabase project is skipped (SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are not both set); the Supabase adapter runs against a local stand-in.',
	)
}
