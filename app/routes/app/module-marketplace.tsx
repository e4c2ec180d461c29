import { parseWithZod } from '@conform-to/zod/v4'
import { AlertCircleIcon, GemIcon, HeartIcon, HistoryIcon, SearchIcon, XIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, useNavigation } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { requireMember } from '#app/.server/auth/session.ts'
import { catalogueT, localizeModule, localizeUpgrade } from '#app/.server/marketplace/catalogue-text.ts'
import { getLocale } from '#app/.server/i18n.ts'
import {
	activateModule,
	deactivateModule,
	getMarketplace,
	moduleExists,
	refusalReason,
	setFavorite,
	type MarketplaceModule,
	type ModuleChangeResult,
} from '#app/.server/marketplace/modules.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { AppForm } from '#app/components/forms/app-form.tsx'
import { ConfirmDeactivate } from '#app/components/marketplace/confirm-deactivate.tsx'
import { ModuleIcon } from '#app/components/marketplace/module-icon.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { useParamsHref } from '#app/lib/use-params-href.ts'
import { useUrlDialog } from '#app/lib/use-url-dialog.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { INDUSTRY_TEMPLATES, VISIBLE_FEATURES, VISIBLE_TAGS } from '#app/lib/modules.ts'
import { isOwner } from '#app/lib/roles.ts'
import { marketplaceActionSchema } from '#app/lib/schemas/marketplace.ts'
import { searchKey } from '#app/lib/utils.ts'
import type { Route } from './+types/module-marketplace'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('moduleMarketplace')

export async function loader({ request, context }: Route.LoaderArgs) {
	const { user, organization } = requireMember(context)
	const params = new URL(request.url).searchParams
	const q = (params.get('q') ?? '').slice(0, 100)
	const favoritesOnly = params.get('favorites') === '1'
	const found = await getMarketplace(user.userId, organization.id, { q, favoritesOnly })
	// Names, descriptions, features and tags in the interface language (app/.server/marketplace/catalogue-text.ts).
	const t = catalogueT(context)
	const localize = (m: (typeof found.catalogue)[number]) => ({ ...localizeModule(t, m), upgrades: m.upgrades.map((u) => localizeUpgrade(t, u)) })
	// In the order of the names the user reads (the catalogue's are English).
	const collator = new Intl.Collator(getLocale(context))
	const catalogue = found.catalogue.map(localize).sort((a, b) => collator.compare(a.name, b.name))
	// The search also finds a module by its translated texts, blind to case and accents.
	const needle = searchKey(q.trim())
	const byText = (m: (typeof catalogue)[number]) =>
		[m.name, m.shortDescription, m.description, ...m.industryTags].some((s) => searchKey(s).includes(needle))
	const modules = catalogue.filter(
		(m) => (found.modules.some((f) => f.id === m.id) || (needle !== '' && byText(m))) && (!favoritesOnly || m.favorite),
	)
	const selected = catalogue.find((m) => m.id === params.get('module')) ?? null
	return {
		q,
		favoritesOnly,
		modules,
		catalogue: catalogue.map(({ id, name, icon, active }) => ({ id, name, icon, active })),
		selected,
		confirmDeactivate: selected?.active === true && params.get('confirm') === 'deactivate',
		gearsRemaining: organization.gearsRemaining,
		canManage: isOwner(organization.role),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user, organization } = requireMember(context)
	const submission = parseWithZod(await request.formData(), { schema: marketplaceActionSchema })
	if (submission.status !== 'success') return data({ denied: null, error: 'badRequest' as const }, { status: 400 })
	const { intent, moduleId } = submission.value
	// Back where the form was, without the confirmation step.
	const url = new URL(request.url)
	url.searchParams.delete('confirm')
	const back = `${url.pathname}${url.search}`
	switch (intent) {
		case 'activate':
		case 'deactivate': {
			// Owners only (docs/product.md, Roles): a forged post from anyone else changes nothing.
			if (!isOwner(organization.role)) return data({ denied: intent, error: null }, { status: 403 })
			const result =
				intent === 'activate'
					? await activateModule(user.userId, organization.id, moduleId)
					: await deactivateModule(user.userId, organization.id, moduleId)
			return moduleToast(back, intent, result)
		}
		case 'favorite':
		case 'unfavorite': {
			if (!(await moduleExists(user.userId, moduleId))) return data({ denied: null, error: 'badRequest' as const }, { status: 400 })
			await setFavorite(user.userId, organization.id, moduleId, intent === 'favorite')
			return redirectWithToast(back, {
				type: 'success',
				title: intent === 'favorite' ? 'marketplace:toasts.favorited' : 'marketplace:toasts.unfavorited',
			})
		}
	}
}

