/**
 * The storage port's contract (app/.server/storage/index.ts): one list of tests, run against
 * each adapter (tests/unit/storage-contract.test.ts).
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import type { StoragePort } from '#app/.server/storage/index.ts'

// The smallest PNG: a 1×1 transparent pixel.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64')
const JPEG = Buffer.from(
	'/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==',
	'base64',
)

export type StorageContractDriver = {
	adapter: () => StoragePort
	/** What `url()` must look like for `avatars/{key}` (a pattern on the whole URL). */
	urlPattern: (bucket: string, key: string) => RegExp
}

export function storageContract(name: string, driver: StorageContractDriver) {
	describe(`storage port contract: ${name}`, () => {
		test('a file put in a bucket comes back with its bytes and type; overwriting replaces it', async () => {
			const key = `${randomUUID()}/avatar.png`
			await driver.adapter().put('avatars', key, PNG, 'image/png')
			const stored = await driver.adapter().get('avatars', key)
			expect(stored?.contentType).toBe('image/png')
			expect(stored && Buffer.compare(stored.bytes, PNG)).toBe(0)
			await driver.adapter().put('avatars', key, JPEG, 'image/png')
			expect(Buffer.compare((await driver.adapter().get('avatars', key))!.bytes, JPEG)).toBe(0)
			await driver.adapter().delete('avatars', key)
		})

		test('50 writes to one key at the same moment all succeed, and the file is one of them, whole', async () => {
			const key = `${randomUUID()}/logo.png`
			// Different lengths and bytes: a mix of two writes, or a cut one, would match none of them.
			const versions = Array.from({ length: 50 }, (_, i) => Buffer.concat([PNG, Buffer.alloc(1000 + i * 37, i + 1)]))
			const results = await Promise.allSettled(versions.map((bytes) => driver.adapter().put('logos', key, bytes, 'image/png')))
			expect(results.filter((r) => r.status === 'rejected')).toEqual([])
			const stored = await driver.adapter().get('logos', key)
			expect(versions.some((bytes) => stored !== null && Buffer.compare(stored.bytes, bytes) === 0)).toBe(true)
			await driver.adapter().delete('logos', key.split('/')[0]!)
		})

		test('the buckets are apart: a key in avatars is not in logos', async () => {
			const key = `${randomUUID()}/logo.png`
			await driver.adapter().put('avatars', key, PNG, 'image/png')
			expect(await driver.adapter().get('logos', key)).toBeNull()
			await driver.adapter().delete('avatars', key)
		})

		test('deleting a file removes it; deleting a folder removes every file under it; deleting nothing is fine', async () => {
			const folder = randomUUID()
			await driver.adapter().put('logos', `${folder}/logo.png`, PNG, 'image/png')
			await driver.adapter().put('logos', `${folder}/logo.jpg`, JPEG, 'image/jpeg')
			await driver.adapter().delete('logos', `${folder}/logo.png`)
			expect(await driver.adapter().get('logos', `${folder}/logo.png`)).toBeNull()
			expect(await driver.adapter().get('logos', `${folder}/logo.jpg`)).not.toBeNull()
			await driver.adapter().delete('logos', folder)
			expect(await driver.adapter().get('logos', `${folder}/logo.jpg`)).toBeNull()
			await driver.adapter().delete('logos', `${randomUUID()}/avatar.png`)
		})

		test('a missing file is null, and unsafe keys are never read or written', async () => {
			expect(await driver.adapter().get('avatars', `${randomUUID()}/avatar.png`)).toBeNull()
			for (const key of ['../etc/passwd', '/abs/avatar.png', 'a/../../b.png', 'a//b.png', 'a/b.png.exe.sh']) {
				expect(await driver.adapter().get('avatars', key)).toBeNull()
				await expect(driver.adapter().put('avatars', key, PNG, 'image/png')).rejects.toThrow()
			}
		})

		test('url() is the public address of the file, with the version in it', () => {
			const key = `${randomUUID()}/avatar.png`
			const url = driver.adapter().url('avatars', key, 'abc123')
			expect(url).toMatch(driver.urlPattern('avatars', key))
			expect(url).toContain('v=abc123')
			expect(driver.adapter().url('avatars', key, 'def456')).not.toBe(url)
		})
	})
}
