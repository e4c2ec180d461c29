/**
 * Modules, upgrades, gears and favourites (docs/product.md, Marketplace and modules). Reads go
 * through RLS as the user; every change goes through the SQL functions of docs/data-model.md
 * (activate_module, deactivate_module, purchase_upgrade, remove_upgrade,
 * update_module_settings), which check the owner again and spend gears in the same transaction.
 */
import { asUser, dbErrorCode, sql, type Tx } from '../db/index.ts'
import { likePattern } from '../query.ts'
import { hasRole, type Role } from '#app/lib/roles.ts'
import { MODULE_VISIBILITIES, moduleOffer, upgradeAvailable, type ModuleVisibility, type Offer } from '#app/lib/modules.ts'

export type ActiveModule = { moduleId: string; name: string; icon: string | null }

/** Roles that see a module configured for `visibility` (any: everyone). */
function visibleTo(visibility: string, role: Role): boolean {
	switch (visibility) {
		case 'owner':
			return hasRole(role, ['owner'])
		case 'administrator':
			return hasRole(role, ['owner', 'administrator'])
		case 'manager':
			return hasRole(role, ['owner', 'administrator', 'manager'])
		default:
			return true
	}
}

/** The organization's activated modules the member may see, in activation order, for the sidebar. */
export async function listActiveModules(userId: string, organizationId: string, role: Role = 'owner'): Promise<ActiveModule[]> {
	return asUser(userId, (trx) => activeModulesIn(trx, organizationId, role))
}

/** listActiveModules inside the caller's transaction (as the member). */
export async function activeModulesIn(trx: Tx, organizationId: string, role: Role): Promise<ActiveModule[]> {
	const rows = await trx
		.selectFrom('organization_modules as om')
		.innerJoin('modules as m', 'm.id', 'om.module_id')
		.select(['m.id as moduleId', 'm.name', 'm.icon', 'om.default_visibility'])
		.where('om.organization_id', '=', organizationId)
		.orderBy('om.activated_at')
		.execute()
	return visibleModules(rows, role)
}

/**
 * The activated modules a member of `role` sees in the sidebar (their visibility set by an
 * administrator). The included modules are left out: their screens are the sidebar's own items
 * (app/lib/modules.ts, docs/product.md, App shell and sidebar).
 */
export function visibleModules(rows: Array<ActiveModule & { default_visibility: string }>, role: Role): ActiveModule[] {
	return rows
		.filter((r) => moduleOffer(r.moduleId) !== 'included' && visibleTo(r.default_visibility, role))
		.map(({ moduleId, name, icon }) => ({ moduleId, name, icon }))
}

export type CatalogueUpgrade = {
	id: string
	moduleId: string
	name: string
	description: string
	features: string[]
	gearCost: number
	tier: 'basic' | 'pro' | 'enterprise'
	dependencies: string[]
	/** Whether it can be bought today (app/lib/modules.ts); otherwise it is coming soon. */
	available: boolean
}

export type MarketplaceModule = {
	id: string
	name: string
	shortDescription: string
	description: string
	icon: string
	industryTags: string[]
	baseGearCost: number
	version: string
	/** What the catalogue does with it today (app/lib/modules.ts): included, available or coming soon. */
	offer: Offer
	active: boolean
	favorite: boolean
	upgrades: CatalogueUpgrade[]
}

const TIER_ORDER = { basic: 0, pro: 1, enterprise: 2 } as const

/**
 * The catalogue as the marketplace shows it: search on name, descriptions and industry tags,
 * optionally only the member's favourites; each module with its status and upgrades.
 */
