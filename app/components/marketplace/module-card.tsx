/**
 * The marketplace's module cards (docs/product.md, Marketplace and modules): the grid, each
 * card's price, status, favourite and owner buttons (the side panel reuses the last three).
 */
import { useNavigation } from 'react-router'
import { HeartIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ModuleIcon } from '#app/components/marketplace/module-icon.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { MarketplacePageView } from '#app/.server/marketplace/marketplace-page.ts'
import type { MarketplaceModule } from '#app/.server/marketplace/modules.ts'
import { VISIBLE_TAGS } from '#app/lib/modules.ts'
import { useFormat } from '#app/lib/use-format.ts'
import { useParamsHref } from '#app/lib/use-params-href.ts'
import { NameSuffix } from '#app/components/ui/name-suffix.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

/** The modules the search found, as cards, or why there are none. */
export function ModuleGrid({ data }: { data: MarketplacePageView }) {
	const { t } = useTranslation('marketplace')
	if (data.modules.length === 0) {
		return (
			<Card>
				<CardHeader>
					<CardTitle>
						<h2>{t('empty.title')}</h2>
					</CardTitle>
					<CardDescription>{data.favoritesOnly ? t('empty.favorites') : t('empty.description')}</CardDescription>
				</CardHeader>
			</Card>
		)
	}
	return (
		<section aria-labelledby="modules-heading" className="grid gap-3">
			<h2 id="modules-heading" className="text-lg font-semibold">
				{t('modules.title', { count: data.modules.length })}
			</h2>
			<ul className="grid grid-cols-1 gap-4 @lg:grid-cols-2 @4xl:grid-cols-3 @6xl:grid-cols-4">
				{data.modules.map((m) => (
					<li key={m.id} className="flex">
						<ModuleCard module={m} canManage={data.canManage} />
					</li>
				))}
			</ul>
		</section>
	)
}

/**
 * What activating a module costs, once (docs/product.md, Modules: one price model): its gears,
 * Free, or Included; nothing for a module that is coming soon (it is not sold).
 */
export function Price({ module }: { module: Pick<MarketplaceModule, 'baseGearCost' | 'offer'> }) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	if (module.offer === 'comingSoon') return null
	if (module.offer === 'included') return <span className="font-medium">{t('price.included')}</span>
	return module.baseGearCost > 0 ? (
		<span className="font-medium tabular-nums">{t('price.once', { gears: fmt.number(module.baseGearCost) })}</span>
	) : (
		<span className="font-medium">{t('price.free')}</span>
	)
}

/** Coming soon, Included, Activated or Available. */
export function StatusBadge({ module: m }: { module: Pick<MarketplaceModule, 'active' | 'offer'> }) {
	const { t } = useTranslation('marketplace')
	if (m.offer === 'comingSoon') return <Badge variant="outline">{t('status.comingSoon')}</Badge>
	if (m.offer === 'included') return <Badge variant="default">{t('status.included')}</Badge>
	return <Badge variant={m.active ? 'default' : 'secondary'}>{m.active ? t('status.activated') : t('status.available')}</Badge>
}

