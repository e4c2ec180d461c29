/**
 * The module screen's upgrades (docs/product.md, Module detail): the lists and their dialogs.
 */
import { AlertCircleIcon, XIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { UrlDialog } from '#app/components/url-dialog.tsx'
import { Alert, AlertDescription } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { ModulePageView } from '#app/.server/marketplace/module-page.ts'
import { MAIL_UPGRADE_NAME } from '#app/lib/modules.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useParamsHref } from '#app/lib/use-params-href.ts'
import { NameSuffix } from '#app/components/ui/name-suffix.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

/** What the module route's loader gives the screen (app/.server/marketplace/module-page.ts). */
type LoaderData = ModulePageView

/** The module's upgrades, active and available, each opening its dialog (?upgrade=, ?remove=). */
export function ModuleUpgrades({ data: d }: { data: LoaderData }) {
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
											{u.available ? null : (
												<>
													{' '}
													<Badge variant="secondary">{t('status.comingSoon')}</Badge>
												</>
											)}
										</span>
										{d.canManage ? (
											<Button asChild size="sm" variant="outline">
												<Link to={href({ remove: u.id, upgrade: null })} preventScrollReset>
													{t('actions.deactivate')}
													<NameSuffix name={u.name} />
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
											{u.available ? (
												<span className="text-muted-foreground">{t('price.once', { gears: fmt.number(u.gearCost) })}</span>
											) : (
												<Badge variant="secondary">{t('status.comingSoon')}</Badge>
											)}
										</span>
										<Button asChild size="sm" variant="outline">
											<Link to={href({ upgrade: u.id, remove: null })} preventScrollReset>
												{t('detail.viewUpgrade')}
												<NameSuffix name={u.name} />
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

/**
 * The upgrade's dialog, opened by ?upgrade= and rendered by the server (works without JavaScript):
 * what it costs, once, and the button to buy it; an upgrade that is coming soon says so, without one.
 */
export function UpgradeDialog({ data: d, upgrade: u }: { data: LoaderData; upgrade: NonNullable<LoaderData['dialogUpgrade']> }) {
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
		<UrlDialog
			close={href({ upgrade: null })}
			openKey={u.id}
			labelledBy="upgrade-title"
			className="grid gap-4 rounded-lg border bg-card p-5 shadow-md"
		>
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
			<p className="text-sm font-medium">{u.available ? t('price.once', { gears: fmt.number(u.gearCost) }) : t('dialog.comingSoon')}</p>
			{u.available ? <p className="text-sm text-muted-foreground">{t('price.noRecurring')}</p> : null}
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
			{needsModule && u.available && m.baseGearCost > 0 ? (
				<p className="text-sm">{t('dialog.withModule', { module: m.name, base: fmt.number(m.baseGearCost) })}</p>
			) : null}
			<div className="flex flex-wrap justify-end gap-2">
				<Button asChild variant="outline">
					<Link to={href({ upgrade: null })} preventScrollReset>
						{t('dialog.closeButton')}
					</Link>
				</Button>
				{/* An upgrade that is coming soon is not sold: no button (the server refuses it too: not_available). */}
				{d.canManage && u.available ? (
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

/** The mailbox connectors the email upgrade brings. */
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
export function RemoveUpgradeDialog({ upgrade: u }: { upgrade: NonNullable<LoaderData['removing']> }) {
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
