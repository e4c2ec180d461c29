/**
 * The marketplace screen's view model (docs/product.md, Marketplace and modules): the catalogue
 * in the interface language, the modules the search and the favourites filter find, and the
 * module whose side panel the address opens (?module=, ?confirm=deactivate).
 */
import type { RouterContextProvider } from 'react-router'
import { isOwner } from '#app/lib/roles.ts'
import { searchKey } from '#app/lib/utils.ts'
import { getLocale } from '../i18n.ts'
import type { CurrentMember } from '../organizations/current.ts'
import { catalogueT, localizeModule, localizeUpgrade } from './catalogue-text.ts'
import { getMarketplace, type MarketplaceModule } from './modules.ts'

/** The longest search the marketplace reads. */
const MAX_SEARCH = 100

/**
 * What the marketplace shows for the address's search (`q`, `favorites=1`): names, descriptions,
 * features and tags in the interface language (catalogue-text.ts), sorted by the names the user
 * reads; the search also finds a module by its translated texts, blind to case and accents.
 */
export async function marketplacePageView(context: Readonly<RouterContextProvider>, member: CurrentMember, params: URLSearchParams) {
	const { user, organization } = member
	const q = (params.get('q') ?? '').slice(0, MAX_SEARCH)
	const favoritesOnly = params.get('favorites') === '1'
	const found = await getMarketplace(user.userId, organization.id, { q, favoritesOnly })
	const t = catalogueT(context)
	const localize = (m: MarketplaceModule) => ({ ...localizeModule(t, m), upgrades: m.upgrades.map((u) => localizeUpgrade(t, u)) })
	// In the order of the names the user reads (the catalogue's are English).
	const collator = new Intl.Collator(getLocale(context))
	const catalogue = found.catalogue.map(localize).sort((a, b) => collator.compare(a.name, b.name))
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
		// An included module is never deactivated (docs/decisions/039-what-the-catalogue-sells.md).
		confirmDeactivate: selected?.active === true && selected.offer !== 'included' && params.get('confirm') === 'deactivate',
		gearsRemaining: organization.gearsRemaining,
		canManage: isOwner(organization.role),
	}
}

export type MarketplacePageView = Awaited<ReturnType<typeof marketplacePageView>>

/** A module of the catalogue as the templates name it. */
export type CatalogueEntry = MarketplacePageView['catalogue'][number]
