import { parseWithZod } from '@conform-to/zod/v4'
import { AlertCircleIcon, GemIcon, HistoryIcon } from '#app/components/icons.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { Link } from '#app/components/link.tsx'
import { requireMember } from '#app/.server/auth/session.ts'
import { marketplacePageView } from '#app/.server/marketplace/marketplace-page.ts'
import { activateModule, deactivateModule, moduleExists, setFavorite } from '#app/.server/marketplace/modules.ts'
import { favoriteToast, moduleChangeToast } from '#app/.server/marketplace/toasts.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { IndustryTemplates } from '#app/components/marketplace/industry-templates.tsx'
import { MarketplaceSearch } from '#app/components/marketplace/marketplace-search.tsx'
import { ModuleGrid } from '#app/components/marketplace/module-card.tsx'
import { ModulePanel } from '#app/components/marketplace/module-panel.tsx'
import { Alert, AlertDescription, AlertTitle } from '#app/components/ui/alert.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { useFormat } from '#app/lib/use-format.ts'
import { titleMeta } from '#app/lib/meta.ts'
import { isOwner } from '#app/lib/roles.ts'
import { marketplaceActionSchema } from '#app/lib/schemas/marketplace.ts'
import type { Route } from './+types/module-marketplace'

export { ErrorBoundary } from '#app/components/error-boundary.tsx'

export const meta = titleMeta('moduleMarketplace')

export async function loader({ request, context }: Route.LoaderArgs) {
	const member = requireMember(context)
	return marketplacePageView(context, member, new URL(request.url).searchParams)
}

export async function action({ request, context }: Route.ActionArgs) {
	const member = requireMember(context)
	const submission = parseWithZod(await request.formData(), { schema: marketplaceActionSchema })
	if (submission.status !== 'success') return data({ denied: null, error: 'badRequest' as const }, { status: 400 })
	const { intent, moduleId } = submission.value
	// Back where the form was, without the confirmation step.
	const url = new URL(request.url)
	url.searchParams.delete('confirm')
	const post: MarketplacePost = {
		userId: member.user.userId,
		organizationId: member.organization.id,
		moduleId,
		back: `${url.pathname}${url.search}`,
	}
	switch (intent) {
		case 'activate':
		case 'deactivate':
			// Owners only (docs/product.md, Roles): a forged post from anyone else changes nothing.
			if (!isOwner(member.organization.role)) return data({ denied: intent, error: null }, { status: 403 })
			return intent === 'activate' ? activateAction(post) : deactivateAction(post)
		case 'favorite':
		case 'unfavorite':
			return favoriteAction(post, intent === 'favorite')
	}
}

/** A post of the marketplace: who, on which module, and the page to go back to. */
type MarketplacePost = { userId: string; organizationId: string; moduleId: string; back: string }

/** Activates a module from its card or panel. */
async function activateAction(p: MarketplacePost) {
	const result = await activateModule(p.userId, p.organizationId, p.moduleId)
	return redirectWithToast(p.back, moduleChangeToast('marketplace', 'activate', result))
}

/** Deactivates a module, after the confirmation step of its card or panel. */
async function deactivateAction(p: MarketplacePost) {
	const result = await deactivateModule(p.userId, p.organizationId, p.moduleId)
	return redirectWithToast(p.back, moduleChangeToast('marketplace', 'deactivate', result))
}

/** Marks or unmarks a module of the catalogue as a favourite (any member, for themselves). */
async function favoriteAction(p: MarketplacePost, favorite: boolean) {
	if (!(await moduleExists(p.userId, p.moduleId))) return data({ denied: null, error: 'badRequest' as const }, { status: 400 })
	await setFavorite(p.userId, p.organizationId, p.moduleId, favorite)
	return redirectWithToast(p.back, favoriteToast(favorite))
}

/** The module marketplace (docs/product.md, Marketplace and modules). */
export default function ModuleMarketplace({ loaderData, actionData }: Route.ComponentProps) {
	const fmt = useFormat()
	const { t } = useTranslation(['marketplace', 'common'])
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="flex flex-wrap items-end justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="text-2xl font-semibold tracking-tight">{t('common:nav.moduleMarketplace')}</h1>
					<p className="text-sm text-muted-foreground">
						{t('subtitle')} {t('price.noRecurring')}
					</p>
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
			<MarketplaceSearch q={loaderData.q} favoritesOnly={loaderData.favoritesOnly} />
			<div className="grid grid-cols-1 gap-6 lg:grid-cols-[1fr_auto]">
				<div className="@container grid min-w-0 content-start gap-6">
					<IndustryTemplates catalogue={loaderData.catalogue} />
					<ModuleGrid data={loaderData} />
				</div>
				{loaderData.selected ? <ModulePanel module={loaderData.selected} data={loaderData} /> : null}
			</div>
		</div>
	)
}
