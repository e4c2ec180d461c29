/**
 * Items of the catalogue that are coming soon today, opened for one test: the purchase rules of
 * the SQL functions (combined charges, dependencies, removal) still hold for the day an item is
 * built (docs/decisions/039-what-the-catalogue-sells.md). Everything runs in one transaction that
 * is rolled back, so the catalogue other test files read never changes.
 */
import { asSystem, dbErrorCode, sql, type Tx } from '#app/.server/db/index.ts'
import { moduleOffer } from '#app/lib/modules.ts'

class Rollback {
	constructor(readonly value: unknown) {}
}

/** What a test sees inside the opened catalogue: its transaction, as the user, and a way to try a call. */
export type Opened = {
	trx: Tx
	/** The refusal code of a call (null when it succeeded), in a savepoint so the transaction goes on. */
	attempt: (run: (trx: Tx) => Promise<unknown>) => Promise<string | null>
	/** The organization's sold modules (the included ones left out), its upgrades and its balance, as the user reads them. */
	state: (orgId: string) => Promise<{ modules: string[]; upgrades: string[]; remaining: number }>
}

/**
 * Runs `fn` as `userId` (RLS applies, as with asUser) in one transaction where the given modules
 * and upgrades are available, then rolls it all back and returns what `fn` returned.
 */
export async function withOpenCatalogue<T>(
	userId: string,
	items: { modules?: string[]; upgrades?: string[]; /** Modules made coming soon for the test. */ closed?: string[] },
	fn: (opened: Opened) => Promise<T>,
): Promise<T> {
	try {
		await asSystem(async (trx) => {
			if (items.modules?.length) await trx.updateTable('modules').set({ available: true }).where('id', 'in', items.modules).execute()
			if (items.closed?.length) await trx.updateTable('modules').set({ available: false }).where('id', 'in', items.closed).execute()
			if (items.upgrades?.length)
				await trx.updateTable('module_upgrades').set({ available: true }).where('id', 'in', items.upgrades).execute()
			const claims = JSON.stringify({ sub: userId, role: 'authenticated' })
			await sql`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${claims}, true)`.execute(trx)
			let n = 0
			const attempt: Opened['attempt'] = async (run) => {
				const name = sql.raw(`attempt_${++n}`)
				await sql`savepoint ${name}`.execute(trx)
				try {
					await run(trx)
					await sql`release savepoint ${name}`.execute(trx)
					return null
				} catch (error) {
					await sql`rollback to savepoint ${name}`.execute(trx)
					return dbErrorCode(error) ?? String(error)
				}
			}
			const state: Opened['state'] = async (orgId) => ({
				modules: (
					await trx
						.selectFrom('organization_modules')
						.select('module_id')
						.where('organization_id', '=', orgId)
						.orderBy('module_id')
						.execute()
				)
					.map((r) => r.module_id)
					.filter((id) => moduleOffer(id) !== 'included'),
				upgrades: (
					await trx
						.selectFrom('organization_module_upgrades')
						.select('upgrade_id')
						.where('organization_id', '=', orgId)
						.orderBy('upgrade_id')
						.execute()
				).map((r) => r.upgrade_id),
				remaining: (await trx.selectFrom('organizations').select('gears_remaining').where('id', '=', orgId).executeTakeFirstOrThrow())
					.gears_remaining,
			})
			throw new Rollback(await fn({ trx, attempt, state }))
		})
	} catch (error) {
		if (error instanceof Rollback) return error.value as T
		throw error
	}
	throw new Error('unreachable')
}
