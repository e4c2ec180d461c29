import { parseWithZod } from '@conform-to/zod/v4'
import { AlertCircleIcon, DownloadIcon, XIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, redirect } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { requireMember } from '#app/.server/auth/session.ts'
import { catalogueT, localizeModule, localizeUpgrade } from '#app/.server/marketplace/catalogue-text.ts'
import { listSyncRuns, syncMailbox, syncToast } from '#app/.server/payments/email-sync/sync.ts'
import { checkGmail, startGmailConnect } from '#app/.server/payments/email-sync/gmail.ts'
import { connectImap, disconnectIntegration, refreshIntegration } from '#app/.server/payments/email-sync/connections.ts'
import {
	activateModule,
	deactivateModule,
	getModuleDetail,
	mayUseModule,
	purchaseUpgrade,
	refusalReason,
	removeUpgrade,
	updateModuleSettings,
	type ModuleChangeResult,
	type ModuleDetail,
} from '#app/.server/marketplace/modules.ts'
import { memberClock } from '#app/.server/query.ts'
import type { Membership } from '#app/.server/organizations/current.ts'
import { allowEvent } from '#app/.server/rate-limit.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { getSyncStatus } from '#app/.server/payments/transactions.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { EmailSyncHistory, type EmailSyncView } from '#app/components/marketplace/email-sync-history.tsx'
import { IntegrationCard, useProviderName, type IntegrationView } from '#app/components/marketplace/integration-card.tsx'
import { ConfirmDeactivate } from '#app/components/marketplace/confirm-deactivate.tsx'
import { ModuleIcon } from '#app/components/marketplace/module-icon.tsx'
import { UrlDialog } from '#app/components/url-dialog.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { errorResponse, invariantResponse } from '#app/lib/errors.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useParamsHref } from '#app/lib/use-params-href.ts'
import { dateTimeIn } from '#app/lib/dates.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { DEFAULT_MODULE_SETTINGS, MODULE_VISIBILITIES } from '#app/lib/modules.ts'
import { MAIL_UPGRADE_NAME } from '#app/lib/integrations.ts'
import { isOwner } from '#app/lib/roles.ts'
import { imapConnectSchema, INTEGRATION_INTENTS, integrationActionSchema } from '#app/lib/schemas/integrations.ts'
import { moduleDetailActionSchema } from '#app/lib/schemas/marketplace.ts'
import type { Route } from './+types/module-detail'
import { isUuid } from '#app/lib/uuid.ts'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'moduleDetail', args.loaderData?.detail.module.name)

/** The module, or the marketplace with a 'module not found' message; a 403 when hidden from the member. */
async function loadModule(context: Route.LoaderArgs['context'], moduleId: string) {
	const member = requireMember(context)
	const detail = isUuid(moduleId) ? await getModuleDetail(member.user.userId, member.organization.id, moduleId) : null
	if (!detail) throw await redirectWithToast('/app/module-marketplace', { type: 'error', title: 'marketplace:toasts.notFound' })
	// Module visibility (docs/product.md, Roles): configured for a higher role, the module is not this member's.
	if (detail.record && !mayUseModule(detail.record.visibility, member.organization.role)) errorResponse(403, 'forbidden')
	return { member, detail }
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const loaded = await loadModule(context, params.moduleId)
	const { member } = loaded
	// Names, descriptions and features in the interface language (app/.server/marketplace/catalogue-text.ts).
	const t = catalogueT(context)
	const detail = {
		...loaded.detail,
		module: localizeModule(t, loaded.detail.module),
		upgrades: loaded.detail.upgrades.map((u) => localizeUpgrade(t, u)),
		integration: integrationView(loaded.detail.integration, memberClock(member.organization).timezone),
	}
	const search = new URL(request.url).searchParams
	const dialogUpgrade = detail.upgrades.find((u) => u.id === search.get('upgrade') && !u.active) ?? null
	const removing = detail.upgrades.find((u) => u.id === search.get('remove') && u.active) ?? null
	// By the catalogue's name: `name` is in the interface language now.
	const mailActive = detail.upgrades.some((u) => u.catalogueName === MAIL_UPGRADE_NAME && u.active)
	return {
		detail,
		emailSync: mailActive ? await loadEmailSync(member.user.userId, member.organization) : null,
		canManage: isOwner(member.organization.role),
		gearsRemaining: member.organization.gearsRemaining,
		dialogUpgrade,
		removing,
		confirmDeactivate: detail.record !== null && search.get('confirm') === 'deactivate',
	}
}