export async function getMarketplace(userId: string, organizationId: string, options: { q: string; favoritesOnly: boolean }) {
	return asUser(userId, async (trx) => {
		const q = options.q.trim()
		const pattern = likePattern(q)
		const rows = await trx
			.selectFrom('modules as m')
			.leftJoin('organization_modules as om', (join) =>
				join.onRef('om.module_id', '=', 'm.id').on('om.organization_id', '=', organizationId),
			)
			.leftJoin('module_favorites as f', (join) =>
				join.onRef('f.module_id', '=', 'm.id').on('f.organization_id', '=', organizationId).on('f.user_id', '=', userId),
			)
			.select((eb) => [
				'm.id',
				'm.name',
				'm.short_description',
				'm.description',
				'm.icon',
				'm.industry_tags',
				'm.base_gear_cost',
				'm.version',
				'om.id as orgModuleId',
				'f.module_id as favoriteId',
				eb
					.or([
						sql<boolean>`${q} = ''`,
						eb('m.name', 'ilike', pattern),
						eb('m.short_description', 'ilike', pattern),
						eb('m.description', 'ilike', pattern),
						eb(sql<string>`array_to_string(m.industry_tags, ' ')`, 'ilike', pattern),
					])
					.as('matches'),
			])
			.orderBy('m.name')
			.execute()
		const upgrades = await listUpgrades(
			trx,
			rows.map((r) => r.id),
		)
		const all: Array<MarketplaceModule & { matches: boolean }> = rows.map((r) => ({
			id: r.id,
			name: r.name,
			shortDescription: r.short_description,
			description: r.description,
			icon: r.icon,
			industryTags: r.industry_tags,
			baseGearCost: r.base_gear_cost,
			version: r.version,
			offer: moduleOffer(r.id),
			active: r.orgModuleId !== null,
			favorite: r.favoriteId !== null,
			upgrades: upgrades.filter((u) => u.moduleId === r.id),
			matches: Boolean(r.matches),
		}))
		/** Every module of the catalogue (the side panel and the templates name any of them). */
		const catalogue: MarketplaceModule[] = all.map(({ matches: _, ...m }) => m)
		const modules = catalogue.filter((m, i) => all[i]!.matches && (!options.favoritesOnly || m.favorite))
		return { modules, catalogue }
	})
}

async function listUpgrades(trx: Parameters<Parameters<typeof asUser>[1]>[0], moduleIds: string[]): Promise<CatalogueUpgrade[]> {
	if (moduleIds.length === 0) return []
	const rows = await trx
		.selectFrom('module_upgrades')
		.select(['id', 'module_id', 'name', 'description', 'features', 'gear_cost', 'tier', 'dependencies'])
		.where('module_id', 'in', moduleIds)
		.execute()
	return rows
		.map((u) => ({
			id: u.id,
			moduleId: u.module_id,
			name: u.name,
			description: u.description,
			features: u.features,
			gearCost: u.gear_cost,
			tier: u.tier,
			dependencies: u.dependencies,
			available: upgradeAvailable(u.id),
		}))
		.sort((a, b) => TIER_ORDER[a.tier] - TIER_ORDER[b.tier] || a.name.localeCompare(b.name))
}

/** What a module function came to: done, or refused with the SQL function's code (toasts.ts says it to the user). */
export type ModuleChangeResult = { ok: true } | { ok: false; code: string; required?: number; remaining?: number }

/** A refusal of one of the module functions, with the insufficient_gears figures when there are. */
function refusal(error: unknown): ModuleChangeResult {
	const code = dbErrorCode(error)
	if (!code || !/^[a-z_]+$/.test(code)) throw error
	const result: ModuleChangeResult = { ok: false, code }
	const detail = (error as { detail?: unknown }).detail
	if (code === 'insufficient_gears' && typeof detail === 'string') {
		try {
			const parsed = JSON.parse(detail) as { required?: unknown; remaining?: unknown }
			if (typeof parsed.required === 'number') result.required = parsed.required
			if (typeof parsed.remaining === 'number') result.remaining = parsed.remaining
		} catch {
			// no figures: the message goes without them
		}
	}
	return result
}

async function change(userId: string, run: Parameters<typeof asUser>[1]): Promise<ModuleChangeResult> {
	try {
		await asUser(userId, run)
		return { ok: true }
	} catch (error) {
		return refusal(error)
	}
}

export function activateModule(userId: string, organizationId: string, moduleId: string) {
	return change(userId, (trx) => sql`select public.activate_module(${organizationId}, ${moduleId})`.execute(trx))
}

export function deactivateModule(userId: string, organizationId: string, moduleId: string) {
	return change(userId, (trx) => sql`select public.deactivate_module(${organizationId}, ${moduleId})`.execute(trx))
}