/** The toasts of docs/product.md (Marketplace and modules) for an activation or deactivation. */
function moduleToast(back: string, intent: 'activate' | 'deactivate', result: ModuleChangeResult) {
	if (result.ok) {
		return redirectWithToast(back, {
			type: 'success',
			title: intent === 'activate' ? 'marketplace:toasts.activated.title' : 'marketplace:toasts.deactivated.title',
			description: intent === 'activate' ? 'marketplace:toasts.activated.description' : 'marketplace:toasts.deactivated.description',
		})
	}
	if (result.code === 'insufficient_gears') {
		return redirectWithToast(back, {
			type: 'error',
			title: 'marketplace:toasts.insufficient.title',
			description: 'marketplace:toasts.insufficient.description',
			values: { required: result.required ?? 0, remaining: result.remaining ?? 0 },
		})
	}
	return redirectWithToast(back, {
		type: 'error',
		title: intent === 'activate' ? 'marketplace:toasts.activationFailed' : 'marketplace:toasts.deactivationFailed',
		description: refusalReason(result.code),
	})
}

type LoaderData = Route.ComponentProps['loaderData']

export default function ModuleMarketplace({ loaderData, actionData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation(['marketplace', 'common'])
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="flex flex-wrap items-end justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="text-2xl font-semibold tracking-tight">{t('common:nav.moduleMarketplace')}</h1>
					<p className="text-sm text-muted-foreground">{t('subtitle')}</p>
				</div>
				<Card className="gap-1 px-4 py-3" aria-labelledby="gears-label">
					<p id="gears-label" className="text-xs text-muted-foreground">
						{t('gears.available')}
					</p>
					<p className="flex items-center gap-2 text-xl font-semibold tabular-nums">
						<GemIcon className="size-4" aria-hidden="true" />
						{fmt.number(loaderData.gearsRemaining)}
					</p>
					<div className="flex gap-3 text-xs">
						<Link className="inline-flex items-center gap-1 underline underline-offset-4" to="/app/gears">
							<HistoryIcon className="size-3" aria-hidden="true" />
							{t('gears.history')}
						</Link>
						<Link className="underline underline-offset-4" to="/app/plans">
							{t('gears.plans')}
						</Link>
					</div>
				</Card>
			</div>
			{actionData?.denied ? (
				<Alert variant="destructive">
					<AlertCircleIcon />
					<AlertTitle>{t('denied.title')}</AlertTitle>
					<AlertDescription>{t(actionData.denied === 'activate' ? 'denied.activate' : 'denied.deactivate')}</AlertDescription>
				</Alert>
			) : null}
			{actionData?.error ? (
				<Alert variant="destructive">
					<AlertCircleIcon />
					<AlertTitle>{t('common:errors.badRequest')}</AlertTitle>
				</Alert>
			) : null}
			<SearchBar q={loaderData.q} favoritesOnly={loaderData.favoritesOnly} />
			<div className="grid grid-cols-1 gap-6 lg:grid-cols-[1fr_auto]">
				<div className="@container grid min-w-0 content-start gap-6">
					<Templates catalogue={loaderData.catalogue} />
					<ModuleGrid data={loaderData} />
				</div>
				{loaderData.selected ? (
					<DetailPanel module={loaderData.selected} data={loaderData} />
				) : null}
			</div>
		</div>
	)
}