/** The mailbox connection as the card shows it: its moments in the organization's timezone. */
function integrationView(integration: NonNullable<ModuleDetail>['integration'], timeZone: string): IntegrationView | null {
	if (!integration) return null
	const { lastSync, lastCheckedAt, ...rest } = integration
	return {
		...rest,
		lastSync: lastSync ? dateTimeIn(timeZone, new Date(lastSync)).date : null,
		lastChecked: lastCheckedAt ? dateTimeIn(timeZone, new Date(lastCheckedAt)) : null,
	}
}

/** The email sync's state, latest runs and the notices not understood, times in the organization's timezone. */
async function loadEmailSync(userId: string, organization: Membership): Promise<EmailSyncView> {
	const clock = memberClock(organization)
	const [status, runs] = await Promise.all([getSyncStatus(userId, organization.id), listSyncRuns(userId, organization.id, 20)])
	const local = (iso: string) => dateTimeIn(clock.timezone, new Date(iso))
	const seen = new Set<string>()
	const unreadable = runs
		.flatMap((r) => r.unreadable)
		.filter((n) => {
			const key = `${n.sender}\u001f${n.subject}\u001f${n.date ?? ''}`
			if (seen.has(key)) return false
			seen.add(key)
			return true
		})
		.slice(0, 50)
		.map((n) => ({ ...n, date: n.date ? local(n.date).date : null }))
	return {
		status: status.status,
		errorCode: status.errorMessage,
		timezone: clock.timezone,
		runs: runs.map((r) => ({
			id: r.id,
			trigger: r.trigger,
			status: r.status,
			started: local(r.startedAt),
			counts: r.counts,
			errorCode: r.errorCode,
			batchId: r.batchId,
		})),
		unreadable,
	}
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const { member, detail } = await loadModule(context, params.moduleId)
	const formData = await request.formData()
	if (formData.get('intent') === 'syncNow') {
		// Any member may sync, as with Sync on the Transactions page (docs/product.md, Email sync).
		const result = await syncMailbox(member.organization.id, { trigger: 'button', userId: member.user.userId })
		return redirectWithToast(new URL(request.url).pathname, syncToast(result))
	}
	if ((INTEGRATION_INTENTS as readonly unknown[]).includes(formData.get('intent'))) {
		return integrationAction(request, member, detail, formData)
	}
	const submission = parseWithZod(formData, { schema: moduleDetailActionSchema })
	if (submission.status !== 'success') return data({ denied: false, error: 'badRequest' as const }, { status: 400 })
	// Owners only manage modules (docs/product.md, Roles); a forged post changes nothing.
	if (!isOwner(member.organization.role)) return data({ denied: true, error: null }, { status: 403 })
	const { userId } = member.user
	const orgId = member.organization.id
	const moduleId = detail.module.id
	const back = new URL(request.url).pathname
	const value = submission.value
	switch (value.intent) {
		case 'saveSettings':
		case 'resetSettings': {
			const settings =
				value.intent === 'saveSettings'
					? { visibility: value.visibility, emailNotifications: value.emailNotifications ?? false }
					: DEFAULT_MODULE_SETTINGS
			const result = await updateModuleSettings(userId, orgId, moduleId, settings)
			if (!result.ok) return failure(back, 'marketplace:toasts.settingsFailed', result)
			return redirectWithToast(back, {
				type: 'success',
				title: value.intent === 'saveSettings' ? 'marketplace:toasts.settingsSaved' : 'marketplace:toasts.settingsReset',
			})
		}
		case 'activate': {
			const result = await activateModule(userId, orgId, moduleId)
			if (!result.ok) return failure(back, 'marketplace:toasts.activationFailed', result)
			return redirectWithToast(back, { type: 'success', title: 'marketplace:toasts.activated.title', description: 'marketplace:toasts.activated.description' })
		}
		case 'deactivate': {
			const result = await deactivateModule(userId, orgId, moduleId)
			if (!result.ok) return failure(back, 'marketplace:toasts.deactivationFailed', result)
			return redirectWithToast('/app/module-marketplace', {
				type: 'success',
				title: 'marketplace:toasts.deactivated.title',
				description: 'marketplace:toasts.deactivated.description',
			})
		}
		case 'purchaseUpgrade': {
			invariantResponse(detail.upgrades.some((u) => u.id === value.upgradeId), 400)
			const result = await purchaseUpgrade(userId, orgId, value.upgradeId)
			if (!result.ok) return failure(`${back}?upgrade=${value.upgradeId}`, 'marketplace:toasts.upgradeFailed', result)
			return redirectWithToast(back, { type: 'success', title: 'marketplace:toasts.upgradeActivated' })
		}
		case 'removeUpgrade': {
			invariantResponse(detail.upgrades.some((u) => u.id === value.upgradeId), 400)
			const result = await removeUpgrade(userId, orgId, value.upgradeId)
			if (!result.ok && result.code === 'no_active_upgrade') {
				return redirectWithToast(back, { type: 'info', title: 'marketplace:toasts.noActiveUpgrade' })
			}
			if (!result.ok) return failure(back, 'marketplace:toasts.upgradeRemoveFailed', result)
			return redirectWithToast(back, { type: 'success', title: 'marketplace:toasts.upgradeDeactivated' })
		}
	}
}