export function purchaseUpgrade(userId: string, organizationId: string, upgradeId: string) {
	return change(userId, (trx) => sql`select public.purchase_upgrade(${organizationId}, ${upgradeId})`.execute(trx))
}

export function removeUpgrade(userId: string, organizationId: string, upgradeId: string) {
	return change(userId, (trx) => sql`select public.remove_upgrade(${organizationId}, ${upgradeId})`.execute(trx))
}

export function updateModuleSettings(
	userId: string,
	organizationId: string,
	moduleId: string,
	settings: { visibility: ModuleVisibility; emailNotifications: boolean },
) {
	return change(userId, (trx) =>
		sql`select public.update_module_settings(${organizationId}, ${moduleId}, ${settings.visibility}, ${settings.emailNotifications})`.execute(
			trx,
		),
	)
}

/** Marks or unmarks a module as one of the member's favourites (idempotent). */
export async function setFavorite(userId: string, organizationId: string, moduleId: string, favorite: boolean) {
	await asUser(userId, async (trx) => {
		if (favorite) {
			await trx
				.insertInto('module_favorites')
				.values({ organization_id: organizationId, user_id: userId, module_id: moduleId })
				.onConflict((oc) => oc.doNothing())
				.execute()
		} else {
			await trx
				.deleteFrom('module_favorites')
				.where('organization_id', '=', organizationId)
				.where('user_id', '=', userId)
				.where('module_id', '=', moduleId)
				.execute()
		}
	})
}

/** Whether a module of the catalogue has this id (favourites of unknown ids are refused). */
export async function moduleExists(userId: string, moduleId: string) {
	const row = await asUser(userId, (trx) => trx.selectFrom('modules').select('id').where('id', '=', moduleId).executeTakeFirst())
	return Boolean(row)
}

export { MODULE_VISIBILITIES }

export const GEAR_HISTORY_PAGE_SIZE = 20

/**
 * One page of the organization's gear ledger, newest first: what moved, on what, by whom,
 * when, and the balance after it (docs/data-model.md, Gear ledger).
 */
export async function getGearHistory(userId: string, organizationId: string, page: number) {
	return asUser(userId, async (trx) => {
		const rows = await trx
			.selectFrom('gear_ledger as l')
			.leftJoin('modules as m', 'm.id', 'l.module_id')
			.leftJoin('module_upgrades as u', 'u.id', 'l.upgrade_id')
			.leftJoin('profiles as p', 'p.user_id', 'l.actor_id')
			.select([
				'l.id',
				'l.delta',
				'l.balance_after',
				'l.reason',
				'l.created_at',
				'l.module_id as moduleId',
				'l.upgrade_id as upgradeId',
				'l.refund_of',
				'm.name as moduleName',
				'u.name as upgradeName',
				'p.full_name as actorName',
				'p.email as actorEmail',
			])
			.where('l.organization_id', '=', organizationId)
			.orderBy('l.created_at', 'desc')
			.orderBy('l.id', 'desc')
			.limit(GEAR_HISTORY_PAGE_SIZE + 1)
			.offset((page - 1) * GEAR_HISTORY_PAGE_SIZE)
			.execute()
		return {
			page,
			hasNext: rows.length > GEAR_HISTORY_PAGE_SIZE,
			rows: rows.slice(0, GEAR_HISTORY_PAGE_SIZE).map((r) => ({
				id: r.id,
				delta: r.delta,
				balanceAfter: r.balance_after,
				// A refund is an adjustment that gives one spend back (docs/decisions/039-what-the-catalogue-sells.md).
				reason: r.refund_of === null ? r.reason : ('refund' as const),
				createdAt: new Date(r.created_at).toISOString(),
				moduleId: r.moduleId,
				upgradeId: r.upgradeId,
				moduleName: r.moduleName,
				upgradeName: r.upgradeName,
				actor: r.actorName ?? r.actorEmail,
			})),
		}
	})
}

export type ModuleDetail = Awaited<ReturnType<typeof getModuleDetail>>

