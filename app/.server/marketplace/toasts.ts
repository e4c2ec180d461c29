/**
 * The marketplace's toasts (docs/product.md, Marketplace and modules; Integrations): the one
 * place that turns what a module change, a favourite or a mailbox connection came to into the
 * flash message the user reads. Titles and descriptions are translation keys (marketplace.json).
 */
import type { ToastInput } from '../toast.ts'
import type { ModuleChangeResult } from './modules.ts'

/** The changes of a module the marketplace and the module screen ask for. */
export type ModuleChange = 'activate' | 'deactivate' | 'purchaseUpgrade' | 'removeUpgrade' | 'saveSettings' | 'resetSettings'

/**
 * Where the change was asked: the marketplace's cards say a shortfall of gears in a toast of its
 * own ('Insufficient Gears'); the module screen says every refusal as the reason of its title.
 */
export type ModuleScreen = 'marketplace' | 'module'

const DONE: Record<ModuleChange, ToastInput> = {
	activate: { type: 'success', title: 'marketplace:toasts.activated.title', description: 'marketplace:toasts.activated.description' },
	deactivate: { type: 'success', title: 'marketplace:toasts.deactivated.title', description: 'marketplace:toasts.deactivated.description' },
	purchaseUpgrade: { type: 'success', title: 'marketplace:toasts.upgradeActivated' },
	removeUpgrade: { type: 'success', title: 'marketplace:toasts.upgradeDeactivated' },
	saveSettings: { type: 'success', title: 'marketplace:toasts.settingsSaved' },
	resetSettings: { type: 'success', title: 'marketplace:toasts.settingsReset' },
}

const FAILED: Record<ModuleChange, string> = {
	activate: 'marketplace:toasts.activationFailed',
	deactivate: 'marketplace:toasts.deactivationFailed',
	purchaseUpgrade: 'marketplace:toasts.upgradeFailed',
	removeUpgrade: 'marketplace:toasts.upgradeRemoveFailed',
	saveSettings: 'marketplace:toasts.settingsFailed',
	resetSettings: 'marketplace:toasts.settingsFailed',
}

/** Refusal codes of the module functions that have their own explanation (marketplace:reasons). */
const EXPLAINED = [
	'insufficient_gears',
	'missing_dependency',
	'already_active',
	'not_active',
	'required_by_active_upgrade',
	'invalid_settings',
	'not_available',
	'included_module',
]

/** The translation key that explains a refusal to the user (marketplace:reasons), "Please try again" when none does. */
export function refusalReason(code: string) {
	return `marketplace:reasons.${EXPLAINED.includes(code) ? code : 'unknown'}`
}

/**
 * The toast of a module change: what was done, or why it was refused (its reason in the user's
 * language, with the insufficient_gears figures). Removing an upgrade that is no longer active
 * is not an error but a notice.
 */
export function moduleChangeToast(screen: ModuleScreen, change: ModuleChange, result: ModuleChangeResult): ToastInput {
	if (result.ok) return DONE[change]
	const figures = { required: result.required ?? 0, remaining: result.remaining ?? 0 }
	if (change === 'removeUpgrade' && result.code === 'no_active_upgrade')
		return { type: 'info', title: 'marketplace:toasts.noActiveUpgrade' }
	if (screen === 'module') return { type: 'error', title: FAILED[change], description: refusalReason(result.code), values: figures }
	if (result.code === 'insufficient_gears') {
		return {
			type: 'error',
			title: 'marketplace:toasts.insufficient.title',
			description: 'marketplace:toasts.insufficient.description',
			values: figures,
		}
	}
	return { type: 'error', title: FAILED[change], description: refusalReason(result.code) }
}

/** The toast of marking (or unmarking) a module as a favourite. */
export function favoriteToast(favorite: boolean): ToastInput {
	return { type: 'success', title: favorite ? 'marketplace:toasts.favorited' : 'marketplace:toasts.unfavorited' }
}

/** The marketplace's notice for a module address that names no module of the catalogue. */
export const MODULE_NOT_FOUND_TOAST: ToastInput = { type: 'error', title: 'marketplace:toasts.notFound' }

/**
 * A toast of the integration card (marketplace:integrations.toasts): `title` names the outcome
 * (connected, checkFailed…), `description` a full translation key when there is one.
 */
export function integrationToast(
	type: 'success' | 'error',
	title: string,
	description?: string,
	values?: Record<string, string>,
): ToastInput {
	return { type, title: `marketplace:integrations.toasts.${title}`, description, values }
}