/** One module of the grid: its texts, price and the buttons of what the member may do with it. */
function ModuleCard({ module: m, canManage }: { module: MarketplaceModule; canManage: boolean }) {
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	const headingId = `module-${m.id}`
	const extraTags = m.industryTags.length - VISIBLE_TAGS
	return (
		<Card className="w-full gap-4" aria-labelledby={headingId} role="article">
			<CardHeader>
				<div className="flex items-start justify-between gap-2">
					<span className="flex size-9 items-center justify-center rounded-md bg-muted">
						<ModuleIcon name={m.icon} className="size-5" />
					</span>
					<StatusBadge module={m} />
				</div>
				<CardTitle>
					<h3 id={headingId}>{m.name}</h3>
				</CardTitle>
				<CardDescription>{m.shortDescription}</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-3 text-sm">
				<ul className="flex flex-wrap gap-1" aria-label={t('card.tags')}>
					{m.industryTags.slice(0, VISIBLE_TAGS).map((tag) => (
						<li key={tag}>
							<Badge variant="outline">{tag}</Badge>
						</li>
					))}
					{extraTags > 0 ? (
						<li>
							<Badge variant="outline">{t('card.moreTags', { count: extraTags })}</Badge>
						</li>
					) : null}
				</ul>
				{m.offer === 'comingSoon' ? null : (
					<p>
						<Price module={m} />
					</p>
				)}
			</CardContent>
			<CardFooter className="mt-auto flex flex-wrap gap-2">
				<Button asChild size="sm" variant="outline">
					<Link to={href({ module: m.id, confirm: null })} preventScrollReset>
						{t('card.details')}
						<NameSuffix name={m.name} />
					</Link>
				</Button>
				{m.active ? (
					<>
						<Button asChild size="sm" variant="outline">
							<Link to={`/app/modules/${m.id}`}>
								{t('card.configure')}
								<NameSuffix name={m.name} />
							</Link>
						</Button>
					</>
				) : null}
				{m.upgrades.some((u) => u.available) ? (
					<Button asChild size="sm" variant="outline">
						<Link to={`/app/modules/${m.id}#upgrades`}>
							{t('card.upgrade')}
							<NameSuffix name={m.name} />
						</Link>
					</Button>
				) : null}
				<FavoriteButton module={m} />
				{canManage ? <ManageButton module={m} /> : null}
			</CardFooter>
		</Card>
	)
}

/** Marks or unmarks the module as one of the member's favourites (a form post). */
function FavoriteButton({ module: m }: { module: MarketplaceModule }) {
	const { t } = useTranslation('marketplace')
	return (
		<AppForm method="post" preventScrollReset>
			<input type="hidden" name="intent" value={m.favorite ? 'unfavorite' : 'favorite'} />
			<input type="hidden" name="moduleId" value={m.id} />
			<Button
				type="submit"
				size="sm"
				variant="ghost"
				aria-pressed={m.favorite}
				aria-label={m.favorite ? t('card.unfavorite', { name: m.name }) : t('card.favorite', { name: m.name })}
			>
				<HeartIcon aria-hidden="true" className={m.favorite ? 'fill-current text-red-600' : undefined} />
			</Button>
		</AppForm>
	)
}

/**
 * Activate (a form post) or Deactivate (a link to the confirmation step). Owners only. None for
 * an included module (every organization keeps it) nor for activating one that is coming soon;
 * a module activated before it was marked coming soon can still be deactivated.
 */
export function ManageButton({ module: m }: { module: MarketplaceModule }) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	const navigation = useNavigation()
	const pending =
		navigation.state === 'submitting' && navigation.formData?.get('moduleId') === m.id && navigation.formData.get('intent') === 'activate'
	if (m.offer === 'included' || (!m.active && m.offer === 'comingSoon')) return null
	if (m.active) {
		return (
			<Button asChild size="sm" variant="destructive">
				<Link to={href({ module: m.id, confirm: 'deactivate' })} preventScrollReset>
					{t('actions.deactivate')}
					<NameSuffix name={m.name} />
				</Link>
			</Button>
		)
	}
	return (
		<AppForm method="post" preventScrollReset className="max-w-full">
			<input type="hidden" name="intent" value="activate" />
			<input type="hidden" name="moduleId" value={m.id} />
			{/* A long price ("Ativar por 1.000 engrenagens") wraps in a narrow card instead of overflowing it. */}
			<Button type="submit" size="sm" disabled={pending} className="h-auto min-h-8 max-w-full py-1 whitespace-normal">
				{m.baseGearCost > 0 ? t('actions.activateFor', { gears: fmt.number(m.baseGearCost) }) : t('actions.activate')}
				<NameSuffix name={m.name} />
			</Button>
		</AppForm>
	)
}