/**
 * The module screen: the catalogue row, the organization's record (configuration, activation),
 * its upgrades with the active ones marked, and the integration status stored for them. Null
 * when no module has this id.
 */
export async function getModuleDetail(userId: string, organizationId: string, moduleId: string) {
	return asUser(userId, async (trx) => {
		const module = await trx
			.selectFrom('modules')
			.select(['id', 'name', 'description', 'short_description', 'icon', 'version', 'base_gear_cost', 'updated_at'])
			.where('id', '=', moduleId)
			.executeTakeFirst()
		if (!module) return null
		const record = await trx
			.selectFrom('organization_modules')
			.select(['id', 'activated_at', 'default_visibility', 'email_notifications', 'settings_updated_at'])
			.where('organization_id', '=', organizationId)
			.where('module_id', '=', moduleId)
			.executeTakeFirst()
		const upgrades = await listUpgrades(trx, [moduleId])
		const activeRows = await trx
			.selectFrom('organization_module_upgrades as omu')
			.innerJoin('module_upgrades as u', 'u.id', 'omu.upgrade_id')
			.select(['omu.upgrade_id'])
			.where('omu.organization_id', '=', organizationId)
			.where('u.module_id', '=', moduleId)
			.execute()
		const active = new Set(activeRows.map((r) => r.upgrade_id))
		const credentials = await trx
			.selectFrom('integration_credentials as c')
			.innerJoin('module_upgrades as u', 'u.id', 'c.upgrade_id')
			.select(['c.id', 'c.upgrade_id', 'c.provider', 'c.status', 'c.account', 'c.last_sync', 'c.last_checked_at', 'c.error_message'])
			.where('c.organization_id', '=', organizationId)
			.where('u.module_id', '=', moduleId)
			.orderBy('c.created_at', 'desc')
			.orderBy('c.id', 'desc')
			.execute()
		const list = upgrades.map((u) => ({ ...u, active: active.has(u.id) }))
		// The connected mailboxes, oldest first, and which are paused (docs/decisions/051-several-mailboxes.md).
		const states =
			credentials.length > 0
				? (await sql<{ credential_id: string; paused: boolean }>`select * from public.email_mailbox_states(${organizationId})`.execute(trx))
						.rows
				: []
		const credentialView = (c: (typeof credentials)[number]) => ({
			id: c.id,
			upgradeId: c.upgrade_id,
			provider: c.provider,
			// docs/product.md, Integrations: a connected mailbox whose last check failed shows 'error'.
			status: (c.status === 'disconnected' ? 'disconnected' : c.error_message ? 'error' : 'connected') as
				'connected' | 'error' | 'disconnected',
			account: c.account,
			lastSync: c.last_sync ? new Date(c.last_sync).toISOString() : null,
			lastCheckedAt: c.last_checked_at ? new Date(c.last_checked_at).toISOString() : null,
			errorMessage: c.error_message,
		})
		const mailboxes = states.flatMap((s) => {
			const c = credentials.find((r) => r.id === s.credential_id)
			return c ? [{ ...credentialView(c), paused: s.paused }] : []
		})
		// The card's summary: the oldest connected mailbox, else the latest one (disconnected).
		const integration = mailboxes[0] ?? (credentials[0] ? credentialView(credentials[0]) : undefined)
		return {
			module: {
				id: module.id,
				name: module.name,
				description: module.description,
				icon: module.icon,
				version: module.version,
				baseGearCost: module.base_gear_cost,
				offer: moduleOffer(module.id),
				updatedAt: new Date(module.updated_at).toISOString(),
			},
			record: record
				? {
						activatedAt: new Date(record.activated_at).toISOString(),
						visibility: record.default_visibility as ModuleVisibility,
						emailNotifications: record.email_notifications,
						settingsUpdatedAt: record.settings_updated_at ? new Date(record.settings_updated_at).toISOString() : null,
					}
				: null,
			upgrades: list,
			integration: integration ?? null,
			mailboxes,
		}
	})
}

/** Whether a member with `role` may see a module configured for `visibility` (docs/product.md, Roles). */
export function mayUseModule(visibility: string, role: Role) {
	return visibleTo(visibility, role)
}
