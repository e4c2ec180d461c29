import { parseWithZod } from '@conform-to/zod/v4'
import { AlertCircleIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { requireMember } from '#app/.server/auth/session.ts'
import { integrationAction, isIntegrationIntent, syncNow } from '#app/.server/marketplace/integration-actions.ts'
import { modulePageView, requireModule, type FoundModule } from '#app/.server/marketplace/module-page.ts'
import { activateModule, deactivateModule, purchaseUpgrade, removeUpgrade, updateModuleSettings } from '#app/.server/marketplace/modules.ts'
import { moduleChangeToast } from '#app/.server/marketplace/toasts.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { EmailSyncHistory } from '#app/components/marketplace/email-sync-history.tsx'
import { IntegrationCard } from '#app/components/marketplace/integration-card.tsx'
import { ModuleConfiguration, ModuleNotActive, ModulePrice } from '#app/components/marketplace/module-configuration.tsx'
import { ModuleIcon } from '#app/components/marketplace/module-icon.tsx'
import { ModuleUpgrades, RemoveUpgradeDialog, UpgradeDialog } from '#app/components/marketplace/module-upgrades.tsx'
import { WhatYouGet } from '#app/components/marketplace/what-you-get.tsx'
import { StatusBadge } from '#app/components/marketplace/module-card.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { invariantResponse } from '#app/lib/errors.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { DEFAULT_MODULE_SETTINGS, type ModuleVisibility } from '#app/lib/modules.ts'
import { isOwner } from '#app/lib/roles.ts'
import { moduleDetailActionSchema } from '#app/lib/schemas/marketplace.ts'
import type { Route } from './+types/module-detail'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'moduleDetail', args.loaderData?.detail.module.name)

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const member = requireMember(context)
	const found = await requireModule(member, params.moduleId)
	return modulePageView(context, member, found, new URL(request.url).searchParams)
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const member = requireMember(context)
	const found = await requireModule(member, params.moduleId)
	const formData = await request.formData()
	const back = new URL(request.url).pathname
	const intent = formData.get('intent')
	if (intent === 'syncNow') return syncNow(member, back)
	if (isIntegrationIntent(intent)) return integrationAction(member, found, formData, back)
	const submission = parseWithZod(formData, { schema: moduleDetailActionSchema })
	if (submission.status !== 'success') return data({ denied: false, error: 'badRequest' as const }, { status: 400 })
	// Owners only manage modules (docs/product.md, Roles); a forged post changes nothing.
	if (!isOwner(member.organization.role)) return data({ denied: true, error: null }, { status: 403 })
	const change: ModuleChangeOf = { userId: member.user.userId, organizationId: member.organization.id, module: found, back }
	const value = submission.value
	switch (value.intent) {
		case 'saveSettings':
			return saveSettingsAction(change, 'saveSettings', {
				visibility: value.visibility,
				emailNotifications: value.emailNotifications ?? false,
			})
		case 'resetSettings':
			return saveSettingsAction(change, 'resetSettings', DEFAULT_MODULE_SETTINGS)
		case 'activate':
			return activateAction(change)
		case 'deactivate':
			return deactivateAction(change)
		case 'purchaseUpgrade':
			return purchaseUpgradeAction(change, value.upgradeId)
		case 'removeUpgrade':
			return removeUpgradeAction(change, value.upgradeId)
	}
}

/** An owner's change of this module: who, which module (as the catalogue names it), and the page to go back to. */
type ModuleChangeOf = { userId: string; organizationId: string; module: FoundModule; back: string }

/** Saves the module's configuration, or resets it to the defaults. */
async function saveSettingsAction(
	c: ModuleChangeOf,
	intent: 'saveSettings' | 'resetSettings',
	settings: { visibility: ModuleVisibility; emailNotifications: boolean },
) {
	const result = await updateModuleSettings(c.userId, c.organizationId, c.module.module.id, settings)
	return redirectWithToast(c.back, moduleChangeToast('module', intent, result))
}

/** Activates the module, spending its base cost in gears. */
async function activateAction(c: ModuleChangeOf) {
	const result = await activateModule(c.userId, c.organizationId, c.module.module.id)
	return redirectWithToast(c.back, moduleChangeToast('module', 'activate', result))
}