/** Connection checks per organization (each one makes the server log in somewhere). */
const CHECK_LIMIT = { limit: 20, windowMinutes: 15 }

/**
 * The integration card's forms (docs/product.md, Integrations): owners only; the IMAP form
 * answers with field errors (the password never sent back), the rest with a toast.
 */
async function integrationAction(
	request: Request,
	member: Awaited<ReturnType<typeof loadModule>>['member'],
	detail: ModuleDetail & {},
	formData: FormData,
) {
	// Owners only (docs/product.md, Roles): a forged post changes nothing and stores nothing.
	if (!isOwner(member.organization.role)) return data({ denied: true, error: null }, { status: 403 })
	const { userId } = member.user
	const orgId = member.organization.id
	const back = new URL(request.url).pathname
	// The action's detail is not localized: `name` is the catalogue's.
	const mail = detail.upgrades.find((u) => u.name === MAIL_UPGRADE_NAME && u.active)
	const toast = (type: 'success' | 'error', title: string, description?: string, values?: Record<string, string>) =>
		redirectWithToast(back, { type, title: `marketplace:integrations.toasts.${title}`, description, values })
	if (formData.get('intent') === 'connectImap') {
		const submission = parseWithZod(formData, { schema: imapConnectSchema })
		const reply = (formErrors?: string[]) => data({ imap: submission.reply({ formErrors, hideFields: ['password'] }) }, { status: 400 })
		if (submission.status !== 'success') return reply()
		if (!mail) return reply(['integrations.toasts.saveFailed'])
		if (!(await allowEvent('integration-check', orgId, CHECK_LIMIT))) return reply(['integrations.toasts.tooManyAttempts'])
		const { host, port, tls, user, password } = submission.value
		const result = await connectImap(userId, orgId, mail.id, { host, port, tls: tls ?? false, user, password })
		if ('failure' in result) return reply([`integrations.failures.${result.failure}`])
		if (!result.ok) return reply(['integrations.toasts.saveFailed'])
		return toast('success', 'connected', undefined, { provider: user })
	}
	const submission = parseWithZod(formData, { schema: integrationActionSchema })
	if (submission.status !== 'success') return data({ denied: false, error: 'badRequest' as const }, { status: 400 })
	const value = submission.value
	switch (value.intent) {
		case 'connectGoogle': {
			if (!mail) return toast('error', 'connectFailed', 'marketplace:integrations.toasts.saveFailed', { service: 'Gmail' })
			const started = await startGmailConnect({ organizationId: orgId, upgradeId: mail.id, back })
			// No Google client configured: no authorization URL, nothing stored.
			if (!started) return toast('error', 'connectFailed', 'marketplace:integrations.toasts.noAuthUrl', { service: 'Gmail' })
			return redirect(started.url, { headers: { 'set-cookie': started.cookie } })
		}
		case 'refreshIntegration': {
			if (!(await allowEvent('integration-check', orgId, CHECK_LIMIT))) return toast('error', 'checkFailed', 'marketplace:integrations.toasts.tooManyAttempts')
			const result = await refreshIntegration(userId, orgId, value.credentialId, checkGmail)
			if (!result.ok) return toast('error', 'checkFailed', 'marketplace:integrations.toasts.notFound')
			if (result.check && !result.check.ok) return toast('error', 'checkFailed', `marketplace:integrations.failures.${result.check.failure}`)
			return toast('success', 'checked')
		}
		case 'disconnectIntegration': {
			const name = detail.integration?.id === value.credentialId ? (detail.integration.account ?? detail.integration.provider) : ''
			const result = await disconnectIntegration(userId, orgId, value.credentialId)
			if (!result.ok) return toast('error', 'disconnectFailed', 'marketplace:integrations.toasts.notFound')
			return toast('success', 'disconnected', undefined, { provider: result.provider === 'gmail' ? `Gmail ${name}`.trim() : name })
		}
	}
}

