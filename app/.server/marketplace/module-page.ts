/**
 * The module screen's view model (docs/product.md, Module detail): the module of the address
 * (or the marketplace with 'module not found'), and what the page shows of it, computed from the
 * module, its upgrades, the gears they keep and the mailbox connection of the email upgrade.
 */
import type { RouterContextProvider } from 'react-router'
import { dateTimeIn } from '#app/lib/dates.ts'
import { errorResponse } from '#app/lib/errors.ts'
import { MAIL_UPGRADE_NAME, MODULES, registryModule, registryUpgrade, unlockedScreens, type UnlockedScreen } from '#app/lib/modules.ts'
import { isOwner } from '#app/lib/roles.ts'
import { isUuid } from '#app/lib/uuid.ts'
import type { CurrentMember } from '../organizations/current.ts'
import { googleConfigured } from '../auth/google.ts'
import { emailSyncView } from '../payments/email-sync/history.ts'
import { memberClock } from '../query.ts'
import { redirectWithToast } from '../toast.ts'
import { catalogueT, localizeModule, localizeUpgrade } from './catalogue-text.ts'
import { getModuleDetail, mayUseModule, type ModuleDetail } from './modules.ts'
import { MODULE_NOT_FOUND_TOAST } from './toasts.ts'

/** A module of the catalogue as getModuleDetail reads it (its texts as the catalogue has them). */
export type FoundModule = NonNullable<ModuleDetail>

/** The mailbox connection as the integration card shows it: its moments in the organization's timezone. */
export type IntegrationView = {
	id: string
	provider: string
	status: 'connected' | 'error' | 'disconnected'
	account: string | null
	/** The day of the last sync, and the moment of the last check, in the organization's timezone. */
	lastSync: string | null
	lastChecked: { date: string; time: string } | null
	errorMessage: string | null
	/** Beyond the one mailbox without Email Pro: not synced (docs/decisions/051-several-mailboxes.md). */
	paused?: boolean
}

/** How many mailboxes the organization may connect: 5 with Email Pro, 1 without (connecting then replaces it). */
export const MAILBOX_LIMIT_PRO = 5

/**
 * The module of the address, for the member: the marketplace with a 'module not found' message
 * when no module has this id; a 403 when its configured visibility is above the member's role
 * (docs/product.md, Roles).
 */
export async function requireModule(member: CurrentMember, moduleId: string): Promise<FoundModule> {
	const detail = isUuid(moduleId) ? await getModuleDetail(member.user.userId, member.organization.id, moduleId) : null
	if (!detail) throw await redirectWithToast('/app/module-marketplace', MODULE_NOT_FOUND_TOAST)
	if (detail.record && !mayUseModule(detail.record.visibility, member.organization.role)) errorResponse(403, 'forbidden')
	return detail
}

/** The module's email upgrade when it is active, found by its catalogue name. */
export function activeMailUpgrade<U extends { name: string; active: boolean; catalogueName?: string }>(upgrades: U[]): U | undefined {
	// A localized upgrade keeps the database's name in `catalogueName`; `name` is in the interface language.
	return upgrades.find((u) => (u.catalogueName ?? u.name) === MAIL_UPGRADE_NAME && u.active)
}

/**
 * What the module screen shows: its texts in the interface language (catalogue-text.ts), the
 * mailbox connection and the email sync when the email upgrade is active, and the dialogs the
 * address opens (?upgrade=, ?remove=, ?confirm=deactivate), which work without JavaScript.
 */
export async function modulePageView(
	context: Readonly<RouterContextProvider>,
	member: CurrentMember,
	found: FoundModule,
	search: URLSearchParams,
) {
	const t = catalogueT(context)
	const { timezone } = memberClock(member.organization)
	const detail = {
		...found,
		module: localizeModule(t, found.module),
		upgrades: found.upgrades.map((u) => localizeUpgrade(t, u)),
		integration: integrationView(found.integration, timezone),
		mailboxes: found.mailboxes.map((m) => integrationView(m, timezone)!),
	}
	const mailActive = activeMailUpgrade(detail.upgrades) !== undefined
	const emailPro = found.upgrades.some((u) => u.id === MODULES.p2p.upgrades.emailPro.id && u.active)
	return {
		detail,
		emailPro,
		mailboxLimit: emailPro ? MAILBOX_LIMIT_PRO : 1,
		whatYouGet: whatYouGet(detail, member.organization.slug),
		mailActive,
		emailSync: mailActive ? await emailSyncView(member.user.userId, member.organization.id, timezone) : null,
		canManage: isOwner(member.organization.role),
		gmailAvailable: googleConfigured(),
		gearsRemaining: member.organization.gearsRemaining,
		dialogUpgrade: detail.upgrades.find((u) => u.id === search.get('upgrade') && !u.active) ?? null,
		removing: detail.upgrades.find((u) => u.id === search.get('remove') && u.active) ?? null,
		confirmDeactivate: detail.record !== null && detail.module.offer !== 'included' && search.get('confirm') === 'deactivate',
	}
}

export type ModulePageView = Awaited<ReturnType<typeof modulePageView>>

/**
 * "What you get" (docs/product.md, Module detail): the screens the module unlocks and, for each
 * upgrade that unlocks some, its own, with the organization's slug in their addresses; all read
 * from the registry (app/lib/modules.ts). Empty for a module that is coming soon.
 */
export function whatYouGet(
	detail: { module: { id: string }; upgrades: Array<{ id: string; name: string; active: boolean }> },
	slug: string,
): { screens: UnlockedScreen[]; upgrades: Array<{ id: string; name: string; active: boolean; screens: UnlockedScreen[] }> } {
	return {
		screens: unlockedScreens(registryModule(detail.module.id)?.screens ?? [], slug),
		upgrades: detail.upgrades
			.map((u) => ({ id: u.id, name: u.name, active: u.active, screens: unlockedScreens(registryUpgrade(u.id)?.screens ?? [], slug) }))
			.filter((u) => u.screens.length > 0),
	}
}

/** The mailbox connection with its moments in the organization's timezone. */
function integrationView(
	integration: FoundModule['integration'] | FoundModule['mailboxes'][number],
	timeZone: string,
): IntegrationView | null {
	if (!integration) return null
	const { lastSync, lastCheckedAt, ...rest } = integration
	return {
		...rest,
		lastSync: lastSync ? dateTimeIn(timeZone, new Date(lastSync)).date : null,
		lastChecked: lastCheckedAt ? dateTimeIn(timeZone, new Date(lastCheckedAt)) : null,
	}
}
