import { hash, verify } from '@node-rs/argon2'

// argon2id with OWASP's minimum: 19 MiB, 2 iterations, 1 lane.
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string) {
	return hash(password, options)
}

export async function verifyPassword(stored: string | null | undefined, password: string) {
	if (!stored) {
		// Same work for an unknown account as for a wrong password: no timing oracle.
		await hash(password, options)
		return false
	}
	try {
		return await verify(stored, password)
	} catch {
		return false
	}
}
