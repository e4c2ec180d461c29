/**
 * Secrets at rest (docs/product.md, Integrations; docs/decisions/015-integration-secrets.md):
 * mailbox passwords and OAuth tokens are sealed with AES-256-GCM before they reach the
 * database and opened only on the server. The key comes from SECRETS_KEY (any string of 32+
 * characters, stretched with HKDF-SHA256); on the embedded database, without it, a random key
 * is generated once under DATA_DIR (like the session secret). A PostgreSQL server needs
 * SECRETS_KEY: the key must not live beside a database it could be copied with.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { env } from './env.ts'

const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16

export class SecretsKeyMissing extends Error {
	constructor() {
		super('SECRETS_KEY (32+ characters) is required to store integration credentials when DATABASE_URL is set.')
	}
}

/** A 32-byte key from any secret string of 32+ characters. */
export function deriveKey(secret: string): Buffer {
	if (secret.length < 32) throw new Error('A secrets key needs 32+ characters')
	return Buffer.from(hkdfSync('sha256', secret, 'p2p-transaction-tracker', 'integration-secrets-v1', 32))
}

let cachedKey: Buffer | undefined

/** The key of this installation: SECRETS_KEY, or the one generated under DATA_DIR (embedded only). */
export function secretsKey(): Buffer {
	if (cachedKey) return cachedKey
	const e = env()
	let secret = e.SECRETS_KEY
	if (!secret) {
		if (e.DATABASE_URL) throw new SecretsKeyMissing()
		const file = path.join(e.dataDir, 'secrets-key')
		try {
			secret = readFileSync(file, 'utf8').trim()
		} catch {
			mkdirSync(e.dataDir, { recursive: true })
			secret = randomBytes(32).toString('hex')
			writeFileSync(file, secret, { mode: 0o600, flag: 'wx' })
		}
	}
	cachedKey = deriveKey(secret)
	return cachedKey
}

/**
 * Seals a text: `v1.` + base64url(iv | tag | ciphertext). `context` (e.g. the organization id)
 * is authenticated with it, so a sealed value copied to another row does not open there.
 */
export function seal(plaintext: string, context: string, key: Buffer = secretsKey()): string {
	const iv = randomBytes(IV_BYTES)
	const cipher = createCipheriv('aes-256-gcm', key, iv)
	cipher.setAAD(Buffer.from(context, 'utf8'))
	const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
	return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`
}

/** Opens a sealed text; throws when it was altered, sealed under another key or another context. */
export function open(sealed: string, context: string, key: Buffer = secretsKey()): string {
	const [version, payload] = sealed.split('.')
	if (version !== VERSION || !payload) throw new Error('Not a sealed secret')
	const raw = Buffer.from(payload, 'base64url')
	if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('Not a sealed secret')
	const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES))
	decipher.setAAD(Buffer.from(context, 'utf8'))
	decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
	return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
}
