import { randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { signUp } from '../auth/local.ts'
import { env } from '../env.ts'
import { asSystem } from './index.ts'
import type { Tx } from './index.ts'

export const DEMO_EMAIL = 'demo@example.com'

type DemoData = { seedDemoData: (trx: Tx, orgId: string, ownerId: string) => Promise<void> }
const demoDataModule = import.meta.glob<DemoData>('./demo-data.ts')

/**
 * On the first start of an embedded database: a demo owner with a password generated for
 * this install, their organization filled with realistic data. The credentials are kept in
 * DATA_DIR (readable by the installing user only) and printed at every start.
 */
export async function seedDemo(): Promise<{ email: string; password: string }> {
	const file = path.join(env().dataDir, 'demo-credentials.json')
	const saved = await readFile(file, 'utf8').then((t) => JSON.parse(t) as { email: string; password: string }, () => null)
	if (saved) return saved
	const password = randomBytes(9).toString('base64url')
	const result = await signUp({ email: DEMO_EMAIL, password, fullName: 'Demo Owner' })
	if (!result.ok) throw new Error(`Could not create the demo user: ${result.code}`)
	const load = demoDataModule['./demo-data.ts']
	await asSystem(async (trx) => {
		const org = await trx
			.selectFrom('organization_members')
			.select('organization_id')
			.where('user_id', '=', result.user.userId)
			.executeTakeFirstOrThrow()
		await trx.updateTable('organizations').set({ name: 'Demo Studio' }).where('id', '=', org.organization_id).execute()
		if (load) await (await load()).seedDemoData(trx, org.organization_id, result.user.userId)
	})
	const credentials = { email: DEMO_EMAIL, password }
	await writeFile(file, JSON.stringify(credentials), { mode: 0o600 })
	return credentials
}
