import { Form } from 'react-router'
import { HeartIcon, SearchIcon } from '#app/components/icons.tsx'
import { Link } from '#app/components/link.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { useParamsHref } from '#app/lib/use-params-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** The marketplace's search (a GET form) and the All / Favorites filter: links, so both work without JavaScript. */
export function MarketplaceSearch({ q, favoritesOnly }: { q: string; favoritesOnly: boolean }) {
	const { t } = useTranslation('marketplace')
	const href = useParamsHref()
	return (
		<div className="flex flex-wrap items-end gap-4">
			<Form method="get" className="flex flex-wrap items-end gap-2" role="search">
				<div className="grid gap-1.5">
					<Label htmlFor="marketplace-search">{t('search.label')}</Label>
					<Input
						id="marketplace-search"
						name="q"
						type="search"
						defaultValue={q}
						placeholder={t('search.placeholder')}
						className="w-72 max-w-full"
						maxLength={100}
					/>
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