/** A refusal as a toast: its title, and the reason in the user's language. */
function failure(back: string, title: string, result: Extract<ModuleChangeResult, { ok: false }>) {
	return redirectWithToast(back, {
		type: 'error',
		title,
		description: refusalReason(result.code),
		values: { required: result.required ?? 0, remaining: result.remaining ?? 0 },
	})
}

type LoaderData = Route.ComponentProps['loaderData']

export default function ModuleDetailScreen({ loaderData, actionData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation(['marketplace', 'common'])
	const { detail } = loaderData
	const { module: m, record } = detail
	const mailActive = detail.upgrades.some((u) => u.catalogueName === MAIL_UPGRADE_NAME && u.active)
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="flex flex-wrap items-start gap-4">
				<span className="flex size-12 items-center justify-center rounded-md bg-muted">
					<ModuleIcon name={m.icon} className="size-6" />
				</span>
				<div className="grid flex-1 gap-1">
					<div className="flex flex-wrap items-center gap-2">
						<h1 className="text-2xl font-semibold tracking-tight">{m.name}</h1>
						<Badge variant={record ? 'default' : 'secondary'}>{record ? t('status.activated') : t('status.available')}</Badge>
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
			{record ? null : <NotActive data={loaderData} />}
			<div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
				{record ? <Configuration data={loaderData} record={record} /> : null}
				<GearsToMaintain detail={detail} />
			</div>
			{mailActive ? (
				<IntegrationCard
					integration={detail.integration}
					canManage={loaderData.canManage}
					lastResult={actionData && 'imap' in actionData ? actionData.imap : null}
				/>
			) : null}
			{loaderData.emailSync ? <EmailSyncHistory sync={loaderData.emailSync} connected={!!detail.integration && detail.integration.status !== 'disconnected'} /> : null}
			<Upgrades data={loaderData} />
		</div>
	)
}

function NotActive({ data: d }: { data: LoaderData }) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	const cost = d.detail.module.baseGearCost
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('detail.notActive')}</h2>
				</CardTitle>
				<CardDescription>{t('detail.notActiveDescription')}</CardDescription>
			</CardHeader>
			{d.canManage ? (
				<CardContent>
					<AppForm method="post">
						<input type="hidden" name="intent" value="activate" />
						<Button type="submit">
							{cost > 0 ? t('actions.activateFor', { gears: fmt.number(cost) }) : t('actions.activate')}
						</Button>
					</AppForm>
				</CardContent>
			) : null}
		</Card>
	)
}

