import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { insertUser, normalizeEmail } from '../auth/local.ts'
import { hashPassword } from '../auth/password.ts'
import { env } from '../env.ts'
import { asSystem, sql } from './index.ts'
import { analyzeFilledTables } from './maintenance.ts'
import type { Tx } from './index.ts'

export const DEMO_EMAIL = 'demo@example.com'

type DemoData = { seedDemoData: (trx: Tx, orgId: string, ownerId: string) => Promise<void> }
const demoDataModule = import.meta.glob<DemoData>('./demo-data.ts')
type Credentials = { email: string; password: string }

/**
 * A demo owner with a password generated for this install, their organization filled with
 * realistic data. The user and the data are one transaction, and the credentials file
 * (DATA_DIR, readable by the installing user only, printed at every start) is written after it
 * commits, so a start that fails anywhere leaves either nothing or a complete demo. Idempotent:
 * a later start reuses the file; when the demo exists but its file was lost, the demo owner
 * gets a new password and a new file, rather than a server that cannot start.
 */
export async function seedDemo(dataDir = env().dataDir): Promise<Credentials> {
	await mkdir(dataDir, { recursive: true })
	const file = path.join(dataDir, 'demo-credentials.json')
	const saved = await readFile(file, 'utf8').then(
		(t) => JSON.parse(t) as Credentials,
		() => null,
	)
	const credentials = { email: DEMO_EMAIL, password: saved?.password ?? randomBytes(9).toString('base64url') }
	const passwordHash = saved ? null : await hashPassword(credentials.password)
	const load = demoDataModule['./demo-data.ts']
	const seeded = await asSystem(async (trx) => {
		// One seeding at a time, even with several instances starting together.
		await sql`select pg_advisory_xact_lock(hashtextextended('seed-demo', 0))`.execute(trx)
		const existing = await trx
			.selectFrom('auth.users')
			.select('id')
			.where(sql`lower(email)`, '=', normalizeEmail(DEMO_EMAIL))
			.executeTakeFirst()
		if (existing) {
			if (passwordHash)
				await trx.updateTable('auth.users').set({ encrypted_password: passwordHash }).where('id', '=', existing.id).execute()
			return false
		}
		// Verified at once: the server made this address's account itself, and the demo is meant to be used as it starts.
		const userId = await insertUser(trx, {
			email: DEMO_EMAIL,
			passwordHash: passwordHash ?? (await hashPassword(credentials.password)),
			fullName: 'Demo Owner',
			verified: true,
		})
		const org = await trx
			.selectFrom('organization_members')
			.select('organization_id')
			.where('user_id', '=', userId)
			.executeTakeFirstOrThrow()
		await trx.updateTable('organizations').set({ name: 'Demo Studio' }).where('id', '=', org.organization_id).execute()
		if (load) await (await load()).seedDemoData(trx, org.organization_id, userId)
		return true
	})
	// A bulk load: PostgreSQL's own advice after one is to analyze (maintenance.ts).
	if (seeded) await analyzeFilledTables()
	if (!saved) await writeFile(file, JSON.stringify(credentials), { mode: 0o600 })
	return credentials
}
