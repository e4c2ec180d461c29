import { XIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { ConfirmDeactivate } from '#app/components/marketplace/confirm-deactivate.tsx'
import { ManageButton, Price, StatusBadge } from '#app/components/marketplace/module-card.tsx'
import { ModuleIcon } from '#app/components/marketplace/module-icon.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import type { MarketplacePageView } from '#app/.server/marketplace/marketplace-page.ts'
import type { MarketplaceModule } from '#app/.server/marketplace/modules.ts'
import { VISIBLE_FEATURES } from '#app/lib/modules.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useParamsHref } from '#app/lib/use-params-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useUrlDialog } from '#app/lib/use-url-dialog.ts'

/** The side panel of one module, opened by ?module= (a link, so it works without JavaScript). */
export function ModulePanel({ module: m, data }: { module: MarketplaceModule; data: MarketplacePageView }) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	const names = Object.fromEntries(m.upgrades.map((u) => [u.id, u.name]))
	const close = href({ module: null, confirm: null })
	const ref = useUrlDialog<HTMLElement>(close, m.id, { active: !data.confirmDeactivate })
	return (
		// Beside the modules on a wide screen; on a narrower one a sheet over the bottom of the screen,
		// so that it shows where the visitor is, however far down they chose a module (with or
		// without JavaScript, the page keeps its place or reloads at the top).
		<aside
			ref={ref}
			tabIndex={-1}
			aria-labelledby="panel-title"
			className="w-full rounded-lg border bg-card p-5 shadow-sm max-lg:fixed max-lg:inset-x-0 max-lg:bottom-0 max-lg:z-30 max-lg:max-h-[75svh] max-lg:overflow-y-auto max-lg:rounded-b-none max-lg:shadow-xl lg:sticky lg:top-4 lg:w-96 lg:self-start outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
		>
			<div className="flex items-start justify-between gap-2">
				<div className="flex items-center gap-3">
					<span className="flex size-10 items-center justify-center rounded-md bg-muted">
						<ModuleIcon name={m.icon} className="size-5" />
					</span>
					<div>
						<h2 id="panel-title" className="text-lg font-semibold">
							{m.name}
						</h2>
						<p className="text-xs text-muted-foreground">{t('panel.version', { version: m.version })}</p>
					</div>
				</div>
				<Button asChild size="icon" variant="ghost">
					<Link to={close} aria-label={t('panel.close')} preventScrollReset>
						<XIcon aria-hidden="true" />
					</Link>
				</Button>
			</div>
			<div className="mt-4 grid gap-4 text-sm">
				<div className="flex items-center justify-between">
					<StatusBadge module={m} />
					<Price module={m} />
				</div>
				<p>{m.description}</p>
				{/* The button stays while its question is open, so focus can go back to it. */}
				{data.canManage ? <ManageButton module={m} /> : null}
				{data.confirmDeactivate ? <ConfirmDeactivate name={m.name} moduleId={m.id} /> : null}
				<section aria-labelledby="tree-title" className="grid gap-2">
					<h3 id="tree-title" className="font-semibold">
						{t('panel.upgrades')}
					</h3>
					{m.upgrades.length === 0 ? (
						<p className="text-muted-foreground">{t('panel.noUpgrades')}</p>
					) : (
						<ul className="grid gap-3">
							{m.upgrades.map((u) => (
								<li key={u.id} className="rounded-md border p-3">
									<p className="flex items-center justify-between gap-2">
										<span className="font-medium">{u.name}</span>
										<Badge variant="outline">{t(`tiers.${u.tier}`)}</Badge>
									</p>
									<p className="text-xs text-muted-foreground">
										{u.available ? t('price.once', { gears: fmt.number(u.gearCost) }) : t('status.comingSoon')}
									</p>
									{u.dependencies.length > 0 ? (
										<p className="mt-1 text-xs">{t('panel.requires', { names: u.dependencies.map((d) => names[d] ?? d).join(', ') })}</p>
									) : null}
									<ul className="mt-2 list-disc ps-5 text-xs">
										{u.features.slice(0, VISIBLE_FEATURES).map((f) => (
											<li key={f}>{f}</li>
										))}
										{u.features.length > VISIBLE_FEATURES ? (
											<li className="list-none text-muted-foreground">
												{t('panel.moreFeatures', { count: u.features.length - VISIBLE_FEATURES })}
											</li>
										) : null}
									</ul>
								</li>
							))}
						</ul>
					)}
				</section>
				<Button asChild variant="outline">
					<Link to={`/app/modules/${m.id}`}>{t('panel.openDetail')}</Link>
				</Button>
			</div>
		</aside>
	)
}