function Configuration({ data: d, record }: { data: LoaderData; record: NonNullable<ModuleDetail>['record'] & {} }) {
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	const m = d.detail.module
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('detail.configuration')}</h2>
				</CardTitle>
				<CardDescription>{t('detail.configurationDescription')}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-4">
				{/* Keyed by what is saved, so the fields show it again after a save or a reset. */}
				<AppForm method="post" className="grid gap-4" key={`${record.visibility}-${record.emailNotifications}-${record.settingsUpdatedAt}`}>
					<input type="hidden" name="intent" value="saveSettings" />
					<div className="grid gap-1.5">
						<Label htmlFor="visibility">{t('detail.visibility')}</Label>
						<select
							id="visibility"
							name="visibility"
							defaultValue={record.visibility}
							disabled={!d.canManage}
							className="h-9 w-full rounded-md border bg-transparent px-3 text-sm shadow-xs"
						>
							{MODULE_VISIBILITIES.map((v) => (
								<option key={v} value={v}>
									{t(`visibility.${v}`)}
								</option>
							))}
						</select>
					</div>
					<div className="flex items-center gap-3">
						<input
							id="emailNotifications"
							name="emailNotifications"
							type="checkbox"
							role="switch"
							defaultChecked={record.emailNotifications}
							disabled={!d.canManage}
							className="size-4 accent-primary"
						/>
						<Label htmlFor="emailNotifications">{t('detail.emailNotifications')}</Label>
					</div>
					{d.canManage ? (
						<div>
							<Button type="submit">{t('detail.save')}</Button>
						</div>
					) : null}
				</AppForm>
				<div className="flex flex-wrap gap-2 border-t pt-4">
					<Button asChild variant="outline" size="sm">
						<a href={`/app/modules/${m.id}/settings.json`} download>
							<DownloadIcon aria-hidden="true" />
							{t('detail.export')}
						</a>
					</Button>
					{d.canManage ? (
						<>
							<AppForm method="post">
								<input type="hidden" name="intent" value="resetSettings" />
								<Button type="submit" variant="outline" size="sm">
									{t('detail.reset')}
								</Button>
							</AppForm>
							<Button asChild variant="destructive" size="sm">
								<Link to={href({ confirm: 'deactivate' })} preventScrollReset>
									{t('actions.deactivate')}
								</Link>
							</Button>
						</>
					) : null}
				</div>
				{d.confirmDeactivate && d.canManage ? <ConfirmDeactivate name={m.name} /> : null}
			</CardContent>
		</Card>
	)
}

function GearsToMaintain({ detail }: { detail: LoaderData['detail'] }) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	const n = (value: number) => t('price.paid', { gears: fmt.number(value) })
	const providerName = useProviderName()
	const integration = detail.integration
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('detail.gearsTitle')}</h2>
				</CardTitle>
				<CardDescription>{t('detail.gearsDescription')}</CardDescription>
			</CardHeader>
			<CardContent>
				<dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-2 text-sm">
					<dt>{t('detail.baseCost')}</dt>
					<dd className="text-right tabular-nums">{n(detail.gears.base)}</dd>
					<dt>{t('detail.upgradesCost')}</dt>
					<dd className="text-right tabular-nums">{n(detail.gears.upgrades)}</dd>
					<dt className="border-t pt-2 font-semibold">{t('detail.totalRequired')}</dt>
					<dd className="border-t pt-2 text-right font-semibold tabular-nums" data-testid="gears-total">
						{n(detail.gears.total)}
					</dd>
					<dt>{t('detail.integrationStatus')}</dt>
					<dd className="text-right">
						{integration ? t(`integration.${integration.status}`, { provider: providerName(integration.provider) }) : t('integration.none')}
					</dd>
				</dl>
			</CardContent>
		</Card>
	)
}