function SearchBar({ q, favoritesOnly }: { q: string; favoritesOnly: boolean }) {
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	return (
		<div className="flex flex-wrap items-end gap-4">
			<Form method="get" className="flex flex-wrap items-end gap-2" role="search">
				<div className="grid gap-1.5">
					<Label htmlFor="marketplace-search">{t('search.label')}</Label>
					<Input id="marketplace-search" name="q" type="search" defaultValue={q} placeholder={t('search.placeholder')} className="w-72 max-w-full" maxLength={100} />
				</div>
				{favoritesOnly ? <input type="hidden" name="favorites" value="1" /> : null}
				<Button type="submit" variant="outline">
					<SearchIcon aria-hidden="true" />
					{t('search.submit')}
				</Button>
			</Form>
			<nav aria-label={t('filter.label')} className="flex gap-2">
				<Button asChild size="sm" variant={favoritesOnly ? 'outline' : 'default'}>
					<Link to={href({ favorites: null, module: null, confirm: null })} aria-current={favoritesOnly ? undefined : 'page'}>
						{t('filter.all')}
					</Link>
				</Button>
				<Button asChild size="sm" variant={favoritesOnly ? 'default' : 'outline'}>
					<Link to={href({ favorites: '1', module: null, confirm: null })} aria-current={favoritesOnly ? 'page' : undefined}>
						<HeartIcon aria-hidden="true" />
						{t('filter.favorites')}
					</Link>
				</Button>
			</nav>
		</div>
	)
}

function ModuleGrid({ data }: { data: LoaderData }) {
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

function Price({ module }: { module: Pick<MarketplaceModule, 'baseGearCost'> }) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	return module.baseGearCost > 0 ? (
		<span className="font-medium tabular-nums">{t('price.paid', { gears: fmt.number(module.baseGearCost) })}</span>
	) : (
		<span className="font-medium">{t('price.free')}</span>
	)
}

function StatusBadge({ active }: { active: boolean }) {
	const { t } = useTranslation('marketplace')
	return <Badge variant={active ? 'default' : 'secondary'}>{active ? t('status.activated') : t('status.available')}</Badge>
}

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
					<StatusBadge active={m.active} />
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
				<p className="flex flex-wrap items-baseline justify-between gap-x-2">
					<Price module={m} />
					<span className="text-xs text-muted-foreground">{t('price.perUse')}</span>
				</p>
			</CardContent>
			<CardFooter className="mt-auto flex flex-wrap gap-2">
				<Button asChild size="sm" variant="outline">
					<Link to={href({ module: m.id, confirm: null })} aria-label={t('card.detailsOf', { name: m.name })} preventScrollReset>
						{t('card.details')}
					</Link>
				</Button>
				{m.active ? (
					<>
						<Button asChild size="sm" variant="outline">
							<Link to={`/app/modules/${m.id}`} aria-label={t('card.configureOf', { name: m.name })}>
								{t('card.configure')}
							</Link>
						</Button>
					</>
				) : null}
				{m.upgrades.length > 0 ? (
					<Button asChild size="sm" variant="outline">
						<Link to={`/app/modules/${m.id}#upgrades`} aria-label={t('card.upgradeOf', { name: m.name })}>
							{t('card.upgrade')}
						</Link>
					</Button>
				) : null}
				<FavoriteButton module={m} />
				{canManage ? <ManageButton module={m} /> : null}
			</CardFooter>
		</Card>
	)
}

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

