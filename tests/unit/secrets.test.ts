import { describe, expect, test, vi } from 'vitest'
import { deriveKey, open, seal } from '#app/.server/secrets.ts'

const key = deriveKey('a test secrets key of at least thirty-two characters')
const otherKey = deriveKey('another secrets key, also thirty-two characters or more')

describe('secrets at rest (AES-256-GCM)', () => {
	test('a sealed password opens again with the same key and context', () => {
		const sealed = seal('app-password-123', 'org-1', key)
		expect(sealed.startsWith('v1.')).toBe(true)
		expect(sealed).not.toContain('app-password-123')
		expect(open(sealed, 'org-1', key)).toBe('app-password-123')
	})

	test('sealing the same text twice gives different ciphertexts (a fresh IV each time)', () => {
		expect(seal('same', 'org-1', key)).not.toBe(seal('same', 'org-1', key))
	})

	test('a tampered ciphertext is refused', () => {
		const sealed = seal('app-password-123', 'org-1', key)
		const raw = Buffer.from(sealed.slice(3), 'base64url')
		raw[raw.length - 1]! ^= 0x01
		expect(() => open(`v1.${raw.toString('base64url')}`, 'org-1', key)).toThrow()
		expect(() => open(sealed.slice(0, -4), 'org-1', key)).toThrow()
		expect(() => open('v1.', 'org-1', key)).toThrow()
		expect(() => open('plain text', 'org-1', key)).toThrow()
	})

	test('another key cannot open it', () => {
		expect(() => open(seal('app-password-123', 'org-1', key), 'org-1', otherKey)).toThrow()
	})

	test('a value copied to another organization does not open there', () => {
		expect(() => open(seal('app-password-123', 'org-1', key), 'org-2', key)).toThrow()
	})

	test('a key shorter than 32 characters is refused', () => {
		expect(() => deriveKey('short')).toThrow()
	})
})

describe('the installation key', () => {
	test('on the embedded database without SECRETS_KEY, a key is generated once under DATA_DIR (mode 600) and reused', async () => {
		const { mkdtempSync, readFileSync, statSync } = await import('node:fs')
		const os = await import('node:os')
		const path = await import('node:path')
		const dir = mkdtempSync(path.join(os.tmpdir(), 'secrets-'))
		vi.resetModules()
		vi.stubEnv('DATA_DIR', dir)
		vi.stubEnv('SECRETS_KEY', undefined)
		vi.stubEnv('DATABASE_URL', undefined)
		try {
			const first = await import('#app/.server/secrets.ts')
			const sealed = first.seal('app-password', 'org-1')
			const file = path.join(dir, 'secrets-key')
			expect(statSync(file).mode & 0o777).toBe(0o600)
			expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/)
			// A restart (fresh modules) reads the same key back.
			vi.resetModules()
			const again = await import('#app/.server/secrets.ts')
			expect(again.open(sealed, 'org-1')).toBe('app-password')
		} finally {
			vi.unstubAllEnvs()
			vi.resetModules()
		}
	})

	test('with DATABASE_URL and no SECRETS_KEY, sealing refuses with a clear message', async () => {
		vi.resetModules()
		vi.stubEnv('SECRETS_KEY', undefined)
		vi.stubEnv('DATABASE_URL', 'postgres://nowhere/db')
		vi.stubEnv('SESSION_SECRET', 'a-session-secret-of-at-least-32-characters')
		try {
			const fresh = await import('#app/.server/secrets.ts')
			expect(() => fresh.seal('x', 'org-1')).toThrow(/SECRETS_KEY/)
		} finally {
			vi.unstubAllEnvs()
			vi.resetModules()
		}
	})
})
