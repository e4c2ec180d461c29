/**
 * Writes that go wrong, per adapter (app/.server/storage/): the local adapter leaves the previous
 * file and no temporary file behind; the Supabase adapter tries a write again when Storage answers
 * that it collided with another write to the key, and only then. The contract both keep is in
 * tests/contract/storage-port.ts.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createClient } from '@supabase/supabase-js'
import { afterAll, describe, expect, test } from 'vitest'
import { serverClientOptions } from '#app/.server/auth/supabase.ts'
import { localStorageAdapter } from '#app/.server/storage/local.ts'
import { PUT_ATTEMPTS, supabaseStorageAdapter } from '#app/.server/storage/supabase.ts'

const root = mkdtempSync(path.join(tmpdir(), 'storage-writes-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('local storage: a failed write', () => {
	test('leaves the previous file as it was and no temporary file in the folder', async () => {
		const storage = localStorageAdapter(() => root)
		const folder = 'a1b2c3d4-0000-4000-8000-000000000001'
		await storage.put('logos', `${folder}/logo.png`, Buffer.from('the old logo'), 'image/png')
		// The place of logo.jpg is taken by a folder with a file in it: the rename cannot replace it.
		mkdirSync(path.join(root, 'logos', folder, 'logo.jpg', 'inside'), { recursive: true })
		writeFileSync(path.join(root, 'logos', folder, 'logo.jpg', 'inside', 'x'), 'x')
		await expect(storage.put('logos', `${folder}/logo.jpg`, Buffer.from('the new logo'), 'image/jpeg')).rejects.toThrow()
		expect(readFileSync(path.join(root, 'logos', folder, 'logo.png'), 'utf8')).toBe('the old logo')
		expect(readdirSync(path.join(root, 'logos', folder)).sort()).toEqual(['logo.jpg', 'logo.png'])
	})

	test('writes to one key at once leave no temporary file either', async () => {
		const storage = localStorageAdapter(() => root)
		const folder = 'a1b2c3d4-0000-4000-8000-000000000002'
		await Promise.all(
			Array.from({ length: 30 }, (_, i) => storage.put('avatars', `${folder}/avatar.png`, Buffer.alloc(5000 + i, i), 'image/png')),
		)
		expect(readdirSync(path.join(root, 'avatars', folder))).toEqual(['avatar.png'])
	})
})

/** A Storage stand-in that answers the first `collisions` uploads with `answer`, then stores. */
async function collidingStorage(collisions: number, answer: { status: number; body: object }) {
	let uploads = 0
	const server = http.createServer((req, res) => {
		req.resume()
		req.on('end', () => {
			uploads++
			const [status, body] = uploads <= collisions ? [answer.status, answer.body] : [200, { Key: 'logos/x', Id: 'x' }]
			res.writeHead(status, { 'content-type': 'application/json' })
			res.end(JSON.stringify(body))
		})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const { port } = server.address() as { port: number }
	const client = createClient(`http://127.0.0.1:${port}`, 'service-role-key-of-the-stand-in-0123456789', {
		...serverClientOptions,
		auth: { persistSession: false },
	})
	return {
		storage: supabaseStorageAdapter(() => client, { retryPauseMs: 5 }),
		uploads: () => uploads,
		stop: () => new Promise((resolve) => server.close(resolve)),
	}
}

describe('Supabase storage: writes that collide', () => {
	const duplicate = { status: 400, body: { statusCode: '409', error: 'Duplicate', message: 'The resource already exists' } }
	const key = 'a1b2c3d4-0000-4000-8000-000000000003/logo.png'

	test('a write answered "already exists" or "locked" by a concurrent one is tried again and succeeds', async () => {
		for (const answer of [duplicate, { status: 423, body: { statusCode: '423', error: 'Locked', message: 'Resource is locked' } }]) {
			const stand = await collidingStorage(PUT_ATTEMPTS - 1, answer)
			await stand.storage.put('logos', key, Buffer.from('png'), 'image/png')
			expect(stand.uploads()).toBe(PUT_ATTEMPTS)
			await stand.stop()
		}
	})

	test('a write that keeps colliding fails after PUT_ATTEMPTS tries; any other refusal fails at once', async () => {
		const stuck = await collidingStorage(100, duplicate)
		await expect(stuck.storage.put('logos', key, Buffer.from('png'), 'image/png')).rejects.toThrow(/already exists/)
		expect(stuck.uploads()).toBe(PUT_ATTEMPTS)
		await stuck.stop()
		const refused = await collidingStorage(100, {
			status: 400,
			body: { statusCode: '403', error: 'Unauthorized', message: 'new row violates row-level security policy' },
		})
		await expect(refused.storage.put('logos', key, Buffer.from('png'), 'image/png')).rejects.toThrow(/row-level security/)
		expect(refused.uploads()).toBe(1)
		await refused.stop()
	})
})
