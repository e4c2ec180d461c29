/**
 * The module screen's cards (docs/product.md, Module detail): activation (or why there is none),
 * configuration, price.
 */
import { DownloadIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ConfirmDeactivate } from '#app/components/marketplace/confirm-deactivate.tsx'
import { useProviderName } from '#app/components/marketplace/integration-card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Label } from '#app/components/ui/label.tsx'
import type { FoundModule, ModulePageView } from '#app/.server/marketplace/module-page.ts'
import { MODULE_VISIBILITIES } from '#app/lib/modules.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useParamsHref } from '#app/lib/use-params-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** What the module route's loader gives the screen (app/.server/marketplace/module-page.ts). */
type LoaderData = ModulePageView

/**
 * The module is not active: what that means, and Activate (owners only); a module that is coming
 * soon says so, without any button (docs/decisions/039-what-the-catalogue-sells.md).
 */
export function ModuleNotActive({ data: d }: { data: LoaderData }) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	const cost = d.detail.module.baseGearCost
	if (d.detail.module.offer === 'comingSoon') {
		return (
			<Card>
				<CardHeader>
					<CardTitle>
						<h2>{t('detail.comingSoon')}</h2>
					</CardTitle>
					<CardDescription>{t('detail.comingSoonDescription')}</CardDescription>
				</CardHeader>
			</Card>
		)
	}
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
						<Button type="submit">{cost > 0 ? t('actions.activateFor', { gears: fmt.number(cost) }) : t('actions.activate')}</Button>
					</AppForm>
				</CardContent>
			) : null}
		</Card>
	)
}

/** The active module's configuration: visibility, email notifications, export, reset and deactivate (owners change it). */
export function ModuleConfiguration({ data: d, record }: { data: LoaderData; record: FoundModule['record'] & {} }) {
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	const m = d.detail.module
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('detail.configuration')}</h2>
				</CardTitle>
				<CardDescription>
					{m.offer === 'included'
						? t('detail.includedDescription')
						: m.offer === 'comingSoon'
							? t('detail.comingSoonKept')
							: t('detail.configurationDescription')}
				</CardDescription>
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
							{/* Every organization keeps an included module. */}
							{m.offer === 'included' ? null : (
								<Button asChild variant="destructive" size="sm">
									<Link to={href({ confirm: 'deactivate' })} preventScrollReset>
										{t('actions.deactivate')}
									</Link>
								</Button>
							)}
						</>
					) : null}
				</div>
				{d.confirmDeactivate && d.canManage ? <ConfirmDeactivate name={m.name} /> : null}
			</CardContent>
		</Card>
	)
}

/**
 * What the module costs (docs/product.md, Modules: one price model): activating it, once (or
 * Included, or Free), what its active upgrades cost, once each, and that nothing is charged per
 * month or per use; with the state of its mailbox connection.
 */
export function ModulePrice({ detail }: { detail: LoaderData['detail'] }) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	const providerName = useProviderName()
	const m = detail.module
	const integration = detail.integration
	const upgrades = detail.upgrades.filter((u) => u.active).reduce((sum, u) => sum + u.gearCost, 0)
	return (
		<Card>
			<CardHeader>
				<CardTitle>
					<h2>{t('detail.costTitle')}</h2>
				</CardTitle>
				<CardDescription>{t('price.noRecurring')}</CardDescription>
			</CardHeader>
			<CardContent>
				<dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-2 text-sm">
					<dt>{t('detail.activation')}</dt>
					<dd className="text-right tabular-nums" data-testid="activation-price">
						{m.offer === 'comingSoon'
							? t('status.comingSoon')
							: m.offer === 'included'
								? t('price.included')
								: m.baseGearCost > 0
									? t('price.once', { gears: fmt.number(m.baseGearCost) })
									: t('price.free')}
					</dd>
					<dt>{t('detail.upgradesBought')}</dt>
					<dd className="text-right tabular-nums" data-testid="upgrades-price">
						{upgrades > 0 ? t('price.once', { gears: fmt.number(upgrades) }) : t('detail.noActiveUpgrades')}
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