function Upgrades({ data: d }: { data: LoaderData }) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	const { upgrades } = d.detail
	const active = upgrades.filter((u) => u.active)
	const available = upgrades.filter((u) => !u.active)
	return (
		<Card id="upgrades">
			<CardHeader>
				<CardTitle>
					<h2>{t('detail.upgradesTitle')}</h2>
				</CardTitle>
			</CardHeader>
			<CardContent>
				{upgrades.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('panel.noUpgrades')}</p>
				) : (
					<div className="grid gap-6 md:grid-cols-2">
						<section aria-labelledby="active-upgrades" className="grid content-start gap-2">
							<h3 id="active-upgrades" className="font-semibold">
								{t('detail.activeUpgrades')}
							</h3>
							{active.length === 0 ? <p className="text-sm text-muted-foreground">{t('detail.noActiveUpgrades')}</p> : null}
							<ul className="grid gap-2">
								{active.map((u) => (
									<li key={u.id} className="flex items-center justify-between gap-2 rounded-md border p-3 text-sm">
										<span>
											<span className="font-medium">{u.name}</span> <Badge variant="outline">{t(`tiers.${u.tier}`)}</Badge>
										</span>
										{d.canManage ? (
											<Button asChild size="sm" variant="outline">
												<Link to={href({ remove: u.id, upgrade: null })} aria-label={t('detail.deactivateUpgradeOf', { name: u.name })} preventScrollReset>
													{t('actions.deactivate')}
												</Link>
											</Button>
										) : null}
									</li>
								))}
							</ul>
						</section>
						<section aria-labelledby="available-upgrades" className="grid content-start gap-2">
							<h3 id="available-upgrades" className="font-semibold">
								{t('detail.availableUpgrades')}
							</h3>
							{available.length === 0 ? <p className="text-sm text-muted-foreground">{t('detail.allActive')}</p> : null}
							<ul className="grid gap-2">
								{available.map((u) => (
									<li key={u.id} className="flex items-center justify-between gap-2 rounded-md border p-3 text-sm">
										<span>
											<span className="font-medium">{u.name}</span> <Badge variant="outline">{t(`tiers.${u.tier}`)}</Badge>{' '}
											<span className="text-muted-foreground">{t('price.paid', { gears: fmt.number(u.gearCost) })}</span>
										</span>
										<Button asChild size="sm" variant="outline">
											<Link to={href({ upgrade: u.id, remove: null })} aria-label={t('detail.viewUpgradeOf', { name: u.name })} preventScrollReset>
												{t('detail.viewUpgrade')}
											</Link>
										</Button>
									</li>
								))}
							</ul>
						</section>
					</div>
				)}
			</CardContent>
		</Card>
	)
}

