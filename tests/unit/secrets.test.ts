import { describe, expect, test } from 'vitest'
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