/** Activate (a form post) or Deactivate (a link to the confirmation step). Owners only. */
function ManageButton({ module: m }: { module: MarketplaceModule }) {
	const fmt = useFormat()
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	const navigation = useNavigation()
	const pending = navigation.state === 'submitting' && navigation.formData?.get('moduleId') === m.id && navigation.formData.get('intent') === 'activate'
	if (m.active) {
		return (
			<Button asChild size="sm" variant="destructive">
				<Link to={href({ module: m.id, confirm: 'deactivate' })} aria-label={t('actions.deactivateOf', { name: m.name })} preventScrollReset>
					{t('actions.deactivate')}
				</Link>
			</Button>
		)
	}
	return (
		<AppForm method="post" preventScrollReset className="max-w-full">
			<input type="hidden" name="intent" value="activate" />
			<input type="hidden" name="moduleId" value={m.id} />
			{/* A long price ("Ativar por 1.000 engrenagens") wraps in a narrow card instead of overflowing it. */}
			<Button
				type="submit"
				size="sm"
				disabled={pending}
				aria-label={t('actions.activateOf', { name: m.name })}
				className="h-auto min-h-8 max-w-full py-1 whitespace-normal"
			>
				{m.baseGearCost > 0
					? t('actions.activateFor', { gears: fmt.number(m.baseGearCost) })
					: t('actions.activate')}
			</Button>
		</AppForm>
	)
}

/** The side panel of one module, opened by ?module= (a link, so it works without JavaScript). */
function DetailPanel({ module: m, data }: { module: MarketplaceModule; data: LoaderData }) {
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
					<StatusBadge active={m.active} />
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
									<p className="text-xs text-muted-foreground">{t('price.paid', { gears: fmt.number(u.gearCost) })}</p>
									{u.dependencies.length > 0 ? (
										<p className="mt-1 text-xs">
											{t('panel.requires', { names: u.dependencies.map((d) => names[d] ?? d).join(', ') })}
										</p>
									) : null}
									<ul className="mt-2 list-disc ps-5 text-xs">
										{u.features.slice(0, VISIBLE_FEATURES).map((f) => (
											<li key={f}>{f}</li>
										))}
										{u.features.length > VISIBLE_FEATURES ? (
											<li className="list-none text-muted-foreground">{t('panel.moreFeatures', { count: u.features.length - VISIBLE_FEATURES })}</li>
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

function Templates({ catalogue }: { catalogue: LoaderData['catalogue'] }) {
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	const byId = Object.fromEntries(catalogue.map((m) => [m.id, m]))
	return (
		<section aria-labelledby="templates-heading" className="grid gap-3">
			<div>
				<h2 id="templates-heading" className="text-lg font-semibold">
					{t('templates.title')}
				</h2>
				<p className="text-sm text-muted-foreground">{t('templates.description')}</p>
			</div>
			<ul className="grid grid-cols-1 gap-4 @2xl:grid-cols-3">
				{INDUSTRY_TEMPLATES.map((template) => (
					<li key={template.id} className="flex">
						<Card className="w-full gap-3" role="article" aria-labelledby={`template-${template.id}`}>
							<CardHeader>
								<ModuleIcon name={template.icon} className="size-5" />
								<CardTitle>
									<h3 id={`template-${template.id}`}>{t(`templates.${template.id}.name`)}</h3>
								</CardTitle>
								<CardDescription>{t(`templates.${template.id}.description`)}</CardDescription>
							</CardHeader>
							<CardContent>
								<ul className="grid gap-1 text-sm">
									{template.moduleIds.map((id) => {
										const m = byId[id]
										if (!m) return null
										return (
											<li key={id} className="flex items-center gap-2">
												<ModuleIcon name={m.icon} className="size-4" />
												<Link to={href({ module: id, confirm: null })} className="underline underline-offset-4" preventScrollReset>
													{m.name}
												</Link>
												{m.active ? <span className="text-xs text-muted-foreground">{t('status.activated')}</span> : null}
											</li>
										)
									})}
								</ul>
							</CardContent>
						</Card>
					</li>
				))}
			</ul>
		</section>
	)
}