/** The upgrade's dialog, opened by ?upgrade= and rendered by the server (works without JavaScript). */
function UpgradeDialog({ data: d, upgrade: u }: { data: LoaderData; upgrade: NonNullable<LoaderData['dialogUpgrade']> }) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	const m = d.detail.module
	const needsModule = d.detail.record === null
	const total = u.gearCost + (needsModule ? m.baseGearCost : 0)
	const names = Object.fromEntries(d.detail.upgrades.map((x) => [x.id, x]))
	const missing = u.dependencies.filter((dep) => !names[dep]?.active).map((dep) => names[dep]?.name ?? dep)
	const gears = fmt.number(total)
	return (
		<UrlDialog close={href({ upgrade: null })} openKey={u.id} labelledBy="upgrade-title" className="grid gap-4 rounded-lg border bg-card p-5 shadow-md">
			<div className="flex items-start justify-between gap-2">
				<div className="grid gap-1">
					<h2 id="upgrade-title" className="flex items-center gap-2 text-lg font-semibold">
						{u.name} <Badge variant="outline">{t(`tiers.${u.tier}`)}</Badge>
					</h2>
					<p className="text-sm text-muted-foreground">{t('dialog.module', { name: m.name })}</p>
				</div>
				<Button asChild size="icon" variant="ghost">
					<Link to={href({ upgrade: null })} aria-label={t('dialog.close')} preventScrollReset>
						<XIcon aria-hidden="true" />
					</Link>
				</Button>
			</div>
			<p className="text-sm">{u.description}</p>
			<p className="text-sm font-medium">{t('price.paid', { gears: fmt.number(u.gearCost) })}</p>
			<div>
				<h3 className="text-sm font-semibold">{t('dialog.features')}</h3>
				<ul className="list-disc ps-5 text-sm">
					{u.features.map((f) => (
						<li key={f}>{f}</li>
					))}
				</ul>
			</div>
			{u.catalogueName === MAIL_UPGRADE_NAME ? <EmailIntegrations /> : null}
			{missing.length > 0 ? (
				<Alert>
					<AlertCircleIcon />
					<AlertDescription>{t('dialog.requires', { names: missing.join(', ') })}</AlertDescription>
				</Alert>
			) : null}
			{needsModule ? <p className="text-sm">{t('dialog.withModule', { module: m.name, base: fmt.number(m.baseGearCost) })}</p> : null}
			<div className="flex flex-wrap justify-end gap-2">
				<Button asChild variant="outline">
					<Link to={href({ upgrade: null })} preventScrollReset>
						{t('dialog.closeButton')}
					</Link>
				</Button>
				{d.canManage ? (
					<AppForm method="post">
						<input type="hidden" name="intent" value="purchaseUpgrade" />
						<input type="hidden" name="upgradeId" value={u.id} />
						{/* The server refuses it too (missing_dependency); the alert above says what to buy first. */}
						<Button type="submit" disabled={missing.length > 0}>
							{needsModule && m.baseGearCost > 0
								? t('dialog.activateAndBuy', { module: m.name, upgrade: u.name, gears })
								: t('dialog.buy', { gears })}
						</Button>
					</AppForm>
				) : null}
			</div>
		</UrlDialog>
	)
}

function EmailIntegrations() {
	const { t } = useTranslation('marketplace')
	return (
		<div className="grid gap-2 rounded-md border p-3 text-sm">
			<h3 className="font-semibold">{t('dialog.integrations')}</h3>
			<p>{t('integrations.dialogIntro')}</p>
			<ul className="list-disc ps-5">
				<li>{t('dialog.gmail')}</li>
				<li>{t('integrations.dialogImap')}</li>
			</ul>
			<p className="text-muted-foreground">{t('dialog.outlookSoon')}</p>
		</div>
	)
}

/** 'Confirm Upgrade Deactivation', opened by ?remove= (works without JavaScript). */
function RemoveUpgradeDialog({ upgrade: u }: { upgrade: NonNullable<LoaderData['removing']> }) {
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	return (
		<UrlDialog
			role="alertdialog"
			close={href({ remove: null })}
			openKey={u.id}
			labelledBy="remove-title"
			describedBy="remove-description"
			className="grid gap-3 rounded-lg border border-destructive/40 bg-card p-5 shadow-md"
		>
			<h2 id="remove-title" className="text-lg font-semibold">
				{t('removeDialog.title')}
			</h2>
			<div id="remove-description" className="grid gap-1 text-sm">
				<p>{t('removeDialog.intro', { name: u.name })}</p>
				<ul className="list-disc ps-5">
					<li>{t('removeDialog.dataDeleted')}</li>
					<li>{t('removeDialog.accessRemoved')}</li>
					<li>{t('removeDialog.cannotUndo')}</li>
					<li>{t('removeDialog.noRefund')}</li>
				</ul>
				<p>{t('removeDialog.backup')}</p>
			</div>
			<div className="flex justify-end gap-2">
				<Button asChild variant="outline">
					<Link to={href({ remove: null })} preventScrollReset>
						{t('confirm.cancel')}
					</Link>
				</Button>
				<AppForm method="post">
					<input type="hidden" name="intent" value="removeUpgrade" />
					<input type="hidden" name="upgradeId" value={u.id} />
					<Button type="submit" variant="destructive">
						{t('removeDialog.submit')}
					</Button>
				</AppForm>
			</div>
		</UrlDialog>
	)
}