/** A deactivated module leaves its page for the marketplace. */
async function deactivateAction(c: ModuleChangeOf) {
	const result = await deactivateModule(c.userId, c.organizationId, c.module.module.id)
	return redirectWithToast(result.ok ? '/app/module-marketplace' : c.back, moduleChangeToast('module', 'deactivate', result))
}

/** Buys one of this module's upgrades; a refusal reopens its dialog. */
async function purchaseUpgradeAction(c: ModuleChangeOf, upgradeId: string) {
	invariantResponse(
		c.module.upgrades.some((u) => u.id === upgradeId),
		400,
	)
	const result = await purchaseUpgrade(c.userId, c.organizationId, upgradeId)
	return redirectWithToast(result.ok ? c.back : `${c.back}?upgrade=${upgradeId}`, moduleChangeToast('module', 'purchaseUpgrade', result))
}

/** Deactivates one of this module's active upgrades (no refund). */
async function removeUpgradeAction(c: ModuleChangeOf, upgradeId: string) {
	invariantResponse(
		c.module.upgrades.some((u) => u.id === upgradeId),
		400,
	)
	const result = await removeUpgrade(c.userId, c.organizationId, upgradeId)
	return redirectWithToast(c.back, moduleChangeToast('module', 'removeUpgrade', result))
}

/** The module screen (docs/product.md, Module detail). */
export default function ModuleDetailScreen({ loaderData, actionData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation(['marketplace', 'common'])
	const { detail } = loaderData
	const { module: m, record } = detail
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="flex flex-wrap items-start gap-4">
				<span className="flex size-12 items-center justify-center rounded-md bg-muted">
					<ModuleIcon name={m.icon} className="size-6" />
				</span>
				<div className="grid flex-1 gap-1">
					<div className="flex flex-wrap items-center gap-2">
						<h1 className="text-2xl font-semibold tracking-tight">{m.name}</h1>
						<StatusBadge module={{ active: record !== null, offer: m.offer }} />
					</div>
					<p className="text-sm text-muted-foreground">
						{t('panel.version', { version: m.version })} · {t('detail.updated', { date: fmt.date(m.updatedAt) })}
					</p>
					<p className="max-w-3xl text-sm">{m.description}</p>
				</div>
				<Button asChild variant="outline" size="sm">
					<Link to="/app/module-marketplace">{t('detail.back')}</Link>
				</Button>
			</div>
			{actionData && 'denied' in actionData && actionData.denied ? (
				<Alert variant="destructive">
					<AlertCircleIcon />
					<AlertTitle>{t('denied.title')}</AlertTitle>
					<AlertDescription>{t('denied.manage')}</AlertDescription>
				</Alert>
			) : null}
			{actionData && 'error' in actionData && actionData.error ? (
				<Alert variant="destructive">
					<AlertCircleIcon />
					<AlertTitle>{t('common:errors.badRequest')}</AlertTitle>
				</Alert>
			) : null}
			{loaderData.dialogUpgrade ? <UpgradeDialog data={loaderData} upgrade={loaderData.dialogUpgrade} /> : null}
			{loaderData.removing ? <RemoveUpgradeDialog upgrade={loaderData.removing} /> : null}
			{record ? null : <ModuleNotActive data={loaderData} />}
			<div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
				<WhatYouGet data={loaderData} />
				<ModulePrice detail={detail} />
				{record ? <ModuleConfiguration data={loaderData} record={record} /> : null}
			</div>
			{loaderData.mailActive ? (
				<IntegrationCard
					integration={detail.integration}
					mailboxes={detail.mailboxes}
					emailPro={loaderData.emailPro}
					mailboxLimit={loaderData.mailboxLimit}
					canManage={loaderData.canManage}
					gmailAvailable={loaderData.gmailAvailable}
					lastResult={actionData && 'imap' in actionData ? actionData.imap : null}
				/>
			) : null}
			{loaderData.emailSync ? (
				<EmailSyncHistory sync={loaderData.emailSync} connected={!!detail.integration && detail.integration.status !== 'disconnected'} />
			) : null}
			<ModuleUpgrades data={loaderData} />
		</div>
	)
}
